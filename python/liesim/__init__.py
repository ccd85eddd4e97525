"""liesim from Python: the same kernel and plugins as the `liesim` command, in this process.

    import liesim
    liesim.models()                      # names, versions, summaries
    liesim.describe("pendulum_chain")    # parameters, state layout, invariants, conventions
    r = liesim.run("pendulum_chain", "rkmk4", t_end=3, step=0.01, params={"N": 2})
    r.t, r.y, r.invariants, r.final_state, r.stats
    r.to_pandas()                        # with pandas installed
    liesim.study("studies/quickstart.toml", jobs=2, out="/tmp/q")   # results.csv as a DataFrame

Plugins are found as by the command line: `plugin_path=` folders, then LIESIM_PLUGIN_PATH, then
the plugins installed beside this package. Bad settings raise SettingError with the command line's
messages, written with this module's argument names (`step=`, not `--step`); a run that fails
raises SolverError, whose `.result` holds what was computed. An exception raised by a
liesim.Model's own function is re-raised as itself (type and traceback), with `.result` and a note.
See docs/python.md.
"""
import csv
import json
import os
import re
import subprocess
import sys
import tempfile
import types

import numpy as np

from . import _liesim
from ._liesim import SettingError

__all__ = ["models", "integrators", "describe", "run", "study", "Model", "Result", "SettingError", "SolverError",
           "space_catalogue"]

ABI = _liesim.abi
space_catalogue = _liesim.space_catalogue
_HERE = os.path.dirname(os.path.abspath(__file__))


class SolverError(RuntimeError):
    """A run that started and failed (step size underflow, Newton failure, a model's fatal status,
    ...). `result` is the Result with everything computed before the failure."""

    def __init__(self, message, result):
        super().__init__(message)
        self.result = result


# The command line's flags in messages, as this module's arguments (the kernel's messages are shared).
_FLAGS = [
    (re.compile(r"--rtol R --atol A"), "rtol=R, atol=A"),
    (re.compile(r"--step H"), "step=H"),
    (re.compile(r"--(step|rtol|atol)(?= [<>=])"), r"\1"),  # "--atol > 0": a condition on the value
    (re.compile(r"--(step|rtol|atol)\b"), r"\1="),
    (re.compile(r"--t-end\b"), "t_end="),
    (re.compile(r"--t0\b"), "t0="),
    (re.compile(r"--param\b"), "params="),
    (re.compile(r"--option\b"), "options="),
    (re.compile(r"--plugin-path\b"), "plugin_path="),
    (re.compile(r"--output-every\b"), "output_every="),
    (re.compile(r"--outputs\b"), "outputs="),
    (re.compile(r"--model\b"), "model"),
    (re.compile(r"--integrator\b"), "integrator"),
    (re.compile(r"`liesim run --help`"), "help(liesim.run)"),
]


def _pythonic(message):
    """A kernel message with the command line's flags written as this module's arguments."""
    for pattern, replacement in _FLAGS:
        message = pattern.sub(replacement, message)
    return message


def _installed_root():
    """(plugin folder, liesim executable) of this build tree or installation."""
    # Build tree: build/python/liesim -> build/lib/liesim/plugins, build/bin/liesim.
    # Installed: PREFIX/lib/python3/dist-packages/liesim -> PREFIX/lib/liesim/plugins, PREFIX/bin/liesim.
    # A wheel (pip install .): the package is its own prefix, liesim/lib/liesim/plugins, liesim/bin/liesim.
    for root, lib in ((_HERE, "lib"), (os.path.join(_HERE, "..", ".."), "lib"),
                      (os.path.join(_HERE, "..", "..", "..", ".."), "lib")):
        plugins = os.path.normpath(os.path.join(root, lib, "liesim", "plugins"))
        if os.path.isdir(plugins):
            return plugins, os.path.normpath(os.path.join(root, "bin", "liesim"))
    return None, None


def _search_path(plugin_path=None):
    dirs = []
    if plugin_path:
        dirs += [plugin_path] if isinstance(plugin_path, (str, os.PathLike)) else list(plugin_path)
    dirs += [d for d in os.environ.get("LIESIM_PLUGIN_PATH", "").split(":") if d]
    plugins, _ = _installed_root()
    if plugins:
        dirs.append(plugins)
    return [os.fspath(d) for d in dirs]


