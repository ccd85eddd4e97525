#!/usr/bin/env python3
"""Compare rkmk4, cf4, rk4 and cvode_bdf on the N-fold 3D pendulum from Python: error at T against
a tight rkmk5 reference, work-precision (f or F evaluations against error) and the drift of the
energy and of |q_1| - 1 over time, drawn with matplotlib.

Usage: PYTHONPATH=build/python python3 examples/python/compare_pendulum.py [OUT_DIR]
"""
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import liesim  # noqa: E402

out = sys.argv[1] if len(sys.argv) > 1 else "/tmp/liesim_python_example"
os.makedirs(out, exist_ok=True)
params = {"N": 3, "q0": [0.6, 0, 0.8] * 3, "w0": [0, 1, 0, 0.8, 0, -0.6, 0.8, 0.5, -0.6]}
T = 3.0
reference = liesim.run("pendulum_chain", "rkmk5", t_end=T, step=1e-4, params=params, output_every=10**9).final_state

fig, (wp, drift) = plt.subplots(1, 2, figsize=(12, 4.5))
for method in ["rkmk4", "cf4", "rk4"]:
    errors, work = [], []
    for h in [0.02, 0.01, 0.005, 0.0025]:
        r = liesim.run("pendulum_chain", method, t_end=T, step=h, params=params)
        errors.append(np.linalg.norm(r.final_state - reference))
        work.append(r.stats["f_evals"] + r.stats["rhs_evals"])
    wp.loglog(work, errors, "o-", label=method)
    print(f"{method:10s} errors {' '.join(f'{e:.2e}' for e in errors)}")
    r = liesim.run("pendulum_chain", method, t_end=T, step=0.01, params=params)
    energy = r.invariants[:, r.invariant_names.index("energy")]
    drift.semilogy(r.t, np.abs(energy - energy[0]) + 1e-17, label=f"{method} energy (h = 0.01)")
    if method == "rk4":
        norm = r.invariants[:, r.invariant_names.index("q1_norm_minus_1")]
        drift.semilogy(r.t, np.abs(norm) + 1e-17, "--", label="rk4 |q1| - 1")
errors, work = [], []
for tol in [1e-6, 1e-8, 1e-10]:
    r = liesim.run("pendulum_chain", "cvode_bdf", t_end=T, rtol=tol, atol=tol, params=params)
    errors.append(np.linalg.norm(r.final_state - reference))
    work.append(r.stats["rhs_evals"] + r.stats["rhs_evals_jac"])
wp.loglog(work, errors, "s-", label="cvode_bdf (tol 1e-6 ... 1e-10)")
wp.set_xlabel("f or F evaluations")
wp.set_ylabel("error at T")
wp.legend()
wp.grid(True, which="both", alpha=0.3)
drift.set_xlabel("t")
drift.set_ylabel("drift")
drift.legend(fontsize=8)
drift.grid(True, which="both", alpha=0.3)
fig.suptitle(f"N = 3 pendulum, T = {T}")
fig.savefig(os.path.join(out, "compare_pendulum.png"), dpi=110, bbox_inches="tight")
print("written:", os.path.join(out, "compare_pendulum.png"))
