#!/usr/bin/env bash
# Start-up of the command (issue 32), by counts that do not depend on the machine's load:
#   benchmarks/startup.sh BUILD [BUILD...]
# For each build folder (with the command, lib/liesim and the plugins pendulum_chain and
# classical_rk built): the shared objects `liesim --version` maps, the dynamic loader's relocations
# and symbol lookups (LD_DEBUG=statistics), and callgrind's instruction counts of `liesim
# --version` and of a one-step run (`liesim run --model pendulum_chain --integrator rk4 --step 0.01
# --t-end 0.01`), parent and child apart (callgrind gives the child the counts it inherited at
# fork; "child's own" removes them). Then, where `perf` works, task-clock and page faults of 15
# runs of each, with /bin/true beside them and the floor of an isolated run (bench_startup_floor:
# fork, the two plugins loaded in the child, wait): times are noisy on a shared machine, counts are not.
set -euo pipefail
[[ $# -ge 1 ]] || { echo "usage: benchmarks/startup.sh BUILD [BUILD...]" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "startup.sh: valgrind is missing (apt-get install valgrind)" >&2; exit 2; }
export LIESIM_PLUGIN_PATH=
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run_args=(run --model pendulum_chain --integrator rk4 --step 0.01 --t-end 0.01)

# instructions FILE -> the total of one callgrind output file
instructions() { awk '/^summary:/ {print $2}' "$1"; }

for build in "$@"; do
  exe=$build/bin/liesim
  [[ -x $exe ]] || { echo "startup.sh: no command at $exe (build the target liesim)" >&2; exit 2; }
  echo "== $build"
  echo "shared objects mapped by --version: $(ldd "$exe" | grep -c '=>')"
  LD_DEBUG=statistics "$exe" --version 2>&1 >/dev/null | awk '/number of relocations:|relocations from cache:/ {sub(/^[ \t0-9]*:[ \t]*/, ""); print "  " $0}'
  rm -f "$tmp"/cg.*
  valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.version" "$exe" --version >/dev/null 2>&1
  echo "instructions, liesim --version: $(instructions "$tmp/cg.version")"
  valgrind --tool=callgrind --trace-children=yes --callgrind-out-file="$tmp/cg.run.%p" "$exe" "${run_args[@]}" >/dev/null 2>&1
  # The parent has the smaller pid; the child's file starts with the parent's counts at fork.
  mapfile -t files < <(ls "$tmp"/cg.run.* | sort -t. -k3 -n)
  parent=$(instructions "${files[0]}")
  child=$(instructions "${files[1]}")
  echo "instructions, one-step run: parent $parent, child $child (with what it inherited at fork)"
  if perf stat -e task-clock true >/dev/null 2>&1; then
    floor=$build/bin/bench_startup_floor
    plugins=$build/lib/liesim/plugins
    floor_cmd=()
    [[ -x $floor ]] && floor_cmd=("$floor $plugins/liesim_pendulum_chain.so $plugins/liesim_classical_rk.so")
    for cmd in "/bin/true" "$exe --version" "$exe ${run_args[*]}" "${floor_cmd[@]}"; do
      # shellcheck disable=SC2086
      perf stat -r 15 -e task-clock,page-faults $cmd 2>&1 >/dev/null |
        awk -v c="$cmd" '/task-clock/ {t=$1} /page-faults/ {f=$1} /elapsed/ {e=$1 * 1000} END {printf "  %-60s task-clock %6.2f ms, page faults %s, elapsed %.2f ms (mean of 15)\n", substr(c, 1, 60), t, f, e}'
    done
  fi
done
