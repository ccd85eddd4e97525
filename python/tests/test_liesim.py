"""The Python package against the command line: same results bit for bit, same messages, a Python
model against the compiled example_model, study() against `liesim study`."""
import csv
import json
import os
import subprocess
import threading

import numpy as np
import pytest

import liesim

BUILD = os.environ["LIESIM_TEST_BINARY_DIR"]
LIESIM = os.path.join(BUILD, "bin", "liesim")
TEST_PLUGINS = os.path.join(BUILD, "test_plugins")
STUDY = os.path.join(os.path.dirname(__file__), "small_study.toml")


def cli(*args):
    env = dict(os.environ, LIESIM_PLUGIN_PATH="")
    return subprocess.run([LIESIM, *args], capture_output=True, text=True, env=env)


@pytest.fixture(autouse=True)
def no_user_plugins(monkeypatch):
    monkeypatch.setenv("LIESIM_PLUGIN_PATH", "")


def test_catalogue_matches_the_command_line():
    listed = json.loads(cli("list", "--json").stdout)
    assert [m["name"] for m in liesim.models()] == [m["name"] for m in listed["models"]]
    methods = {m["name"]: m for m in liesim.integrators()}
    assert methods["rkmk4"]["order"] == 4 and methods["rkmk4"]["family"] == "lie_rk"
    assert methods["cvode_bdf"]["self_controlled"]
    d = liesim.describe("pendulum_chain", params={"N": 3})
    assert d == json.loads(cli("describe", "pendulum_chain", "--json", "--param", "N=3").stdout)
    assert len(d["state_layout"]) == 18 and d["invariants"][0]["name"] == "energy"
    assert liesim.describe("rkmk45")["embedded_order"] == 4
    obs = liesim.describe("quadrotor_load", params={"control": "tracking"})["observables"]
    assert obs[0] == {"name": "tracking_error", "unit": "m", "doc": obs[0]["doc"]}


@pytest.mark.parametrize("model,params,method,settings", [
    ("pendulum_chain", {"N": 2, "q0": [0.6, 0, 0.8, 0, 1, 0], "w0": [0, 1, 0, 0.5, 0, 0]}, "rkmk4", {"step": 0.01}),
    ("quadrotor_load", {"control": "tracking"}, "cf4", {"step": 0.005}),
    ("rigid_body", {}, "cvode_bdf", {"rtol": 1e-9, "atol": 1e-9}),
    ("pendulum_chain", {"N": 3}, "rkmk45", {"rtol": 1e-7, "atol": 1e-7}),
    ("harmonic_oscillator", {"F0": 0.5, "omega": 1.3, "zeta": 0.05}, "vi_midpoint", {"step": 0.01}),
])
def test_run_equals_the_command_lines_summary_bit_for_bit(tmp_path, model, params, method, settings):
    r = liesim.run(model, method, t_end=2.0, params=params, **settings)
    args = ["run", "--model", model, "--integrator", method, "--t-end", "2", "--summary", str(tmp_path / "s.json")]
    for k, v in params.items():
        args += ["--param", f"{k}={','.join(map(str, v)) if isinstance(v, list) else v}"]
    for k, v in settings.items():
        args += [f"--{k}", repr(v)]
    p = cli(*args)
    assert p.returncode == 0, p.stderr
    s = json.loads((tmp_path / "s.json").read_text())
    assert r.status == "ok"
    assert list(r.final_state) == s["final_state"]  # exact: the same kernel, plugins and settings
    assert r.stats["steps"] == s["stats"]["steps"]
    assert r.stats["f_evals"] == s["stats"]["f_evals"] and r.stats["rhs_evals"] == s["stats"]["rhs_evals"]
    for name, inv in s["invariants"].items():
        if name in r.max_drift:
            assert r.max_drift[name] == inv["max_abs_drift"]
    assert r.t[0] == 0.0 and r.t[-1] == s["t_reached"]
    assert np.array_equal(r.y[-1], r.final_state)


