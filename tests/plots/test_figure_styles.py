"""Every figure the plot script draws tells its series apart: no two legend entries of one axes
share a colour, nor a marker. A study output is made up here with the cases that used to break it:
counterparts sharing a colour (rk4 and rkmk4) in time series, one method at several steps and
tolerances, one method in two groups, a [[figure]] of series and of a path, a sweep and a one-step
group; the script's `save` is replaced by a check of the figure."""
import csv
import importlib.util
import math
import os

import matplotlib.colors
import pytest

BUILD = os.environ["LIESIM_TEST_BINARY_DIR"]
SHARE = os.path.join(BUILD, "share", "liesim")

COLUMNS = ["index", "run_id", "group", "case", "integrator", "order", "step", "tolerance", "status", "error_final",
           "steps", "f_evals", "F_evals", "wall_time_s", "cpu_time_s", "distance_ratio", "drift:energy", "max:roots",
           "arrival:y1", "arrival:y2", "arrival:y3", "pair_arrival:y1", "pair_arrival:y2", "pair_arrival:y3"]


def on_sphere(latitude, longitude):
    """A point of S^2 (degrees)."""
    la, lo = math.radians(latitude), math.radians(longitude)
    return [math.cos(la) * math.cos(lo), math.cos(la) * math.sin(lo), math.sin(la)]


