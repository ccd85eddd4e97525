#!/usr/bin/env bash
# Issue 32: where the cost of a Lie group step goes, against the classical step of the same
# order, on the N-fold pendulum (N = 8 and 32, the non-planar start of chain_start.py, unit masses
# and links): valgrind's callgrind instructions per step of `liesim run ... --invariants-every
# 1000000000`, whole process (--trace-children=yes; every process's file summed), the difference
# of two end times (T = 0.5 and T = 3, the same step h, so that start-up and the first steps cancel;
# never two step sizes: the cost of a step depends on h through the branches of the exponential's
# coefficient functions), split by function into
#   (a) field    the model's field (pendulum_chain's generator or vector_field, the tension solve under it),
#   (b) exp      the action of the exponential, act_exp (libm's sin under it included),
#   (c) dexpinv  RkmkStepper::stage_derivative: the closed-form dexpinv (default) or, with
#                dexpinv=series, the brackets and the series' sums,
#   (d) sums     the stages' linear combinations (sdk/stage_sum.hpp, its out-of-line pieces),
#   (e) other    the rest: stepper bookkeeping (and what the compiler inlined into it), driver, controller;
# (a)-(d) are inclusive costs of their root functions (benchmarks/lie_step_cost.py, which checks
# that no root runs under another), (e) the total minus them. Calls per step of the field, the
# exponential, dexpinv and the bracket are callgrind's call counts, checked against the run
# summary's counters.
#   benchmarks/lie_step_cost.sh BUILD_DIR [WORK_DIR]    (a few minutes; WORK_DIR keeps the raw files)
# Methods: verner87 and rkmk87 (the best classical and Lie group methods at 1e-10 in
# docs/benchmarks.md), both at a fixed step (--step: the pairs run with every stage and their
# embedded solution, no controller), with h = 3/180 (N = 8) and 3/336 (N = 32), the steps over
# T = 3 that equal_error.py's 1e-10 front needed; rkmk87 also with dexpinv=series (the Bernoulli
# series to ad^6: 6 brackets per stage after the first), and both pairs under step control at
# rtol = atol = 1e-10 (Ir per accepted step, rejected steps included), which adds the controller.
set -euo pipefail
build=$(realpath "${1:?usage: benchmarks/lie_step_cost.sh BUILD_DIR [WORK_DIR]}")
cd "$(dirname "$0")/.."
liesim=$build/bin/liesim
[ -x "$liesim" ] || { echo "lie_step_cost: $liesim not found" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "lie_step_cost: valgrind not found (apt-get install valgrind)" >&2; exit 2; }
export LIESIM_PLUGIN_PATH=
if [ -n "${2:-}" ]; then
  work=$(realpath -m "$2")
  mkdir -p "$work"
else
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi
t1=0.5
t2=3

# profile NAME T ARGS...: callgrind of `liesim run ARGS --t-end T` into WORK/NAME.json (its
# categories, counts and self costs) and the run's summary into WORK/NAME.summary.json.
profile() {
  local name=$1 t=$2; shift 2
  local dir=$work/$name
  rm -rf "$dir"
  mkdir -p "$dir"
  valgrind --tool=callgrind --trace-children=yes --callgrind-out-file="$dir/cg.%p" \
    "$liesim" run "$@" --t-end "$t" --invariants-every 1000000000 --summary "$work/$name.summary.json" \
    > /dev/null 2> "$dir/log" || { cat "$dir/log" >&2; echo "lie_step_cost: failed: liesim run $* --t-end $t" >&2; exit 1; }
  python3 benchmarks/lie_step_cost.py profile "$dir" > "$work/$name.json"
  rm -f "$dir"/cg.*
}

# row N LABEL STEP_LABEL ARGS...: one row (JSON) of per-step costs into WORK/rows.jsonl.
row() {
  local n=$1 label=$2 step=$3; shift 3
  local q0 w0 name
  read -r q0 w0 <<< "$(python3 benchmarks/chain_start.py "$n")"
  name="N${n}_$(echo "$label $step" | tr -c 'A-Za-z0-9.=-' '_')"
  local args=(--model pendulum_chain --param N="$n" --param "$q0" --param "$w0" "$@")
  echo "lie_step_cost: N = $n, $label, $step" >&2
  profile "${name}_a" $t1 "${args[@]}"
  profile "${name}_b" $t2 "${args[@]}"
  python3 benchmarks/lie_step_cost.py row "$n" "$label" "$step" "$work/${name}_a.json" "$work/${name}_b.json" \
    "$work/${name}_a.summary.json" "$work/${name}_b.summary.json" >> "$work/rows.jsonl"
}

rm -f "$work/rows.jsonl"
for n in 8 32; do
  case $n in
    8) steps=180 ;;
    32) steps=336 ;;
  esac
  h=$(python3 -c "print(repr(3 / $steps))")
  row "$n" verner87 "h = 3/$steps" --integrator verner87 --step "$h"
  row "$n" rkmk87 "h = 3/$steps" --integrator rkmk87 --step "$h"
  row "$n" "rkmk87 dexpinv=series" "h = 3/$steps" --integrator rkmk87 --option dexpinv=series --step "$h"
  row "$n" verner87 "rtol = atol = 1e-10" --integrator verner87 --rtol 1e-10 --atol 1e-10
  row "$n" rkmk87 "rtol = atol = 1e-10" --integrator rkmk87 --rtol 1e-10 --atol 1e-10
done

echo "Instructions per step (callgrind; T = $t2 minus T = $t1, the same step), $(git rev-parse --short HEAD), $(date -u '+%Y-%m-%d %H:%M UTC'); each category's share of the step in parentheses."
echo
python3 benchmarks/lie_step_cost.py table "$work/rows.jsonl" verner87
