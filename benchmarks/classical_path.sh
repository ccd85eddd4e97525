#!/usr/bin/env bash
# Issue 32's protocol for the framework's cost per step against the best hand-written loop:
# valgrind's callgrind instructions per step, the difference of two end times (T = 1 and 2, the
# same step h = 1e-3, so start-up and the first step cancel and the per-step cost does not depend
# on h), on the N-fold pendulum from the non-planar start of fused_loops.hpp (unit masses and links).
#   benchmarks/classical_path.sh [BUILD_DIR]      (default: build; needs bench_loops, built with the benchmarks)
# Whole-process instruction counts (both processes of `liesim run`): the difference of the two end
# times leaves the steps alone. liesim: invariants sampled every 10^9 steps (never, after the first),
# and again every step (the monitor's own cost, reported apart).
# Hand loops (bench_loops, fused_loops.hpp): rk4 (Eigen expressions, five vectors), rk4_lean (raw
# arrays, four fused passes per step: the leanest we could write; its final state must equal
# liesim's rk4 bit for bit, checked first) and rkmk4.
set -euo pipefail
build=$(realpath "${1:-build}")
cd "$(dirname "$0")/.."
liesim=$build/bin/liesim
loops=$build/bin/bench_loops
[ -x "$loops" ] || { echo "classical_path: $loops not found (configure with -DLIESIM_BENCHMARKS=ON and build bench_loops)" >&2; exit 1; }
command -v valgrind >/dev/null || { echo "classical_path: valgrind not found (apt install valgrind)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
h=0.001

start() { python3 benchmarks/chain_start.py "$1"; }  # q0=... w0=... of fused::chain_state(N)

ir() {  # instructions of the whole command, summed over its processes (liesim run integrates in a
        # child process of its own). Not --toggle-collect: it undercounts code inlined into the
        # toggled function (the fused rkmk4's inlined actions were not counted), and the
        # difference of two end times removes everything but the steps anyway.
  rm -f "$tmp"/cg.*
  valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.%p" "$@" > /dev/null 2> "$tmp/log" ||
    { cat "$tmp/log" >&2; echo "classical_path: failed: $*" >&2; exit 1; }
  awk '/^summary:/ {s += $2} END {print s}' "$tmp"/cg.*
}

liesim_ir() {  # N METHOD T EVERY
  read -r q0 w0 <<< "$(start "$1")"
  ir "$liesim" run --model pendulum_chain --param N="$1" --param "$q0" --param "$w0" \
    --integrator "$2" --t-end "$3" --step $h --invariants-every "$4"
}

hand_ir() {  # LOOP N STEPS
  ir "$loops" "$1" "$2" "$3" $h
}

# The lean loop is liesim's rk4, operation for operation: the same final state, bit for bit.
for n in 2 32; do
  read -r q0 w0 <<< "$(start $n)"
  LIESIM_PLUGIN_PATH= "$liesim" run --model pendulum_chain --param N=$n --param "$q0" --param "$w0" --integrator rk4 \
    --t-end 1 --step $h --summary "$tmp/s.json" > /dev/null
  python3 - "$tmp/s.json" <<PY
import json, sys, subprocess
mine = [float(x) for x in subprocess.run(["$loops", "rk4_lean", "$n", "1000", "$h"], capture_output=True, text=True, check=True).stdout.split()]
theirs = json.load(open(sys.argv[1]))["final_state"]
assert mine == theirs, f"N = $n: rk4_lean and liesim's rk4 differ: {max(abs(a - b) for a, b in zip(mine, theirs))}"
PY
done

printf '| N | method | hand loop [Ir/step] | liesim [Ir/step] | liesim / hand | invariants every step: + [Ir/step] |\n'
printf '|---|---|---|---|---|---|\n'
for n in 2 8 32; do
  for method in rk4 rkmk4; do
    l1=$(liesim_ir $n $method 1 1000000000); l2=$(liesim_ir $n $method 2 1000000000)
    m1=$(liesim_ir $n $method 1 1); m2=$(liesim_ir $n $method 2 1)
    lies=$(( (l2 - l1) / 1000 )); monitor=$(( (m2 - m1) / 1000 - lies ))
    loops_of=$method; [ $method = rk4 ] && loops_of="rk4 rk4_lean"
    for loop in $loops_of; do
      a=$(hand_ir $loop $n 1000); b=$(hand_ir $loop $n 2000)
      hand=$(( (b - a) / 1000 ))
      printf '| %s | %s | %s (%s) | %s | %.3f | %s |\n' $n $method "$hand" "$loop" "$lies" "$(echo "$lies / $hand" | bc -l)" "$monitor"
    done
  done
done
