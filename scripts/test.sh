#!/usr/bin/env bash
# The whole test suite, from clean build folders (LIESIM_KEEP_BUILDS=1 keeps them, for quicker
# reruns on a developer's machine; CI's fresh clone has none):
#  1. the README's main command, scripts/demo.sh, as a new user runs it: its packages, SUNDIALS from
#     the run-time libraries and unpacked headers (forced, even where libsundials-dev is installed),
#     the quickstart study built and run first, then the other plugins; then the README's "Using it"
#     commands against that build;
#  2. the full build in the same ./build, as a user who ran the demo and then this command gets it:
#     reconfigured with the tests, the Python package, MPI and the benchmarks, and SUNDIALS through
#     libsundials-dev's CMake package (the sundials plugin is rebuilt, the other plugins are reused);
#     every test with CTest (the README's commands again, with the full build);
#  3. the input parsers fuzzed, 30 s each (scripts/fuzz.sh 600 for a longer search);
#  4. everything built again from scratch with clang, AddressSanitizer and UndefinedBehaviorSanitizer
#     in ./build-sanitize (so the libsundials-dev path is also built from a clean folder), and run.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
stage() { echo "test [$1/4, $(( $(date +%s) - start )) s] $2"; }
[ "${LIESIM_KEEP_BUILDS:-0}" = 1 ] || rm -rf build build-demo build-sanitize build-fuzz
stage 1 "the demo path (scripts/demo.sh in ./build) and the README's commands after it"
LIESIM_BUILD_DIR=build LIESIM_RESULTS=build/results/quickstart scripts/demo.sh
tests/cli/readme_commands.sh build demo
stage 2 "the full build (./build reconfigured) and CTest"
LIESIM_BUILD_DIR=build scripts/build.sh
(cd build && ctest --output-on-failure -j"$(nproc 2>/dev/null || echo 2)" --timeout 900)
stage 3 "fuzzing the parsers (tests/fuzz/README.md)"
scripts/fuzz.sh 30
stage 4 "the tests under the sanitizers (clang -O1, ./build-sanitize)"
scripts/sanitize.sh
stage 4 "done: every stage passed"