def test_outputs_every_nth_point_and_the_last_y0_and_pandas():
    full = liesim.run("pendulum_chain", "rk4", t_end=1.0, step=0.01)
    thin = liesim.run("pendulum_chain", "rk4", t_end=1.0, step=0.01, output_every=30)
    assert len(full.t) == 101 and list(thin.t) == [full.t[0], full.t[30], full.t[60], full.t[90], full.t[100]]
    assert np.array_equal(thin.y, full.y[[0, 30, 60, 90, 100]])
    assert full.invariants.shape == (101, len(full.invariant_names))
    start = [0, 0, 1, 1, 0, 0, 0, 0, 1, 0, 1, 0]
    moved = liesim.run("pendulum_chain", "rk4", t_end=0.1, step=0.01, y0=start)
    assert list(moved.y[0]) == start
    df = full.to_pandas()
    assert list(df.columns[:4]) == ["t", "q1_x", "q1_y", "q1_z"] and len(df) == 101
    assert "energy" in df.columns


def test_t_eval_gives_exactly_those_times_from_the_dense_output():
    times = [0.1, 0.25, 0.7, 1.0]
    r = liesim.run("rigid_body", "rkmk45", t_end=1.0, rtol=1e-10, atol=1e-10, t_eval=times)
    assert list(r.t) == [0.0] + times
    stopped = liesim.run("rigid_body", "rkmk45", t_end=0.7, rtol=1e-10, atol=1e-10)
    assert np.allclose(r.y[3], stopped.final_state, atol=1e-8)
    with pytest.raises(liesim.SettingError, match="output times must increase"):
        liesim.run("rigid_body", "rk4", t_end=1.0, step=0.1, t_eval=[0.5, 0.2])


def test_events_stop_the_run_and_are_recorded_with_their_state():
    # q = cos 2t: v = -2 sin 2t falls below -1 at pi/12 (recorded), q below 0 at pi/4 (ends the run),
    # under the dense output of rkmk45 and under CVODE's root finding alike.
    for method in ("rkmk45", "cvode_bdf"):
        r = liesim.run("harmonic_oscillator", method, t_end=5.0, rtol=1e-12, atol=1e-12, stop_when="q<0", events=["v<-1"])
        assert [e["event"] for e in r.events] == ["v<-1", "q<0"]
        assert abs(r.events[0]["t"] - np.pi / 12) < 1e-10 and not r.events[0]["terminal"]
        assert abs(r.t_reached - np.pi / 4) < 1e-10 and r.events[1]["terminal"]
        assert np.array_equal(r.events[1]["y"], r.final_state)
    with pytest.raises(liesim.SettingError, match="'x' is neither a state column"):
        liesim.run("harmonic_oscillator", "rk4", t_end=1.0, step=0.1, stop_when="x<0")


def cli_error(*args):
    p = cli(*args)
    assert p.returncode != 0
    return p.stderr.strip().removeprefix("liesim: error: ")


@pytest.mark.parametrize("kwargs,args", [
    (dict(model="pendulum_chain", integrator="rkmk4", t_end=1, step=0.1, params={"N": 0}),
     ["--model", "pendulum_chain", "--integrator", "rkmk4", "--t-end", "1", "--step", "0.1", "--param", "N=0"]),
    (dict(model="pendulum_chain", integrator="nope", t_end=1, step=0.1),
     ["--model", "pendulum_chain", "--integrator", "nope", "--t-end", "1", "--step", "0.1"]),
    (dict(model="nothing", integrator="rk4", t_end=1, step=0.1),
     ["--model", "nothing", "--integrator", "rk4", "--t-end", "1", "--step", "0.1"]),
    (dict(model="pendulum_chain", integrator="rk4", t_end=1, rtol=1e-6, atol=1e-6),
     ["--model", "pendulum_chain", "--integrator", "rk4", "--t-end", "1", "--rtol", "1e-6", "--atol", "1e-6"]),
    (dict(model="pendulum_chain", integrator="rkmk4", t_end=1, step=0.1, options={"bogus": 1}),
     ["--model", "pendulum_chain", "--integrator", "rkmk4", "--t-end", "1", "--step", "0.1", "--option", "bogus=1"]),
    (dict(model="pendulum_chain", integrator="rkmk4", t_end=1, step=0.1, params={"q0": "1,0,0.5"}),
     ["--model", "pendulum_chain", "--integrator", "rkmk4", "--t-end", "1", "--step", "0.1", "--param", "q0=1,0,0.5"]),
    (dict(model="pendulum_chain", integrator="rkmk45", t_end=1, rtol=1e-6),  # rtol alone: refused by both
     ["--model", "pendulum_chain", "--integrator", "rkmk45", "--t-end", "1", "--rtol", "1e-6"]),
    (dict(model="pendulum_chain", integrator="rkmk45", t_end=1),
     ["--model", "pendulum_chain", "--integrator", "rkmk45", "--t-end", "1"]),
])
def test_bad_settings_raise_setting_error_with_the_command_lines_message(kwargs, args):
    with pytest.raises(liesim.SettingError) as e:
        liesim.run(**kwargs)
    # The command line's message, its flags written as this module's arguments.
    assert str(e.value) == liesim._pythonic(cli_error("run", *args))
    assert "--" not in str(e.value)
    with pytest.raises(ValueError):  # SettingError is a ValueError
        liesim.run(**kwargs)


