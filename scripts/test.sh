#!/usr/bin/env bash
# The whole test suite: install dependencies, build, run every test with CTest.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
cd build
ctest --output-on-failure -j"$(nproc 2>/dev/null || echo 2)" --timeout 900
