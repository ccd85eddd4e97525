// What a plugin's own tests need (installed with the SDK; the templates' tests use it): load the
// plugin beside the shipped ones, make model instances, run a method, measure an observed order,
// and count failed checks. Links against the kernel (liesim::kernel).
//
//   int main(int argc, char** argv) {
//     liesim::testing::Checks checks("my_model");
//     const liesim::Registry registry = liesim::testing::plugins(argc, argv, checks);  // PLUGIN_DIR SHIPPED_DIR
//     const auto r = liesim::testing::run(registry, "my_model", "rkmk4", 1.0, 0.01);
//     checks.expect(r.inv.size() == 2, "two invariants");
//     return checks.finish();
//   }
#pragma once
#include <liesim/host/catalog.hpp>
#include <liesim/sdk/fit.hpp>
#include <liesim/host/run.hpp>

#include <fmt/format.h>

#include <cstdlib>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace liesim::testing {

/// Counts failed checks and says what failed; finish() is main's exit code.
class Checks {
 public:
  explicit Checks(std::string name) : name_(std::move(name)) {}
  /// Record a check; prints "FAILED: what" when !ok. Returns ok.
  bool expect(bool ok, const std::string& what) {
    if (!ok) {
      ++failures_;
      std::cerr << "FAILED: " << what << "\n";
    }
    return ok;
  }
  int failures() const { return failures_; }
  /// 0 with "NAME: all checks passed", or 1 with the count.
  int finish() const {
    if (failures_) {
      std::cerr << name_ << ": " << failures_ << " check(s) failed\n";
      return 1;
    }
    std::cout << name_ << ": all checks passed\n";
    return 0;
  }

 private:
  std::string name_;
  int failures_ = 0;
};

/// Whether `text` contains `part`.
inline bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

/// The plugins of the folders given on the command line (the test's PLUGIN_DIR, then liesim's
/// shipped plugins); a plugin that fails to load is a failed check. Exits with 2 without folders.
inline Registry plugins(int argc, char** argv, Checks& checks) {
  if (argc < 2) {
    std::cerr << "usage: " << (argc > 0 ? argv[0] : "test") << " PLUGIN_DIR [SHIPPED_PLUGIN_DIR...]\n";
    std::exit(2);
  }
  Registry registry;
  registry.load_directories(std::vector<std::filesystem::path>(argv + 1, argv + argc));
  for (const auto& f : registry.failures()) checks.expect(false, fmt::format("load {}: {}", f.file, f.reason));
  return registry;
}

/// An instance of `model` with `params` (defaults for the rest), or null with the reason in `error`.
inline std::unique_ptr<ModelView> make_model(const Registry& registry, const std::string& model,
                                         const std::map<std::string, std::string>& params, std::string& error) {
  return model_instance(registry.model(model), error, params);
}

/// A run: final and initial state, the exact solution at t_end (empty where the model has none),
/// the invariants at both ends, statistics.
struct Outcome {
  Eigen::VectorXd y, y0, exact, inv0, inv;
  Stats stats;
};

/// The request of a run: model with parameters, method with options, fixed step h (0: tolerances to set).
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

/// Run `model` (with `params`) under `method` to t_end with a fixed step h, or with tolerances
/// rtol = atol = tol when h == 0; throws liesim::Error (settings) or RunFailure (the run).
inline Outcome run(const Registry& registry, const std::string& model, const std::string& method, double t_end, double h,
                   const std::map<std::string, std::string>& options = {}, const std::map<std::string, std::string>& params = {},
                   double tol = 0) {
  RunRequest q = request(model, params, method, t_end, h, options);
  q.rtol = q.atol = h > 0 ? 0.0 : tol;
  PreparedRun p = prepare_run(registry, q);
  NullObserver observer;
  const RunResult r = execute(p, observer);
  Outcome o{r.y, p.y0, {}, {}, {}, r.stats};
  if (p.model->has_exact_solution()) {
    o.exact.resize(r.y.size());
    if (p.model->exact_solution(t_end, o.exact) != Status::ok) o.exact.resize(0);
  }
  o.inv0.resize(p.model->invariant_count());
  o.inv.resize(p.model->invariant_count());
  p.model->evaluate_invariants(p.y0, o.inv0);
  p.model->evaluate_invariants(r.y, o.inv);
  return o;
}

/// The observed order of `method` on a model with an exact solution: the least-squares slope of
/// log |y(T) - y_exact(T)| against log h over `steps` (each error must lie in the asymptotic range
/// and above round-off for the slope to mean the order).
inline double observed_order(const Registry& registry, const std::string& model, const std::string& method, double t_end,
                             const std::vector<double>& steps, const std::map<std::string, std::string>& options = {},
                             const std::map<std::string, std::string>& params = {}) {
  std::vector<double> errors;
  for (double h : steps) {
    const Outcome o = run(registry, model, method, t_end, h, options, params);
    if (o.exact.size() == 0) throw Error(fmt::format("observed_order: model '{}' has no exact solution for these parameters", model));
    errors.push_back((o.y - o.exact).norm());
  }
  return loglog_slope(steps, errors);
}

}  // namespace liesim::testing