def test_messages_name_python_arguments_not_command_line_flags():
    with pytest.raises(liesim.SettingError) as e:
        liesim.run("pendulum_chain", "rk4", t_end=1, rtol=1e-6, atol=1e-6)
    assert str(e.value) == ("method 'rk4' has no error estimate and runs with a fixed step only: use step=H, "
                            "or an adaptive method")
    with pytest.raises(liesim.SettingError) as e:
        liesim.run("pendulum_chain", "rkmk45", t_end=1)
    assert str(e.value) == "give a fixed step (step=H) or tolerances (rtol=R, atol=A)"
    with pytest.raises(liesim.SettingError, match=r"finite with atol > 0 and rtol >= 0 \(got rtol = 1e-06, atol = 0\)"):
        liesim.run("pendulum_chain", "rkmk45", t_end=1, rtol=1e-6)


def test_a_failing_run_raises_solver_error_and_keeps_what_it_computed():
    with pytest.raises(liesim.SolverError) as e:
        liesim.run("pendulum_chain", "rkmk45", t_end=1, rtol=1e-8, atol=1e-8, options={"max_steps": 3})
    assert "max_steps (3) reached" in str(e.value)
    partial = e.value.result
    assert partial.status == "failed" and 0 < partial.t_reached < 1 and len(partial.t) == 4
    r = liesim.run("pendulum_chain", "rkmk45", t_end=1, rtol=1e-8, atol=1e-8, options={"max_steps": 3},
                   raise_on_failure=False)
    assert r.status == "failed" and r.error == str(e.value)


G = np.array([0.0, 0.0, -9.81])


def pendulum_f(t, y):
    q, w = y[:3], y[3:]
    return np.concatenate([w, np.cross(q, np.cross(q, G))])


def pendulum_F(t, y):
    q, w = y[:3], y[3:]
    return np.concatenate([np.cross(w, q), np.cross(q, G)])


def pendulum_invariants(y):
    q, w = y[:3], y[3:]
    v = np.cross(w, q)
    return [0.5 * v @ v + 9.81 * q[2], np.linalg.norm(q) - 1, q @ w]


def python_pendulum(F=pendulum_F):
    return liesim.Model("TS2", pendulum_f, [0.7071067811865476, 0, 0.7071067811865476, 0, 1, 0], F=F,
                        invariants=pendulum_invariants, invariant_names=["energy", "q_norm_minus_1", "q_dot_w"],
                        state_names=["q_x", "q_y", "q_z", "w_x", "w_y", "w_z"], name="py_pendulum")


@pytest.mark.parametrize("method,settings", [("rkmk4", {"step": 0.01}), ("rk4", {"step": 0.01}),
                                             ("cvode_bdf", {"rtol": 1e-10, "atol": 1e-10})])
def test_a_python_model_matches_the_compiled_example_model(method, settings):
    mine = liesim.run(python_pendulum(), method, t_end=2.0, **settings)
    compiled = liesim.run("example_model", method, t_end=2.0, plugin_path=TEST_PLUGINS, **settings)
    assert mine.y.shape == compiled.y.shape
    assert np.abs(mine.y - compiled.y).max() <= 1e-13
    assert np.abs(mine.invariants - compiled.invariants).max() <= 1e-12
    assert mine.stats["steps"] == compiled.stats["steps"]


