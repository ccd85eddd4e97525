#!/usr/bin/env python3
"""Draw a multi-exposure ("strobe") figure of one run of a liesim view data document.

Usage: strobe.py DATA.json --out FILE.(png|pdf|svg) [--title TEXT] [--elev DEG --azim DEG] [--run K]

DATA.json is the view data of docs/view-format.md ("liesim-view 1"), as written by
`liesim figure strobe` (which computes it with one frame per exposure time) or `liesim view`.
Every frame of run K (default 0) is one exposure: each body of scene.bodies in its pose at that
time, in its own colour, earlier exposures lighter (the colour mixed with white, from 22 % of it at
the first exposure time to all of it at the last, proportional to time); a grey colour bar gives
the exposure times. The paths of scene.paths are drawn dashed, the ground (when not null) as a
faint plane with a grid. The drawing is turned so that scene.up points up (the axis labels say
which model axis, and with which sign, each drawn axis is); the 3-D axes have equal aspect.

--title: the figure's title (default: the document's title, and the run's label when the document
has several runs; "" for none). --elev, --azim: the camera (degrees, as matplotlib's view_init);
by default the camera looks across a planar motion, else from elev 25, azim -60.

The output is written atomically (a temporary file in the same folder, then renamed): PNG at
200 dpi, PDF and SVG as vectors. Exit status 0, or 1 with a message on stderr ("strobe.py: ...")
for a missing or invalid file or option, an unknown shape, a run index out of range, no frames.

Runs headless (the Agg backend), with Debian 12's python3-matplotlib (3.6) and numpy only.
"""
import argparse
import json
import math
import os
import sys
import tempfile

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib import colors as mcolors  # noqa: E402
from matplotlib import ticker  # noqa: E402
from matplotlib.transforms import Bbox  # noqa: E402
from mpl_toolkits.mplot3d import proj3d  # noqa: E402
from mpl_toolkits.mplot3d.art3d import Line3DCollection, Poly3DCollection  # noqa: E402

# Fonts embedded as TrueType (Type 42), which publishers accept (not Type 3); text stays text in SVG.
plt.rcParams["pdf.fonttype"] = 42
plt.rcParams["svg.fonttype"] = "none"
plt.rcParams["svg.hashsalt"] = "liesim-strobe"  # the same SVG ids every time

PROG = "strobe.py"
FORMAT = "liesim-view 1"
SOLIDS = ("sphere", "box", "cylinder", "capsule", "axes")
TWO_POINTS = ("segment", "arrow")
SHAPES = SOLIDS + TWO_POINTS
OUTPUTS = (".png", ".pdf", ".svg")

FIRST_SHADE = 0.22  # the share of a body's colour in the first exposure (the rest is white)
TRIAD_COLOURS = ("#d62728", "#2ca02c", "#1f77b4")  # the axes shape: x red, y green, z blue
PATH_COLOUR = "#333333"
FACETS = 16  # around a sphere, cylinder or capsule (8 from pole to pole on a sphere)
DPI = 200
FIG_SIZE = (5.2, 3.9)  # inches: the 3-D axes (the saved figure is cropped to what is drawn)
MIN_SIDE = 0.3  # the shortest side of the drawn box, relative to the longest


class Failure(Exception):
    """A problem with the input or the options: printed as "strobe.py: message", exit status 1."""


# --------------------------------------------------------------------------------------------------
# Reading and checking the document


def number_list(value, n, where):
    """value as n finite floats, or Failure naming where."""
    if not isinstance(value, list) or len(value) < n:
        raise Failure(f"{where}: expected a list of {n} numbers, got {json.dumps(value)[:80]}")
    try:
        out = np.array([float(v) for v in value[:n]])
    except (TypeError, ValueError):
        raise Failure(f"{where}: expected numbers, got {json.dumps(value)[:80]}") from None
    if not np.all(np.isfinite(out)):
        raise Failure(f"{where}: not finite: {json.dumps(value)[:80]}")
    return out


