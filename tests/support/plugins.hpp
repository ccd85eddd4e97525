// Test support: the plugins of this build, loaded once, and a one-call run helper.
#pragma once
#include <liesim/run.hpp>

#include <map>
#include <memory>
#include <string>

namespace liesim::test {

/// The registry holding every plugin built in this tree, all loaded (once per test binary), so
/// that plugins() enumerates every shipped model and integrator family.
inline const Registry& registry() {
  static const Registry r = [] {
    Registry reg;
    reg.load_directories({LIESIM_TEST_PLUGIN_DIR});
    reg.load_all();
    return reg;
  }();
  return r;
}

/// A model instance of the named plugin with the given parameters (others default).
inline std::unique_ptr<Model> make_model(const std::string& name, const std::map<std::string, std::string>& params = {}) {
  const auto& p = registry().model(name);
  Settings s(p.model->parameters(), params, "parameter of model '" + name + "'");
  std::string error;
  std::unique_ptr<Model> m(p.model->create(s, error));
  if (!m) throw Error(error);
  return m;
}

/// Final state and statistics of a run.
struct Outcome {
  Eigen::VectorXd y;
  Stats stats;
};

/// Run `request` through the kernel (as the command line does); `observer` sees every output.
inline Outcome run(const RunRequest& request, Observer* observer = nullptr) {
  PreparedRun p = prepare_run(registry(), request);
  NullObserver null;
  RunResult r = execute(p, observer ? *observer : null);
  return {r.y, r.stats};
}

/// The request of a run: model with parameters, method with options, fixed step h (0: tolerances).
inline RunRequest request(const std::string& model, const std::map<std::string, std::string>& params, const std::string& method,
                          double t_end, double h, const std::map<std::string, std::string>& options = {}) {
  RunRequest q;
  q.model = model;
  q.parameters = params;
  q.method = method;
  q.options = options;
  q.t_end = t_end;
  q.step = h;
  return q;
}

/// Shorthand: model with parameters, method with fixed step h (or rtol/atol when h == 0).
inline Outcome run(const std::string& model, const std::map<std::string, std::string>& params, const std::string& method,
                   double t_end, double h, double rtol = 0, double atol = 0,
                   const std::map<std::string, std::string>& options = {}, Observer* observer = nullptr) {
  RunRequest q = request(model, params, method, t_end, h, options);
  q.rtol = rtol;
  q.atol = atol;
  return run(q, observer);
}

}  // namespace liesim::test
