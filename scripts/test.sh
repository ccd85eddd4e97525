#!/usr/bin/env bash
# The whole test suite: install dependencies, build, run every test with CTest, fuzz the parsers,
# then build the tests a second time with AddressSanitizer + UndefinedBehaviorSanitizer and run them.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
(cd build && ctest --output-on-failure -j"$(nproc 2>/dev/null || echo 2)" --timeout 900)
# The input parsers under libFuzzer, 60 s each (tests/fuzz/README.md).
scripts/fuzz.sh 60
# The same tests under the sanitizers (clang -O1, ./build-sanitize).
scripts/sanitize.sh
