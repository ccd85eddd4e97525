#!/usr/bin/env python3
"""Issue 32's equal-error benchmark: the CPU time each method needs to reach a global error of 1e-6
and of 1e-10, on the N-fold pendulum (N = 2, 8, 32) and the heavy top, and the front it makes.

    python3 benchmarks/equal_error.py [BUILD_DIR] [--out DIR] [--jobs 1] [--quick] [--markdown FILE]

It is a study (`liesim study`, its file written to DIR.toml and copied by the study into DIR): one case per system, every
explicit method of the classical and Lie group families at fixed steps (n = t_end/h doubling) or
tolerances (rtol = atol = 10^-k) and two SUNDIALS solvers (cvode_adams, arkode_erk); with
--implicit also the implicit order-4 collocation methods and cvode_bdf; the reference is rkmk87 at rtol = atol = 1e-14 (its accuracy, estimated by the study
against a looser reference, is printed and must lie 100x below the smaller target). Each run is
timed by the study: the CPU time of the integrating thread, the median of repeated runs filling at
least 20 ms (so the figures do not depend on the machine's load as wall time would). The error is
the study's error_final (Euclidean, in the embedding, at t_end) relative to max(1, |y(T)|) (the heavy
top's state is about 100 in size).

For each case and target, a method's cost is its CPU time interpolated log-log in the error
between the two runs of its sweep that bracket the target (the first crossing from the coarse
side); a method whose sweep does not reach the target is listed as such. Printed per case: every
method that reaches the target, cheapest first, with the cost relative to the cheapest classical
method, and the front's summary line (best Lie group method / best classical method).

Cases: pendulum_chain with N = 2, 8, 32 from the non-planar start of bench_overhead, t_end = 3;
heavy_top (formulation tso3, the thesis's fast top: Omega(0) = (0, 150, -4.61538)), t_end = 1.
"""
import argparse
import csv
import json
import math
import os
import subprocess
import sys
import time

from chain_start import chain_start  # benchmarks/chain_start.py, beside this file

TARGETS = (1e-6, 1e-10)
# Fixed-step methods: step counts n = n0 * 2^k up to n_max, by order (higher orders reach round-off sooner).
FIXED = {
    4: ["rk4", "rkmk4", "rkmk4_2c", "cf4"],
    "implicit": ["gauss4", "rkmk_gauss4"],  # order 4, a Newton solve per step: only with --implicit
    5: ["dopri5", "rkmk5"],
    6: ["verner6", "rkmk6"],
    8: ["verner8", "rkmk8"],
}
N_MAX = {4: 204800, "implicit": 12800, 5: 102400, 6: 12800, 8: 3200}
ADAPTIVE = ["dopri45", "verner65", "verner87", "rkmk45", "rkmk65", "rkmk87", "cf43", "arkode_erk", "cvode_adams",
            "cvode_bdf"]
TOLERANCES = [10.0 ** -k for k in range(4, 15)]
IMPLICIT = {"gauss4", "rkmk_gauss4", "cvode_bdf"}  # only with --implicit (minutes per run at N = 32)


def toml_list(xs):
    return "[" + ", ".join(repr(float(x)) for x in xs) + "]"


