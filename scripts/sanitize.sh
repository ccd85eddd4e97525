#!/usr/bin/env bash
# The test suite built with AddressSanitizer and UndefinedBehaviorSanitizer, in ./build-sanitize.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
jobs=$(nproc 2>/dev/null || echo 2)
cmake -S . -B build-sanitize -DCMAKE_BUILD_TYPE=Release -DLIESIM_SANITIZE=ON >/dev/null
cmake --build build-sanitize -j"$jobs"
cd build-sanitize
# Undefined behaviour aborts; leaks are reported at exit (third-party ones suppressed:
# tests/lsan_suppressions.txt). handle_segv=0: the tests' deliberately crashing plugins must die by
# SIGSEGV, as without the sanitizer.
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:strict_string_checks=1:handle_segv=0"
export LSAN_OPTIONS="suppressions=$PWD/../tests/lsan_suppressions.txt"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
# Not here: test_sdk builds programs out of tree against the installed kernel, which only a sanitized
# executable may load; test_sundials_leaks runs valgrind, which cannot run sanitized binaries.
ctest --output-on-failure -j"$jobs" --timeout 1800 -E '^(test_sdk|test_sundials_leaks)$'
