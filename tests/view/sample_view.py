#!/usr/bin/python3
"""Builds a sample viewer page without the C++ side: the template (framework/share/viewer/view.html)
with Debian's three.js r111 and a synthetic view data document (docs/view-format.md) that draws
every shape (sphere, box, cylinder, capsule, axes, segment with and without a radius, arrow), two
runs (the second ends early), a dashed path, a ground plane and 200 frames of a spinning box and a
swinging pendulum.

    sample_view.py OUT.html [--runs R] [--no-bodies] [--inject-error]

--runs R (0 to 4, default 2) and --no-bodies build the degenerate pages; --inject-error adds a
script that throws, for checking that browser_check.py fails. Stdlib only (Debian's /usr/bin/python3).
"""
import argparse
import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TEMPLATE = os.path.join(HERE, "..", "..", "framework", "share", "viewer", "view.html")
THREE_DIR = "/usr/share/javascript/three"
MARKERS = ("/*@THREE_JS@*/", "/*@ORBIT_CONTROLS_JS@*/", "/*@VIEW_DATA@*/")


def quat(axis, angle):
    """Unit quaternion [qx, qy, qz, qw] of a rotation by angle about axis."""
    n = math.sqrt(sum(a * a for a in axis))
    s = math.sin(angle / 2) / n
    return [axis[0] * s, axis[1] * s, axis[2] * s, math.cos(angle / 2)]


def qmul(a, b):
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return [aw * bx + ax * bw + ay * bz - az * by,
            aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw,
            aw * bw - ax * bx - ay * by - az * bz]


def r6(v):
    return [round(x, 6) for x in v]


PIVOT = (0.0, 0.0, 1.2)
LENGTH = 0.6


def bob(t, omega, amp=0.9):
    """Position and velocity of a pendulum bob swinging in the x-z plane."""
    th = amp * math.cos(omega * t)
    dth = -amp * omega * math.sin(omega * t)
    p = (PIVOT[0] + LENGTH * math.sin(th), 0.0, PIVOT[2] - LENGTH * math.cos(th))
    v = (LENGTH * math.cos(th) * dth, 0.0, LENGTH * math.sin(th) * dth)
    return p, v, th


def poses_at(t, spin, omega, bodies):
    """The 7 numbers of every body at time t."""
    p, v, _ = bob(t, omega)
    box_c = (0.7, 0.0, 0.45)
    box_q = qmul(quat((0.3, 0.2, 1.0), spin * t), quat((1, 0, 0), 0.4))
    cyl_q = qmul(quat((0, 0, 1), 0.8 * t), quat((1, 0, 0), 0.5))
    cap_q = quat((0, 1, 0), 0.6 * math.sin(1.5 * t))
    table = {
        "bob": list(p) + [0, 0, 0, 1],
        "rod": list(PIVOT) + list(p) + [0],
        "velocity": list(p) + [p[i] + 0.25 * v[i] for i in range(3)] + [0],
        "box": list(box_c) + box_q,
        "box frame": list(box_c) + box_q,
        "spring": [0.7, 0.0, 0.0] + list(box_c) + [0],
        "wheel": [-0.6, 0.45, 0.35] + cyl_q,
        "capsule": [-0.5, -0.5, 0.3] + cap_q,
    }
    out = []
    for b in bodies:
        out += r6(table[b["name"]])
    return out


