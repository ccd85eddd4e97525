#!/usr/bin/env bash
# The Debian package: `cpack -G DEB` from this build makes liesim_VERSION_ARCH.deb; its declared
# dependencies are Debian 12 packages; it holds the command, the plugins, the Python package and the
# SDK; unpacked into a clean root, its liesim lists, describes and runs, and its Python package imports.
# Usage: test_deb.sh BUILD_DIR
set -euo pipefail
build="$1"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
fail() { echo "FAILED: $*"; exit 1; }

cpack --config "$build/CPackConfig.cmake" -G DEB -B "$work/out" > "$work/cpack.log" 2>&1 || { cat "$work/cpack.log"; fail "cpack"; }
deb="$(ls "$work"/out/liesim_*_*.deb)"
echo "package: $deb ($(du -k "$deb" | cut -f1) kB)"

# Declared dependencies: the shared libraries' packages (dpkg-shlibdeps), each one Debian knows.
depends="$(dpkg-deb -f "$deb" Depends)"
echo "Depends: $depends"
for lib in libsundials-cvode6 libsundials-arkode5 libsundials-ida6 libstdc++6; do
  [[ $depends == *"$lib"* ]] || fail "Depends lacks $lib"
done
# fmt is linked into every binary (liesim::fmt_library): no file of the package needs libfmt.so.
[[ $depends != *libfmt* ]] || fail "a binary of the package links libfmt.so: $depends"
[[ $depends != *-dev* ]] || fail "a -dev package among the run-time dependencies: $depends"
[[ "$(dpkg-deb -f "$deb" Recommends)" == *python3-matplotlib* ]] || fail "python3-matplotlib (plots) is not recommended"
if command -v apt-cache > /dev/null; then
  for p in $(echo "$depends" | tr ',' '\n' | sed 's/(.*//; s/|.*//' | tr -d ' '); do
    apt-cache show "$p" > /dev/null 2>&1 || fail "dependency $p is not a package this Debian knows"
  done
fi

# Contents: command, kernel, plugins, Python package, SDK (headers, CMake package, templates, guide).
contents="$(dpkg-deb -c "$deb" | awk '{print $6}')"
for f in ./usr/bin/liesim ./usr/lib/libliesim.so.1 ./usr/lib/liesim/plugins/liesim_lie_rk.so ./usr/lib/liesim/plugins/liesim_sundials.so \
         ./usr/lib/liesim/plugins/liesim_quadrotor_load.so ./usr/include/liesim/plugin.h ./usr/include/liesim/lie.h ./usr/include/liesim/testing/plugin_testing.hpp \
         ./usr/share/liesim/templates/model_c/model.c \
         ./usr/lib/cmake/liesim/liesimConfig.cmake ./usr/share/liesim/templates/integrator/family.cpp ./usr/share/liesim/plot_study.py \
         ./usr/share/doc/liesim/plugin-guide.md ./usr/share/doc/liesim/study-files.md ./usr/share/liesim/studies/quickstart.toml \
         ./usr/share/bash-completion/completions/liesim ./usr/lib/python3/dist-packages/liesim/__init__.py; do
  grep -qx -- "$f" <<< "$contents" || fail "the package lacks $f"
done
if grep -q "test_plugins\|/bin/test_" <<< "$contents"; then fail "test files in the package"; fi
# The MPI engine, where this build has it: a module of its own, the only file linked with Open MPI.
if [[ -f $build/lib/liesim/liesim_mpi.so ]]; then
  grep -qx -- ./usr/lib/liesim/liesim_mpi.so <<< "$contents" || fail "the package lacks the MPI engine ./usr/lib/liesim/liesim_mpi.so"
fi

# Unpacked into a clean root: the command finds its own plugins (RUNPATH and plugin folder relative to it).
dpkg-deb -x "$deb" "$work/root"
liesim="$work/root/usr/bin/liesim"
export LIESIM_PLUGIN_PATH=
# (Outputs are read whole: `cmd | grep -q` could end cmd with SIGPIPE, which pipefail reports.)
version="$("$liesim" --version)"; [[ $version == *"plugin ABI"* ]] || fail "liesim --version: $version"
listing="$("$liesim" list)"
[[ $listing == *rkmk4* ]] || fail "liesim list: $listing"
[[ $listing != *"failed to load"* ]] || fail "plugins failed to load: $listing"
described="$("$liesim" describe quadrotor_load --param control=tracking)"
[[ $described == *tracking_error* ]] || fail "liesim describe: $described"
out="$("$liesim" run --model pendulum_chain --integrator rkmk4 --t-end 0.1 --step 0.01 --summary "$work/s.json")"
[[ $out == *"reached in 10 steps"* ]] || fail "liesim run: $out"
grep -q '"status": "ok"' "$work/s.json" || fail "run summary"
# Only what every command needs is mapped at start: libc and libm (the kernel, the study library, fmt
# and the C++ run time are linked in; MPI is the engine module's).
linked="$(ldd "$liesim" | awk '{print $1}' | grep -v -e '^linux-vdso' -e '^/lib64/ld-linux' | sort | tr '\n' ' ')"
[[ $linked == "libc.so.6 libm.so.6 " ]] || fail "liesim maps more than libc and libm at start-up: $linked"
if python3 -c "import numpy" 2> /dev/null; then
  PYTHONPATH="$work/root/usr/lib/python3/dist-packages" python3 -c "
import liesim
assert any(m['name'] == 'rigid_body' for m in liesim.models()), liesim.models()
r = liesim.run('rigid_body', 'rkmk4', t_end=1, step=0.1)
assert r.status == 'ok' and len(r.t) == 11
" || fail "the package's Python module"
fi
echo "Debian package: all checks passed"
