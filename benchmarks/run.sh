#!/usr/bin/env bash
# The performance table of issue 13 in one command (after a full build):
#   benchmarks/run.sh [BUILD_DIR]
# 1. liesim / hand-fused loop, CPU time per step, rk4 and rkmk4 on the N-fold pendulum at N = 2, 32,
#    256, 1024 (bench_overhead: Google Benchmark, 5 repetitions in random interleaving, medians);
# 2. start-up: wall time of a one-step `liesim run` (median of 20);
# 3. study throughput: the quickstart study with plots, --jobs 2 against --jobs 1 (medians of 3, interleaved).
set -euo pipefail
build="${1:-build}"
[ -x "$build/bin/bench_overhead" ] || { echo "benchmarks/run.sh: $build/bin/bench_overhead is missing (install libbenchmark-dev, rebuild)" >&2; exit 2; }
export LIESIM_PLUGIN_PATH=
json="$(mktemp)"
trap 'rm -f "$json"; rm -rf /tmp/liesim_bench_j1 /tmp/liesim_bench_j2' EXIT
"$build/bin/bench_overhead" --benchmark_repetitions=5 --benchmark_enable_random_interleaving=true \
  --benchmark_report_aggregates_only=true --benchmark_format=json --benchmark_out="$json" > /dev/null 2>&1
python3 - "$json" "$build" <<'PY'
import json, os, statistics, subprocess, sys, time
doc = json.load(open(sys.argv[1]))
build = sys.argv[2]
cpu = {}
for b in doc["benchmarks"]:
    if b.get("aggregate_name") == "median":
        kind, method, n = b["run_name"].split("/")
        cpu[(kind, method, int(n))] = b["steps"]  # CPU seconds per step (the counter is inverted)
print(f"machine: {doc['context'].get('num_cpus')} cores, {doc['context'].get('host_name')}, {doc['context'].get('date')}\n")
print("| method | N | fused loop [us/step] | liesim [us/step] | liesim / fused |")
print("|---|---|---|---|---|")
for method in ("rk4", "rkmk4"):
    for n in (2, 32, 256, 1024):
        f, l = cpu[("fused_loop", method, n)], cpu[("framework", method, n)]
        print(f"| {method} | {n} | {f * 1e6:.3f} | {l * 1e6:.3f} | {l / f:.2f} |")
liesim = os.path.join(build, "bin", "liesim")
def wall(args):
    t = time.perf_counter()
    subprocess.run(args, check=True, capture_output=True)
    return time.perf_counter() - t
start = [wall([liesim, "run", "--model", "pendulum_chain", "--integrator", "rkmk4", "--t-end", "0.01", "--step", "0.01",
               "--summary", "/tmp/liesim_bench_startup.json"]) for _ in range(20)]
print(f"\nstart-up, one rkmk4 step of pendulum_chain N = 2: {statistics.median(start) * 1e3:.1f} ms wall (median of 20)")
j1, j2 = [], []
for _ in range(3):
    for jobs, into in ((1, j1), (2, j2)):
        out = f"/tmp/liesim_bench_j{jobs}"
        subprocess.run(["rm", "-rf", out], check=True)
        into.append(wall([liesim, "study", "studies/quickstart.toml", "--out", out, "--jobs", str(jobs)]))
a, b = statistics.median(j1), statistics.median(j2)
print(f"quickstart study with plots: --jobs 1 {a:.2f} s, --jobs 2 {b:.2f} s: speed-up {a / b:.2f}x (medians of 3)")
PY
