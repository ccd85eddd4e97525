#!/usr/bin/python3
"""The strobe figure script (framework/share/strobe.py) on synthetic view data (docs/view-format.md).

    /usr/bin/python3 tests/view/test_strobe.py [--keep DIR]

Builds a planar double pendulum (two segment links and two sphere bobs, with a ground and the
dashed path of the lower bob), a document with every shape, and a box with its axes triad tumbling
along a thrown path (up [0, 0, -1], as a NED model), draws them to PNG and PDF, and checks that the
files are valid and not blank, that more exposures put more ink on the page, that --run picks a
run and that bad inputs fail with exit status 1 and a message saying what is wrong. Exit status 0
when every check passes. --keep DIR: leave the documents and figures in DIR (to look at them).
STROBE_PY (environment): the script to test (default: the one of this source tree).
Debian 12's /usr/bin/python3 with python3-matplotlib, python3-numpy and python3-pil.
"""
import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time

from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
STROBE = os.environ.get("STROBE_PY", os.path.join(HERE, "..", "..", "framework", "share", "strobe.py"))
PYTHON = "/usr/bin/python3"


# --------------------------------------------------------------------------------------------------
# Synthetic view data


def quat(axis, angle):
    """Unit quaternion [qx, qy, qz, qw] of a rotation by angle about axis."""
    n = math.sqrt(sum(a * a for a in axis))
    s = math.sin(angle / 2) / n
    return [axis[0] * s, axis[1] * s, axis[2] * s, math.cos(angle / 2)]


def document(title, bodies, times, poses, up=(0, 0, 1), ground=None, paths=(), extent=1.0, runs=None):
    """A "liesim-view 1" document; poses: one list of 7 x len(bodies) numbers per time (run 0)."""
    if runs is None:
        runs = [{"label": "run", "color": "#000000", "poses": poses, "values": [[0.0] for _ in times],
                 "distance": [None for _ in times]}]
    return {"format": "liesim-view 1", "title": title,
            "scene": {"bodies": bodies, "up": list(up), "ground": ground, "extent": extent,
                      "paths": [{"name": n, "points": p} for n, p in paths]},
            "times": list(times), "thinned": None, "columns": ["energy"], "runs": runs}


def double_pendulum_angles(t):
    """A swing of the two link angles (from the downward vertical): a smooth, plausible motion."""
    return 1.1 * math.cos(1.3 * t), 1.1 * math.cos(1.3 * t) + 0.9 * math.sin(2.1 * t)


def double_pendulum(times, pivot=(0.0, 0.0, 2.2), lengths=(1.0, 0.8)):
    """A planar (x-z) double pendulum: links as segments with a radius, bobs as spheres, a ground
    at height 0 and the path of the lower bob."""
    bodies = [{"name": "link 1", "shape": "segment", "size": [0.02], "color": "#4477aa"},
              {"name": "link 2", "shape": "segment", "size": [0.02], "color": "#ee6677"},
              {"name": "bob 1", "shape": "sphere", "size": [0.07], "color": "#4477aa"},
              {"name": "bob 2", "shape": "sphere", "size": [0.07], "color": "#ee6677"}]

    def joints(t):
        a, b = double_pendulum_angles(t)
        p1 = [pivot[0] + lengths[0] * math.sin(a), 0.0, pivot[2] - lengths[0] * math.cos(a)]
        p2 = [p1[0] + lengths[1] * math.sin(b), 0.0, p1[2] - lengths[1] * math.cos(b)]
        return p1, p2

    poses = []
    for t in times:
        p1, p2 = joints(t)
        poses.append(list(pivot) + p1 + [0] + p1 + p2 + [0] + p1 + [0, 0, 0, 1] + p2 + [0, 0, 0, 1])
    path = [joints(times[0] + (times[-1] - times[0]) * j / 200)[1] for j in range(201)]
    return document("double pendulum", bodies, times, poses, ground=0.0, paths=[("bob 2", path)], extent=2.0)


