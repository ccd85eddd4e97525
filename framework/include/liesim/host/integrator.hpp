// The host's view of integrator plugins: a family of methods, and the steppers and solvers it
// makes, over the C integrator table of liesim/plugin.h. (Plugin authors implement the classes of
// liesim/sdk/integrator.hpp instead.)
#pragma once
#include <liesim/sdk/method_info.hpp>
#include <liesim/sdk/model_view.hpp>
#include <liesim/host/plugin_context.hpp>
#include <liesim/sdk/settings.hpp>

#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace liesim {

/// A one-step method driven by the kernel: the kernel chooses h, the stepper takes the step.
class StepperView {
 public:
  /// `diagnostics`: how many the method declares (MethodInfo::diagnostics).
  StepperView(const liesim_integrator_api* api, liesim_stepper* s, std::unique_ptr<PluginContext> log,
          std::shared_ptr<const void> library, int diagnostics = 0)
      : api_(api), s_(s), log_(std::move(log)), library_(std::move(library)), diagnostics_(diagnostics) {}
  ~StepperView() { api_->stepper_destroy(s_); }
  StepperView(const StepperView&) = delete;
  StepperView& operator=(const StepperView&) = delete;

  /// Bind to a model and allocate every workspace.
  Status init(ModelView& model, std::string& error) noexcept {
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
  /// Number of diagnostics the method reports.
  int diagnostic_count() const noexcept { return diagnostics_; }
  /// Their values after the last step (NaN where the plugin's ABI has none).
  void diagnostics(Vec out) const noexcept {
#if LIESIM_ABI_MINOR >= 2
    if (diagnostics_ > 0 && LIESIM_HAS_MEMBER(api_, liesim_integrator_api, stepper_diagnostics)) {
      api_->stepper_diagnostics(s_, out.data());
      return;
    }
#endif
    out.setConstant(std::numeric_limits<double>::quiet_NaN());
  }
  /// Dense output: the state at t + theta h, theta in [0, 1], inside the step just taken from (t, y)
  /// to y_new (after that step, before the next); `work`: scratch of the error estimate's size. A
  /// plugin without an interpolant (ABI < 2.6) repeats the step with theta h.
  Status interpolate(double t, double h, ConstVec y, ConstVec y_new, double theta, Vec out, Vec work) noexcept {
#if LIESIM_ABI_MINOR >= 6
    if (LIESIM_HAS_MEMBER(api_, liesim_integrator_api, stepper_interpolate) && api_->stepper_interpolate != nullptr)
      return to_status(api_->stepper_interpolate(s_, t, h, y.data(), y_new.data(), theta, out.data(), work.data()));
#endif
    (void)y_new;
    return step(t, theta * h, y, out, work);
  }
  /// Message for the last non-ok status.
  std::string last_error() const { return log_->last_error(); }

 private:
  const liesim_integrator_api* api_;
  liesim_stepper* s_;
  std::unique_ptr<PluginContext> log_;
  std::shared_ptr<const void> library_;
  int diagnostics_;
};

/// An integrator with its own step control and interpolation (SUNDIALS and the like).
class SolverView {
 public:
  /// `diagnostics`: how many the method declares (MethodInfo::diagnostics).
  SolverView(const liesim_integrator_api* api, liesim_solver* s, std::unique_ptr<PluginContext> log,
         std::shared_ptr<const void> library, int diagnostics = 0)
      : api_(api), s_(s), log_(std::move(log)), library_(std::move(library)), diagnostics_(diagnostics) {}
  ~SolverView() { api_->solver_destroy(s_); }
  SolverView(const SolverView&) = delete;
  SolverView& operator=(const SolverView&) = delete;

