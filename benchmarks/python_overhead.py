#!/usr/bin/env python3
"""The Python package's costs, measured side by side (medians of interleaved rounds):

1. liesim.run against the command line `liesim run --summary` for a short run (one step of the N = 2
   pendulum) and a long one (N = 8, 10^4 steps of rkmk4): wall time per call, the command line
   including its process start and plugin loading, Python's with the plugins already loaded.
2. A model written in Python against the compiled example_model (the same spherical pendulum),
   rkmk4, 2000 steps: CPU time per generator evaluation; and the bridge alone (an f that returns a
   precomputed array), i.e. what one evaluation costs before the user's numpy code runs.

Usage: PYTHONPATH=build/python python3 benchmarks/python_overhead.py [BUILD_DIR]
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

import liesim

BUILD = sys.argv[1] if len(sys.argv) > 1 else "build"
LIESIM = os.path.join(BUILD, "bin", "liesim")
TEST_PLUGINS = os.path.join(BUILD, "test_plugins")
ROUNDS = 7


def median_wall(fn, rounds=ROUNDS):
    times = []
    for _ in range(rounds):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def cli_run(model, method, t_end, step, params):
    with tempfile.TemporaryDirectory() as d:
        args = [LIESIM, "run", "--model", model, "--integrator", method, "--t-end", str(t_end), "--step", str(step),
                "--summary", os.path.join(d, "s.json")]
        for k, v in params.items():
            args += ["--param", f"{k}={v}"]
        subprocess.run(args, check=True, capture_output=True, env=dict(os.environ, LIESIM_PLUGIN_PATH=""))


def compare_runs():
    print("liesim.run against `liesim run` (wall time per call, median of interleaved rounds)")
    print(f"{'run':<38} {'python [ms]':>12} {'command line [ms]':>18} {'ratio':>7}")
    for label, args in [("short: pendulum N=2, 1 step", ("pendulum_chain", "rkmk4", 0.01, 0.01, {"N": 2})),
                        ("long: pendulum N=8, 10^4 steps rkmk4", ("pendulum_chain", "rkmk4", 10.0, 0.001, {"N": 8}))]:
        model, method, t_end, step, params = args
        liesim.run(model, method, t_end=t_end, step=step, params=params)  # plugins loaded once per session
        py, cl = [], []
        for _ in range(ROUNDS):
            py.append(median_wall(lambda: liesim.run(model, method, t_end=t_end, step=step, params=params), 1))
            cl.append(median_wall(lambda: cli_run(model, method, t_end, step, params), 1))
        p, c = statistics.median(py), statistics.median(cl)
        print(f"{label:<38} {1e3 * p:12.2f} {1e3 * c:18.2f} {p / c:7.2f}")


G = np.array([0.0, 0.0, -9.81])


def f(t, y):
    q, w = y[:3], y[3:]
    return np.concatenate([w, np.cross(q, np.cross(q, G))])


def compare_models():
    y0 = [0.7071067811865476, 0, 0.7071067811865476, 0, 1, 0]
    fixed = np.array([0.0, 1.0, 0.0, 0.0, 0.0, 0.0])
    python = liesim.Model("TS2", f, y0)
    bridge = liesim.Model("TS2", lambda t, y: fixed, y0)

    def cpu(run):
        t = time.process_time()
        r = run()
        return time.process_time() - t, r.stats["f_evals"]

    print("\nmodel in Python against the compiled example_model (rkmk4, 2000 steps; CPU time per f evaluation)")
    rows = {"compiled example_model": lambda: liesim.run("example_model", "rkmk4", t_end=20, step=0.01, plugin_path=TEST_PLUGINS),
            "python model (numpy f)": lambda: liesim.run(python, "rkmk4", t_end=20, step=0.01),
            "python bridge only (f returns a constant)": lambda: liesim.run(bridge, "rkmk4", t_end=20, step=0.01)}
    samples = {k: [] for k in rows}
    for _ in range(ROUNDS):
        for k, run in rows.items():
            seconds, evals = cpu(run)
            samples[k].append(seconds / evals)
    base = statistics.median(samples["compiled example_model"])
    print(f"{'model':<44} {'per f eval [us]':>16} {'ratio':>8}")
    for k, s in samples.items():
        m = statistics.median(s)
        print(f"{k:<44} {1e6 * m:16.2f} {m / base:8.1f}")


if __name__ == "__main__":
    os.environ["LIESIM_PLUGIN_PATH"] = ""
    print(f"machine: {os.cpu_count()} cores; {ROUNDS} rounds")
    compare_runs()
    compare_models()
