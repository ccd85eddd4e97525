// The host's view of integrator plugins: a family of methods, and the steppers and solvers it
// makes, over the C integrator table of liesim/plugin.h. (Plugin authors implement the classes of
// liesim/sdk/integrator.hpp instead.)
#pragma once
#include <liesim/method_info.hpp>
#include <liesim/model.hpp>
#include <liesim/plugin_context.hpp>
#include <liesim/settings.hpp>

#include <memory>
#include <string>
#include <vector>

namespace liesim {

/// A one-step method driven by the kernel: the kernel chooses h, the stepper takes the step.
class Stepper {
 public:
  Stepper(const liesim_integrator_api* api, liesim_stepper* s, std::unique_ptr<PluginContext> log,
          std::shared_ptr<const void> library)
      : api_(api), s_(s), log_(std::move(log)), library_(std::move(library)) {}
  ~Stepper() { api_->stepper_destroy(s_); }
  Stepper(const Stepper&) = delete;
  Stepper& operator=(const Stepper&) = delete;

  /// Bind to a model and allocate every workspace.
  Status init(Model& model, std::string& error) noexcept {
    const Status s = to_status(api_->stepper_init(s_, &model.ref()));
    if (s != Status::ok) error = log_->take_error("the method refused the model");
    return s;
  }
  /// Where err is measured by step().
  ErrorSpace error_space() const noexcept { return static_cast<ErrorSpace>(api_->stepper_error_space(s_)); }
  /// One step of size h from (t, y) to y_new; err = main - auxiliary (n or d entries).
  Status step(double t, double h, ConstVec y, Vec y_new, Vec err) noexcept {
    return to_status(api_->stepper_step(s_, t, h, y.data(), y_new.data(), err.data()));
  }
  /// Message for the last non-ok status.
  std::string last_error() const { return log_->last_error(); }

 private:
  const liesim_integrator_api* api_;
  liesim_stepper* s_;
  std::unique_ptr<PluginContext> log_;
  std::shared_ptr<const void> library_;
};

/// An integrator with its own step control and interpolation (SUNDIALS and the like).
class Solver {
 public:
  Solver(const liesim_integrator_api* api, liesim_solver* s, std::unique_ptr<PluginContext> log,
         std::shared_ptr<const void> library)
      : api_(api), s_(s), log_(std::move(log)), library_(std::move(library)) {}
  ~Solver() { api_->solver_destroy(s_); }
  Solver(const Solver&) = delete;
  Solver& operator=(const Solver&) = delete;

  /// Bind to a model, set the initial condition and allocate everything.
  Status init(Model& model, double t0, ConstVec y0, const SolverTolerances& tol, std::string& error) noexcept {
    const Status s = to_status(api_->solver_init(s_, &model.ref(), t0, y0.data(), tol.rtol, tol.atol, tol.fixed_step));
    if (s != Status::ok) error = log_->take_error("the solver refused the model");
    return s;
  }
  /// Advance to t_out and write the (interpolated) state there.
  Status advance(double t_out, Vec y_out) noexcept { return to_status(api_->solver_advance(s_, t_out, y_out.data())); }
  /// Add the solver's own statistics to `stats`.
  void add_stats(Stats& stats) const noexcept {
    liesim_solver_stats s{};
    api_->solver_stats(s_, &s);
    stats.steps += s.steps;
    stats.rejected_steps += s.rejected_steps;
    stats.rhs_evals_jac += s.rhs_evals_jac;
    stats.jac_evals += s.jac_evals;
    stats.nonlinear_iters += s.nonlinear_iters;
    stats.nonlinear_conv_fails += s.nonlinear_conv_fails;
  }
  /// Message for the last non-ok status, naming the solver flag and time.
  std::string last_error() const { return log_->last_error(); }

 private:
  const liesim_integrator_api* api_;
  liesim_solver* s_;
  std::unique_ptr<PluginContext> log_;
  std::shared_ptr<const void> library_;
};

/// An integrator plugin: its methods (from the metadata document) and their steppers or solvers.
class IntegratorFamily {
 public:
  /// `metadata`: the plugin's JSON document; throws liesim::Error when it is malformed.
  IntegratorFamily(const liesim_plugin* plugin, const std::string& metadata, std::shared_ptr<const void> library);
  /// One-line summary.
  const std::string& summary() const { return summary_; }
  /// The methods this family provides.
  const std::vector<MethodInfo>& methods() const { return methods_; }
  /// Family-specific options of `method` (the kernel's step-control options are not listed).
  std::vector<SettingSpec> options(const std::string& method) const;
  /// Create a kernel-driven stepper (nullptr and `error` set on failure).
  Stepper* create_stepper(const std::string& method, const Settings& options, std::string& error) const;
  /// Create a self-controlled solver (nullptr and `error` set on failure).
  Solver* create_solver(const std::string& method, const Settings& options, std::string& error) const;

 private:
  const liesim_integrator_api* api_;
  std::shared_ptr<const void> library_;
  std::string summary_;
  std::vector<MethodInfo> methods_;
  std::vector<std::vector<SettingSpec>> options_;
};

}  // namespace liesim
