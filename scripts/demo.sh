#!/usr/bin/env bash
# The default job: install, build, then run the quickstart comparison study.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
build/bin/liesim study studies/quickstart.toml --out results/quickstart