def every_shape(times):
    """One body of each shape, moving a little, with a ground and a path."""
    bodies = [{"name": "ball", "shape": "sphere", "size": [0.15], "color": "#228833"},
              {"name": "brick", "shape": "box", "size": [0.4, 0.25, 0.15], "color": "#4477aa"},
              {"name": "brick frame", "shape": "axes", "size": [0.3], "color": "#000000"},
              {"name": "wheel", "shape": "cylinder", "size": [0.15, 0.1], "color": "#ccbb44"},
              {"name": "pill", "shape": "capsule", "size": [0.08, 0.3], "color": "#aa3377"},
              {"name": "string", "shape": "segment", "size": [0], "color": "#555555"},
              {"name": "rod", "shape": "segment", "size": [0.015], "color": "#777777"},
              {"name": "force", "shape": "arrow", "size": [0.01], "color": "#ee6677"}]
    poses = []
    for t in times:
        q = quat((0.3, 0.2, 1.0), 0.8 * t)
        poses.append([-0.8 + 0.3 * t, 0.6, 0.3] + [0, 0, 0, 1]
                     + [0.0, 0.0, 0.3 + 0.05 * t] + q
                     + [0.0, 0.0, 0.3 + 0.05 * t] + q
                     + [0.8, -0.5, 0.3] + quat((1, 0, 0), 0.5 * t)
                     + [-0.6, -0.6, 0.3] + quat((0, 1, 0), 0.4 * t)
                     + [0.8, 0.6, 0.0, 0.8, 0.6, 0.6 + 0.1 * t, 0]
                     + [-0.2, 0.8, 0.0, -0.2 + 0.1 * t, 0.8, 0.7, 0]
                     + [0.3, -0.9, 0.2, 0.8, -0.9 + 0.1 * t, 0.5, 0])
    path = [[-0.8 + 0.3 * s / 10, 0.6, 0.3] for s in range(0, 51)]
    return document("every shape", bodies, times, poses, ground=0.0, paths=[("ball", path)], extent=1.5)


def framed(doc, margin=0.3):
    """doc with an unnamed path along the diagonal of the bounding box of all its run 0 poses and
    the ground (so that documents of the same motion get the same axes)."""
    pts = [p[i:i + 3] for p in doc["runs"][0]["poses"] for i in range(0, len(p), 7)]
    pts += [q[3:6] for p in doc["runs"][0]["poses"] for q in [p[i:i + 7] for i in range(0, len(p), 7)]]
    pts += [pt for path in doc["scene"]["paths"] for pt in path["points"]] + [[0, 0, 0]]
    lo = [min(p[i] for p in pts) - margin for i in range(3)]
    hi = [max(p[i] for p in pts) + margin for i in range(3)]
    doc["scene"]["paths"].append({"name": "", "points": [lo, hi]})
    return doc


def tumbling_box(times, ned=True):
    """A box (with its axes triad) thrown along a parabola, tumbling about an off-axis direction.
    ned: in a north-east-down frame (up [0, 0, -1], heights negative z)."""
    sign = -1.0 if ned else 1.0
    bodies = [{"name": "box", "shape": "box", "size": [0.5, 0.3, 0.15], "color": "#4477aa"},
              {"name": "box frame", "shape": "axes", "size": [0.4], "color": "#000000"}]

    def centre(t):
        return [1.5 * t, 0.4 * t, sign * (0.4 + 3.0 * t - 0.981 * t * t)]

    poses = []
    for t in times:
        q = quat((0.4, 1.0, 0.3), 2.2 * t)
        poses.append(centre(t) + q + centre(t) + q)
    path = [centre(times[0] + (times[-1] - times[0]) * j / 100) for j in range(101)]
    return document("tumbling box", bodies, times, poses, up=(0, 0, sign), ground=0.0, paths=[("centre", path)],
                    extent=3.0)


# --------------------------------------------------------------------------------------------------
# Running the script and looking at its output


def run(args):
    """(exit status, stderr) of strobe.py with args."""
    p = subprocess.run([PYTHON, STROBE] + args, capture_output=True, text=True,
                       env=dict(os.environ, MPLBACKEND="Agg"), timeout=300)
    return p.returncode, p.stderr


