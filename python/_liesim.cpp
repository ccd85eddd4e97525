// The compiled part of the Python package `liesim` (python/liesim/__init__.py is the interface):
// a session over the plugins of a search path, the catalogue documents, runs that return numpy
// arrays, and models written in Python. Errors of settings raise liesim.SettingError with the
// command line's messages; a run that fails returns what it computed with its message.
#include "python_model.hpp"

#include <liesim/host/catalog.hpp>
#include <liesim/host/in_process.hpp>
#include <liesim/host/output.hpp>
#include <liesim/host/run.hpp>

#include <pybind11/stl.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace py = pybind11;
using namespace liesim;

namespace {

/// Every output point's t, state, invariants and observables, in flat row-major buffers. The values
/// are the monitor's, which sees every output point before this (thinned) observer does: nothing is
/// evaluated twice.
class Collector final : public Observer {
 public:
  Collector(const ModelView& m, const InvariantMonitor& monitor)
      : monitor_(monitor), n_(m.size()), k_(m.invariant_count()), o_(m.observable_count()) {}
  void on_output(double t, ConstVec y) override {
    t_.push_back(t);
    y_.insert(y_.end(), y.data(), y.data() + n_);
    const Eigen::VectorXd& inv = monitor_.current();  // the model's invariants first, then the method's conserved diagnostics
    inv_values_.insert(inv_values_.end(), inv.data(), inv.data() + k_);
    const Eigen::VectorXd& obs = monitor_.observable_last();
    obs_values_.insert(obs_values_.end(), obs.data(), obs.data() + o_);
  }
  /// A rows x cols numpy array of `v`.
  static py::array_t<double> matrix(const std::vector<double>& v, long cols) {
    const long rows = cols > 0 ? static_cast<long>(v.size()) / cols : 0;
    py::array_t<double> a({rows, cols});
    std::copy(v.begin(), v.end(), a.mutable_data());
    return a;
  }
  py::dict result() const {
    py::dict d;
    py::array_t<double> t(static_cast<long>(t_.size()));
    std::copy(t_.begin(), t_.end(), t.mutable_data());
    d["t"] = t;
    d["y"] = matrix(y_, n_);
    d["invariants"] = matrix(inv_values_, k_);
    d["observables"] = matrix(obs_values_, o_);
    return d;
  }

 private:
  const InvariantMonitor& monitor_;
  long n_, k_, o_;
  std::vector<double> t_, y_, inv_values_, obs_values_;
};

py::dict stats_dict(const Stats& s) {
  py::dict d;
  d["steps"] = s.steps;
  d["rejected_steps"] = s.rejected_steps;
  d["rhs_evals"] = s.counters.F_evals;
  d["f_evals"] = s.counters.f_evals;
  d["exponentials"] = s.counters.exps;
  d["dexpinv_calls"] = s.counters.dexpinv_calls;
  d["brackets"] = s.counters.brackets;
  d["projections"] = s.counters.projections;
  d["rhs_evals_jac"] = s.rhs_evals_jac;
  d["jac_evals"] = s.jac_evals;
  d["nonlinear_iters"] = s.nonlinear_iters;
  d["nonlinear_conv_fails"] = s.nonlinear_conv_fails;
  d["h_min_used"] = s.h_min_used;
  d["h_max_used"] = s.h_max_used;
  d["wall_time_s"] = s.wall_time_s;
  d["cpu_time_s"] = s.cpu_time_s;
  return d;
}

/// The plugins of one search path, loaded on demand (as the command line does).
class Session {
 public:
  explicit Session(const std::vector<std::string>& dirs) {
    std::vector<std::filesystem::path> paths(dirs.begin(), dirs.end());
    registry_.load_directories(paths);
  }
  std::string list() const { return list_json(registry_); }
  std::string describe(const std::string& name, const std::map<std::string, std::string>& params) const {
    return describe_json(registry_, name, params);
  }

