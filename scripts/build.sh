#!/usr/bin/env bash
# Install dependencies, configure and build liesim (Release).
#   scripts/build.sh [all] [TARGET...]   everything: the command, plugins, Python package, tests, benchmarks
#   scripts/build.sh demo [TARGET...]    the command and the plugins only (scripts/install-deps.sh demo),
#                                        SUNDIALS from its run-time libraries and unpacked headers
# TARGETs (default: all of them) are CMake targets, e.g. `quickstart` (what studies/quickstart.toml
# needs). The build folder is ./build, or LIESIM_BUILD_DIR. The compiler's output goes to
# BUILD/build.log; the terminal gets a line per finished target (the whole output with LIESIM_VERBOSE=1).
set -euo pipefail
cd "$(dirname "$0")/.."
mode="${1:-all}"
[ $# -gt 0 ] && shift
build="${LIESIM_BUILD_DIR:-build}"
scripts/install-deps.sh "$mode"
jobs=$(nproc 2>/dev/null || echo 2)
case "$mode" in
  demo) options=(-DBUILD_TESTING=OFF -DLIESIM_BENCHMARKS=OFF -DLIESIM_PYTHON=OFF -DLIESIM_MPI=OFF -DLIESIM_SUNDIALS_RUNTIME=ON) ;;
  all) options=(-DBUILD_TESTING=ON -DLIESIM_BENCHMARKS=ON -DLIESIM_PYTHON=AUTO -DLIESIM_MPI=AUTO -DLIESIM_SUNDIALS_RUNTIME=OFF) ;;
  *) echo "usage: scripts/build.sh [all|demo] [TARGET...]" >&2; exit 2 ;;
esac
mkdir -p "$build"
if ! cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release "${options[@]}" > "$build/configure.log" 2>&1; then
  grep -v "^-- " "$build/configure.log" >&2 || true
  echo "build: configuring $build failed (log: $build/configure.log)" >&2
  exit 1
fi
targets=()
for t in "$@"; do targets+=(--target "$t"); done
if [ "${LIESIM_VERBOSE:-0}" = 1 ]; then
  cmake --build "$build" -j"$jobs" "${targets[@]}"
elif ! cmake --build "$build" -j"$jobs" "${targets[@]}" 2>&1 | tee "$build/build.log" | { grep --line-buffered -E "Built target|error:" || true; }; then
  grep -E -B2 -A12 "error|Error" "$build/build.log" | tail -60 >&2
  echo "build: building $build failed (whole log: $build/build.log)" >&2
  exit 1
fi
