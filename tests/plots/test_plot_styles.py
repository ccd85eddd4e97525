"""The plot script's method -> style map (framework/share/method_styles.json): one colour and
marker per method, the same in every figure of every study, distinct across all shipped methods."""
import importlib.util
import json
import os
import subprocess

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
    # Unknown methods get in name order: the same names get the same styles in any order.
    assert plot.style_map(list(reversed(unknown)))["plugin_method_7"] == plot.style_map(unknown)["plugin_method_7"]


def test_line_style_says_fixed_adaptive_or_matched(plot):
    assert plot.linestyle({"tolerance": "", "run_id": "g|c|rk4|h|0.1"}) == "-"
    assert plot.linestyle({"tolerance": "1e-06", "run_id": "g|c|rkmk45|tol|1e-06"}) == "--"
    assert plot.linestyle({"tolerance": "", "run_id": "g|c|rk4|match|a|c|rkmk45|tol|1e-06"}) == ":"