def check_body(k, body):
    """The k-th entry of scene.bodies as {name, shape, size (floats), rgb}, or Failure."""
    where = f"scene.bodies[{k}]"
    if not isinstance(body, dict):
        raise Failure(f"{where}: not an object")
    shape = body.get("shape")
    name = str(body.get("name", f"body {k}"))
    if shape not in SHAPES:
        raise Failure(f"{where} ({name}): unknown shape {json.dumps(shape)} (known: {', '.join(SHAPES)})")
    n_size = {"box": 3, "cylinder": 2, "capsule": 2}.get(shape, 1)
    size = number_list(body.get("size"), n_size, f"{where} ({name}).size")
    if shape in TWO_POINTS:
        if size[0] < 0:
            raise Failure(f"{where} ({name}).size: a negative radius")
    elif np.any(size <= 0):
        raise Failure(f"{where} ({name}).size: a {shape} needs positive sizes, got {size.tolist()}")
    try:
        rgb = np.array(mcolors.to_rgb(body.get("color", "#888888")))
    except ValueError:
        raise Failure(f"{where} ({name}).color: not a colour: {json.dumps(body.get('color'))}") from None
    return {"name": name, "shape": shape, "size": size, "rgb": rgb}


def sampled(values_k):
    """Whether a run has a sample at a frame: the format repeats the last pose of a run that ended
    early and gives null values there (null, or a list of nulls)."""
    if values_k is None:
        return False
    if isinstance(values_k, list) and values_k and all(v is None for v in values_k):
        return False
    return True