  /// One run; `model` is a model name or a PythonModelSpec. Settings errors throw (SettingError);
  /// a failing run returns its partial result with status "failed" and the message.
  py::dict run(const py::object& model, const RunRequest& request_in, long output_every) {
    if (output_every < 1) throw Error(fmt::format("output_every must be >= 1 (got {})", output_every));
    RunRequest request = request_in;
    const bool in_python = py::isinstance<python::PythonModelSpec>(model);
    PreparedRun p;
    const python::PythonModel* prototype = nullptr;  // owned by p.model
    if (in_python) {
      const auto& spec = model.cast<const python::PythonModelSpec&>();
      request.model = spec.name;
      auto instance = std::make_unique<python::PythonModel>(spec);
      prototype = instance.get();
      p = prepare_run(registry_, request, adopt_model(std::move(instance)));
    } else {
      request.model = model.cast<std::string>();
      p = prepare_run(registry_, request);
    }
    InvariantMonitor monitor(*p.model, p.method.diagnostics);
    Collector collector(*p.model, monitor);
    Thinning every = Thinning::every_nth(collector, output_every, p.model->size());
    ObserverList observers;
    observers.add(monitor);  // first: the collector reads its values of the same point
    observers.add(every);
    RunResult r;
    std::string error;
    {
      // A compiled model integrates without the GIL (threads can run side by side); a Python
      // model needs it for every evaluation.
      std::unique_ptr<py::gil_scoped_release> release;
      if (!in_python) release = std::make_unique<py::gil_scoped_release>();
      try {
        r = execute(p, observers);
      } catch (const RunFailure& f) {
        r = f.partial;
        error = f.what();
      }
    }
    every.finish();
    py::dict d = collector.result();
    // A problem in a function that does not end the run (invariants(y)) still fails it.
    if (prototype && error.empty() && !prototype->first_problem().empty()) error = prototype->first_problem();
    d["status"] = error.empty() ? "ok" : "failed";
    d["error"] = error;
    // The user's own exception (with its traceback), for the package to re-raise.
    d["exception"] = prototype ? prototype->exception() : py::none();
    d["model"] = request.model;
    d["integrator"] = p.method.name;
    d["t_reached"] = r.t;
    py::array_t<double> final_state(r.y.size());
    std::copy(r.y.data(), r.y.data() + r.y.size(), final_state.mutable_data());
    d["final_state"] = final_state;
    d["state_names"] = p.model->state_names();
    std::vector<std::string> inv, obs;
    for (const auto& i : p.model->invariants()) inv.push_back(i.name);
    for (const auto& o : p.model->observables()) obs.push_back(o.name);
    d["invariant_names"] = inv;
    d["observable_names"] = obs;
    d["stats"] = stats_dict(r.stats);
    // The events located, in time order: which (as written), when, the state there.
    py::list events;
    for (const EventHit& hit : r.events) {
      py::array_t<double> y(hit.y.size());
      std::copy(hit.y.data(), hit.y.data() + hit.y.size(), y.mutable_data());
      events.append(py::dict(py::arg("event") = p.spec.events[hit.event].text, py::arg("t") = hit.t, py::arg("y") = y,
                             py::arg("terminal") = p.spec.events[hit.event].terminal));
    }
    d["events"] = events;
    py::dict drift;
    for (std::size_t k = 0; k < monitor.info().size(); ++k) drift[py::str(monitor.info()[k].name)] = monitor.max_abs_drift()[static_cast<Eigen::Index>(k)];
    d["max_drift"] = drift;
    if (p.model->has_exact_solution()) {
      Eigen::VectorXd exact(p.model->size());
      if (p.model->exact_solution(r.t, exact) == Status::ok) d["exact_error"] = (r.y - exact).norm();
    }
    return d;
  }

 private:
  Registry registry_;
};

}  // namespace

PYBIND11_MODULE(_liesim, m) {
  m.doc() = "liesim's compiled core (use the package `liesim`)";
  static py::exception<Error> setting_error(m, "SettingError", PyExc_ValueError);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const Error& e) {
      setting_error(e.what());
    }
  });
  m.attr("abi") = py::make_tuple(LIESIM_ABI_MAJOR, LIESIM_ABI_MINOR);
  m.attr("space_catalogue") = python::space_catalogue();

  py::class_<RunRequest>(m, "RunRequest")
      .def(py::init<>())
      .def_readwrite("parameters", &RunRequest::parameters)
      .def_readwrite("method", &RunRequest::method)
      .def_readwrite("options", &RunRequest::options)
      .def_readwrite("t0", &RunRequest::t0)
      .def_readwrite("t_end", &RunRequest::t_end)
      .def_readwrite("step", &RunRequest::step)
      .def_readwrite("rtol", &RunRequest::rtol)
      .def_readwrite("atol", &RunRequest::atol)
      .def_readwrite("solver_outputs", &RunRequest::solver_outputs)
      .def_readwrite("output_times", &RunRequest::output_times)
      .def_readwrite("stop_when", &RunRequest::stop_when)
      .def_readwrite("events", &RunRequest::events)
      .def_readwrite("y0", &RunRequest::y0);

  py::class_<python::PythonModelSpec>(m, "PythonModelSpec")
      .def(py::init<>())
      .def_readwrite("name", &python::PythonModelSpec::name)
      .def_readwrite("space", &python::PythonModelSpec::space)
      .def_readwrite("f", &python::PythonModelSpec::f)
      .def_readwrite("F", &python::PythonModelSpec::F)
      .def_readwrite("y0", &python::PythonModelSpec::y0)
      .def_readwrite("state_names", &python::PythonModelSpec::state_names)
      .def_readwrite("invariants", &python::PythonModelSpec::invariants)
      .def_readwrite("invariant_names", &python::PythonModelSpec::invariant_names)
      .def_readwrite("observables", &python::PythonModelSpec::observables)
      .def_readwrite("observable_names", &python::PythonModelSpec::observable_names)
      .def("check", [](const python::PythonModelSpec& s) {
        // Builds an instance once: a bad space, y0 or name list raises SettingError here.
        python::PythonModel model(s);
        return py::make_tuple(model.size(), model.space().algebra_dim());
      });

  py::class_<Session>(m, "Session")
      .def(py::init<const std::vector<std::string>&>())
      .def("list", &Session::list)
      .def("describe", &Session::describe)
      .def("run", &Session::run);
}
