#!/usr/bin/env bash
# Install the Debian 12 packages liesim needs (uses sudo when not run as root).
set -euo pipefail
packages=(build-essential cmake libboost-dev libboost-program-options-dev libeigen3-dev libsundials-dev
          libfmt-dev doctest-dev nlohmann-json3-dev libtomlplusplus-dev python3 python3-matplotlib valgrind clang
          libopenmpi-dev openmpi-bin libclang-rt-14-dev python3-dev python3-numpy pybind11-dev python3-pytest python3-pandas)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all packages present"
  exit 0
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
echo "install-deps: installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
