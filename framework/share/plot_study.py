#!/usr/bin/env python3
"""Draw the plots of a liesim study from its results folder (results.csv, series/, steps/).

Usage: plot_study.py [--progress-fd FD] [--part K/N] DIR    -> DIR/plots/{convergence,work_precision,drift,step_size,contractivity,roots}_<case>.{png,svg},
                              sweep_* and stability_map_* for swept cases, figure_<name>_<case> for the
                              study's [[figure]] tables (read from DIR/study.toml)
"""
import csv
import functools
import json
import math
import os
import re
import sys
import tomllib
import zlib

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

# Text stays text in the SVG files (editable and searchable in papers), not glyph outlines.
plt.rcParams["svg.fonttype"] = "none"


STYLES_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "method_styles.json")
EXTRA_MARKERS = ["h", "p", "8", "<", ">"]


@functools.lru_cache(maxsize=None)
def styles_doc(styles_file=STYLES_FILE):
    """method_styles.json, read once per file."""
    with open(styles_file) as fh:
        return json.load(fh)


def style_map(integrators, styles_file=STYLES_FILE):
    """{method: (colour, marker)}: the fixed entry of method_styles.json for a known method; any
    other (a plugin's) a colour of plugin_palette (which no known method uses) and an unused marker,
    chosen by a hash of its name, so that it looks the same in every study; two unknown methods of
    one call that hash alike: the later in name order takes the next free pair. Distinct for every
    method given (up to len(plugin_palette) x len(EXTRA_MARKERS) unknown ones)."""
    doc = styles_doc(styles_file)
    known = {k: (v["colour"], v["marker"]) for k, v in doc["methods"].items()}
    out = {m: known[m] for m in integrators if m in known}
    extra = [(c, mk) for mk in EXTRA_MARKERS for c in doc["plugin_palette"]]
    taken = set()
    for m in sorted(m for m in set(integrators) if m not in known):
        slot = zlib.crc32(m.encode()) % len(extra)
        for probe in range(len(extra)):
            if extra[(slot + probe) % len(extra)] not in taken:
                slot = (slot + probe) % len(extra)
                break
        out[m] = extra[slot]
        taken.add(extra[slot])
    return out


def linestyle(r):
    """The line style of a run's kind: solid for fixed steps, dashed for tolerances, dotted for
    constant steps matched to adaptive runs (match_steps_of, match_error_of)."""
    if "|match" in r.get("run_id", ""):
        return ":"
    return "--" if num(r["tolerance"]) > 0 else "-"


STYLE = {}  # method -> (colour, marker), for the whole study (set in main)


