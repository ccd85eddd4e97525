// Test support: the plugins of this build, loaded once, and a one-call run helper.
#pragma once
#include <liesim/testing/plugin_testing.hpp>
#include <liesim/host/run.hpp>

#include <map>
#include <memory>
#include <string>
#include <vector>

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

/// Whether a method reads a coefficient table file (rk, rkmk: option `tableau`, orders listed as 0
/// until a table completes them).
inline bool takes_table(const std::string& method) {
  const auto [family, info] = registry().method(method);
  for (const auto& o : family->integrator->options(method))
    if (o.name == "tableau") return true;
  return false;
}

/// The user's table of the tests for a method that takes one (not shipped; methods that take a
/// table run it wherever the tests run every method): for rk and rkmk Cash–Karp 5(4) (six stages,
/// exact fractions), for cf a commutator-free 3(2) scheme on Kutta's table.
inline std::string user_table(const std::string& method = "rk") {
  return std::string(LIESIM_TEST_SOURCE_DIR) + "/tests/methods/tables/" + (method == "cf" ? "cf3_kutta.toml" : "cash_karp.toml");
}

/// A model instance of the named plugin with the given parameters (others default).
inline std::unique_ptr<ModelView> make_model(const std::string& name, const std::map<std::string, std::string>& params = {}) {
  std::string error;
  std::unique_ptr<ModelView> m = model_instance(registry().model(name), error, params);
  if (!m) throw Error(error);
  return m;
}

/// Keeps every output point of a run (time and state).
struct Recorded final : Observer {
  void on_output(double t, ConstVec y) override {
    times.push_back(t);
    states.emplace_back(y);
  }
  std::vector<double> times;
  std::vector<Eigen::VectorXd> states;
};

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

/// The request of a run (the SDK's test helper): model with parameters, method with options, fixed step h (0: tolerances).
using liesim::testing::request;

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
