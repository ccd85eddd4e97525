#!/usr/bin/env python3
"""Issue 13's moonshot: the cost of each fixed-step method at equal error on the N-fold pendulum.

    python3 benchmarks/moonshot.py [BUILD_DIR] [--target 1e-6] [--N 2,8,32]

For every method: the global error at T = 3 (the non-planar start of bench_overhead, Euclidean norm in R^6N, against
rkmk5 with 30000 steps) at step counts 25 ... 12800; the number of steps n* that reaches the target
error (log-log interpolation between the two bracketing runs); the instructions per step of the
integration loop at h = T/n* (valgrind's callgrind, liesim::integrate, 200 steps, invariants not
monitored); cost = n* x instructions per step. Prints a table with the cost relative to rk4.
Instruction counts are repeatable on a shared machine; they weigh a division or a sine like an
addition, so the last column is a proxy for CPU time, not a measurement of it.
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile

from chain_start import chain_start  # benchmarks/chain_start.py, beside this file

T = 3.0
METHODS = [  # (label, method, options)
    ("rk4", "rk4", []),
    ("dopri5", "dopri5", []),
    ("rkmk4", "rkmk4", []),
    ("rkmk4 dexpinv=series(2)", "rkmk4", ["dexpinv=series", "series_order=2"]),
    ("rkmk4_2c", "rkmk4_2c", []),
    ("cf4", "cf4", []),
    ("rkmk5", "rkmk5", []),
    ("rkmk3", "rkmk3", []),
    ("cg3", "cg3", []),
]
STEPS = [25 * 2**k for k in range(10)]  # 25 ... 12800


def start(n):
    q, w = chain_start(n)
    text = lambda xs: ",".join(repr(x) for x in xs)
    return ["--param", f"N={n}", "--param", f"q0={text(q)}", "--param", f"w0={text(w)}"]


def final_state(liesim, n, method, options, steps, t_end=T):
    with tempfile.NamedTemporaryFile(suffix=".json") as f:
        cmd = [liesim, "run", "--model", "pendulum_chain", *start(n), "--integrator", method,
               "--t-end", repr(t_end), "--step", repr(t_end / steps), "--summary", f.name]
        for o in options:
            cmd += ["--option", o]
        if subprocess.run(cmd, capture_output=True).returncode != 0:
            return None  # e.g. the state blew up at a large step: counts as a miss
        return json.load(open(f.name))["final_state"]


def error(a, b):
    if a is None:
        return math.inf
    return math.sqrt(sum((x - y) ** 2 for x, y in zip(a, b)))


def steps_for(liesim, n, method, options, ref, target):
    prev = None
    for s in STEPS:
        e = error(final_state(liesim, n, method, options, s), ref)
        if e <= target:
            if prev is None or math.isinf(prev[1]):
                return float(s), e
            s0, e0 = prev
            # log-log interpolation: log s linear in log e between the bracketing runs
            w = (math.log(target) - math.log(e0)) / (math.log(e) - math.log(e0))
            return math.exp(math.log(s0) + w * (math.log(s) - math.log(s0))), e
        prev = (s, e)
    return math.nan, prev[1]


def instructions_per_step(liesim, n, method, options, h, steps=200):
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "cg.out")
        cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", "--toggle-collect=liesim::integrate*",
               liesim, "run", "--model", "pendulum_chain", *start(n), "--integrator", method, "--t-end", repr(h * steps),
               "--step", repr(h), "--invariants-every", "1000000000"]
        for o in options:
            cmd += ["--option", o]
        subprocess.run(cmd, check=True, capture_output=True)
        text = subprocess.run(["callgrind_annotate", out], check=True, capture_output=True, text=True).stdout
        for line in text.splitlines():
            if "PROGRAM TOTALS" in line:
                return int(line.split()[0].replace(",", "")) / steps
    raise RuntimeError("callgrind_annotate printed no total")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("build", nargs="?", default="build")
    ap.add_argument("--target", type=float, default=1e-6)
    ap.add_argument("--N", default="2,8,32")
    args = ap.parse_args()
    liesim = os.path.join(args.build, "bin", "liesim")
    for n in [int(x) for x in args.N.split(",")]:
        ref = final_state(liesim, n, "rkmk5", [], 30000)
        print(f"\nN = {n}, T = {T}, error target {args.target:g}\n")
        print("| method | steps for the target | instructions per step | instructions in all | relative to rk4 |")
        print("|---|---|---|---|---|")
        rows = []
        for label, method, options in METHODS:
            s, _ = steps_for(liesim, n, method, options, ref, args.target)
            if math.isnan(s):
                rows.append((label, s, math.nan, math.nan))
                continue
            ir = instructions_per_step(liesim, n, method, options, T / s)
            rows.append((label, s, ir, s * ir))
        base = next(r[3] for r in rows if r[0] == "rk4")
        for label, s, ir, total in rows:
            print(f"| {label} | {s:.0f} | {ir:.0f} | {total:.3g} | {total / base:.2f} |")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
