#!/usr/bin/env bash
# What running every study run in a process of its own costs, and how a study scales with --jobs:
# benchmarks/study_isolation.toml (40 runs of about 10 ms) with --jobs K, K = 1, 2, 4, no plots.
#   benchmarks/study_isolation.sh [BUILD_DIR [BASELINE_BUILD_DIR]] [ROUNDS]
# With a baseline build (e.g. one of an earlier commit), the two run in turn, round by round, and
# the table gives the ratio of medians. Times are the whole command's (bash `time`: wall, and
# user + system CPU of the command and its children), median over ROUNDS (default 5).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
base=${2:-}
rounds=${3:-5}
study=benchmarks/study_isolation.toml
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
TIMEFORMAT='%R %U %S'

measure() {  # EXE K FILE: append "wall cpu" of one study execution to FILE
  local out="$tmp/out_$RANDOM"
  { time "$1" study "$study" --jobs "$2" --no-plots --out "$out" >/dev/null 2>&1; } 2>>"$tmp/t"
  rm -rf "$out"
  tail -1 "$tmp/t" | awk '{ printf "%s %.3f\n", $1, $2 + $3 }' >>"$3"
}

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

for k in 1 2 4; do
  for ((r = 0; r < rounds; ++r)); do
    measure "$build/bin/liesim" "$k" "$tmp/new_$k"
    [ -n "$base" ] && measure "$base/bin/liesim" "$k" "$tmp/base_$k"
  done
done

if [ -n "$base" ]; then
  printf '| --jobs | wall [s] | CPU [s] | baseline wall [s] | baseline CPU [s] | wall ratio | CPU ratio |\n|---|---|---|---|---|---|---|\n'
else
  printf '| --jobs | wall [s] | CPU [s] | speed-up over --jobs 1 |\n|---|---|---|---|\n'
fi
w1=$(cut -d' ' -f1 "$tmp/new_1" | median)
for k in 1 2 4; do
  w=$(cut -d' ' -f1 "$tmp/new_$k" | median)
  c=$(cut -d' ' -f2 "$tmp/new_$k" | median)
  if [ -n "$base" ]; then
    bw=$(cut -d' ' -f1 "$tmp/base_$k" | median)
    bc=$(cut -d' ' -f2 "$tmp/base_$k" | median)
    printf '| %s | %s | %s | %s | %s | %.3f | %.3f |\n' "$k" "$w" "$c" "$bw" "$bc" "$(echo "$w / $bw" | bc -l)" "$(echo "$c / $bc" | bc -l)"
  else
    printf '| %s | %s | %s | %.2f |\n' "$k" "$w" "$c" "$(echo "$w1 / $w" | bc -l)"
  fi
done
