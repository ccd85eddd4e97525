#!/usr/bin/env bash
# Instruction counts of the integration loop (the kernel's integrate(), plugin calls included)
# for pendulum_chain runs, measured with valgrind's callgrind: repeatable on a shared machine.
#   benchmarks/callgrind_boundary.sh [BUILD_DIR]      (default: build)
# Prints one line per run: N, method, steps, instructions in integrate(), instructions per step.
set -euo pipefail
build=${1:-build}
exe=$build/bin/liesim
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '| N | method | steps | Ir in integrate() | Ir per step |\n|---|---|---|---|---|\n'
for n in 2 8 32; do
  for method in rkmk4 rk4 cf4; do
    steps=1000
    valgrind --tool=callgrind --callgrind-out-file="$tmp/out" --toggle-collect='liesim::integrate*' \
      "$exe" run --model pendulum_chain --param N=$n --integrator $method --t-end 1 --step 0.001 \
      >/dev/null 2>"$tmp/log"
    ir=$(callgrind_annotate "$tmp/out" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1; exit}')
    printf '| %s | %s | %s | %s | %.0f |\n' "$n" "$method" "$steps" "$ir" "$(echo "$ir / $steps" | bc -l)"
  done
done
