#!/usr/bin/env bash
# The whole test suite, from clean build folders (LIESIM_KEEP_BUILDS=1 keeps them, for quicker
# reruns on a developer's machine; CI's fresh clone has none):
#  1. the README's main command, scripts/demo.sh, in ./build-demo: its packages, SUNDIALS from the
#     run-time libraries and unpacked headers (forced, even where libsundials-dev is installed), the
#     quickstart study built and run first; then the README's "Using it" commands against that build;
#  2. everything installed and built in ./build, every test with CTest (the README commands again);
#  3. the input parsers fuzzed, 60 s each;
#  4. the tests built a second time with AddressSanitizer + UndefinedBehaviorSanitizer, and run.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
stage() { echo "test [$1/4, $(( $(date +%s) - start )) s] $2"; }
[ "${LIESIM_KEEP_BUILDS:-0}" = 1 ] || rm -rf build build-demo build-sanitize build-fuzz
stage 1 "the demo path (scripts/demo.sh in build-demo) and the README's commands after it"
LIESIM_BUILD_DIR=build-demo LIESIM_RESULTS=build-demo/results/quickstart scripts/demo.sh
tests/cli/readme_commands.sh build-demo demo
stage 2 "the full build and CTest"
scripts/build.sh
(cd build && ctest --output-on-failure -j"$(nproc 2>/dev/null || echo 2)" --timeout 900)
stage 3 "fuzzing the parsers (tests/fuzz/README.md)"
scripts/fuzz.sh 60
stage 4 "the tests under the sanitizers (clang -O1, ./build-sanitize)"
scripts/sanitize.sh
stage 4 "done: every stage passed"