def study_text(ns, quick, implicit=False):
    lines = ['name = "equal_error"',
             'description = "CPU time to reach a global error of 1e-6 and 1e-10 (benchmarks/equal_error.py)"',
             "", "[reference]", 'integrator = "rkmk87"', "rtol = 1e-14", "atol = 1e-14", ""]
    cases = []
    for n in ns:
        q, w = chain_start(n)
        cases.append((f"pendulum{n}", 3.0,
                      [f'model = "pendulum_chain"', f"parameters = {{ N = {n}, q0 = {toml_list(q)}, w0 = {toml_list(w)} }}"]))
    cases.append(("heavy_top", 1.0, ['model = "heavy_top"']))
    for name, t_end, body in cases:
        lines += ["[[case]]", f'name = "{name}"', *body, f"t_end = {t_end}", ""]
    for order, methods in FIXED.items():
        methods = [m for m in methods if implicit or m not in IMPLICIT]
        if not methods:
            continue
        for name, t_end, _ in cases:
            counts = [25 * 2 ** k for k in range(30) if 25 * 2 ** k <= (N_MAX[order] // (8 if quick else 1))]
            lines += ["[[runs]]", f'name = "fixed{order}_{name}"', f"integrators = {json.dumps(methods)}",
                      f"steps = {toml_list(t_end / c for c in counts)}", f'cases = ["{name}"]', ""]
    adaptive = [m for m in ADAPTIVE if implicit or m not in IMPLICIT]
    lines += ["[[runs]]", 'name = "adaptive"', f"integrators = {json.dumps(adaptive)}",
              f"tolerances = {toml_list(TOLERANCES[:8] if quick else TOLERANCES)}", ""]
    return "\n".join(lines)


def at_target(runs, target, key):
    """runs[key] (CPU time, steps) at the target error, log-log between the bracketing runs (coarse to fine)."""
    prev = None
    for r in runs:
        e, c = r["error"], r[key]
        if e <= target:
            if prev is None:
                return c, "at the coarsest run"
            (e0, c0) = prev
            if not (e0 > 0 and e > 0 and c0 > 0 and c > 0):
                return c, ""
            w = (math.log(target) - math.log(e0)) / (math.log(e) - math.log(e0))
            return math.exp(math.log(c0) + w * (math.log(c) - math.log(c0))), ""
        prev = (e, c)
    return None, f"not reached (smallest error {min((r['error'] for r in runs), default=math.inf):.1e})"


def analyse(results_csv, reference_dir):
    rows = [r for r in csv.DictReader(open(results_csv))]
    references = {c: json.load(open(os.path.join(reference_dir, c + ".json"))) for c in {r["case"] for r in rows}}
    # Errors relative to max(1, |y(T)|): the heavy top's state is ~100 in size, the pendulum's ~sqrt(2N).
    scale = {c: max(1.0, math.sqrt(sum(x * x for x in ref["final_state"]))) for c, ref in references.items()}
    groups = {}
    for r in rows:
        if r["status"] != "ok" or not r["error_final"]:
            continue
        key = (r["case"], r["integrator"])
        fine = float(r["tolerance"]) if float(r["tolerance"] or 0) > 0 else float(r["step"])
        groups.setdefault(key, []).append({"fine": fine, "error": float(r["error_final"]) / scale[r["case"]],
                                           "cpu": float(r["cpu_time_s"]), "steps": float(r["steps"]),
                                           "lie": r["lie_group"] == "1", "family": r["family"]})
    failed = sorted({(r["case"], r["integrator"]) for r in rows if r["status"] != "ok"})
    out = []
    for case in sorted({k[0] for k in groups}, key=lambda c: (c.startswith("heavy"), len(c), c)):
        accuracy = references[case].get("accuracy")
        out.append(f"\n### {case}\n")
        out.append(f"Reference: rkmk87, rtol = atol = 1e-14; |y(T)| = {scale[case]:.3g}; its estimated accuracy "
                   f"{accuracy:.1e} absolute, {accuracy / scale[case]:.1e} relative.\n")
        for target in TARGETS:
            reached, missed = [], []
            for (c, method), runs in groups.items():
                if c != case:
                    continue
                runs.sort(key=lambda r: -r["fine"])  # coarse first
                cost, note = at_target(runs, target, "cpu")
                steps, _ = at_target(runs, target, "steps")
                (reached if cost is not None else missed).append((method, runs[0]["family"], runs[0]["lie"], cost, note, steps))
            reached.sort(key=lambda m: m[3])
            classical = [m for m in reached if not m[2]]
            lie = [m for m in reached if m[2]]
            base = classical[0][3] if classical else None
            out.append(f"\nRelative error {target:g}: CPU time (ratio to the best classical method, "
                       f"{classical[0][0] if classical else 'none'}), steps and CPU time per step\n")
            out.append("| method | family | Lie group | CPU [ms] | / best classical | steps | CPU per step [us] |")
            out.append("|---|---|---|---|---|---|---|")
            for method, family, is_lie, cost, note, steps in reached:
                ratio = f"{cost / base:.2f}" if base else ""
                out.append(f"| {method} | {family} | {'yes' if is_lie else 'no'} | {cost * 1e3:.3g} | {ratio} | {steps:.0f} | "
                           f"{cost / steps * 1e6:.3g} |" + (f" {note}" if note else ""))
            if missed:
                out.append("\nNot reached: " + "; ".join(f"{m[0]} {m[4]}" for m in sorted(missed)))
            if lie and classical:
                out.append(f"\n**Front at {target:g}: best Lie group method {lie[0][0]} {lie[0][3] * 1e3:.3g} ms, best "
                           f"classical {classical[0][0]} {classical[0][3] * 1e3:.3g} ms: ratio {lie[0][3] / classical[0][3]:.2f}.**")
    if failed:
        out.append("\nRuns that failed (a step too large for the method, or a solver's failure): "
                   + ", ".join(f"{c}/{m}" for c, m in failed))
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("build", nargs="?", default="build")
    ap.add_argument("--out", default=None, help="study folder (default BUILD/results/equal_error)")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--N", default="2,8,32")
    ap.add_argument("--quick", action="store_true", help="coarser sweeps (a check of the script)")
    ap.add_argument("--implicit", action="store_true",
                    help="also gauss4, rkmk_gauss4 and cvode_bdf (a dense Newton solve per step: minutes per run at N = 32)")
    ap.add_argument("--analyse-only", action="store_true", help="read an existing --out folder")
    ap.add_argument("--markdown", default=None, help="also write the tables to this file")
    args = ap.parse_args()
    out = args.out or os.path.join(args.build, "results", "equal_error")
    if not args.analyse_only:
        study = out.rstrip("/") + ".toml"  # beside the folder: the study writes its own copy into it
        os.makedirs(os.path.dirname(os.path.abspath(study)), exist_ok=True)
        with open(study, "w") as f:
            f.write(study_text([int(x) for x in args.N.split(",")], args.quick, args.implicit))
        start = time.time()
        cmd = [os.path.join(args.build, "bin", "liesim"), "study", study, "--jobs", str(args.jobs), "--out", out,
               "--no-plots"]
        print("$ " + " ".join(cmd), file=sys.stderr, flush=True)
        rc = subprocess.run(cmd, env=dict(os.environ, LIESIM_PLUGIN_PATH="")).returncode
        if rc not in (0, 3):  # 3: the study finished with failed runs (steps too large for a method): listed below
            sys.exit(f"equal_error: liesim study failed (exit {rc})")
        print(f"equal_error: study done in {time.time() - start:.0f} s", file=sys.stderr)
    text = analyse(os.path.join(out, "results.csv"), os.path.join(out, "reference"))
    print(text)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
