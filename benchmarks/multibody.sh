#!/usr/bin/env bash
# liesim's multibody model against Simbody's forward dynamics (issue 27), on the 7-joint arm and a
# 30-body chain (bench_multibody; needs libsimbody-dev at build time):
#   benchmarks/multibody.sh [BUILD_DIR]      (default: build)
# 1. the machine: cores, CPU model, Simbody's version, load average before and after;
# 2. CPU time per evaluation, both sides interleaved in one process (bench_multibody, 11 rounds,
#    medians): indicative on a loaded machine;
# 3. instructions per evaluation (callgrind, repeatable on a shared machine): each side alone at
#    N1 and N2 evaluations, (Ir(N2) - Ir(N1)) / (N2 - N1), so start-up (plugin loading, parsing,
#    Simbody's topology, the agreement check) cancels. N2 - N1 is a multiple of the 16 states.
set -euo pipefail
build=${1:-build}
exe=$build/bin/bench_multibody
[ -x "$exe" ] || { echo "benchmarks/multibody.sh: $exe is missing (install libsimbody-dev, configure with -DLIESIM_BENCHMARKS=ON, build bench_multibody)" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "benchmarks/multibody.sh: valgrind is missing (apt-get install valgrind)" >&2; exit 2; }
export LIESIM_PLUGIN_PATH=
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'); Simbody $(dpkg-query -W -f='${Version}' libsimbody-dev 2>/dev/null || echo '?')"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
"$exe"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

n1=320 n2=3520
instructions() {  # system side N -> total Ir of the whole process
  valgrind --tool=callgrind --callgrind-out-file="$tmp/out" "$exe" --count "$1" "$2" "$3" >/dev/null 2>"$tmp/log"
  awk '/^summary:/ {print $2}' "$tmp/out"
}
printf '\nInstructions per evaluation (callgrind, (Ir(%d) - Ir(%d)) / %d):\n\n' $n2 $n1 $((n2 - n1))
printf '| system | liesim [Ir/eval] | Simbody [Ir/eval] | Simbody / liesim |\n|---|---|---|---|\n'
declare -A per
for system in arm7 chain30; do
  for side in liesim simbody; do
    a=$(instructions $system $side $n1)
    b=$(instructions $system $side $n2)
    per[$side]=$(( (b - a) / (n2 - n1) ))
  done
  printf '| %s | %d | %d | %.2f |\n' $system "${per[liesim]}" "${per[simbody]}" "$(echo "${per[simbody]} / ${per[liesim]}" | bc -l)"
done