_sessions = {}


def _session(plugin_path=None):
    key = tuple(_search_path(plugin_path))
    if key not in _sessions:
        _sessions[key] = _liesim.Session(list(key))
    return _sessions[key]


def _text(settings):
    """Settings as the command line's KEY=VALUE text: numbers in round-trip form, lists joined by commas."""
    def one(v):
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, (list, tuple, np.ndarray)):
            return ",".join(one(x) for x in v)
        if isinstance(v, (float, np.floating)):
            return repr(float(v))
        return str(v)
    return {str(k): one(v) for k, v in (settings or {}).items()}


def models(plugin_path=None):
    """The model plugins: a list of dicts (name, version, summary, file, abi)."""
    return json.loads(_session(plugin_path).list())["models"]


def integrators(plugin_path=None):
    """The integrator methods: a list of dicts (name, order, embedded_order, lie_group, self_controlled,
    family, ...)."""
    out = []
    for family in json.loads(_session(plugin_path).list())["integrators"]:
        for m in family["methods"]:
            out.append(dict(m, family=family["name"], family_version=family["version"]))
    return out


def describe(name, params=None, plugin_path=None):
    """A model (parameters with defaults and units, state layout, invariants, observables,
    capabilities, conventions; of the instance with `params`) or a method (order, options)."""
    return json.loads(_session(plugin_path).describe(name, _text(params)))


class Model:
    """A model written in Python, for prototyping.

    space: a phase space of the kernel's catalogue, e.g. "TS2" (a pendulum's (q, w) under SE(3)),
           "S2 x R2", "TS2^3"; see liesim.space_catalogue.
    f(t, y) -> xi: the generator, an element of the Lie algebra (numpy array, algebra dimension).
    y0: the initial state (on the manifold).
    F(t, y) -> dy: the same field in embedding coordinates, for classical methods and SUNDIALS
           (default: the action's infinitesimal generator of f(t, y)).
    invariants(y) -> values with invariant_names; observables(t, y) -> values with observable_names.

    Every evaluation is one Python call: expect 1-3 microseconds of overhead per call (see
    docs/python.md for measured figures)."""

    def __init__(self, space, f, y0, F=None, state_names=None, invariants=None, invariant_names=None,
                 observables=None, observable_names=None, name="python_model"):
        spec = _liesim.PythonModelSpec()
        spec.name = name
        spec.space = space
        spec.f = f
        spec.F = F
        spec.y0 = [float(v) for v in np.asarray(y0, dtype=float).ravel()]
        spec.state_names = list(state_names or [])
        spec.invariants = invariants
        spec.invariant_names = list(invariant_names or [])
        spec.observables = observables
        spec.observable_names = list(observable_names or [])
        self.size, self.algebra_dim = spec.check()
        # The optional functions once at y0 (observables at t = 0): a wrong number of values is refused
        # here, naming the function; an exception is the function's own.
        y = np.asarray(spec.y0, dtype=float)
        for fn, args, names, what in ((invariants, (y,), spec.invariant_names, "invariants(y)"),
                                      (observables, (0.0, y), spec.observable_names, "observables(t, y)")):
            if fn is None:
                continue
            values = np.asarray(fn(*args), dtype=float).ravel()
            if values.size != len(names):
                raise SettingError(f"python model '{name}': {what} returned {values.size} values at y0, but "
                                   f"{len(names)} names were given ({', '.join(names)}): return one value per name")
        self._spec = spec
        self.name = name
        self.space = space


