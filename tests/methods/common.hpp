// Shared helpers of the integrator tests: the method list, the test problems, error fits.
#pragma once
#include <liesim/host/driver.hpp>
#include <liesim/sdk/fit.hpp>
#include <liesim/host/in_process.hpp>
#include <liesim/host/integrator.hpp>
#include <liesim/sdk/settings.hpp>
#include "support/plugins.hpp"
#include <support/fixtures.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace liesim::test::methods {

using Params = std::map<std::string, std::string>;
using Options = std::map<std::string, std::string>;

/// Every kernel-driven method of every loaded integrator plugin that runs any model (self-controlled
/// solvers, i.e. SUNDIALS, have their own step control and are tested elsewhere; methods that need
/// a mechanical description, i.e. variational ones, in tests/variational).
inline std::vector<MethodInfo> kernel_methods() {
  std::vector<MethodInfo> out;
  for (const auto& p : registry().plugins())
    if (p.integrator)
      for (const auto& m : p.integrator->methods())
        if (!m.self_controlled && !m.needs_mechanics && !takes_table(m.name)) out.push_back(m);  // those: table_methods()
  return out;
}

/// A method completed by a table file: its orders are the table's.
struct TableMethod {
  MethodInfo info;
  std::map<std::string, std::string> options;  ///< tableau=FILE
};

/// Every kernel-driven method that reads a table file (rk, rkmk, cf), with the test's user table of its kind.
inline std::vector<TableMethod> table_methods() {
  std::vector<TableMethod> out;
  for (const auto& p : registry().plugins())
    if (p.integrator)
      for (const auto& m : p.integrator->methods())
        if (!m.self_controlled && takes_table(m.name)) {
          const std::map<std::string, std::string> options{{"tableau", user_table(m.name)}};
          out.push_back({p.integrator->resolved(m, Settings(p.integrator->options(m.name), options, "option")), options});
        }
  return out;
}

/// A stepper of `method` with its default options, and the method's description.
struct DefaultStepper {
  std::unique_ptr<StepperView> stepper;
  MethodInfo info;
};
inline DefaultStepper default_stepper(const std::string& method) {
  const auto [plugin, info] = registry().method(method);
  Settings options(plugin->integrator->options(method), {}, "option");
  std::string error;
  DefaultStepper s{std::unique_ptr<StepperView>(plugin->integrator->create_stepper(method, options, error)), info};
  REQUIRE_MESSAGE(s.stepper, error);
  return s;
}

/// A run of a model made in this process (adopted through the C tables) under `method` with its
/// default options, from the model's initial state.
inline RunResult integrate_adopted(std::unique_ptr<sdk::Model> made, const std::string& method, const RunSpec& spec, Observer& observer) {
  const auto [stepper, info] = default_stepper(method);
  const auto owned = adopt_model(std::move(made));
  ModelView& model = *owned;
  Eigen::VectorXd y0(model.size());
  model.initial_state(y0);
  return integrate(model, *stepper, info, spec, y0, observer);
}

// The non-planar N = 2 pendulum is test::nonplanar_pendulum() (support/fixtures.hpp).

/// The N = 2 pendulum of the thesis (Fig. 2.8): every link starts at (sqrt2/2, 0, sqrt2/2)
/// with w = (0, 1, 0), m = L = 1, g = 9.81 (planar motion in the x-z plane).
inline Params planar_pendulum() { return {{"N", "2"}}; }

/// The free rigid body of the thesis (Fig. 1.2): I = (2, 1.5, 1), y0 = (cos 0.8, 0, sin 0.8).
inline Params thesis_rigid_body() {
  return {{"I", "2,1.5,1"}, {"y0", "0.6967067093471654,0,0.7173560908995228"}};
}

/// Fixed-step run; returns the final state.
inline Eigen::VectorXd final_state(const std::string& model, const Params& params, const std::string& method,
                                   double t_end, double h, const Options& options = {}) {
  return run(model, params, method, t_end, h, 0, 0, options).y;
}

/// Least-squares slope of log(err) against log(h) (the kernel's fit).
inline double fitted_slope(const std::vector<double>& h, const std::vector<double>& err) { return liesim::loglog_slope(h, err); }

/// Records, over every output point, the largest |I_k(y)| and |I_k(y) - I_k(y0)| of the
/// model's invariants (evaluated with the model's own evaluate_invariants).
class InvariantMonitor final : public Observer {
 public:
  explicit InvariantMonitor(const ModelView& model) : model_(model), values_(model.invariants().size()) {}
  void on_output(double, ConstVec y) override {
    model_.evaluate_invariants(y, values_);
    if (outputs_ == 0) {
      initial_ = values_;
      max_abs_ = Eigen::VectorXd::Zero(values_.size());
      max_drift_ = Eigen::VectorXd::Zero(values_.size());
    }
    max_abs_ = max_abs_.cwiseMax(values_.cwiseAbs());
    max_drift_ = max_drift_.cwiseMax((values_ - initial_).cwiseAbs());
    ++outputs_;
  }
  /// Largest |I_k(y(t))| over the run, per invariant (model.invariants() order).
  const Eigen::VectorXd& max_abs() const { return max_abs_; }
  /// Largest |I_k(y(t)) - I_k(y0)| over the run.
  const Eigen::VectorXd& max_drift() const { return max_drift_; }
  /// Number of output points seen (initial point included).
  long outputs() const { return outputs_; }

 private:
  const ModelView& model_;
  Eigen::VectorXd values_, initial_, max_abs_, max_drift_;
  long outputs_ = 0;
};

/// The shipped coefficient tables and schemes (share/liesim/tableaux in the build tree), and the
/// tests' own table files.
inline const std::string shipped_dir = std::string(LIESIM_TEST_BINARY_DIR) + "/share/liesim/tableaux/";
inline const std::string tables_dir = std::string(LIESIM_TEST_SOURCE_DIR) + "/tests/methods/tables/";

inline bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace liesim::test::methods