def load(path, run_index):
    """The document at path, checked, as a dict: title, bodies, up, ground, extent, paths (lists of
    points), times (F,), poses (F, B, 7) of run run_index at its sampled frames, run label and
    the number of runs."""
    try:
        with open(path, encoding="utf-8") as fh:
            doc = json.load(fh)
    except OSError as e:
        raise Failure(f"{path}: cannot read: {e.strerror}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise Failure(f"{path}: not JSON: {e}") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        got = doc.get("format") if isinstance(doc, dict) else type(doc).__name__
        raise Failure(f"{path}: not a view data document (format {json.dumps(got)}, expected \"{FORMAT}\")")
    scene = doc.get("scene")
    if not isinstance(scene, dict):
        raise Failure(f"{path}: no scene")
    raw_bodies = scene.get("bodies")
    if not isinstance(raw_bodies, list) or not raw_bodies:
        raise Failure(f"{path}: scene.bodies is empty: nothing to draw")
    bodies = [check_body(k, b) for k, b in enumerate(raw_bodies)]
    up = number_list(scene.get("up", [0, 0, 1]), 3, "scene.up")
    if np.linalg.norm(up) == 0:
        raise Failure("scene.up: the zero vector")
    ground = scene.get("ground")
    if ground is not None:
        ground = float(number_list([ground], 1, "scene.ground")[0])
    extent = scene.get("extent")
    extent = float(number_list([extent], 1, "scene.extent")[0]) if extent is not None else 1.0
    paths = []
    for j, p in enumerate(scene.get("paths") or []):
        pts = p.get("points") if isinstance(p, dict) else None
        if not isinstance(pts, list):
            raise Failure(f"scene.paths[{j}]: no points")
        pts = np.array([number_list(q, 3, f"scene.paths[{j}].points[{i}]") for i, q in enumerate(pts)]).reshape(-1, 3)
        if len(pts) >= 2:
            paths.append({"name": str(p.get("name", "")), "points": pts})

    times = doc.get("times")
    if not isinstance(times, list):
        raise Failure(f"{path}: no times")
    times = number_list(times, len(times), "times")
    runs = doc.get("runs")
    if not isinstance(runs, list) or not runs:
        raise Failure(f"{path}: no runs")
    if not 0 <= run_index < len(runs):
        raise Failure(f"--run {run_index}: out of range: the document has {len(runs)} run(s) (0 to {len(runs) - 1})")
    run = runs[run_index]
    poses = run.get("poses") if isinstance(run, dict) else None
    if not isinstance(poses, list):
        raise Failure(f"runs[{run_index}]: no poses")
    if len(poses) != len(times):
        raise Failure(f"runs[{run_index}].poses: {len(poses)} frames for {len(times)} times")
    values = run.get("values")
    if not isinstance(values, list) or len(values) != len(times):
        values = [True] * len(times)
    n = 7 * len(bodies)
    # A frame without a sample (values null) or with a non-finite state (poses null: the run diverged) is not drawn.
    frames = [k for k in range(len(times)) if sampled(values[k]) and poses[k] is not None]
    if not frames:
        raise Failure(f"runs[{run_index}]: no frames to draw (times has {len(times)} entries"
                      + (", none of them sampled by this run)" if times.size else ")"))
    pose_array = np.array([number_list(poses[k], n, f"runs[{run_index}].poses[{k}] ({len(bodies)} bodies x 7)")
                           for k in frames]).reshape(len(frames), len(bodies), 7)
    for b, body in enumerate(bodies):
        if body["shape"] in SOLIDS:
            norms = np.linalg.norm(pose_array[:, b, 3:7], axis=1)
            if np.any(norms < 1e-12):
                raise Failure(f"runs[{run_index}].poses: body {body['name']}: a zero quaternion")
    title = str(doc.get("title") or "")
    label = str(run.get("label") or "")
    return {"title": title, "bodies": bodies, "up": up / np.linalg.norm(up), "ground": ground,
            "extent": extent if extent > 0 else 1.0, "paths": paths, "times": times[frames], "poses": pose_array,
            "label": label, "n_runs": len(runs)}


# --------------------------------------------------------------------------------------------------
# The drawing frame: scene.up drawn as matplotlib's z


def drawing_frame(up):
    """(M, labels): the rotation M (rows: the drawn x, y, z axes in model coordinates, the drawn z
    being up) and the three axis labels. When up is along a model axis the drawn axes are model axes
    (up to sign), labelled as such ("−y (m)"); else they are labelled x′, y′, z′ with z′ along up."""
    axis_names = "xyz"
    aligned = np.argmax(np.abs(up))
    if abs(up[aligned]) > 1 - 1e-12:
        z = np.zeros(3)
        z[aligned] = np.sign(up[aligned])
        x = np.zeros(3)
        x[0 if aligned != 0 else 1] = 1.0  # the first model axis across up stays the drawn x
        y = np.cross(z, x)
        m = np.array([x, y, z])

        def name(row):
            i = int(np.argmax(np.abs(row)))
            return ("" if row[i] > 0 else "\u2212") + axis_names[i]

        labels = [f"{name(r)} (m)" for r in m]
        if aligned != 2 or up[2] < 0:
            labels[2] = f"{name(m[2])} (m, up)"
        return m, labels
    z = up
    x = np.array([1.0, 0, 0]) if abs(up[0]) < 0.9 else np.array([0, 1.0, 0])
    x = x - (x @ z) * z
    x /= np.linalg.norm(x)
    y = np.cross(z, x)
    up_text = ", ".join(f"{v:.3g}" for v in up)
    return np.array([x, y, z]), ["x\u2032 (m)", "y\u2032 (m)", f"z\u2032 (m, up = [{up_text}])"]


def rotation(q):
    """The rotation matrix of the unit quaternion q = [qx, qy, qz, qw] (normalised here)."""
    x, y, z, w = q / np.linalg.norm(q)
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
        [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
        [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])


# --------------------------------------------------------------------------------------------------
# The shapes: each adds its polygons and lines, in drawing coordinates, to one exposure


class Exposure:
    """What one exposure draws: polygons (one depth-sorted collection, so that the bodies of one
    instant hide each other correctly), rods under them and triads over them."""

    def __init__(self, shade):
        self.shade = shade  # 0..1: the share of each body's colour (the rest is white)
        self.polys, self.face_rgb, self.face_centre, self.outline = [], [], [], []
        self.rods, self.rod_rgb, self.rod_width = [], [], []
        self.triads, self.triad_rgb = [], []

    def tint(self, rgb):
        return 1.0 - self.shade * (1.0 - np.asarray(rgb))

    def add_polys(self, polys, rgb, centre, outline):
        """Closed convex surface facets around centre; outline: draw the facet edges darker (boxes)."""
        for p in polys:
            self.polys.append(p)
            self.face_rgb.append(np.asarray(rgb))
            self.face_centre.append(centre)
            self.outline.append(outline)

    def add_rod(self, a, b, rgb, width):
        self.rods.append([a, b])
        self.rod_rgb.append(self.tint(rgb))
        self.rod_width.append(width)

    def add_triad_line(self, a, b, rgb):
        self.triads.append([a, b])
        self.triad_rgb.append(self.tint(mcolors.to_rgb(rgb)))


def ring(radius, z, n=FACETS):
    """n points of a circle of radius around the body z axis at height z."""
    a = np.linspace(0, 2 * np.pi, n, endpoint=False)
    return np.stack([radius * np.cos(a), radius * np.sin(a), np.full(n, z)], axis=1)


def band(lower, upper):
    """The quads between two rings of the same number of points."""
    n = len(lower)
    return [np.array([lower[i], lower[(i + 1) % n], upper[(i + 1) % n], upper[i]]) for i in range(n)]


def place(polys, r, p):
    """Body frame facets to drawing coordinates (r: the body's rotation in drawing coordinates)."""
    return [pts @ r.T + p for pts in polys]


def sphere_cap(radius, z0, sign, n_lat):
    """The rings of a hemisphere of radius centred at z0 on the body z axis, from its equator to its
    pole (sign +1: towards +z)."""
    return [ring(radius * math.cos(a), z0 + sign * radius * math.sin(a))
            for a in np.linspace(0, np.pi / 2, n_lat + 1)]


def draw_sphere(ex, body, r, p, _):
    """A sphere: size[0] the radius, FACETS around, FACETS / 2 from pole to pole."""
    rad = body["size"][0]
    rings = sphere_cap(rad, 0.0, -1, FACETS // 4)[::-1] + sphere_cap(rad, 0.0, 1, FACETS // 4)[1:]
    polys = [q for lo, hi in zip(rings, rings[1:]) for q in band(lo, hi)]
    ex.add_polys(place(polys, r, p), body["rgb"], p, False)


def draw_box(ex, body, r, p, _):
    """A box: size the full edge lengths along the body x, y, z axes; its edges outlined."""
    h = body["size"] / 2
    c = np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)]) * h
    faces = [[0, 1, 3, 2], [4, 5, 7, 6], [0, 1, 5, 4], [2, 3, 7, 6], [0, 2, 6, 4], [1, 3, 7, 5]]
    ex.add_polys(place([c[f] for f in faces], r, p), body["rgb"], p, True)