def test_a_python_models_default_F_is_the_actions_generator_and_lie_methods_keep_the_sphere():
    # One Euler step evaluates F once, at y0 on M, where psi_*(f(y))|_y equals the direct F (off M they differ).
    r = liesim.run(python_pendulum(F=None), "euler", t_end=0.01, step=0.01)
    ref = liesim.run(python_pendulum(), "euler", t_end=0.01, step=0.01)
    assert np.abs(r.final_state - ref.final_state).max() < 1e-15 and r.stats["rhs_evals"] == 1
    lie = liesim.run(python_pendulum(), "rkmk4", t_end=5.0, step=0.01)
    assert np.abs(lie.invariants[:, 1:]).max() < 1e-13


def test_python_model_errors_name_the_problem():
    with pytest.raises(liesim.SettingError, match="unknown block 'TS3'"):
        liesim.Model("TS3", pendulum_f, [1, 0, 0, 0, 0, 0])
    with pytest.raises(liesim.SettingError, match="y0 has 5 numbers"):
        liesim.Model("TS2", pendulum_f, [1, 0, 0, 0, 0])
    with pytest.raises(liesim.SettingError, match="off the manifold"):
        liesim.run(liesim.Model("TS2", pendulum_f, [1, 0, 0.1, 0, 0, 0]), "rkmk4", t_end=1, step=0.1)

    with pytest.raises(liesim.SolverError, match=r"returned 2 numbers, expected 6"):
        liesim.run(liesim.Model("TS2", lambda t, y: [1, 2], [1, 0, 0, 0, 1, 0]), "rkmk4", t_end=1, step=0.1)
    with pytest.raises(liesim.SettingError, match="made in this process"):
        liesim.run(python_pendulum(), "rk4", t_end=1, step=0.1, params={"N": 2})


def test_an_exception_in_a_python_model_surfaces_as_itself_with_the_users_frame():
    def f(t, y):
        if t > 0.25:
            return [1.0 / 0] * 6  # ZeroDivisionError, raised here
        return np.concatenate([y[3:] * 0, np.zeros(3)])
    with pytest.raises(ZeroDivisionError) as e:
        liesim.run(liesim.Model("TS2", f, [1, 0, 0, 0, 1, 0], name="faulty"), "rkmk4", t_end=1, step=0.1)
    frames = [tb.name for tb in e.traceback]
    assert "f" in frames  # the user's function is in the traceback
    partial = e.value.result
    assert partial.status == "failed" and 0.15 < partial.t_reached < 0.31 and len(partial.t) >= 3
    assert "python model 'faulty': f(t, y) raised ZeroDivisionError" in partial.error
    assert any("what was computed is in this exception's .result" in n for n in getattr(e.value, "__notes__", []))
    # raise_on_failure=False: the failed result, no exception.
    r = liesim.run(liesim.Model("TS2", f, [1, 0, 0, 0, 1, 0]), "rkmk4", t_end=1, step=0.1, raise_on_failure=False)
    assert r.status == "failed" and "ZeroDivisionError" in r.error

    # An exception in invariants(y) during the run fails it too (not a silent NaN).
    calls = []

    def invariants(y):
        calls.append(1)
        if len(calls) > 3:
            raise KeyError("energy")
        return [0.0]
    with pytest.raises(KeyError):
        liesim.run(liesim.Model("TS2", pendulum_f, [1, 0, 0, 0, 1, 0], invariants=invariants, invariant_names=["e"]),
                   "rkmk4", t_end=1, step=0.1)


def test_functions_returning_the_wrong_number_of_values_are_refused():
    with pytest.raises(liesim.SettingError, match=r"invariants\(y\) returned 2 values at y0, but 3 names were given"):
        liesim.Model("TS2", pendulum_f, [1, 0, 0, 0, 1, 0], invariants=lambda y: [1.0, 2.0], invariant_names=["a", "b", "c"])
    with pytest.raises(liesim.SettingError, match=r"observables\(t, y\) returned 1 values at y0, but 2 names"):
        liesim.Model("TS2", pendulum_f, [1, 0, 0, 0, 1, 0], observables=lambda t, y: [t], observable_names=["a", "b"])
    with pytest.raises(liesim.SolverError, match=r"returned 2 numbers, expected 6"):
        liesim.run(liesim.Model("TS2", lambda t, y: [1, 2], [1, 0, 0, 0, 1, 0]), "rkmk4", t_end=1, step=0.1)
    # A function that changes its count during the run: the run fails, naming it.
    sizes = iter([1] * 3 + [2] * 1000)
    with pytest.raises(liesim.SolverError, match=r"invariants\(y\) returned 2 numbers, expected 1"):
        liesim.run(liesim.Model("TS2", pendulum_f, [1, 0, 0, 0, 1, 0], invariants=lambda y: [0.0] * next(sizes),
                                invariant_names=["e"]), "rkmk4", t_end=1, step=0.1)