class Result:
    """A run's output: t (m), y (m x n), invariants (m x k), observables (m x o) at the output
    points; final_state, t_reached, events (dicts: event, t, y, terminal), stats, max_drift, status ("ok" or
    "failed"), error."""

    def __init__(self, d):
        self.__dict__.update(d)

    def __repr__(self):
        return (f"<liesim.Result {self.model} with {self.integrator}: {self.status}, t = {self.t_reached}, "
                f"{self.stats['steps']} steps, {len(self.t)} output points>")

    def as_solve_ivp(self):
        """The shape scipy.integrate.solve_ivp returns: t (m), y (n x m: states x times), success,
        status (0 reached t_end, -1 failed), message, nfev."""
        ok = self.status == "ok"
        return types.SimpleNamespace(t=self.t, y=self.y.T, success=ok, status=0 if ok else -1,
                                     message=self.error or "The solver successfully reached the end of the integration interval.",
                                     nfev=self.stats["rhs_evals"] + self.stats["f_evals"] + self.stats["rhs_evals_jac"])

    def to_pandas(self):
        """A DataFrame with columns t, the state names, the invariants and the observables."""
        import pandas as pd
        data = {"t": self.t}
        for k, n in enumerate(self.state_names):
            data[n] = self.y[:, k]
        for k, n in enumerate(self.invariant_names):
            data[n] = self.invariants[:, k]
        for k, n in enumerate(self.observable_names):
            data[n] = self.observables[:, k]
        return pd.DataFrame(data)


def run(model, integrator, t_end, step=None, rtol=None, atol=None, params=None, options=None, output_every=1,
        y0=None, t0=0.0, outputs=100, t_eval=None, stop_when=None, events=None, plugin_path=None, raise_on_failure=True):
    """Integrate `model` (a plugin's name, or a liesim.Model) with `integrator` to t_end, with a fixed
    `step` or tolerances `rtol`/`atol`. params: the model's parameters, options: the method's (values
    as numbers, lists or text, as on the command line). Every output point (every step of a
    kernel-driven method, every output time of SUNDIALS) is kept, or every `output_every`-th and the
    last; with t_eval (increasing times in [t0, t_end], as in scipy's solve_ivp), exactly those times and
    t0, from the method's dense output. stop_when / events: "NAME<VALUE" or "NAME>VALUE" (a state column or an
    observable falling below or rising above a value; a string or a list) that end the run there / are recorded,
    located on the dense output or by SUNDIALS' root finding (Result.events: event, t, y, terminal; t_reached is
    a terminal event's time). y0 replaces the model's initial state. Returns a Result; raises SettingError for bad
    settings and SolverError (with .result) when the run fails, unless raise_on_failure=False."""
    q = _liesim.RunRequest()
    q.method = integrator
    q.t0 = float(t0)
    q.t_end = float(t_end)
    q.step = float(step) if step is not None else 0.0
    # One rule with the command line: an adaptive run needs atol > 0 (rtol alone is refused).
    q.rtol = float(rtol) if rtol is not None else 0.0
    q.atol = float(atol) if atol is not None else 0.0
    q.options = _text(options)
    q.solver_outputs = int(outputs)
    if t_eval is not None:
        q.output_times = [float(v) for v in np.asarray(t_eval, dtype=float).ravel()]
    if y0 is not None:
        q.y0 = [float(v) for v in np.asarray(y0, dtype=float).ravel()]
    q.stop_when = [stop_when] if isinstance(stop_when, str) else [str(e) for e in (stop_when or [])]
    q.events = [events] if isinstance(events, str) else [str(e) for e in (events or [])]
    if isinstance(model, Model):
        if params:
            raise SettingError(f"model '{model.name}' is made in this process: set its parameters when you make it, "
                               "not as run parameters")
        target = model._spec
    else:
        q.parameters = _text(params)
        target = str(model)
    try:
        d = _session(plugin_path).run(target, q, int(output_every))
    except SettingError as e:
        raise SettingError(_pythonic(str(e))) from None
    exception = d.pop("exception", None)
    d["error"] = _pythonic(d["error"])
    result = Result(d)
    if result.status != "ok" and raise_on_failure:
        if exception is not None:
            # The user's own exception, with its traceback (their function's frame) and what was computed.
            exception.result = result
            if hasattr(exception, "add_note"):
                exception.add_note(f"liesim: {result.error}; the run stopped at t = {result.t_reached:g} "
                                   f"({integrator}); what was computed is in this exception's .result")
            raise exception
        raise SolverError(result.error, result)
    return result


def _executable():
    _, exe = _installed_root()
    if exe and os.path.exists(exe):
        return exe
    raise SettingError("the liesim executable was not found beside this package (a build tree's bin/liesim, or "
                       "PREFIX/bin/liesim): studies run through it")