def write(folder, name, doc):
    path = os.path.join(folder, name)
    with open(path, "w", encoding="utf-8") as fh:
        if isinstance(doc, str):
            fh.write(doc)
        else:
            json.dump(doc, fh)
    return path


def ink(png):
    """The number of pixels of the PNG that are not (nearly) white."""
    with Image.open(png) as im:
        return sum(im.convert("L").histogram()[:245])


def colour(png):
    """The number of pixels of the PNG in colour (not grey): the bodies, not the axes, grid, ground,
    text or colour bar of time (all grey)."""
    with Image.open(png) as im:
        hue, saturation, value = im.convert("RGB").convert("HSV").split()
        return sum(saturation.histogram()[20:])


FAILURES = []


def check(condition, what):
    print(("ok    " if condition else "FAIL  ") + what)
    if not condition:
        FAILURES.append(what)


def check_figure(path, kind):
    """The file exists and is a valid PNG (and not tiny) or PDF."""
    if not os.path.isfile(path):
        check(False, f"{os.path.basename(path)} exists")
        return
    with open(path, "rb") as fh:
        head = fh.read(8)
    size = os.path.getsize(path)
    if kind == "png":
        check(head == b"\x89PNG\r\n\x1a\n" and size > 20_000, f"{os.path.basename(path)}: a PNG of {size} bytes")
        with Image.open(path) as im:
            w, h = im.size
        check(w > 800 and h > 600, f"{os.path.basename(path)}: {w} x {h} pixels (200 dpi)")
    else:
        check(head.startswith(b"%PDF-") and size > 5_000, f"{os.path.basename(path)}: a PDF of {size} bytes")


