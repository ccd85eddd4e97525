"""The plot script's method -> style map (framework/share/method_styles.json): one colour and
marker per method, the same in every figure of every study, distinct across all shipped methods."""
import importlib.util
import json
import os
import subprocess

import matplotlib.colors
import pytest

BUILD = os.environ["LIESIM_TEST_BINARY_DIR"]
SHARE = os.path.join(BUILD, "share", "liesim")


@pytest.fixture(scope="module")
def plot():
    spec = importlib.util.spec_from_file_location("plot_study", os.path.join(SHARE, "plot_study.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def shipped():
    out = subprocess.run([os.path.join(BUILD, "bin", "liesim"), "list", "--json"], capture_output=True, text=True,
                         env=dict(os.environ, LIESIM_PLUGIN_PATH=""), check=True).stdout
    return [m["name"] for f in json.loads(out)["integrators"] for m in f["methods"]]


def test_every_shipped_method_has_its_own_fixed_style(plot, shipped):
    with open(os.path.join(SHARE, "method_styles.json")) as fh:
        table = json.load(fh)["methods"]
    missing = [m for m in shipped if m not in table]
    assert not missing, f"add these methods to framework/share/method_styles.json: {missing}"
    styles = plot.style_map(shipped)
    assert len(set(styles.values())) == len(shipped)  # no two methods look alike


def test_a_method_looks_the_same_in_every_study(plot, shipped):
    # Two studies with different method sets (and unknown third-party methods) agree on the shared ones.
    a = plot.style_map(["rk4", "rkmk4", "cvode_bdf", "my_rk_ssp3"])
    b = plot.style_map(["rkmk4", "rk4", "lgvi", "other_method", "my_rk_ssp3"])
    for m in ["rk4", "rkmk4"]:
        assert a[m] == b[m]
    # Counterparts share a colour and differ in marker: the classical and the Lie group RK4.
    assert a["rk4"][0] == a["rkmk4"][0] and a["rk4"][1] != a["rkmk4"][1]


def test_unknown_methods_get_distinct_unused_styles(plot, shipped):
    unknown = [f"plugin_method_{k}" for k in range(50)]
    styles = plot.style_map(shipped + unknown)
    assert len(set(styles.values())) == len(shipped) + 50
    # A plugin's method never shares a colour (nor a marker) with a shipped one, in any figure.
    shipped_colours = {styles[m][0] for m in shipped}
    shipped_markers = {styles[m][1] for m in shipped}
    for m in unknown:
        assert styles[m][0] not in shipped_colours and styles[m][1] not in shipped_markers
    # The same names get the same styles in any order.
    assert plot.style_map(list(reversed(unknown)))["plugin_method_7"] == plot.style_map(unknown)["plugin_method_7"]


def test_a_plugin_method_looks_the_same_in_every_study(plot, shipped):
    # Deterministic from the name: alone, with shipped methods, or with other plugin methods that
    # do not hash to its slot, a plugin method keeps its style.
    alone = plot.style_map(["my_rk_ssp3"])["my_rk_ssp3"]
    assert plot.style_map(shipped + ["my_rk_ssp3"])["my_rk_ssp3"] == alone
    assert plot.style_map(["rk4", "my_rk_ssp3", "my_gyrostat_lgvi"])["my_rk_ssp3"] == alone
    # Two plugin methods of one study that hash alike still differ.
    names = [f"m{k}" for k in range(200)]
    first = {}
    for n in names:
        first.setdefault(plot.style_map([n])[n], []).append(n)
    clash = next(v for v in first.values() if len(v) > 1)
    both = plot.style_map(clash[:2])
    assert both[clash[0]] != both[clash[1]]


def test_line_style_says_fixed_adaptive_or_matched(plot):
    assert plot.linestyle({"tolerance": "", "run_id": "g|c|rk4|h|0.1"}) == "-"
    assert plot.linestyle({"tolerance": "1e-06", "run_id": "g|c|rkmk45|tol|1e-06"}) == "--"
    assert plot.linestyle({"tolerance": "", "run_id": "g|c|rk4|match|a|c|rkmk45|tol|1e-06"}) == ":"


def _row(integrator, step="0", tolerance="0", **extra):
    r = {"integrator": integrator, "step": step, "tolerance": tolerance, "run_id": f"g|c|{integrator}|h|{step}", "group": "runs1",
         "status": "ok", "steps": "1", "error_final": "1e-3", "distance_ratio": "", "wall_time_s": "1e-3", "case": "c"}
    r.update(extra)
    return r


def test_series_of_one_figure_differ_in_colour_and_in_marker(plot):
    plot.STYLE.update(plot.style_map(["rk4", "rkmk4", "rkmk45"]))
    first = {f"rk4 h={h}": _row("rk4", step=str(h)) for h in (0.1, 0.2, 0.4)}
    first.update({f"rkmk4 h={h}": _row("rkmk4", step=str(h)) for h in (0.1, 0.2, 0.4)})
    first.update({"rkmk45 tol=1e-6": _row("rkmk45", tolerance="1e-6"),
                  "rkmk45 same steps as tol=1e-6": _row("rkmk45", step="0.01", run_id="g|c|rkmk45|match|x")})
    styles = plot.series_styles(first)
    for key in ("color", "marker"):
        values = [kw[key] for kw in styles.values()]
        assert len(set(values)) == len(values), values
    # A method drawn once keeps its own style; rk4's settings are shades of its colour, dark to light.
    alone = plot.series_styles({"rk4": _row("rk4", step="0.1")})["rk4"]
    assert (alone["color"], alone["marker"]) == plot.STYLE["rk4"]
    brightness = [sum(matplotlib.colors.to_rgb(styles[f"rk4 h={h}"]["color"])) for h in (0.1, 0.2, 0.4)]
    assert brightness == sorted(brightness)
    assert styles["rk4 h=0.1"]["marker"] == plot.STYLE["rk4"][1]


def test_a_one_step_sweep_draws_the_distance_ratio(plot, tmp_path, monkeypatch):
    # One-step groups have no error: the sweep figure shows d(phi_h(p), phi_h(q)) / d(p, q).
    rows = [_row("implicit_lie_euler", step=str(h), case=f"s[c={c}]", error_final="", distance_ratio=str(1 + (1 - c) * h / 10),
                 run_id=f"g|s[c={c}]|implicit_lie_euler|h|{h}")
            for c in (0, 1, 2) for h in (0.5, 1.0)]
    plot.STYLE.update(plot.style_map(["implicit_lie_euler"]))
    drawn = {}

    def keep(fig, out, kind, case):
        drawn[f"{kind}_{case}"] = [(line.get_label(), list(line.get_ydata())) for ax in fig.axes for line in ax.get_lines()
                                   if not line.get_label().startswith("_")]
    monkeypatch.setattr(plot, "save", keep)
    plot.sweeps(str(tmp_path), rows)
    # Several steps: the ratio against h, one line per swept value (thesis Fig. 4.6 right).
    lines = dict(drawn["sweep_s"])
    assert sorted(lines) == ["implicit_lie_euler c=0", "implicit_lie_euler c=1", "implicit_lie_euler c=2"]
    assert all(len(y) == 2 and all(v == v for v in y) for y in lines.values())  # two finite points each
    assert lines["implicit_lie_euler c=1"] == [1.0, 1.0]  # c = 1 keeps the distance
    assert lines["implicit_lie_euler c=0"] == [1.05, 1.1]


def test_a_matched_run_is_timed_by_its_side_by_side_ratio(plot):
    # Figures show a matched constant-step run at paired_time_ratio x its adaptive run's time, the
    # ratio the report's table gives, not its own median measured at another moment.
    adaptive = _row("rkmk45", tolerance="1e-06", run_id="v|c|rkmk45|tol|1e-06", cpu_time_s="0.002")
    matched = _row("rkmk5", step="0.01", run_id="e|c|rkmk5|match_error|v|c|rkmk45|tol|1e-06", cpu_time_s="0.001",
                   paired_time_ratio="1.25")
    alone = _row("rk4", step="0.01", cpu_time_s="0.003", paired_time_ratio="")
    timed, axis = plot.paired_seconds([adaptive, matched, alone])
    assert timed(adaptive) == 0.002 and timed(matched) == 0.0025 and timed(alone) == 0.003
    assert axis.startswith("CPU time")
