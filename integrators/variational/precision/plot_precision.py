#!/usr/bin/env python3
"""Seed 001 Figs. 8.1-8.2 from the rows of liesim-vi-precision --out CSV: the discrete energy error
|E_k - E_1| (left) and the step size h_k / h0 (right) against t, in double and in 32 digits side by
side. Usage: plot_precision.py STEPS.csv FIGURE.png [H0]"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

STYLE = {16: dict(color="#1f77b4", marker="o", label="double (16 digits)"),
         32: dict(color="#d62728", marker="s", label="32 digits (Boost.Multiprecision)")}
FLOOR = 1e-36  # exact zeros drawn here (a log axis has no 0)


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    rows = list(csv.DictReader(open(sys.argv[1])))
    if not rows:
        sys.exit(f"{sys.argv[1]}: no steps")
    runs = {}
    for r in rows:
        runs.setdefault(int(r["digits"]), []).append((float(r["t"]), float(r["h"]), abs(float(r["energy_error"]))))
    h0 = float(sys.argv[3]) if len(sys.argv) == 4 else runs[min(runs)][0][1]
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4.2))
    for j, (digits, pts) in enumerate(sorted(runs.items())):
        t = [p[0] for p in pts]
        every = max(1, len(pts) // 12)
        kw = dict(STYLE.get(digits, dict(label=f"{digits} digits")), markevery=(j * every // 2, every), ms=4, lw=0.8)
        left.semilogy(t, [max(p[2], FLOOR) for p in pts], **kw)
        right.plot(t, [p[1] / h0 for p in pts], **kw)
    left.set_ylabel("|E_k - E_1| (discrete energy error)")
    right.set_ylabel("h_k / h0")
    for ax in (left, right):
        ax.set_xlabel("t")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    left.set_title("discrete energy error (Fig. 8.1)")
    right.set_title("adaptive step size (Fig. 8.2)")
    fig.suptitle(f"adaptive VI on the double well, h0 = {h0:g}: double against 32 significant digits")
    fig.savefig(sys.argv[2], dpi=110, bbox_inches="tight")


if __name__ == "__main__":
    main()
