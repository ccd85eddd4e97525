#!/usr/bin/env bash
# Install the Debian 12 packages liesim needs (uses sudo when not run as root).
#   scripts/install-deps.sh        everything: the build, the tests, the Python package, MPI, fuzzing
#   scripts/install-deps.sh demo   only what building liesim and running a study needs: SUNDIALS' three
#                                  run-time libraries with the headers of libsundials-dev unpacked into
#                                  .deps/sundials (libsundials-dev itself pulls PETSc, hypre, Open MPI and
#                                  gfortran: about 340 packages and 2 GB), no test, MPI or Python packages
set -euo pipefail
cd "$(dirname "$0")/.."
demo_packages=(build-essential cmake libboost-dev libboost-program-options-dev libeigen3-dev libfmt-dev
               nlohmann-json3-dev libtomlplusplus-dev python3 python3-matplotlib
               libsundials-cvode6 libsundials-arkode5 libsundials-ida6)
all_packages=("${demo_packages[@]}" libsundials-dev doctest-dev valgrind clang libopenmpi-dev openmpi-bin libclang-rt-14-dev
              python3-dev python3-numpy pybind11-dev python3-pytest python3-pandas dpkg-dev file libbenchmark-dev)
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
updated=0
if [ ${#missing[@]} -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}"
  $sudo apt-get update -qq
  updated=1
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "install-deps: all packages present ($mode)"
fi
# The demo's SUNDIALS headers: Debian's own libsundials-dev, unpacked, not installed.
if [ "$mode" = demo ] && ! installed libsundials-dev && [ ! -f .deps/sundials/usr/include/sundials/sundials_config.h ]; then
  [ "$updated" = 1 ] || $sudo apt-get update -qq
  mkdir -p .deps
  (cd .deps && rm -f libsundials-dev_*.deb && apt-get download -qq libsundials-dev)
  dpkg-deb -x .deps/libsundials-dev_*.deb .deps/sundials
  echo "install-deps: SUNDIALS headers unpacked into .deps/sundials (from $(basename .deps/libsundials-dev_*.deb))"
fi
