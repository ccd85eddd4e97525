#!/usr/bin/env bash
# Install the Debian 12 packages liesim needs (uses sudo when not run as root).
#   scripts/install-deps.sh        everything: the build, the tests, the Python package, MPI, fuzzing
#   scripts/install-deps.sh demo   only what building liesim and running a study needs: SUNDIALS' three
#                                  run-time libraries with the headers of libsundials-dev unpacked into
#                                  .deps/sundials (libsundials-dev itself pulls PETSc, hypre, Open MPI and
#                                  gfortran: about 340 packages and 2 GB), no test, MPI or Python packages.
#                                  The headers are unpacked even where libsundials-dev is installed: the
#                                  demo build always takes that path (scripts/test.sh builds it too).
# apt's own output goes to .deps/apt.log; a line says what is installed and how long it took.
set -euo pipefail
cd "$(dirname "$0")/.."
demo_packages=(build-essential cmake libboost-dev libboost-program-options-dev libeigen3-dev libfmt-dev
               nlohmann-json3-dev libtomlplusplus-dev libtinyxml2-dev python3 python3-matplotlib file libjs-three
               libsundials-cvode6 libsundials-arkode5 libsundials-ida6)
all_packages=("${demo_packages[@]}" libsundials-dev doctest-dev valgrind clang libomp-14-dev libopenmpi-dev openmpi-bin libclang-rt-14-dev
              python3-dev python3-numpy pybind11-dev python3-pytest python3-pandas python3-venv python3-setuptools python3-wheel dpkg-dev libbenchmark-dev libsimbody-dev
              chromium)
mode="${1:-all}"
case "$mode" in
  all) packages=("${all_packages[@]}") ;;
  demo) packages=("${demo_packages[@]}") ;;
  *) echo "usage: scripts/install-deps.sh [demo]" >&2; exit 2 ;;
esac
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
missing=()
for p in "${packages[@]}"; do installed "$p" || missing+=("$p"); done
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
mkdir -p .deps
log=.deps/apt.log
updated=0
if [ ${#missing[@]} -gt 0 ]; then
  start=$(date +%s)
  before=0; [ -f "$log" ] && before=$(wc -l < "$log")
  echo "install-deps: installing ${#missing[@]} packages and their dependencies (about 1 minute on a fast mirror; apt's output: $log)"
  echo "install-deps: ${missing[*]}"
  if ! { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"; } >> "$log" 2>&1; then
    tail -20 "$log" >&2
    echo "install-deps: apt-get failed (above; whole log: $log)" >&2
    exit 1
  fi
  updated=1
  echo "install-deps: $(tail -n +$((before + 1)) "$log" | grep -c '^Setting up') packages set up in $(( $(date +%s) - start )) s"
else
  echo "install-deps: all packages present ($mode)"
fi
# The demo's SUNDIALS headers: Debian's own libsundials-dev, unpacked, not installed.
if [ "$mode" = demo ] && [ ! -f .deps/sundials/usr/include/sundials/sundials_config.h ]; then
  [ "$updated" = 1 ] || $sudo apt-get update -qq >> "$log" 2>&1
  (cd .deps && rm -f libsundials-dev_*.deb && apt-get download -qq libsundials-dev >> apt.log 2>&1) ||
    { tail -5 "$log" >&2; echo "install-deps: apt-get download libsundials-dev failed (log: $log)" >&2; exit 1; }
  dpkg-deb -x .deps/libsundials-dev_*.deb .deps/sundials
  echo "install-deps: SUNDIALS headers unpacked into .deps/sundials (from $(basename .deps/libsundials-dev_*.deb))"
fi
