#!/bin/bash
# The shipped studies of the seeds' experiments that run in seconds, run whole from the source
# folder (their description files are relative to it) with the claims their write-ups make
# checked on results.csv. Usage: seed_studies.sh BUILD SOURCE
set -euo pipefail
build=$1
source=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$source"

# Seed 000 Fig. 1.1: explicit Euler leaves the energy level (it goes over the top), the implicit
# midpoint rule stays within 2e-3 of it; both 120 steps of 0.05 pi; the phase portrait is drawn.
"$build/bin/liesim" study studies/pendulum_fig1_1.toml --out "$work/pendulum" --no-views > "$work/pendulum.log" 2>&1 ||
  { cat "$work/pendulum.log"; exit 1; }
/usr/bin/python3 - "$work/pendulum" <<'PY'
import csv, os, sys
out = sys.argv[1]
rows = {r["integrator"]: r for r in csv.DictReader(open(os.path.join(out, "results.csv")))}
euler, midpoint = rows["euler"], rows["implicit_midpoint"]
assert euler["steps"] == midpoint["steps"] == "120", (euler["steps"], midpoint["steps"])
assert float(euler["drift:energy"]) > 1.0, euler["drift:energy"]          # H from 0 past 1: over the top
assert float(midpoint["drift:energy"]) < 2e-3, midpoint["drift:energy"]   # measured 1.03e-3
assert float(midpoint["error_final"]) < 0.02, midpoint["error_final"]     # measured 0.0137 against the orbit
try:
    import matplotlib  # noqa: F401
except ImportError:
    sys.exit(0)
assert os.path.exists(os.path.join(out, "plots", "figure_phase_portrait_pendulum.png"))
PY
echo "seed studies: pendulum_fig1_1 ok"

# Seed 001 Fig. 7.1: from each of three starts SAGD needs fewer iterations than AGD, AGD than GD, to
# f - f* < 1e-10 (the notes' start: 20 / 16 / 14); one figure per start of the three schemes.
"$build/bin/liesim" study studies/trace_function_fig7_1.toml --out "$work/trace" --no-views > "$work/trace.log" 2>&1 ||
  { cat "$work/trace.log"; exit 1; }
/usr/bin/python3 - "$work/trace" <<'PY'
import csv, math, os, sys
out = sys.argv[1]
iterations = {}
for r in csv.DictReader(open(os.path.join(out, "results.csv"))):
    assert r["status"] == "ok", r
    t = float(r["event:objective_gap<1e-10"])
    iterations[r["case"]] = math.ceil(t / float(r["step"]) - 1e-9)
assert [iterations[c] for c in ("gd_1", "agd_1", "sagd_1")] == [20, 16, 14], iterations
for start in ("1", "2", "3"):
    assert iterations["gd_" + start] > iterations["agd_" + start] > iterations["sagd_" + start], iterations
try:
    import matplotlib  # noqa: F401
except ImportError:
    sys.exit(0)
for start in ("1", "2", "3"):
    assert os.path.exists(os.path.join(out, "plots", f"figure_start_{start}.png")), start
PY
echo "seed studies: trace_function_fig7_1 ok"

# Seed 001 Figs. 8.1-8.2: the adaptive VI in double and in 32 digits (liesim-vi-precision, T = 10 of
# the documented T = 100): the same steps, the discrete energy at each scalar's round-off.
"$build/bin/liesim-vi-precision" --t-end 10 --out "$work/precision.csv" > "$work/precision.log" 2>&1 ||
  { cat "$work/precision.log"; exit 1; }
/usr/bin/python3 - "$work/precision.csv" <<'PY'
import csv, sys
runs = {}
for r in csv.DictReader(open(sys.argv[1])):
    runs.setdefault(r["digits"], []).append(r)
double, extended = runs["16"], runs["32"]
assert len(double) == len(extended) == 1190, (len(double), len(extended))  # h_k/h0 in [0.69, 1]
worst = {d: max(abs(float(r["energy_error"])) for r in rows) for d, rows in runs.items()}
assert 1e-17 < worst["16"] < 1e-14 and worst["32"] < 1e-30, worst
assert max(abs(float(a["h"]) - float(b["h"])) for a, b in zip(double, extended)) < 1e-11
PY
if /usr/bin/python3 -c "import matplotlib" 2> /dev/null; then
  /usr/bin/python3 integrators/variational/precision/plot_precision.py "$work/precision.csv" "$work/precision.png"
  test -s "$work/precision.png"
fi
echo "seed studies: liesim-vi-precision ok"

# Seed 001 Figs. 4.8-4.10: the aeroelastic section at 0.9 U_f settles on the subcritical LCO under
# the Hermite methods; the Galerkin method's energy error is far below the variational one's.
"$build/bin/liesim" study studies/aeroelastic_lco.toml --out "$work/aero" --no-views > "$work/aero.log" 2>&1 ||
  { cat "$work/aero.log"; exit 1; }
/usr/bin/python3 - "$work/aero" <<'PY'
import csv, os, sys
out = sys.argv[1]
rows = {(r["case"], r["integrator"], float(r["step"])): r for r in csv.DictReader(open(os.path.join(out, "results.csv")))}
assert all(r["status"] == "ok" for r in rows.values()), [r["error_message"] for r in rows.values()]
variational = float(rows[("lco", "hermite_variational", 0.01)]["invariant_error:energy"])  # measured 7.6e-3
galerkin = float(rows[("lco", "hermite_galerkin", 0.01)]["invariant_error:energy"])        # measured 1.0e-5
assert galerkin < variational / 100 and galerkin < 3e-5 and variational < 2e-2, (variational, galerkin)
assert float(rows[("lco", "hermite_galerkin", 0.0025)]["error:max"]) < 1e-5   # on the LCO of the reference
PY
echo "seed studies: aeroelastic_lco ok"