def test_results_in_the_shape_of_solve_ivp_and_pandas():
    r = liesim.run("pendulum_chain", "rkmk4", t_end=1.0, step=0.01, params={"N": 2})
    sol = r.as_solve_ivp()
    assert sol.success and sol.status == 0
    assert sol.y.shape == (len(r.state_names), len(r.t)) and np.array_equal(sol.y[:, -1], r.final_state)
    assert sol.nfev == 4 * 100
    failed = liesim.run("pendulum_chain", "rkmk45", t_end=1, rtol=1e-8, atol=1e-8, options={"max_steps": 3},
                        raise_on_failure=False).as_solve_ivp()
    assert not failed.success and failed.status == -1 and "max_steps" in failed.message


def test_product_spaces_and_time_dependent_python_fields():
    # S2 x R2: a point spinning about e3 and a forced oscillator, f depends on t.
    def f(t, y):
        return np.array([0, 0, 1.0, y[4], -y[3] + np.cos(t)])
    m = liesim.Model("S2 x R2", f, [1, 0, 0, 0, 0], observables=lambda t, y: [np.cos(t) - y[0]], observable_names=["lag"])
    r = liesim.run(m, "rkmk4", t_end=1.0, step=0.001)
    assert abs(r.final_state[0] - np.cos(1.0)) < 1e-12 and abs(r.final_state[1] - np.sin(1.0)) < 1e-12
    assert abs(r.final_state[3] - 0.5 * np.sin(1.0)) < 1e-12  # q'' + q = cos t from rest: q = t sin(t) / 2
    assert np.abs(r.observables[:, 0]).max() < 1e-12


def test_threads_run_compiled_models_side_by_side():
    expected = liesim.run("pendulum_chain", "rkmk4", t_end=2.0, step=0.001, params={"N": 8}).final_state
    results = [None] * 4

    def work(k):
        results[k] = liesim.run("pendulum_chain", "rkmk4", t_end=2.0, step=0.001, params={"N": 8}).final_state
    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for r in results:
        assert np.array_equal(r, expected)


def read_rows(path):
    with open(path, newline="") as fh:
        return list(csv.DictReader(fh))


def test_study_writes_what_liesim_study_writes(tmp_path, capsys):
    timing = {"wall_time_s", "cpu_time_s", "paired_time_ratio"}
    table = liesim.study(STUDY, jobs=2, out=tmp_path / "py", plots=False)
    assert "[6/6]" in capsys.readouterr().err  # the progress line reached the caller's stderr
    p = cli("study", STUDY, "--jobs", "2", "--out", str(tmp_path / "cli"), "--no-plots")
    assert p.returncode == 0, p.stderr
    mine, theirs = read_rows(tmp_path / "py" / "results.csv"), read_rows(tmp_path / "cli" / "results.csv")
    assert len(mine) == len(theirs) == len(table) == 6
    for a, b in zip(mine, theirs):
        assert {k: v for k, v in a.items() if k not in timing} == {k: v for k, v in b.items() if k not in timing}
    assert list(table["integrator"]) == [r["integrator"] for r in mine]
    # A dict is the same study.
    import tomllib
    with open(STUDY, "rb") as fh:
        as_dict = tomllib.load(fh)
    again = liesim.study(as_dict, jobs=1, out=tmp_path / "dict", plots=False)
    assert list(again["error_final"]) == list(table["error_final"])
    with pytest.raises(liesim.SettingError, match="unknown key 'bogus'"):
        liesim.study(dict(as_dict, bogus=1), out=tmp_path / "bad", plots=False)