def draw_cylinder(ex, body, r, p, _):
    """A cylinder: size[0] the radius, size[1] the length along the body z axis, centred on p."""
    rad, half = body["size"][0], body["size"][1] / 2
    lo, hi = ring(rad, -half), ring(rad, half)
    ex.add_polys(place(band(lo, hi) + [lo, hi], r, p), body["rgb"], p, False)


def draw_capsule(ex, body, r, p, _):
    """A capsule: a cylinder (size[0] radius, size[1] length along the body z axis) with a
    hemispherical cap of the same radius at both ends."""
    rad, half = body["size"][0], body["size"][1] / 2
    rings = sphere_cap(rad, -half, -1, FACETS // 4)[::-1] + sphere_cap(rad, half, 1, FACETS // 4)
    polys = [q for lo, hi in zip(rings, rings[1:]) for q in band(lo, hi)]
    ex.add_polys(place(polys, r, p), body["rgb"], p, False)


def draw_axes(ex, body, r, p, _):
    """A triad: the body x, y, z axes (red, green, blue), each size[0] long, drawn over the solids."""
    for i in range(3):
        ex.add_triad_line(p, p + body["size"][0] * r[:, i], TRIAD_COLOURS[i])


def draw_segment(ex, body, a, b, width):
    """A rod from a to b: a line, as wide as its radius (size[0]) allows, at least a hairline."""
    ex.add_rod(a, b, body["rgb"], width(body["size"][0]))


def draw_arrow(ex, body, a, b, width):
    """An arrow from a to b: a shaft (size[0] its radius) and a cone for a head."""
    d = b - a
    length = np.linalg.norm(d)
    if length == 0:
        return
    u = d / length
    head = min(0.3 * length, max(0.15 * length, 6 * body["size"][0]))
    head_radius = max(0.35 * head, 2.5 * body["size"][0])
    base = b - head * u
    ex.add_rod(a, base, body["rgb"], width(body["size"][0]))
    # A frame with u as its z axis for the cone.
    e = np.eye(3)[np.argmin(np.abs(u))]
    x = np.cross(u, e)
    x /= np.linalg.norm(x)
    frame = np.stack([x, np.cross(u, x), u], axis=1)
    rim = ring(head_radius, 0.0, FACETS // 2)
    n = len(rim)
    cone = [np.array([rim[i], rim[(i + 1) % n], [0, 0, head]]) for i in range(n)] + [rim]
    ex.add_polys(place(cone, frame, base), body["rgb"], base + 0.25 * head * u, False)


DRAW = {"sphere": draw_sphere, "box": draw_box, "cylinder": draw_cylinder, "capsule": draw_capsule,
        "axes": draw_axes, "segment": draw_segment, "arrow": draw_arrow}


def build_exposures(data, m, shades, width):
    """One Exposure per frame, in drawing coordinates (m: model to drawing rotation)."""
    out = []
    for k, shade in enumerate(shades):
        ex = Exposure(shade)
        for b, body in enumerate(data["bodies"]):
            pose = data["poses"][k, b]
            if body["shape"] in TWO_POINTS:
                DRAW[body["shape"]](ex, body, m @ pose[0:3], m @ pose[3:6], width)
            else:
                DRAW[body["shape"]](ex, body, m @ rotation(pose[3:7]), m @ pose[0:3], width)
        out.append(ex)
    return out


# --------------------------------------------------------------------------------------------------
# The figure


def lit_colours(ex, light):
    """Face and edge colours of an exposure's polygons: its tint of each body's colour, shaded by
    the facet's angle to the light (an outward normal, the facets being of convex shapes)."""
    faces, edges = [], []
    for poly, rgb, centre, outline in zip(ex.polys, ex.face_rgb, ex.face_centre, ex.outline):
        n = np.cross(poly, np.roll(poly, -1, axis=0)).sum(axis=0)  # Newell: sound at a sphere's poles too
        norm = np.linalg.norm(n)
        n = n / norm if norm > 0 else n
        if n @ (poly.mean(axis=0) - centre) < 0:
            n = -n
        lum = 0.62 + 0.38 * max(float(n @ light), 0.0)
        face = np.clip(ex.tint(rgb) * lum, 0, 1)
        faces.append(face)
        edges.append(ex.tint(rgb * 0.45) if outline else face)
    return faces, edges


def limits(exposures, paths, ground, extent):
    """(lo, hi): the drawing's bounding box, with a margin, no side shorter than MIN_SIDE times
    the longest (a planar motion still gets a visible depth, and room for its ticks)."""
    pts = [np.concatenate(ex.polys) for ex in exposures if ex.polys]
    pts += [np.array(ex.rods).reshape(-1, 3) for ex in exposures if ex.rods]
    pts += [np.array(ex.triads).reshape(-1, 3) for ex in exposures if ex.triads]
    pts += [p["points"] for p in paths]
    allp = np.concatenate(pts) if pts else np.zeros((1, 3))  # only zero-length arrows: around the origin
    lo, hi = allp.min(axis=0), allp.max(axis=0)
    if ground is not None:
        lo[2], hi[2] = min(lo[2], ground), max(hi[2], ground)
    span = float(np.max(hi - lo))
    if span <= 1e-9 * extent:  # a single point
        span = extent
    grow = np.maximum(MIN_SIDE * span - (hi - lo), 0) / 2
    lo, hi = lo - grow - 0.04 * span, hi + grow + 0.04 * span
    return lo, hi


def default_view(lo, hi):
    """(elev, azim): across a planar motion (a horizontal side much shorter than the other), else
    matplotlib's usual oblique view, a bit lower."""
    dx, dy = hi[0] - lo[0], hi[1] - lo[1]
    if dy < 0.35 * dx:
        return 15.0, -75.0  # the x-z plane, x to the right
    if dx < 0.35 * dy:
        return 15.0, -15.0  # the y-z plane, y to the right
    return 25.0, -60.0


def view_vector(elev, azim):
    e, a = math.radians(elev), math.radians(azim)
    return np.array([math.cos(e) * math.cos(a), math.cos(e) * math.sin(a), math.sin(e)])


def light_direction(elev, azim):
    """From behind the camera, above and to its left: the lit faces are the ones we see."""
    v = view_vector(elev, azim)
    left = np.cross([0, 0, 1.0], v)
    left = left / np.linalg.norm(left) if np.linalg.norm(left) > 0 else np.array([0, 1.0, 0])
    light = v + 0.6 * np.array([0, 0, 1.0]) + 0.5 * left
    return light / np.linalg.norm(light)


def draw_ground(ax, lo, hi, height, span):
    """A faint plane at the ground height, with square grid cells of half the finer tick step of
    the x and y axes (so that the grid lines meet the ticks)."""
    corners = np.array([[lo[0], lo[1]], [hi[0], lo[1]], [hi[0], hi[1]], [lo[0], hi[1]]])
    plane = np.column_stack([corners, np.full(4, height)])
    ax.add_collection3d(Poly3DCollection([plane], facecolors=[(0.93, 0.93, 0.91, 0.6)],
                                         edgecolors=[(0.7, 0.7, 0.7, 1)], linewidths=0.5, zorder=1))
    steps = [np.min(np.diff(axis_ticks(lo[i], hi[i], span).tick_values(lo[i], hi[i]))) for i in (0, 1)]
    step = min(steps) / 2
    lines = []
    for x in np.arange(math.ceil(lo[0] / step), math.floor(hi[0] / step) + 1) * step:
        if lo[0] < x < hi[0]:
            lines.append([[x, lo[1], height], [x, hi[1], height]])
    for y in np.arange(math.ceil(lo[1] / step), math.floor(hi[1] / step) + 1) * step:
        if lo[1] < y < hi[1]:
            lines.append([[lo[0], y, height], [hi[0], y, height]])
    if lines:
        ax.add_collection3d(Line3DCollection(lines, colors=[(0.8, 0.8, 0.78)], linewidths=0.4, zorder=1.5))


def time_text(t):
    return f"{t:.4g}"


def time_bar(fig, times, box):
    """The exposure times as a grey colour bar (light: early, dark: late) right of box (display
    pixels), with a tick at each exposure (up to 9; up to 40: unlabelled ones between labelled ticks).
    Returns the extent of what it drew (None for a single exposure time: no bar)."""
    inch = fig.dpi
    w, h = fig.bbox.width, fig.bbox.height
    if len(times) == 1 or times[-1] == times[0]:
        return None  # the title says the time
    base = np.array(mcolors.to_rgb("#262626"))
    cmap = mcolors.LinearSegmentedColormap.from_list("exposure", [1 - FIRST_SHADE * (1 - base), base])
    sm = plt.cm.ScalarMappable(norm=mcolors.Normalize(times[0], times[-1]), cmap=cmap)
    height = min(max(0.6 * box.height, 1.3 * inch), box.height)
    bottom = (box.y0 + box.y1) / 2 - height / 2
    cax = fig.add_axes([(box.x1 + 0.15 * inch) / w, bottom / h, 0.11 * inch / w, height / h])
    bar = fig.colorbar(sm, cax=cax)
    bar.set_label("exposure time t (s)", fontsize=9)
    bar.ax.tick_params(labelsize=7.5)
    if len(times) <= 9:
        bar.set_ticks(times)
        bar.set_ticklabels([time_text(t) for t in times])
    else:
        bar.ax.yaxis.set_major_locator(ticker.MaxNLocator(6))
        if len(times) <= 40:  # more would be a ruler
            bar.ax.yaxis.set_minor_locator(ticker.FixedLocator(times))
            bar.ax.tick_params(which="minor", length=2.5)
        else:
            bar.ax.yaxis.set_minor_locator(ticker.NullLocator())
    bar.outline.set_linewidth(0.5)
    fig.canvas.draw()
    return cax.get_tightbbox(fig.canvas.get_renderer())


def figure(data, elev, azim, title):
    """(figure, bbox): the matplotlib figure of the loaded document and the part of it to save
    (inches)."""
    m, labels = drawing_frame(data["up"])
    times = data["times"]
    if len(times) > 1 and times[-1] > times[0]:
        shades = FIRST_SHADE + (1 - FIRST_SHADE) * (times - times[0]) / (times[-1] - times[0])
    else:
        shades = np.ones(len(times))

    # A first pass with unit widths gives the extent of the drawing, and with it how wide (in
    # points) a rod of a given radius is.
    exposures = build_exposures(data, m, shades, lambda radius: 1.0)
    paths = [{"name": p["name"], "points": p["points"] @ m.T} for p in data["paths"]]
    ground = data["ground"]
    lo, hi = limits(exposures, paths, ground, data["extent"])
    span = float(np.max(hi - lo))
    points_per_unit = 0.55 * FIG_SIZE[0] * 72 / span

    def width(radius):
        return 0.9 if radius <= 0 else float(np.clip(2 * radius * points_per_unit, 1.4, 9.0))

    exposures = build_exposures(data, m, shades, width)

    if elev is None or azim is None:
        auto_elev, auto_azim = default_view(lo, hi)
        elev = auto_elev if elev is None else elev
        azim = auto_azim if azim is None else azim
    light = light_direction(elev, azim)

    fig = plt.figure(figsize=FIG_SIZE, facecolor="white")
    ax = fig.add_axes([0, 0, 1, 1], projection="3d")
    ax.computed_zorder = False  # ground, then the exposures in time order, then the paths
    ax.set_facecolor("white")
    for axis in (ax.xaxis, ax.yaxis, ax.zaxis):
        axis.set_pane_color((1, 1, 1, 0))
        axis.pane.set_edgecolor((0.75, 0.75, 0.75, 1))
        axis._axinfo["grid"].update(color=(0.88, 0.88, 0.88, 1), linewidth=0.4)
    if ground is not None:
        draw_ground(ax, lo, hi, ground, span)

    for k, ex in enumerate(exposures):
        z = 10 + 3 * k
        if ex.rods:
            ax.add_collection3d(Line3DCollection(ex.rods, colors=ex.rod_rgb, linewidths=ex.rod_width,
                                                 capstyle="round", zorder=z))
        if ex.polys:
            faces, edges = lit_colours(ex, light)
            widths = [0.45 if o else 0.25 for o in ex.outline]
            ax.add_collection3d(Poly3DCollection(ex.polys, facecolors=faces, edgecolors=edges,
                                                 linewidths=widths, zorder=z + 1))
        if ex.triads:
            ax.add_collection3d(Line3DCollection(ex.triads, colors=ex.triad_rgb, linewidths=1.1, zorder=z + 2))

    handles = []
    for j, p in enumerate(paths):
        (line,) = ax.plot(p["points"][:, 0], p["points"][:, 1], p["points"][:, 2], linestyle=(0, (4, 2.5)),
                          color=PATH_COLOUR, linewidth=0.9, zorder=10 + 3 * len(exposures) + j)
        if p["name"]:
            line.set_label(f"path: {p['name']}")
            handles.append(line)

    ax.set_xlim(lo[0], hi[0])
    ax.set_ylim(lo[1], hi[1])
    ax.set_zlim(lo[2], hi[2])
    ax.set_box_aspect(hi - lo, zoom=0.95)
    for axis, a, b in zip((ax.xaxis, ax.yaxis, ax.zaxis), lo, hi):
        axis.set_major_locator(axis_ticks(a, b, span))
    ax.tick_params(labelsize=7.5, pad=1)
    for setter, label in zip((ax.set_xlabel, ax.set_ylabel, ax.set_zlabel), labels):
        setter(label, fontsize=9, labelpad=2)
    ax.view_init(elev=elev, azim=azim)

    # The 3-D axes fill the figure and leave white space around the drawn box: what is drawn (the
    # box, the ticks and the labels) decides where the title, the legend and the colour bar go, and
    # what is saved.
    fig.canvas.draw()
    box = drawn_box(fig, ax)
    inch = fig.dpi
    parts = [box]
    if len(times) == 1 or times[-1] == times[0]:
        title = f"{title} (t = {time_text(times[0])} s)" if title else f"t = {time_text(times[0])} s"
    if title:
        text = fig.text((box.x0 + box.x1) / 2 / fig.bbox.width, (box.y1 + 0.08 * inch) / fig.bbox.height, title,
                        ha="center", va="bottom", fontsize=10)
        parts.append(text.get_window_extent())
    if handles:
        legend = fig.legend(handles=handles, loc="upper center", ncol=min(len(handles), 3), fontsize=8, frameon=False,
                            handlelength=2.8, bbox_to_anchor=((box.x0 + box.x1) / 2 / fig.bbox.width,
                                                              (box.y0 - 0.02 * inch) / fig.bbox.height))
        fig.canvas.draw()
        parts.append(legend.get_window_extent())
    bar = time_bar(fig, times, box)
    if bar is not None:
        parts.append(bar)
    whole = Bbox.union(parts)
    pad = 0.06 * inch
    return fig, Bbox.from_extents(whole.x0 - pad, whole.y0 - pad, whole.x1 + pad, whole.y1 + pad).transformed(
        fig.dpi_scale_trans.inverted())


def axis_ticks(lo, hi, span):
    """About one tick per sixth of the longest side; a short side gets two or three."""
    n = int(round(6 * (hi - lo) / span))
    return ticker.MaxNLocator(max(n, 1), steps=[1, 2, 2.5, 5, 10], min_n_ticks=2)


def drawn_box(fig, ax):
    """The extent (display pixels) of the 3-D box and its ticks and labels, after a draw."""
    corners = np.array([[x, y, z] for x in ax.get_xlim() for y in ax.get_ylim() for z in ax.get_zlim()])
    px, py, _ = proj3d.proj_transform(corners[:, 0], corners[:, 1], corners[:, 2], ax.M)
    pix = ax.transData.transform(np.column_stack([px, py]))
    parts = [Bbox.from_extents(*pix.min(axis=0), *pix.max(axis=0))]
    renderer = fig.canvas.get_renderer()
    for axis in (ax.xaxis, ax.yaxis, ax.zaxis):
        bb = axis.get_tightbbox(renderer)
        if bb is not None:
            parts.append(bb)
    return Bbox.union(parts)


def save(fig, bbox, out):
    """Write the part bbox (inches) of the figure to out: to a temporary file in the same folder,
    renamed at the end."""
    ext = os.path.splitext(out)[1].lower()
    folder = os.path.dirname(os.path.abspath(out))
    if not os.path.isdir(folder):
        raise Failure(f"--out {out}: no folder {folder}")
    fd, tmp = tempfile.mkstemp(prefix=".strobe-", suffix=ext, dir=folder)
    try:
        with os.fdopen(fd, "wb") as fh:
            metadata = {".pdf": {"CreationDate": None}, ".svg": {"Date": None}}.get(ext)  # the same bytes
            fig.savefig(fh, format=ext[1:], dpi=DPI, facecolor="white", bbox_inches=bbox, metadata=metadata)
        os.chmod(tmp, 0o644)
        os.replace(tmp, out)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


class Parser(argparse.ArgumentParser):
    def error(self, message):
        self.print_usage(sys.stderr)
        raise Failure(message)


def main(argv=None):
    parser = Parser(prog=PROG, description="A multi-exposure figure of one run of a liesim view data document.")
    parser.add_argument("data", metavar="DATA.json", help="the view data (docs/view-format.md)")
    parser.add_argument("--out", required=True, metavar="FILE", help="the figure: .png (200 dpi), .pdf or .svg")
    parser.add_argument("--title", default=None, help="the title (default: the document's; \"\" for none)")
    parser.add_argument("--elev", type=float, default=None, metavar="DEG", help="camera elevation (degrees)")
    parser.add_argument("--azim", type=float, default=None, metavar="DEG", help="camera azimuth (degrees)")
    parser.add_argument("--run", type=int, default=0, metavar="K", help="which run of the document (default 0)")
    try:
        args = parser.parse_args(argv)
        if os.path.splitext(args.out)[1].lower() not in OUTPUTS:
            raise Failure(f"--out {args.out}: unknown format (use {', '.join(OUTPUTS)})")
        for name in ("elev", "azim"):
            v = getattr(args, name)
            if v is not None and not math.isfinite(v):
                raise Failure(f"--{name}: not a finite angle")
        data = load(args.data, args.run)
        title = args.title
        if title is None:
            title = data["title"]
            if data["n_runs"] > 1 and data["label"]:
                title = f"{title}\n{data['label']}" if title else data["label"]
        fig, bbox = figure(data, args.elev, args.azim, title)
        save(fig, bbox, args.out)
    except Failure as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