def view_data(runs, with_bodies):
    bodies = [
        {"name": "box", "shape": "box", "size": [0.3, 0.2, 0.1], "color": "#4477aa"},
        {"name": "box frame", "shape": "axes", "size": [0.25], "color": "#000000"},
        {"name": "spring", "shape": "segment", "size": [0], "color": "#555555"},
        {"name": "rod", "shape": "segment", "size": [0.012], "color": "#777777"},
        {"name": "bob", "shape": "sphere", "size": [0.08], "color": "#228833"},
        {"name": "velocity", "shape": "arrow", "size": [0.01], "color": "#ee6677"},
        {"name": "wheel", "shape": "cylinder", "size": [0.12, 0.08], "color": "#ccbb44"},
        {"name": "capsule", "shape": "capsule", "size": [0.05, 0.25], "color": "#aa3377"},
    ] if with_bodies else []
    frames = 200
    times = [round(0.02 * k, 6) for k in range(frames)]
    specs = [  # label, colour, box spin, pendulum frequency, last frame with a sample
        ("reference (rkmk5, h = 1e-4)", "#000000", 2.0, 4.0, frames - 1),
        ("rkmk4 (h = 0.02)", "#ee7733", 2.1, 4.15, 169),
        ("euler (h = 0.02)", "#0077bb", 1.8, 3.7, frames - 1),
        ("cg2 (h = 0.02)", "#009988", 2.05, 4.05, 120),
    ][:runs]
    out_runs = []
    for i, (label, color, spin, omega, last) in enumerate(specs):
        poses, values, distance = [], [], []
        for k, t in enumerate(times):
            tk = times[min(k, last)]
            poses.append(poses_at(tk, spin, omega, bodies))
            if k > last:
                values.append(None)
                distance.append(None)
                continue
            _, _, th = bob(tk, omega)
            energy = 5435.7 + (i * 0.37 * tk)
            values.append([round(energy, 4), (1 + i) * 1e-16 * k, round(th, 6)])
            distance.append(None if i == 0 else abs(omega - 4.0) * tk * 0.1 + 1e-9 * k)
        out_runs.append({"label": label, "color": color, "poses": poses, "values": values, "distance": distance})
    arc = [r6(bob(0, 1.0, amp)[0]) for amp in [0.9 * (1 - 2 * j / 40) for j in range(41)]]
    return {
        "format": "liesim-view 1",
        "title": "sample: a spinning box and a swinging pendulum (every shape)",
        "scene": {
            "bodies": bodies,
            "up": [0, 0, 1],
            "ground": 0,
            "extent": 1.0,
            "paths": [{"name": "bob arc", "points": arc}],
        },
        "times": times,
        "thinned": {"frames": frames, "samples": 2001},
        "columns": ["energy", "orthogonality", "angle"],
        "runs": out_runs,
    }


def assemble(template, three, orbit, data_json):
    """Substitutes the three markers (each alone on its line) as the C++ side does."""
    lines = template.split("\n")
    for marker, text in zip(MARKERS, (three, orbit, data_json)):
        hits = [i for i, line in enumerate(lines) if line.strip() == marker]
        if len(hits) != 1:
            sys.exit(f"sample_view.py: the template has {len(hits)} lines holding only {marker}, expected 1")
        lines[hits[0]] = text
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out")
    ap.add_argument("--runs", type=int, default=2, choices=range(0, 5))
    ap.add_argument("--no-bodies", action="store_true")
    ap.add_argument("--inject-error", action="store_true")
    ap.add_argument("--template", default=TEMPLATE)
    ap.add_argument("--three-dir", default=THREE_DIR)
    args = ap.parse_args()

    with open(args.template, encoding="utf-8") as fh:
        template = fh.read()
    with open(os.path.join(args.three_dir, "three.min.js"), encoding="utf-8") as fh:
        three = fh.read()
    with open(os.path.join(args.three_dir, "examples", "js", "controls", "OrbitControls.js"), encoding="utf-8") as fh:
        orbit = fh.read()
    data = json.dumps(view_data(args.runs, not args.no_bodies), separators=(",", ":")).replace("</", "<\\/")
    page = assemble(template, three, orbit, data)
    if args.inject_error:
        head, tail = page.rsplit("</body>", 1)
        page = head + "<script>window.setTimeout(function () { undefinedFunction(); }, 300);</script>\n</body>" + tail
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w", encoding="utf-8") as fh:
        fh.write(page)


if __name__ == "__main__":
    main()