def sparse_markers(kw, points, j, count):
    """A time series' style with its marker drawn at about 12 of its points, series j of `count`
    starting at a different point, so that curves lying on each other still show every marker."""
    every = max(1, points // 12)
    return dict(kw, markevery=(j * every // max(count, 1), every), ms=4)


def plot_kw(r):
    """Colour and marker of the run's method, line style of its kind (fixed, adaptive, matched)."""
    colour, marker = STYLE.get(r["integrator"], ("k", "o"))
    return {"color": colour, "marker": marker, "linestyle": linestyle(r)}


class Progress:
    """One line per figure drawn, on the file descriptor the caller gives (--progress-fd N)."""

    def __init__(self):
        self.stream = None
        self.count = 0

    def note(self, name):
        self.count += 1
        if self.stream:
            print(f"liesim plot: [{self.count}] {name}", file=self.stream, flush=True)


PROGRESS = Progress()


class Share:
    """--part K/N: this process draws every N-th figure, starting with the K-th. Every process makes
    the same calls in the same order, so the figures are split without overlap or gap."""

    def __init__(self):
        self.k, self.n, self.count = 1, 1, 0

    def mine(self):
        self.count += 1
        return (self.count - 1) % self.n == self.k - 1


SHARE = Share()


def safe(name):
    return re.sub(r"[^A-Za-z0-9_-]", "_", name)


def num(text):
    try:
        return float(text)
    except ValueError:
        return math.nan


def save(fig, out, kind, case):
    """plots/<kind>_<case>.png and .svg; without a case (a figure of several cases) plots/<kind>.png."""
    name = f"{kind}_{safe(case)}" if case is not None else kind
    for ext in ("png", "svg"):
        fig.savefig(os.path.join(out, "plots", f"{name}.{ext}"), dpi=110, bbox_inches="tight")
    plt.close(fig)
    PROGRESS.note(f"{name}.png")


def outside_legend(ax, **kw):
    """A legend to the right of the axes, off the data."""
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0, **kw)


def enough_points(series):
    """A convergence or work-precision figure means something once some line has two points."""
    return any(len(pts) >= 2 for pts in series.values())


def label(r):
    return r["integrator"] if r["group"].startswith("runs") else f'{r["integrator"]} ({r["group"]})'


# The study's error measure (its `error` key): the column of results.csv and the axis label.
ERROR = {"column": "error_final", "label": "error at T"}
ERROR_MEASURES = {"final": ("error_final", "error at T"),
                  "max": ("error:max", "max error over the output times"),
                  "rms": ("error:rms", "RMS error over the output times")}


def err(r):
    return num(r[ERROR["column"]])


def setting(r):
    return f'h={num(r["step"]):g}' if num(r["step"]) > 0 else f'tol={num(r["tolerance"]):g}'


def convergence(out, case, rows):
    if not SHARE.mine():
        return
    runs = [r for r in rows if num(r["step"]) > 0 and r["status"] == "ok" and err(r) > 0]
    if not runs:
        return
    series, first = {}, {}
    for r in runs:
        series.setdefault(label(r), []).append((num(r["step"]), err(r), int(r["order"])))
        first.setdefault(label(r), r)
    if not enough_points(series):
        return
    fig, ax = plt.subplots(figsize=(7.5, 4.5))
    orders = set()
    styles = series_styles(first)
    for name, pts in sorted(series.items()):
        pts.sort()
        ax.loglog([p[0] for p in pts], [p[1] for p in pts], label=name, ms=4, **styles[name])
        orders.add(pts[0][2])
    hs = sorted({p[0] for pts in series.values() for p in pts})
    top = max(p[1] for pts in series.values() for p in pts)
    for p in sorted(orders):
        ax.loglog([hs[0], hs[-1]], [top * (hs[0] / hs[-1]) ** p, top], "k:", lw=0.8)
        ax.annotate(f"slope {p}", (hs[0], top * (hs[0] / hs[-1]) ** p), fontsize=7)
    ax.set_xlabel("step size h [s]")
    ax.set_ylabel(f'{ERROR["label"]} (Euclidean, embedding coordinates)')
    ax.set_title(f"convergence: {case}")
    outside_legend(ax)
    ax.grid(True, which="both", alpha=0.3)
    save(fig, out, "convergence", case)


def run_seconds(rows):
    """The time measure of these rows and its axis label: CPU time where the study recorded it
    (cpu_time_s; it does not grow with the machine's load), else wall time (a study of an older liesim)."""
    if rows and rows[0].get("cpu_time_s") not in (None, ""):
        return (lambda r: num(r["cpu_time_s"])), "CPU time [s] (median of repeated runs)"
    return (lambda r: num(r["wall_time_s"])), "wall time [s] (median of repeated runs)"


def paired_seconds(rows):
    """run_seconds, except for a constant-step run matched to an adaptive one (match_steps_of,
    match_error_of), whose time is its side-by-side ratio (paired_time_ratio: the two timed
    alternately) times the adaptive run's: so that a figure shows the ratio the report's table gives,
    not one of two medians measured apart."""
    seconds, axis = run_seconds(rows)
    by_id = {r["run_id"]: r for r in rows}

    def timed(r):
        ratio = num(r.get("paired_time_ratio") or "")
        for tag in ("|match|", "|match_error|"):
            if tag in r["run_id"] and math.isfinite(ratio):
                partner = by_id.get(r["run_id"].split(tag, 1)[1])
                if partner is not None:
                    return ratio * seconds(partner)
        return seconds(r)
    return timed, axis


def work_precision(out, case, rows):
    if not SHARE.mine():
        return
    runs = [r for r in rows if r["status"] == "ok" and err(r) > 0]
    if not runs:
        return
    series, first = {}, {}
    seconds, seconds_label = paired_seconds(rows)
    for r in runs:
        evals = int(r["f_evals"]) + int(r["F_evals"])
        series.setdefault(label(r), []).append((seconds(r), evals, err(r)))
        first.setdefault(label(r), r)
    if not enough_points(series):
        return
    fig, axes = plt.subplots(1, 2, figsize=(12.5, 4.5))
    styles = series_styles(first)
    for name, pts in sorted(series.items()):
        pts.sort(key=lambda p: p[1])
        axes[0].loglog([max(p[0], 1e-7) for p in pts], [p[2] for p in pts], label=name, ms=4, **styles[name])
        axes[1].loglog([p[1] for p in pts], [p[2] for p in pts], label=name, ms=4, **styles[name])
    # The study times each run repeatedly (at least `repeat` times and 20 ms of CPU time in all) and keeps the medians.
    axes[0].set_xlabel(seconds_label)
    axes[1].set_xlabel("evaluations of f and F")
    for ax in axes:
        ax.set_ylabel(ERROR["label"])
        ax.grid(True, which="both", alpha=0.3)
    outside_legend(axes[1])
    fig.suptitle(f"work-precision: {case}")
    save(fig, out, "work_precision", case)


def drift(out, case, rows):
    if not SHARE.mine():
        return
    files = [(r, os.path.join(out, "series", f'{r["index"]}.csv')) for r in rows]
    files = [(r, f) for r, f in files if os.path.exists(f)]
    if not files:
        return
    with open(files[0][1]) as fh:
        header = next(csv.reader(fh))
    # Invariant columns of the series are the ones results.csv reports as drift:NAME.
    names = {k[len("drift:"):] for k in rows[0] if k.startswith("drift:")}
    inv = [c for c in header[1:] if c in names]
    if not inv:
        return
    inv = inv[:6]
    fig, axes = plt.subplots(len(inv), 1, figsize=(7, 2.2 * len(inv)), sharex=True, squeeze=False)
    styles = series_styles({f'{label(r)} ({setting(r)})': r for r, _ in files})
    for j, (r, f) in enumerate(files):
        with open(f) as fh:
            data = list(csv.DictReader(fh))
        if not data or any(c not in data[0] for c in inv):
            continue
        t = [num(d["t"]) for d in data]
        kw = sparse_markers(styles[f'{label(r)} ({setting(r)})'], len(t), j, len(files))
        for k, c in enumerate(inv):
            # Drift from the first value known: a method's conserved diagnostic (e.g. a discrete
            # energy) has none before the first step.
            vals = [num(d[c]) for d in data]
            finite = [v for v in vals if v == v]
            if not finite:
                continue
            dev = [max(abs(v - finite[0]), 1e-17) if v == v else float("nan") for v in vals]
            axes[k][0].semilogy(t, dev, label=f'{label(r)} ({setting(r)})', lw=0.9, **kw)
    for k, c in enumerate(inv):
        axes[k][0].set_ylabel(f"|{c} - initial|", fontsize=8)
        axes[k][0].grid(True, which="both", alpha=0.3)
    axes[-1][0].set_xlabel("t [s]")
    outside_legend(axes[0][0])
    fig.suptitle(f"invariant and constraint drift: {case}")
    save(fig, out, "drift", case)


def step_size(out, case, rows):
    if not SHARE.mine():
        return
    files = [(r, os.path.join(out, "steps", f'{r["index"]}.csv')) for r in rows]
    files = [(r, f) for r, f in files if os.path.exists(f)]
    if not files:
        return
    fig, ax = plt.subplots(figsize=(7, 4))
    styles = series_styles({f'{label(r)} {setting(r)}': r for r, _ in files})
    runs = []
    for r, f in files:
        with open(f) as fh:
            data = [d for d in csv.DictReader(fh) if d["accepted"] == "1"]
        if data:
            runs.append((r, [num(d["t"]) for d in data], [num(d["h"]) for d in data]))
    # Steps that stay within a factor 2 of each other in every run (an energy-preserving VI's h_k/h0
    # in [0.69, 1]) are drawn relative to each run's first step on a linear axis, where their
    # variation shows; otherwise h on a logarithmic axis.
    relative = bool(runs) and all(min(h) > 0 and max(h) < 2 * min(h) for _, _, h in runs)
    for j, (r, t, h) in enumerate(runs):
        ys = [x / h[0] for x in h] if relative else h
        (ax.plot if relative else ax.semilogy)(t, ys, lw=0.9, label=f'{label(r)} {setting(r)}',
                                               **sparse_markers(styles[f'{label(r)} {setting(r)}'], len(t), j, len(files)))
    ax.set_xlabel("t [s]")
    ax.set_ylabel("h_k / h_1 (each run's first step)" if relative else "accepted step size h [s]")
    ax.grid(True, which="both", alpha=0.3)
    outside_legend(ax)
    ax.set_title(f"step size: {case}")
    save(fig, out, "step_size", case)


def contractivity(out, case, rows):
    """One-step groups: d(phi_h(p), phi_h(q)) / d(p, q) against h (B-stability, thesis ch. 4)."""
    if not SHARE.mine():
        return
    runs = [r for r in rows if r["status"] == "ok" and not math.isnan(num(r.get("distance_ratio", "")))]
    if len({num(r["step"]) for r in runs}) < 2:
        return  # one step size (a swept case: the sweep figure draws the ratio against the swept value)
    fig, ax = plt.subplots(figsize=(6.5, 4.5))
    series, first = {}, {}
    for r in runs:
        series.setdefault(label(r), []).append((num(r["step"]), num(r["distance_ratio"])))
        first.setdefault(label(r), r)
    styles = series_styles(first)
    for name, pts in sorted(series.items()):
        pts.sort()
        ax.plot([p[0] for p in pts], [p[1] for p in pts], label=name, ms=3, **styles[name])
    ax.axhline(1.0, color="k", lw=0.8, ls="--")
    ax.set_xlabel("step size h")
    ax.set_ylabel("d(φ_h(p), φ_h(q)) / d(p, q)")
    ax.grid(True, alpha=0.3)
    outside_legend(ax)
    ax.set_title(f"one-step distance ratio: {case}")
    save(fig, out, "contractivity", case)


def arrival_points(r, prefix="arrival"):
    """The one-step run's result phi_h(p) ("arrival") or phi_h(q) ("pair_arrival") as a tuple of its
    state components (columns "arrival:NAME" in name order), or None."""
    names = sorted(k.split(":", 1)[1] for k in r if k.startswith("arrival:") and r[k] not in ("", None))
    if not names:
        return None
    values = tuple(num(r.get(f"{prefix}:{n}", "")) for n in names)
    return values if all(math.isfinite(v) for v in values) else None


def arrival_axes(fig, position, points):
    """3-D axes around arrival points of a 3-component state (equal ranges, with a margin, so that
    short arcs show); the unit sphere's grid inside them, light, when every point lies on it (S^2)."""
    import numpy as np
    ax = fig.add_subplot(position, projection="3d")
    lo = [min(p[k] for p in points) for k in range(3)]
    hi = [max(p[k] for p in points) for k in range(3)]
    half = 0.6 * max(max(h - l for l, h in zip(lo, hi)), 1e-3)
    box = [(0.5 * (l + h) - half, 0.5 * (l + h) + half) for l, h in zip(lo, hi)]
    for (a, b), setter in zip(box, (ax.set_xlim, ax.set_ylim, ax.set_zlim)):
        setter(a, b)
    if all(abs(math.sqrt(sum(c * c for c in p)) - 1) < 1e-6 for p in points):
        u, v = np.meshgrid(np.linspace(0, 2 * np.pi, 145), np.linspace(0, np.pi, 73))
        xyz = [np.cos(u) * np.sin(v), np.sin(u) * np.sin(v), np.cos(v)]
        outside = np.zeros(u.shape, dtype=bool)
        for c, (a, b) in zip(xyz, box):
            outside |= (c < a) | (c > b)
        xyz = [np.where(outside, np.nan, c) for c in xyz]  # (3-D axes do not clip)
        ax.plot_wireframe(*xyz, rstride=4, cstride=4, color="0.85", lw=0.4)
    return ax


def arrivals(out, case, rows):
    """One-step groups on a 3-component state (a point of S^2): the results phi_h(p) (solid) and
    phi_h(q) (dashed) of every method over its steps h (the thesis' Figs. 4.3 and 4.4, left and top:
    one step with increasing h)."""
    if not SHARE.mine():
        return
    series, first = {}, {}
    for r in rows:
        a, b = (arrival_points(r), arrival_points(r, "pair_arrival")) if r["status"] == "ok" else (None, None)
        if a and b and len(a) == 3:
            series.setdefault(label(r), []).append((num(r["step"]), a, b))
            first.setdefault(label(r), r)
    if not series or max(len(pts) for pts in series.values()) < 2:
        return  # one step size: nothing to trace (a swept case: the sweep figure draws it)
    styles = series_styles(first)
    fig = plt.figure(figsize=(7.5, 6.5))
    ax = arrival_axes(fig, 111, [p for pts in series.values() for x in pts for p in x[1:]])
    for name, pts in sorted(series.items()):
        pts.sort()
        kw = styles[name]
        ax.plot(*zip(*[p[1] for p in pts]), label=name, ms=3, lw=1.0, **kw)
        ax.plot(*zip(*[p[2] for p in pts]), ms=3, lw=1.0, **dict(kw, linestyle="--", markerfacecolor="none"))
    ax.set_xlabel("y1")
    ax.set_ylabel("y2")
    ax.set_zlabel("y3")
    outside_legend(ax)
    hs = sorted({p[0] for pts in series.values() for p in pts})
    ax.set_title(f"one step from p (solid) and from q (dashed), h = {hs[0]:g} ... {hs[-1]:g}: {case}", fontsize=9)
    save(fig, out, "arrivals", case)


def roots(out, case, rows):
    """Methods with a root survey (diagnostic roots): the number of roots found against h."""
    if not SHARE.mine():
        return
    runs = [r for r in rows if r["status"] == "ok" and not math.isnan(num(r.get("max:roots", "")))]
    if not runs:
        return
    fig, ax = plt.subplots(figsize=(6.5, 4))
    series, first = {}, {}
    for r in runs:
        series.setdefault(label(r), []).append((num(r["step"]), num(r["max:roots"])))
        first.setdefault(label(r), r)
    styles = series_styles(first)
    for name, pts in sorted(series.items()):
        pts.sort()
        kw = styles[name]
        ax.step([p[0] for p in pts], [p[1] for p in pts], where="mid", label=name, **kw, ms=3)
    ax.set_xlabel("step size h")
    ax.set_ylabel("roots of the step equations found")
    ax.grid(True, alpha=0.3)
    outside_legend(ax)
    ax.set_title(f"roots: {case}")
    save(fig, out, "roots", case)


def stability_maps(out, rows):
    """Cases swept over one parameter, with runs over several fixed steps: per method, the largest
    energy change max|E - E0| (colour, log scale) over (h, swept value); a run that is not "ok" -- one
    that "diverged" (its state or a conserved invariant blew up) or "failed" -- is unstable: a red x."""
    if not rows or "drift:energy" not in rows[0]:
        return
    bases = {}
    for r in rows:
        m = re.fullmatch(r"(.*)\[([^,=\]]+)=([^,\]]+)\]", r["case"])
        if m and num(r["step"]) > 0 and math.isnan(num(r.get("distance_ratio", ""))):
            bases.setdefault((m.group(1), m.group(2)), []).append((num(m.group(3)), r))
    for (base, key), items in bases.items():
        if not SHARE.mine():
            continue
        methods = {}
        for value, r in items:
            methods.setdefault(label(r), []).append((num(r["step"]), value, r))
        methods = {k: v for k, v in methods.items() if len({p[0] for p in v}) >= 3 and len({p[1] for p in v}) >= 2}
        if not methods:
            continue
        cols = min(3, len(methods))
        rows_n = (len(methods) + cols - 1) // cols
        fig, axes = plt.subplots(rows_n, cols, figsize=(4.6 * cols, 3.6 * rows_n), squeeze=False, constrained_layout=True)
        drifts = [num(p[2]["drift:energy"]) for v in methods.values() for p in v if p[2]["status"] == "ok"]
        drifts = [d for d in drifts if d > 0 and math.isfinite(d)]
        drifts.sort()
        lo, hi = (math.log10(drifts[0]), math.log10(drifts[-1])) if drifts else (-16, 0)
        hi = min(hi, math.log10(drifts[len(drifts) // 2]) + 6) if drifts else hi  # saturate 6 decades above the median
        scatter = None
        for ax, (name, pts) in zip(axes.flat, sorted(methods.items())):
            ok = [(h, v, math.log10(max(num(r["drift:energy"]), 1e-300))) for h, v, r in pts if r["status"] == "ok"]
            bad = [(h, v) for h, v, r in pts if r["status"] != "ok"]
            if ok:
                scatter = ax.scatter([p[0] for p in ok], [p[1] for p in ok], c=[p[2] for p in ok], cmap="viridis",
                                     vmin=lo, vmax=hi, s=60, marker="s")
            if bad:
                ax.scatter([p[0] for p in bad], [p[1] for p in bad], c="red", marker="x", s=60)
            ax.set_xscale("log")
            ax.set_xlabel("step size h")
            ax.set_ylabel(key)
            ax.set_title(name, fontsize=9)
            ax.grid(True, alpha=0.3)
        for ax in list(axes.flat)[len(methods):]:
            ax.axis("off")
        if scatter is not None:
            fig.colorbar(scatter, ax=axes.ravel().tolist(), label="log10 max|E - E0|")
        fig.suptitle(f"{base}: energy change over (h, {key}); red x: unstable (the run diverged or failed)")
        save(fig, out, "stability_map", f"{base}_{key}")


def shade(colour, amount):
    """`colour` mixed with black (amount > 0) or white (amount < 0), |amount| in [0, 1]."""
    rgb = matplotlib.colors.to_rgb(colour)
    towards = 0.0 if amount > 0 else 1.0
    return matplotlib.colors.to_hex([c + abs(amount) * (towards - c) for c in rgb])


def series_styles(first):
    """{series name: plot kwargs} for the series of one figure (`first`: a row of each; every figure
    of the script draws through it). In one figure every series has a colour and a marker of its own
    (while markers last: 14): a series takes its method's colour and marker where no earlier series
    of the figure has them -- methods in name order, a method's settings (steps, tolerances, matched
    steps) from the smallest, drawn in shades of its colour from dark to light -- else a shade of
    that colour (counterparts such as rk4 and rkmk4, which share a colour across figures, become
    red and dark red), else the next free colour of the palettes, and the next free marker. The
    line style stays the run's kind (fixed, adaptive, matched)."""
    by_method = {}
    for name, r in first.items():
        by_method.setdefault(r["integrator"], []).append(name)
    doc = styles_doc()
    spare = [matplotlib.colors.to_hex(c) for c in doc["palette"] + doc["plugin_palette"]]
    spare += [matplotlib.colors.to_hex(plt.get_cmap("viridis")(k / 15)) for k in range(16)]
    markers = ["o", "s", "D", "^", "v", "P", "X", "*", "d"] + EXTRA_MARKERS
    colours_taken, markers_taken, out = set(), set(), {}
    for method in sorted(by_method):
        names = sorted(by_method[method], key=lambda n: (num(first[n]["step"]), num(first[n]["tolerance"]), n))
        for k, name in enumerate(names):
            kw = plot_kw(first[name])
            base = matplotlib.colors.to_hex(kw["color"])
            preferred = base if len(names) == 1 else shade(base, 0.5 - 0.9 * k / (len(names) - 1))
            candidates = [preferred, shade(base, 0.45), shade(base, -0.45)] + spare
            kw["color"] = next((c for c in candidates if c not in colours_taken), preferred)
            kw["marker"] = next((m for m in [kw["marker"]] + markers if m not in markers_taken), kw["marker"])
            colours_taken.add(kw["color"])
            markers_taken.add(kw["marker"])
            out[name] = kw
    return out


def sweeps(out, rows):
    """Cases expanded from one swept case: error, steps and time against the swept parameter; for
    one-step groups (B-stability) the distance ratio d(phi_h(p), phi_h(q)) / d(p, q) instead."""
    bases = {}
    for r in rows:
        m = re.fullmatch(r"(.*)\[(.*)\]", r["case"])
        if not m:
            continue
        pairs = [p.split("=", 1) for p in m.group(2).split(",")]
        if any(len(p) != 2 for p in pairs):
            continue
        # One plot per swept key, the other swept values fixed (part of the base name).
        for k, (key, value) in enumerate(pairs):
            rest = ",".join(f"{a}={b}" for j, (a, b) in enumerate(pairs) if j != k)
            base = m.group(1) + (f"[{rest}]" if rest else "")
            bases.setdefault((base, key), []).append((num(value), r))
    for (base, key), items in bases.items():
        if not SHARE.mine() or len({x for x, _ in items}) < 2:
            continue
        # One-step runs (one_step groups) have no error: their measure is the distance ratio.
        one_step = all(math.isfinite(num(r.get("distance_ratio", ""))) for _, r in items if r["status"] == "ok")
        # One-step runs on a point of S^2 (3 components): beside the ratio, the step's result phi_h(p)
        # across the swept value (the thesis' Fig. 4.6 left: the arrival point against c).
        against_h = one_step and len({num(r["step"]) for _, r in items}) > 1
        landing = [(x, r, arrival_points(r)) for x, r in items if r["status"] == "ok" and one_step and not against_h]
        landing = landing if landing and all(a is not None and len(a) == 3 for _, _, a in landing) else []
        if landing:
            fig = plt.figure(figsize=(15, 5))
            axes = [fig.add_subplot(121), arrival_axes(fig, 122, [a for _, _, a in landing])]
        else:
            fig, axes = plt.subplots(1, 1 if one_step else 3, figsize=(7.5 if one_step else 15, 4.2), squeeze=False)
            axes = axes[0]
        series = {}
        seconds, seconds_label = paired_seconds(rows)
        # One line per method and setting; a matched constant step (match_steps_of, match_error_of)
        # counts as one setting although h differs from case to case.
        def matched_setting(r):
            # "<group>|<case>|<method>|match|<matched run id>": one line per setting of the matched
            # adaptive runs ("same error as tol=1e-06"), whatever the case.
            for tag, what in (("|match|", "same steps as"), ("|match_error|", "same error as")):
                if tag in r["run_id"]:
                    fields = r["run_id"].split(tag, 1)[1].split("|")
                    setting_of_matched = f"{fields[3]}={fields[4].split(';')[0]}" if len(fields) >= 5 else "?"
                    return f"{what} {setting_of_matched}"
            return setting(r)

        settings_of, first = {}, {}
        for _, r in items:
            settings_of.setdefault(label(r), set()).add(matched_setting(r))
        # One-step runs of several step sizes: the ratio against h, one line per swept value (the
        # thesis' Fig. 4.6 right: c = 0, 1, 2 on one plot), not straight lines between swept values.
        for x, r in items:
            if r["status"] == "ok" and against_h:
                name = f"{label(r)} {key}={x:g}"
                series.setdefault(name, []).append((num(r["step"]), num(r["distance_ratio"]), 0, 0, None))
                first.setdefault(name, dict(r, step="0"))  # shades by swept value, not by step
            elif r["status"] == "ok":
                name = label(r) if len(settings_of[label(r)]) == 1 else f"{label(r)} {matched_setting(r)}"
                measure = num(r["distance_ratio"]) if one_step else err(r)
                series.setdefault(name, []).append((x, measure, int(r["steps"]), seconds(r), arrival_points(r)))
                first.setdefault(name, r)
        styles = series_styles(first)
        for name, pts in sorted(series.items()):
            pts.sort()
            xs = [p[0] for p in pts]
            if one_step:
                axes[0].plot(xs, [p[1] for p in pts], label=name, ms=4, **styles[name])
                if landing:
                    axes[1].plot(*zip(*[p[4] for p in pts]), label=name, ms=4, lw=1.0, **dict(styles[name], linestyle="--"))
                    for x, *_, a in (pts[0], pts[-1]):
                        axes[1].text(*a, f" {key} = {x:g}", fontsize=7)
                continue
            axes[0].semilogy(xs, [p[1] for p in pts], label=name, ms=4, **styles[name])
            axes[1].plot(xs, [p[2] for p in pts], label=name, ms=4, **styles[name])
            axes[2].semilogy(xs, [p[3] for p in pts], label=name, ms=4, **styles[name])
        if one_step:
            axes[0].axhline(1.0, color="0.5", linewidth=0.8)
            axes[0].set_ylabel("d(phi_h(p), phi_h(q)) / d(p, q)  (one step)")
        else:
            axes[0].set_ylabel(ERROR["label"])
            axes[1].set_ylabel("accepted steps")
            axes[2].set_ylabel(seconds_label)
        if landing:
            axes[1].set_title(f"phi_h(p) against {key} (dashed)", fontsize=9)
            axes[1].set_xlabel("y1")
            axes[1].set_ylabel("y2")
            axes[1].set_zlabel("y3")
        for ax in axes[:1] if landing else axes:
            ax.set_xlabel("step size h" if against_h else key)
            ax.grid(True, which="both", alpha=0.3)
        outside_legend(axes[-1])
        fig.suptitle(f"{base}: sweep over {key}" + (f" (a line per {key})" if against_h else ""))
        save(fig, out, "sweep", f"{base}_{key}" if "[" in base else base)


def read_series(out, rows):
    """(row, {column: [values]}) of every run of `rows` that wrote a time series."""
    series = []
    for r in rows:
        f = os.path.join(out, "series", f'{r["index"]}.csv')
        if not os.path.exists(f):
            continue
        with open(f) as fh:
            data = list(csv.DictReader(fh))
        if data:
            series.append((r, {k: [num(d[k]) for d in data] for k in data[0]}))
    return series


def read_reference(out, case, columns):
    """{column: [values]} of the case's reference series (reference/<case>.csv), or None when the
    study wrote none (an exact reference) or it lacks a column."""
    for name in (case, safe(case)):
        path = os.path.join(out, "reference", f"{name}.csv")
        if os.path.exists(path):
            with open(path) as fh:
                data = list(csv.DictReader(fh))
            if data and all(c in data[0] for c in ["t"] + columns):
                return {k: [num(d[k]) for d in data] for k in data[0]}
    return None


def figure(out, case, rows, spec):
    """A [[figure]] of the study file: columns of the series against t (or the step number), or a
    path in space; of one case, or (case None: together = true) of every case of `rows`, its series
    named by their case."""
    series = [(r, d) for r, d in read_series(out, rows) if all(c in d for c in spec["columns"] + spec.get("against", []))]
    if not series:
        return
    cols, against = spec["columns"], spec.get("against", [])
    title = spec.get("title", spec["name"]) + (f": {case}" if case is not None else "")
    names = [f"{'' if case is not None else r['case'] + ': '}{label(r)} ({setting(r)})" for r, _ in series]
    steps = spec.get("x", "t") == "step"

    def abscissa(r, d):
        return [t / num(r["step"]) for t in d["t"]] if steps else d["t"]

    styles = series_styles(dict(zip(names, (r for r, _ in series))))
    reference = read_reference(out, case, cols) if spec.get("reference") else None
    grey = {"color": "0.6", "lw": 2.2, "label": "reference", "zorder": 0}
    if spec.get("kind", "series") == "path":
        three = len(cols) == 3
        fig = plt.figure(figsize=(7.5, 6))
        ax = fig.add_subplot(projection="3d" if three else None)
        if against:
            ax.plot(*[series[0][1][c] for c in against], "k--", lw=1.2, label=" / ".join(against))
        if reference:
            ax.plot(*[reference[c] for c in cols], **grey)
        for j, (name, (r, d)) in enumerate(zip(names, series)):
            ax.plot(*[d[c] for c in cols], lw=1.0, label=name, **sparse_markers(styles[name], len(d[cols[0]]), j, len(series)))
            ax.scatter(*[[d[c][0]] for c in cols], marker="o", s=18)
        ax.set_xlabel(cols[0])
        ax.set_ylabel(cols[1])
        if three:
            ax.set_zlabel(cols[2])
        for a in spec.get("invert", []):
            getattr(ax, f"invert_{a}axis")()
        outside_legend(ax)
    else:
        fig, axes = plt.subplots(len(cols), 1, figsize=(7.5, 2.3 * len(cols) + 0.6), sharex=True, squeeze=False)
        for k, c in enumerate(cols):
            ax = axes[k][0]
            for j, (name, (r, d)) in enumerate(zip(names, series)):
                vals = [max(abs(v), 1e-17) if v == v else math.nan for v in d[c]] if spec.get("log") else d[c]
                ax.plot(abscissa(r, d), vals, lw=0.9, label=name, **sparse_markers(styles[name], len(vals), j, len(series)))
            if against:
                ax.plot(series[0][1]["t"], series[0][1][against[k]], "k--", lw=1.0, label=against[k])
            if reference:
                ax.plot(reference["t"], reference[c], **grey)
            if spec.get("log"):
                ax.set_yscale("log")
            ax.set_ylabel(f"|{c}|" if spec.get("log") else c, fontsize=8)
            ax.grid(True, which="both", alpha=0.3)
        axes[-1][0].set_xlabel("step k = t / h (iteration)" if steps else "t [s]")
        outside_legend(axes[0][0])
    fig.suptitle(title)
    save(fig, out, f'figure_{spec["name"]}', case)


def figures(out, rows):
    path = os.path.join(out, "study.toml")
    if not os.path.exists(path):
        return
    with open(path, "rb") as fh:
        specs = tomllib.load(fh).get("figure", [])
    for spec in specs:
        if spec.get("kind") == "strobe":
            continue  # drawn by liesim itself (the model's scene: strobe.py), not from the series
        wanted = spec.get("cases", [])
        cases = [c for c in sorted({r["case"] for r in rows}) if not wanted or any(c == w or c.startswith(w + "[") for w in wanted)]
        if spec.get("together"):
            if SHARE.mine():
                figure(out, None, [r for r in rows if r["case"] in cases], spec)
            continue
        for case in cases:
            if SHARE.mine():
                figure(out, case, [r for r in rows if r["case"] == case], spec)


def main():
    args = sys.argv[1:]
    while len(args) > 1 and args[0] in ("--progress-fd", "--part"):
        if args[0] == "--progress-fd":
            PROGRESS.stream = os.fdopen(int(args[1]), "w")
        else:
            k, n = (int(x) for x in args[1].split("/"))
            if not 1 <= k <= n:
                sys.exit(f"--part K/N needs 1 <= K <= N (got {args[1]})")
            SHARE.k, SHARE.n = k, n
        args = args[2:]
    if len(args) != 1:
        sys.exit(__doc__)
    out = args[0]
    with open(os.path.join(out, "results.csv")) as fh:
        rows = list(csv.DictReader(fh))
    os.makedirs(os.path.join(out, "plots"), exist_ok=True)
    study_file = os.path.join(out, "study.toml")
    if os.path.exists(study_file):
        with open(study_file, "rb") as fh:
            column, text = ERROR_MEASURES[tomllib.load(fh).get("error", "final")]
        ERROR.update(column=column, label=text)
    STYLE.update(style_map({r["integrator"] for r in rows}))
    for case in sorted({r["case"] for r in rows}):
        sel = [r for r in rows if r["case"] == case]
        convergence(out, case, sel)
        work_precision(out, case, sel)
        drift(out, case, sel)
        step_size(out, case, sel)
        contractivity(out, case, sel)
        arrivals(out, case, sel)
        roots(out, case, sel)
    sweeps(out, rows)
    stability_maps(out, rows)
    figures(out, rows)


if __name__ == "__main__":
    main()