  /// Bind to a model, set the initial condition and allocate everything.
  Status init(ModelView& model, double t0, ConstVec y0, const SolverTolerances& tol, std::string& error) noexcept {
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
    if (s.h_max_used > 0) {  // solvers that know their step sizes
      stats.h_min_used = s.h_min_used;
      stats.h_max_used = s.h_max_used;
    }
  }
  /// Message for the last non-ok status, naming the solver flag and time.
  std::string last_error() const { return log_->last_error(); }
  /// Number of diagnostics the method reports.
  int diagnostic_count() const noexcept { return diagnostics_; }
  /// Their values after the last internal step (NaN where the plugin's ABI has none).
  void diagnostics(Vec out) const noexcept {
#if LIESIM_ABI_MINOR >= 2
    if (diagnostics_ > 0 && LIESIM_HAS_MEMBER(api_, liesim_integrator_api, solver_diagnostics)) {
      api_->solver_diagnostics(s_, out.data());
      return;
    }
#endif
    out.setConstant(std::numeric_limits<double>::quiet_NaN());
  }
  /// Whether the solver locates events with its own root finding (its plugin has ABI 2.7's functions).
  bool locates_events() const noexcept {
#if LIESIM_ABI_MINOR >= 7
    return LIESIM_HAS_MEMBER(api_, liesim_integrator_api, solver_advance_events) && api_->solver_set_events != nullptr &&
           api_->solver_advance_events != nullptr;
#else
    return false;
#endif
  }
  /// Locate the zeros of `count` event functions, computed together by g(context, t, y, g_out), each
  /// crossed in directions[k] (+1 rising, -1 falling); needs locates_events(). On failure, `error` says why.
  Status set_events(int32_t count, const int32_t* directions, int32_t (*g)(void*, double, const double*, double*), void* context,
                    std::string& error) noexcept {
#if LIESIM_ABI_MINOR >= 7
    if (locates_events()) {
      const Status s = to_status(api_->solver_set_events(s_, count, directions, g, context));
      if (s != Status::ok) error = log_->take_error("the solver refused the events");
      return s;
    }
#endif
    (void)count, (void)directions, (void)g, (void)context;
    error = "the method's plugin has no root finding (ABI < 2.7)";
    return Status::fatal;
  }
  /// advance() that stops at the first event located before t_out: its time in t_reached (t_out
  /// when none), found[k] = 1 for the events located there.
  Status advance_to_event(double t_out, Vec y_out, double& t_reached, int32_t* found) noexcept {
#if LIESIM_ABI_MINOR >= 7
    if (locates_events()) return to_status(api_->solver_advance_events(s_, t_out, y_out.data(), &t_reached, found));
#endif
    (void)found;
    t_reached = t_out;
    return advance(t_out, y_out);
  }
  /// Whether the host drives this solver one step at a time (step(), interpolate(); ABI 2.7).
  bool one_step() const noexcept {
#if LIESIM_ABI_MINOR >= 7
    return LIESIM_HAS_MEMBER(api_, liesim_integrator_api, solver_interpolate) && api_->solver_capabilities != nullptr &&
           api_->solver_step != nullptr && api_->solver_interpolate != nullptr &&
           (api_->solver_capabilities(s_) & LIESIM_SOLVER_ONE_STEP) != 0;
#else
    return false;
#endif
  }
  /// One step of the size the solver chooses, to (t_new, y_new). Needs one_step().
  Status step(double& t_new, Vec y_new) noexcept {
#if LIESIM_ABI_MINOR >= 7
    return to_status(api_->solver_step(s_, &t_new, y_new.data()));
#else
    (void)t_new, (void)y_new;
    return Status::fatal;
#endif
  }
  /// The state at t inside the last step. Needs one_step().
  Status interpolate(double t, Vec y) noexcept {
#if LIESIM_ABI_MINOR >= 7
    return to_status(api_->solver_interpolate(s_, t, y.data()));
#else
    (void)t, (void)y;
    return Status::fatal;
#endif
  }
  /// Have `report(context, t, h, y)` called after every internal step the solver accepts; false
  /// where the plugin cannot report steps (ABI < 2.2).
  bool on_step(void (*report)(void* context, double t, double h, const double* y), void* context) noexcept {
#if LIESIM_ABI_MINOR >= 2
    if (LIESIM_HAS_MEMBER(api_, liesim_integrator_api, solver_on_step) && api_->solver_on_step != nullptr) {
      api_->solver_on_step(s_, report, context);
      return true;
    }
#endif
    (void)report;
    (void)context;
    return false;
  }

 private:
  const liesim_integrator_api* api_;
  liesim_solver* s_;
  std::unique_ptr<PluginContext> log_;
  std::shared_ptr<const void> library_;
  int diagnostics_;
};

/// An integrator plugin: its methods (from the metadata document) and their steppers or solvers.
class IntegratorFamilyView {
 public:
  /// `metadata`: the plugin's JSON document; throws liesim::Error when it is malformed.
  IntegratorFamilyView(const liesim_plugin* plugin, const std::string& metadata, std::shared_ptr<const void> library);
  /// One-line summary.
  const std::string& summary() const { return summary_; }
  /// The methods this family provides.
  const std::vector<MethodInfo>& methods() const { return methods_; }
  /// Family-specific options of `method` (the kernel's step-control options are not listed).
  std::vector<SettingSpec> options(const std::string& method) const;
  /// Number of diagnostics `method` declares.
  int diagnostic_count(const std::string& method) const;
  /// The method as `options` complete it (ABI 2.9: orders of a table read from a file); the listed
  /// entry for older plugins. Throws liesim::Error with the plugin's reason when it refuses them.
  MethodInfo resolved(const MethodInfo& listed, const Settings& options) const;
  /// Create a kernel-driven stepper (nullptr and `error` set on failure).
  StepperView* create_stepper(const std::string& method, const Settings& options, std::string& error) const;
  /// Create a self-controlled solver (nullptr and `error` set on failure).
  SolverView* create_solver(const std::string& method, const Settings& options, std::string& error) const;

 private:
  const liesim_integrator_api* api_;
  std::shared_ptr<const void> library_;
  std::string name_;
  std::string summary_;
  std::vector<MethodInfo> methods_;
  std::vector<std::vector<SettingSpec>> options_;
};

}  // namespace liesim