def expect_failure(args, message, what):
    status, err = run(args)
    check(status == 1 and message in err, f"{what}: exit 1 with \"{message}\" (got {status}: {err.strip()[-200:]!r})")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--keep", metavar="DIR", help="write into DIR and keep the files")
    args = ap.parse_args()
    if args.keep:
        os.makedirs(args.keep, exist_ok=True)
        folder = args.keep
    else:
        folder = tempfile.mkdtemp(prefix="test_strobe.")
    start = time.time()
    try:
        six = [0.0, 0.5, 1.0, 1.5, 2.0, 2.5]
        pend = write(folder, "pendulum.json", double_pendulum(six))
        for ext in ("png", "pdf"):
            out = os.path.join(folder, f"pendulum.{ext}")
            status, err = run([pend, "--out", out])
            check(status == 0, f"pendulum.{ext}: exit 0 ({err.strip()[-300:]})")
            check_figure(out, ext)
        leftovers = [f for f in os.listdir(folder) if f.startswith(".strobe-")]
        check(not leftovers, f"no temporary files left ({leftovers})")

        # More exposures, more ink: the figure draws every frame. An unnamed path across the
        # bounding box of the whole motion gives every figure of this block the same axes.
        moving = framed(double_pendulum(six))
        still = framed(double_pendulum(six))
        for r in still["runs"]:
            r["poses"] = [r["poses"][-1]] * len(six)  # six exposures, all in the last pose
        single = double_pendulum(six[-1:])
        single["scene"]["paths"] = moving["scene"]["paths"]
        inks, colours = {}, {}
        for name, doc in (("moving", moving), ("still", still), ("single", single)):
            out = os.path.join(folder, f"pendulum_{name}.png")
            status, err = run([write(folder, f"pendulum_{name}.json", doc), "--out", out])
            check(status == 0, f"pendulum_{name}.png: exit 0 ({err.strip()[-300:]})")
            inks[name], colours[name] = (ink(out), colour(out)) if status == 0 else (0, 0)
        check(inks["single"] > 20_000, f"a single exposure is not blank ({inks['single']} pixels of ink)")
        check(colours["single"] > 500, f"a single exposure draws the bodies ({colours['single']} pixels in colour)")
        check(inks["moving"] > inks["single"] + 10_000,
              f"six exposures put more ink than one ({inks['moving']} > {inks['single']} + 10000)")
        check(colours["moving"] > 2 * colours["single"],
              f"six exposures draw the bodies six times ({colours['moving']} > 2 x {colours['single']} in colour)")
        check(colours["moving"] > 2 * colours["still"],
              f"... in their six poses ({colours['moving']} > 2 x {colours['still']} for six of one pose)")

        shapes = write(folder, "shapes.json", every_shape([0.0, 1.0, 2.0, 3.0, 4.0]))
        for ext in ("png", "pdf"):
            out = os.path.join(folder, f"shapes.{ext}")
            status, err = run([shapes, "--out", out, "--title", "every shape", "--elev", "30", "--azim", "-50"])
            check(status == 0, f"shapes.{ext}: exit 0 ({err.strip()[-300:]})")
            check_figure(out, ext)

        box = write(folder, "box.json", tumbling_box([0.0, 0.4, 0.8, 1.2, 1.6, 2.0, 2.4, 2.8]))
        for ext in ("png", "pdf"):
            out = os.path.join(folder, f"box.{ext}")
            status, err = run([box, "--out", out])
            check(status == 0, f"box.{ext} (up [0, 0, -1]): exit 0 ({err.strip()[-300:]})")
            check_figure(out, ext)

        # --run K: the second run of a two-run document, and an out-of-range K.
        two = double_pendulum(six)
        second = json.loads(json.dumps(two["runs"][0]))
        second["label"] = "second run"
        second["values"] = [[0.0], [0.0], [0.0], [0.0], None, None]  # ended early: two unsampled frames
        two["runs"].append(second)
        two_path = write(folder, "two_runs.json", two)
        status, err = run([two_path, "--run", "1", "--out", os.path.join(folder, "run1.png")])
        check(status == 0, f"--run 1: exit 0 ({err.strip()[-300:]})")
        if status == 0:
            run0 = colour(os.path.join(folder, "pendulum.png"))
            run1 = colour(os.path.join(folder, "run1.png"))
            check(0 < run1 < run0, f"--run 1 draws only the four sampled frames of run 1 ({run1} < {run0} in colour)")
        expect_failure([two_path, "--run", "2", "--out", os.path.join(folder, "x.png")], "out of range",
                       "--run 2 of 2 runs")

        # Bad inputs.
        out = os.path.join(folder, "bad.png")
        expect_failure([os.path.join(folder, "missing.json"), "--out", out], "cannot read", "a missing file")
        expect_failure([write(folder, "junk.json", "{not json"), "--out", out], "not JSON", "a file that is not JSON")
        expect_failure([write(folder, "other.json", {"format": "something else"}), "--out", out],
                       "not a view data document", "another format")
        empty = double_pendulum(six)
        empty["scene"]["bodies"] = []
        empty["runs"][0]["poses"] = [[] for _ in six]
        expect_failure([write(folder, "empty.json", empty), "--out", out], "nothing to draw", "no bodies")
        cone = double_pendulum(six)
        cone["scene"]["bodies"][2]["shape"] = "cone"
        expect_failure([write(folder, "cone.json", cone), "--out", out], "unknown shape \"cone\"", "an unknown shape")
        none = double_pendulum(six)
        none["times"], none["runs"][0]["poses"], none["runs"][0]["values"] = [], [], []
        expect_failure([write(folder, "none.json", none), "--out", out], "no frames", "zero frames")
        short = double_pendulum(six)
        short["runs"][0]["poses"][3] = short["runs"][0]["poses"][3][:20]
        expect_failure([write(folder, "short.json", short), "--out", out], "poses[3]", "a pose too short")
        expect_failure([pend, "--out", os.path.join(folder, "x.jpg")], "unknown format", "an unknown output format")
        expect_failure([pend, "--out", os.path.join(folder, "no", "such", "x.png")], "no folder", "a missing folder")
        check(not os.path.exists(out), "no figure written for bad inputs")
    finally:
        if not args.keep:
            shutil.rmtree(folder, ignore_errors=True)
    print(f"{len(FAILURES)} failure(s) in {time.time() - start:.1f} s")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
