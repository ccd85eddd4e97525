#!/usr/bin/env bash
# The default job: install what it needs, build the command and the plugins, run the quickstart study.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh demo
build/bin/liesim study studies/quickstart.toml --out results/quickstart
