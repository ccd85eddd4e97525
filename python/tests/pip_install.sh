#!/usr/bin/env bash
# `pip install .` as docs/python.md gives it, offline: a fresh venv (with Debian's numpy, setuptools
# and wheel through --system-site-packages), the wheel built by setup.py from the CMake build
# BUILD_DIR (already built: only installed and packed here), then the package used from outside the
# source tree: its kernel, plugins and `liesim` command must be the venv's own copies, a run must
# equal the build tree's bit for bit, a study must run through the packaged command.
# Usage: pip_install.sh PYTHON SOURCE_DIR BUILD_DIR
set -euo pipefail
python=$1 source=$2 build=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$python" -m venv --system-site-packages "$work/venv"
# Offline: no index, no extra wheel folders from the machine's pip configuration.
if ! LIESIM_BUILD_DIR="$build" PIP_FIND_LINKS= PIP_NO_INDEX=1 PIP_DISABLE_PIP_VERSION_CHECK=1 \
     "$work/venv/bin/pip" install --no-build-isolation --no-index "$source" > "$work/pip.log" 2>&1; then
  cat "$work/pip.log"; echo "pip install failed (above)"; exit 1
fi
grep -q "Successfully installed liesim" "$work/pip.log" || { cat "$work/pip.log"; echo "pip said no 'Successfully installed liesim'"; exit 1; }
mkdir "$work/elsewhere" && cd "$work/elsewhere"
run='import liesim
r = liesim.run("pendulum_chain", "rkmk4", t_end=1, step=0.01, params={"N": 2})
print(repr(list(r.final_state)))'
installed=$(env -u PYTHONPATH LIESIM_PLUGIN_PATH= "$work/venv/bin/python" - "$work/venv" "$source/python/tests/small_study.toml" <<PY
import os, sys
venv = os.path.realpath(sys.argv[1])
$run
import liesim
inside = lambda p: os.path.realpath(p).startswith(venv + os.sep)
assert inside(liesim.__file__), liesim.__file__
maps = open("/proc/self/maps").read().split()
kernels = {p for p in maps if "libliesim.so" in p}
plugins = {p for p in maps if "/plugins/" in p}
assert kernels and all(inside(p) for p in kernels), kernels
assert plugins and all(inside(p) for p in plugins), plugins
assert inside(liesim._executable()), liesim._executable()
table = liesim.study(sys.argv[2], out="study", plots=False, progress=False)
assert len(table) == 6 and os.path.exists("study/results.csv"), table
PY
)
built=$(PYTHONPATH="$build/python" LIESIM_PLUGIN_PATH= "$python" -c "$run")
[ "$installed" = "$built" ] || { echo "the installed package's run differs from the build tree's:"; echo "$installed"; echo "$built"; exit 1; }
"$work/venv/bin/python" -c 'import os, liesim; os.execv(liesim._executable(), ["liesim", "--version"])' | grep -q liesim ||
  { echo "the packaged liesim command does not run"; exit 1; }
# The packaged command's shipped files (share/liesim): the viewer page.
exe=$("$work/venv/bin/python" -c 'import liesim; print(liesim._executable())')
LIESIM_PLUGIN_PATH= "$exe" run --model pendulum_chain --integrator rkmk4 --step 0.01 --t-end 0.5 --view "$work/view.html" > /dev/null &&
  grep -q "three.js r111" "$work/view.html" || { echo "the packaged liesim command writes no viewer page"; exit 1; }
echo "pip install: the wheel's package runs from $work/venv, equal to the build tree's"