def study(study, jobs=1, out=None, plots=True, plugin_path=None, extra_args=(), progress=True):
    """Run a comparison study (a TOML file's path, or a dict with the file's tables) exactly as
    `liesim study` does, in its own processes, writing the same files into `out`. Returns the
    results table: a pandas DataFrame when pandas is installed, else a list of dicts. With
    progress=True, a line on sys.stderr counts the runs as they finish; a study that cannot run
    raises SettingError with liesim's own message (every line of it)."""
    with tempfile.TemporaryDirectory() as tmp:
        if isinstance(study, dict):
            path = os.path.join(tmp, "study.toml")
            with open(path, "w") as fh:
                fh.write(_toml(study))
        else:
            path = os.fspath(study)
        args = [_executable(), "study", path, "--jobs", str(int(jobs))]
        if out is not None:
            args += ["--out", os.fspath(out)]
        if not plots:
            args.append("--no-plots")
        args += list(extra_args)
        env = dict(os.environ)
        env["LIESIM_PLUGIN_PATH"] = ":".join(_search_path(plugin_path))
        returncode, messages = _run_with_progress(args, env, progress)
        if returncode not in (0, 3):  # 3: the study finished with failed runs (their rows say why)
            errors = [m.removeprefix("liesim: error: ") for m in messages if m.startswith("liesim: ")]
            raise SettingError("\n".join(errors) or "\n".join(messages[-5:]) or f"liesim study exited with {returncode}")
        folder = out if out is not None else _default_output(study if isinstance(study, dict) else path)
        return _read_results(os.path.join(os.fspath(folder), "results.csv"))


def _run_with_progress(args, env, progress):
    """Run `liesim study`, echoing its per-run lines ("[k/n] case method ...") as one updating line
    on sys.stderr; returns (exit status, every line it wrote to stderr)."""
    lines = []
    with subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env) as p:
        for line in p.stderr:
            line = line.rstrip("\n")
            lines.append(line)
            if progress and line.startswith("["):
                print("\r" + line[:120].ljust(120), end="", file=sys.stderr, flush=True)
        returncode = p.wait()
    if progress and any(m.startswith("[") for m in lines):
        print(file=sys.stderr, flush=True)
    return returncode, lines


def _default_output(study):
    """Where `liesim study` writes without --out: the study's `output`, else results/NAME."""
    if not isinstance(study, dict):
        import tomllib
        with open(study, "rb") as fh:
            study = tomllib.load(fh)
    return study.get("output", f"results/{study['name']}")


def _read_results(path):
    try:
        import pandas as pd
        return pd.read_csv(path, keep_default_na=False, na_values=[""])
    except ImportError:
        with open(path, newline="") as fh:
            return list(csv.DictReader(fh))


def _toml(d, prefix=""):
    """A study dict as TOML (tables of scalars, lists, inline tables; arrays of tables for case/runs/figure)."""
    def value(v):
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, (int, np.integer)):
            return str(int(v))
        if isinstance(v, (float, np.floating)):
            return repr(float(v))
        if isinstance(v, str):
            return json.dumps(v)
        if isinstance(v, dict):
            return "{ " + ", ".join(f"{json.dumps(str(k))} = {value(x)}" for k, x in v.items()) + " }"
        if isinstance(v, (list, tuple)):
            return "[" + ", ".join(value(x) for x in v) + "]"
        raise SettingError(f"study: cannot write {v!r} as TOML")
    lines, tables = [], []
    for k, v in d.items():
        if isinstance(v, dict) and k == "reference":
            tables.append(f"[{k}]\n" + "".join(f"{json.dumps(str(a))} = {value(b)}\n" for a, b in v.items()))
        elif isinstance(v, list) and v and all(isinstance(x, dict) for x in v):
            for x in v:
                tables.append(f"[[{k}]]\n" + "".join(f"{json.dumps(str(a))} = {value(b)}\n" for a, b in x.items()))
        else:
            lines.append(f"{json.dumps(str(k))} = {value(v)}\n")
    return "".join(lines) + "\n".join(tables)
