#!/usr/bin/env bash
# Cost of the divergence checks (be1ee73: the driver's per-step counter and branch, and the
# invariants evaluated every 32 accepted steps for models that declare conserved or
# non-increasing invariants), by instruction counts (valgrind's callgrind, repeatable on a shared
# machine):
#   benchmarks/divergence_cost.sh OLD_BUILD NEW_BUILD
# OLD_BUILD: a build of a commit before the checks (e.g. 14e6182, configured with
# -DLIESIM_BENCHMARKS=ON -DBUILD_TESTING=OFF -DLIESIM_PYTHON=OFF -DLIESIM_MPI=OFF; targets liesim and
# the plugins below: lie_rk classical_rk pendulum_chain sphere_flow heavy_top); NEW_BUILD: one with them.
# Each run is `liesim run ... --invariants-every 1000000000` (the command's own invariant monitor
# sampled only at the first and last output, so that the per-step work is the driver's, the
# method's and the model's), counted whole process (parent and the child that runs the plugins)
# at two END TIMES T1 < T2 with the same step or tolerance; instructions per accepted step =
# (Ir(T2) - Ir(T1)) / (steps(T2) - steps(T1)), so start-up (plugin loading, parsing, the
# checker's set-up) cancels. "new, inf" is the new build with --option invariant_bound=inf
# (no invariant checked: the path of a model that declares no kinds).
set -euo pipefail
old=${1:?usage: benchmarks/divergence_cost.sh OLD_BUILD NEW_BUILD}
new=${2:?usage: benchmarks/divergence_cost.sh OLD_BUILD NEW_BUILD}
command -v valgrind >/dev/null || { echo "divergence_cost.sh: valgrind is missing (apt-get install valgrind)" >&2; exit 2; }
export LIESIM_PLUGIN_PATH=
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# measure BUILD T ARGS... -> "Ir steps rejected" of one run to T (whole process, every pid summed)
measure() {
  local build=$1 t=$2; shift 2
  rm -f "$tmp"/cg.* "$tmp/sum.json"
  valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.%p" "$build/bin/liesim" run "$@" --t-end "$t" \
    --invariants-every 1000000000 --summary "$tmp/sum.json" >/dev/null 2>"$tmp/log" || { cat "$tmp/log" >&2; exit 1; }
  local ir
  ir=$(awk '/^summary:/ {s += $2} END {print s}' "$tmp"/cg.*)
  python3 - "$tmp/sum.json" "$ir" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["status"] == "ok", d["status"]
print(sys.argv[2], d["stats"]["steps"], d["stats"]["rejected_steps"])
PY
}

# per_step BUILD T1 T2 ARGS... -> "Ir/step steps1 steps2 rejected2"
per_step() {
  local build=$1 t1=$2 t2=$3; shift 3
  read -r a s1 r1 < <(measure "$build" "$t1" "$@")
  read -r b s2 r2 < <(measure "$build" "$t2" "$@")
  python3 -c "print(f'{($b - $a) / ($s2 - $s1):.1f} $s1 $s2 $r2')"
}

printf '| case | steps T1 -> T2 | old [Ir/step] | new [Ir/step] | new / old | new, inf [Ir/step] | new, inf / old |\n'
printf '|---|---|---|---|---|---|---|\n'
row() {  # LABEL T1 T2 ARGS...
  local label=$1 t1=$2 t2=$3; shift 3
  read -r o os1 os2 _ < <(per_step "$old" "$t1" "$t2" "$@")
  read -r n ns1 ns2 nr < <(per_step "$new" "$t1" "$t2" "$@")
  read -r i _ _ _ < <(per_step "$new" "$t1" "$t2" "$@" --option invariant_bound=inf)
  [ "$os1 $os2" = "$ns1 $ns2" ] || echo "divergence_cost.sh: $label: the builds took different steps ($os1 $os2 against $ns1 $ns2)" >&2
  python3 -c "print(f'| $label | $ns1 -> $ns2 ($nr rejected) | {$o:.1f} | {$n:.1f} | {$n / $o:.4f} | {$i:.1f} | {$i / $o:.4f} |')"
}

# Models without invariant kinds (in both builds): sphere_flow (3 numbers, a cheap step: the
# worst case for a fixed cost per step).
row "sphere_flow (no kinds), rkmk4, h = 1e-3" 1 5 --model sphere_flow --param c=0 --integrator rkmk4 --step 0.001
row "sphere_flow (no kinds), rk4, h = 1e-3" 1 5 --model sphere_flow --param c=0 --integrator rk4 --step 0.001
row "sphere_flow (no kinds), rkmk45, rtol 1e-10" 20 200 --model sphere_flow --param c=0 --integrator rkmk45 --rtol 1e-10 --atol 1e-12
# pendulum_chain declares its energy conserved in the new build only (13d2528): the check runs.
row "pendulum_chain N = 2 (energy conserved), rkmk4, h = 1e-3" 1 5 --model pendulum_chain --integrator rkmk4 --step 0.001
row "pendulum_chain N = 2 (energy conserved), rk4, h = 1e-3" 1 5 --model pendulum_chain --integrator rk4 --step 0.001
row "pendulum_chain N = 2 (energy conserved), rkmk45, rtol 1e-10" 1 5 --model pendulum_chain --integrator rkmk45 --rtol 1e-10 --atol 1e-12
row "pendulum_chain N = 32 (energy conserved), rkmk4, h = 1e-3" 0.2 1 --model pendulum_chain --param N=32 --integrator rkmk4 --step 0.001

# heavy_top's model code changed after the checks (ecf653d): only the new build, with and without
# the check (the difference is the invariant evaluation every 32 steps).
printf '\n| case (new build only) | checked [Ir/step] | invariant_bound=inf [Ir/step] | check per step | share |\n|---|---|---|---|---|\n'
read -r n _ _ _ < <(per_step "$new" 1 5 --model heavy_top --integrator rkmk4 --step 0.001)
read -r i _ _ _ < <(per_step "$new" 1 5 --model heavy_top --integrator rkmk4 --step 0.001 --option invariant_bound=inf)
python3 -c "print(f'| heavy_top (energy conserved), rkmk4, h = 1e-3 | {$n:.1f} | {$i:.1f} | {$n - $i:.1f} | {($n - $i) / $n * 100:.2f} % |')"
