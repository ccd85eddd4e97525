#!/usr/bin/env bash
# Install dependencies, configure and build liesim (Release) into ./build.
#   scripts/build.sh        everything: the command, plugins, Python package, tests, benchmarks
#   scripts/build.sh demo   the command and the plugins only (scripts/install-deps.sh demo)
set -euo pipefail
cd "$(dirname "$0")/.."
mode="${1:-all}"
scripts/install-deps.sh "$mode"
jobs=$(nproc 2>/dev/null || echo 2)
if [ "$mode" = demo ]; then
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF -DLIESIM_BENCHMARKS=OFF -DLIESIM_PYTHON=OFF -DLIESIM_MPI=OFF
else
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=ON -DLIESIM_BENCHMARKS=ON -DLIESIM_PYTHON=AUTO -DLIESIM_MPI=AUTO
fi
cmake --build build -j"$jobs"