def make_study(folder):
    """results.csv, series/, steps/ and study.toml of a made-up study (deterministic numbers)."""
    runs = []  # (group, case, integrator, order, step, tolerance, series)

    def add(group, case, method, order, step=0.0, tol=0.0, series=True):
        runs.append((group, case, method, order, step, tol, series))

    for case in ["a"]:
        for h in [0.1, 0.05, 0.025]:
            for method, order in [("rk4", 4), ("rkmk4", 4), ("lie_euler", 1)]:
                add("fixed", case, method, order, step=h, series=method != "lie_euler")
        for tol in [1e-4, 1e-6, 1e-8]:
            add("adaptive", case, "dopri45", 5, tol=tol)
            add("adaptive", case, "rkmk45", 5, tol=tol)
        add("matched", case, "rk4", 4, step=0.04)  # rk4 in a second group
        add("matched", case, "rk4", 4, step=0.02)
    for x in [1, 2, 3]:
        for h in [0.1, 0.2, 0.4]:
            add("sweep", f"b[x={x}]", "rk4", 4, step=h, series=False)
            add("sweep", f"b[x={x}]", "rkmk4", 4, step=h, series=False)
    for case in ["d1", "d2"]:  # drawn together, against the step number
        for method in ["rk4", "rkmk4"]:
            add("iterations", case, method, 4, step=0.1)
    for h in [0.5, 1.0]:
        for method in ["geodesic_implicit_midpoint", "spherical_midpoint"]:
            add("one_step", "c", method, 2, step=h, series=False)
    for c in [-1, 0, 1]:  # one step h = 2 across a swept parameter: the arrival point against c
        add("one_step", f"e[c={c}]", "implicit_lie_euler", 1, step=2.0, series=False)
    for c in [0, 1, 2]:  # several steps across a swept parameter: the ratio against h, a line per c
        for h in [0.5, 1.0, 2.0]:
            add("one_step", f"g[c={c}]", "implicit_lie_euler", 1, step=h, series=False)
    os.makedirs(os.path.join(folder, "series"))
    os.makedirs(os.path.join(folder, "steps"))
    with open(os.path.join(folder, "results.csv"), "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(COLUMNS)
        for i, (group, case, method, order, h, tol, series) in enumerate(runs):
            one_step = group == "one_step"
            size = h if h > 0 else 10 * tol ** 0.2
            error = "" if one_step else f"{size ** order * (1 + i % 3):.6g}"
            run_id = f"{group}|{case}|{method}|" + (f"step={h}" if h > 0 else f"tol={tol}")
            # One-step runs: the results phi_h(p), phi_h(q) on S^2 (p, q at latitude 25, 30; turned by h).
            arrival = (on_sphere(25 - i, 57 * h) + on_sphere(30 - i, 57 * h)) if one_step else [""] * 6
            w.writerow([i, run_id, group, case, method, order, h, tol, "ok", error, int(10 / size), int(40 / size), 0,
                        1e-3 / size, 1e-3 / size, 1.0 + 0.01 * h if one_step else "nan", 1e-8 * (1 + i), 1] + arrival)
            if series:
                with open(os.path.join(folder, "series", f"{i}.csv"), "w") as s:
                    s.write("t,energy,y_x,y_y\n")
                    for k in range(100):
                        t = 0.05 * k
                        # Counterparts' curves lie on each other: only colour and marker tell them apart.
                        s.write(f"{t},{1 + 1e-9 * k * (1 + i % 2)},{math.cos(t)},{math.sin(t)}\n")
                with open(os.path.join(folder, "steps", f"{i}.csv"), "w") as s:
                    s.write("t,h,error,accepted\n")
                    for k in range(50):
                        s.write(f"{0.1 * k},{size * (1 + 0.1 * math.sin(k))},1e-9,1\n")
    with open(os.path.join(folder, "study.toml"), "w") as fh:
        fh.write('name = "styles"\n'
                 '[[figure]]\nname = "components"\ncolumns = ["y_x", "y_y"]\n'
                 '[[figure]]\nname = "energy"\ncolumns = ["energy"]\nlog = true\n'
                 '[[figure]]\nname = "path"\nkind = "path"\ncolumns = ["y_x", "y_y"]\nreference = true\ncases = ["a"]\n'
                 '[[figure]]\nname = "iterations"\ncolumns = ["energy"]\nlog = true\nx = "step"\ntogether = true\n'
                 'cases = ["d1", "d2"]\n')
    os.makedirs(os.path.join(folder, "reference"))
    with open(os.path.join(folder, "reference", "a.csv"), "w") as s:
        s.write("t,energy,y_x,y_y\n")
        for k in range(200):
            s.write(f"{0.025 * k},1,{math.cos(0.025 * k)},{math.sin(0.025 * k)}\n")
    return folder


@pytest.fixture(scope="module")
def drawn(tmp_path_factory):
    """{figure file name: matplotlib figure} of every figure the script draws for the made-up study."""
    folder = make_study(str(tmp_path_factory.mktemp("study")))
    spec = importlib.util.spec_from_file_location("plot_study_figures", os.path.join(SHARE, "plot_study.py"))
    plot = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(plot)
    figures = {}

    def keep(fig, out, kind, case):
        figures[f"{kind}_{plot.safe(case)}" if case is not None else kind] = fig

    plot.save = keep
    plot.plt.rcParams["figure.max_open_warning"] = 0
    plot.sys.argv = ["plot_study.py", folder]
    plot.main()
    return figures


def legend_styles(ax):
    """(colour, marker) of every labelled line and scatter of one axes."""
    out = []
    for handle, name in zip(*ax.get_legend_handles_labels()):
        if hasattr(handle, "get_marker"):
            colour, marker = handle.get_color(), handle.get_marker()
        else:  # a scatter
            colour, marker = handle.get_facecolor()[0], "scatter"
        out.append((name, matplotlib.colors.to_hex(colour), str(marker)))
    return out


def test_every_kind_of_figure_is_drawn(drawn):
    kinds = {name.split("_", 1)[0] for name in drawn}
    for kind in ["convergence", "work", "drift", "step", "contractivity", "sweep", "figure"]:
        assert kind in kinds, f"no {kind} figure among {sorted(drawn)}"
    assert {"figure_components_a", "figure_energy_a", "figure_path_a"} <= set(drawn)
    # reference = true draws the case's reference series beside the runs.
    labels = drawn["figure_path_a"].axes[0].get_legend_handles_labels()[1]
    assert "reference" in labels


def test_a_figure_of_several_cases_against_the_step_number(drawn):
    # together = true: one figure (plots/figure_iterations.png) of both cases, series named by case;
    # x = "step": the abscissa is t / h (0 ... 99 for 100 samples 0.05 apart at h = 0.1 ... / 0.1).
    assert "figure_iterations" in drawn and not any(n.startswith("figure_iterations_") for n in drawn)
    ax = drawn["figure_iterations"].axes[0]
    labels = ax.get_legend_handles_labels()[1]
    assert sorted(labels) == ["d1: rk4 (iterations) (h=0.1)", "d1: rkmk4 (iterations) (h=0.1)",
                              "d2: rk4 (iterations) (h=0.1)", "d2: rkmk4 (iterations) (h=0.1)"], labels
    xs = ax.get_lines()[0].get_xdata()
    assert abs(max(xs) - 49.5) < 1e-9 and ax.get_xlabel().startswith("step")


def test_one_step_results_on_the_sphere(drawn):
    # arrivals_<case>: phi_h(p) and phi_h(q) of every method over h in 3-D (Figs. 4.3-4.4 left/top);
    # the sweep of a one-step case draws the arrival point against the swept value beside the ratio.
    ax = drawn["arrivals_c"].axes[0]
    assert ax.name == "3d"
    assert sorted(ax.get_legend_handles_labels()[1]) == ["geodesic_implicit_midpoint (one_step)", "spherical_midpoint (one_step)"]
    sweep = drawn["sweep_e"]
    assert [a.name for a in sweep.axes] == ["rectilinear", "3d"]
    assert not any(name.startswith("arrivals_e") for name in drawn)  # one step size per case: nothing to trace
    ratio = drawn["sweep_g"].axes[0]
    assert ratio.get_xlabel() == "step size h"
    assert sorted(ratio.get_legend_handles_labels()[1]) == [f"implicit_lie_euler (one_step) c={c}" for c in (0, 1, 2)]
    assert sorted(ratio.get_lines()[0].get_xdata()) == [0.5, 1.0, 2.0]


def test_no_two_series_of_a_figure_share_a_colour_or_a_marker(drawn):
    for name, fig in drawn.items():
        for ax in fig.axes:
            styles = legend_styles(ax)
            for k, what in [(1, "colour"), (2, "marker")]:
                seen = {}
                for style in styles:
                    assert style[k] not in seen, f"{name}: '{style[0]}' and '{seen[style[k]]}' share the {what} {style[k]}"
                    seen[style[k]] = style[0]


def test_counterparts_keep_related_colours(drawn):
    # rk4 and rkmk4 share a colour across figures; in one figure the second takes a shade of it.
    ax = drawn["drift_a"].axes[0]
    colours = {series: colour for series, colour, _ in legend_styles(ax)}
    red = matplotlib.colors.to_rgb(colours["rk4 (fixed) (h=0.025)"])
    dark = matplotlib.colors.to_rgb(colours["rkmk4 (fixed) (h=0.025)"])
    assert red != dark and all(d <= r + 1e-12 for d, r in zip(dark, red))


def test_time_series_carry_their_markers(drawn):
    # Lines of time series show the method's marker (sparsely), so that rk4 and rkmk4 -- one colour,
    # curves on each other -- are told apart.
    for name in ["drift_a", "step_size_a", "figure_components_a", "figure_path_a"]:
        for ax in drawn[name].axes:
            for series, colour, marker in legend_styles(ax):
                if series != "reference":  # the reference is the one grey line without markers
                    assert marker not in ("None", "", " "), f"{name}: '{series}' has no marker"
