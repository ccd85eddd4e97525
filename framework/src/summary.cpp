// JSON run summary.
#include <liesim/host/summary.hpp>

#include <nlohmann/json.hpp>

#include <cmath>

namespace liesim {

namespace {
/// JSON has no NaN/inf: write them as strings so that the file stays valid.
nlohmann::json number(double v) {
  if (std::isfinite(v)) return v;
  return std::isnan(v) ? "nan" : (v > 0 ? "inf" : "-inf");
}
}  // namespace

std::string run_summary_json(const PreparedRun& run, const RunResult& r, const InvariantMonitor& inv, const std::string& error,
                             long sampled_every, const std::string& series) {
  using nlohmann::json;
  json j;
  j["status"] = error.empty() ? "ok" : "failed";
  if (!error.empty()) j["error"] = error;
  j["model"] = run.model_plugin->name;
  j["integrator"] = run.method.name;
  // The method as its options made it (rk and rkmk: the orders and name of their table file).
  j["method"] = {{"summary", run.method.summary}, {"order", run.method.order}, {"embedded_order", run.method.embedded_order}};
  j["parameters"] = run.parameters.values();
  json options = run.options.values();
  for (const auto& [k, v] : kernel_option_values(run)) options[k] = v;
  j["options"] = options;
  j["t0"] = run.spec.t0;
  j["t_end"] = run.spec.t_end;
  j["t_reached"] = r.t;
  json events = json::array();
  for (const auto& e : r.events)
    events.push_back({{"event", run.spec.events[e.event].text}, {"t", e.t}, {"terminal", run.spec.events[e.event].terminal},
                      {"state", std::vector<double>(e.y.data(), e.y.data() + e.y.size())}});
  j["events"] = events;
  if (run.spec.step > 0) j["step"] = run.spec.step;
  else {
    j["rtol"] = run.spec.control.rtol;
    j["atol"] = run.spec.control.atol;
  }
  json state = json::array();
  for (Eigen::Index i = 0; i < r.y.size(); ++i) state.push_back(number(r.y[i]));
  j["final_state"] = state;
  j["state_names"] = run.model->state_names();
  const Stats& s = r.stats;
  j["stats"] = {{"steps", s.steps},
                {"rejected_steps", s.rejected_steps},
                {"rhs_evals", s.counters.F_evals},
                {"f_evals", s.counters.f_evals},
                {"exponentials", s.counters.exps},
                {"dexpinv_calls", s.counters.dexpinv_calls},
                {"brackets", s.counters.brackets},
                {"projections", s.counters.projections},
                {"rhs_evals_jac", s.rhs_evals_jac},
                {"jac_evals", s.jac_evals},
                {"nonlinear_iters", s.nonlinear_iters},
                {"nonlinear_conv_fails", s.nonlinear_conv_fails},
                {"h_min_used", s.h_min_used},
                {"h_max_used", s.h_max_used},
                {"output_evals", s.output_evals}};
  json invariants = json::object();
  for (std::size_t k = 0; k < inv.info().size(); ++k) {
    const auto i = static_cast<Eigen::Index>(k);
    invariants[inv.info()[k].name] = {{"initial", number(inv.initial()[i])},
                                      {"final", number(inv.current()[i])},
                                      {"max_abs_drift", number(inv.max_abs_drift()[i])}};
  }
  j["invariants"] = invariants;
  j["invariants_sampled"] = sampled_every == 1 ? std::string("every output point (every step of a kernel-driven method)")
                                               : "every " + std::to_string(sampled_every) + "-th output point and the last";
  json diagnostics = json::object();
  for (std::size_t k = 0; k < inv.diagnostics().size(); ++k) {
    const auto i = static_cast<Eigen::Index>(k);
    diagnostics[inv.diagnostics()[k].name] = {{"min", number(inv.diagnostic_min()[i])},
                                              {"max", number(inv.diagnostic_max()[i])},
                                              {"last", number(inv.diagnostic_last()[i])}};
  }
  if (!inv.diagnostics().empty()) j["diagnostics"] = diagnostics;
  json observables = json::object();
  for (std::size_t k = 0; k < inv.observables().size(); ++k) {
    const auto i = static_cast<Eigen::Index>(k);
    observables[inv.observables()[k].name] = {{"unit", inv.observables()[k].unit},
                                              {"min", number(inv.observable_min()[i])},
                                              {"max", number(inv.observable_max()[i])},
                                              {"final", number(inv.observable_last()[i])}};
  }
  if (!inv.observables().empty()) j["observables"] = observables;
  if (run.model->has_exact_solution()) {
    Eigen::VectorXd exact(run.model->size());
    if (run.model->exact_solution(r.t, exact) == Status::ok) j["exact_error"] = number((r.y - exact).norm());
  }
  if (!series.empty()) j["series"] = series;
  j["wall_time_s"] = s.wall_time_s;
  j["cpu_time_s"] = s.cpu_time_s;
  j["plugins"] = {{"model", {{"name", run.model_plugin->name}, {"version", run.model_plugin->version}, {"file", run.model_plugin->file}}},
                  {"integrator", {{"name", run.integrator_plugin->name}, {"version", run.integrator_plugin->version}, {"file", run.integrator_plugin->file}}}};
  return j.dump(2) + "\n";
}

}  // namespace liesim
