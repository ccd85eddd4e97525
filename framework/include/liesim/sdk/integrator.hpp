// What an integrator plugin's author writes against: a family of methods, each made as a stepper
// (the kernel chooses h) or a solver (own step control). They live inside the plugin; the adapter
// (liesim/sdk/integrator_plugin.hpp) turns them into the C table of liesim/plugin.h. The model a
// stepper or solver is given is the C++ view liesim::ModelView (liesim/sdk/model_view.hpp).
#pragma once
#include <liesim/sdk/method_info.hpp>
#include <liesim/sdk/model_view.hpp>
#include <liesim/sdk/settings.hpp>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace liesim::sdk {

/// A one-step method driven by the kernel: the kernel chooses h, the stepper takes the step.
class Stepper {
 public:
  virtual ~Stepper() = default;
  /// Bind to a model and allocate every workspace (the only place a stepper may allocate).
  virtual Status init(liesim::ModelView& model, std::string& error) noexcept = 0;
  /// Where err is measured by step() (ErrorSpace::none for methods without an embedded pair).
  virtual ErrorSpace error_space() const noexcept = 0;
  /// One step of size h from (t, y) to y_new; for embedded pairs, err = main - auxiliary
  /// (size n for embedding errors, d for algebra errors). Must not allocate.
  virtual Status step(double t, double h, ConstVec y, Vec y_new, Vec err) noexcept = 0;
  /// Values of the method's diagnostics (MethodInfo::diagnostics, in order) after the last step.
  virtual void diagnostics(Vec out) const noexcept { out.setConstant(std::numeric_limits<double>::quiet_NaN()); }
  /// Dense output: the state at t + theta h (theta in [0, 1]) inside the step just taken from
  /// (t, y) to y_new, called after that step and before the next; `work` is scratch of the error
  /// estimate's size. It must not change what the next step computes, and must not allocate. The
  /// default repeats the step with theta h (the trivial continuous extension [Hairer–Nørsett–Wanner
  /// I, §II.6], of the method's order): override it with a cheaper interpolant (state its order as
  /// MethodInfo::dense_order), or when the stepper carries memory from one step to the next.
  virtual Status interpolate(double t, double h, ConstVec y, ConstVec y_new, double theta, Vec out, Vec work) noexcept {
    (void)y_new;
    return step(t, theta * h, y, out, work);
  }
  /// Message for the last non-ok status.
  virtual std::string last_error() const { return {}; }
};

/// Event functions for a solver's own root finding (set_events): `g(context, t, y, g_out)` writes
/// all `count` values g_k(t, y) (returns 0, or nonzero on failure); event k is a zero of g_k crossed
/// in `directions[k]` (+1 rising, -1 falling). The arrays stay valid until the solver is destroyed.
struct EventFunctions {
  int count = 0;
  const int32_t* directions = nullptr;
  int32_t (*g)(void* context, double t, const double* y, double* g_out) = nullptr;
  void* context = nullptr;
};

/// An integrator with its own step control and interpolation (SUNDIALS and the like).
class Solver {
 public:
  virtual ~Solver() = default;
  /// Bind to a model, set the initial condition and allocate everything.
  virtual Status init(liesim::ModelView& model, double t0, ConstVec y0, const SolverTolerances& tol, std::string& error) noexcept = 0;
  /// Advance to t_out and write the (interpolated) state there.
  virtual Status advance(double t_out, Vec y_out) noexcept = 0;
  /// Add the solver's own statistics (steps, rejections, Newton iterations, ...) to `stats`.
  virtual void add_stats(Stats& stats) const noexcept = 0;
  /// Message for the last non-ok status, naming the solver flag and time.
  virtual std::string last_error() const { return {}; }
  /// Values of the method's diagnostics (MethodInfo::diagnostics, in order) after the last internal step.
  virtual void diagnostics(Vec out) const noexcept { out.setConstant(std::numeric_limits<double>::quiet_NaN()); }
  /// Locate the zeros of `events` from now on (called after init). The default refuses: a solver
  /// that can locate events (a root finder on its interpolant) overrides this and advance_to_event.
  virtual Status set_events(const EventFunctions& events, std::string& error) noexcept {
    (void)events;
    error = "its solver has no root finding";
    return Status::fatal;
  }
  /// advance() that stops at the first event located before t_out: the state there in y_out, its
  /// time in t_reached (t_out when none), found[k] = 1 for each event k located there, else 0.
  virtual Status advance_to_event(double t_out, Vec y_out, double& t_reached, int32_t* found) noexcept {
    (void)found;
    t_reached = t_out;
    return advance(t_out, y_out);
  }

  /// Whether the host may drive this solver one step at a time (step() and interpolate(); ABI 2.7).
  virtual bool one_step() const noexcept { return false; }
  /// One step from where the solver is, of the size it chooses (it may pass the run's end), to
  /// (t_new, y_new). Only where one_step().
  virtual Status step(double& t_new, Vec y_new) noexcept {
    (void)t_new, (void)y_new;
    return Status::fatal;
  }
  /// The state at t inside the last step (its ends exactly). Only where one_step().
  virtual Status interpolate(double t, Vec y) noexcept {
    (void)t, (void)y;
    return Status::fatal;
  }

  /// Where report_step() sends each accepted internal step (set by the adapter; nullptr: nowhere).
  void set_step_report(void (*report)(void* context, double t, double h, const double* y), void* context) noexcept {
    report_ = report;
    report_context_ = context;
  }

 protected:
  /// Tell the host about an accepted internal step that ended at t with size h at state y (solvers
  /// whose steps matter to the user, e.g. steps chosen by the dynamics, call it after each step).
  void report_step(double t, double h, ConstVec y) const noexcept {
    if (report_) report_(report_context_, t, h, y.data());
  }

 private:
  void (*report_)(void*, double, double, const double*) = nullptr;
  void* report_context_ = nullptr;
};

/// A solver whose own dynamics choose its steps (e.g. an energy-preserving variational integrator):
/// it implements step() and interpolate(), and the host drives it one step at a time (output at
/// requested times and events on its interpolant, as for a kernel-driven stepper). advance(), for
/// hosts older than ABI 2.7, is made of the same two calls.
class SteppingSolver : public Solver {
 public:
  bool one_step() const noexcept final { return true; }
  Status step(double& t_new, Vec y_new) noexcept override = 0;
  Status interpolate(double t, Vec y) noexcept override = 0;
  Status advance(double t_out, Vec y_out) noexcept final {
    while (now_ < t_out) {
      double t_new = now_;
      const Status s = step(t_new, y_out);
      if (s != Status::ok) return s;
      report_step(t_new, t_new - now_, y_out);
      now_ = t_new;
    }
    return interpolate(t_out, y_out);
  }

 protected:
  /// Where the solver starts (its init calls this).
  void start_at(double t0) noexcept { now_ = t0; }

 private:
  double now_ = 0.0;
};

/// The plugin-side factory of a family of methods (e.g. all table-driven Lie group methods).
class IntegratorFamily {
 public:
  virtual ~IntegratorFamily() = default;
  /// One-line summary.
  virtual std::string summary() const = 0;
  /// The methods this family provides.
  virtual std::vector<MethodInfo> methods() const = 0;
  /// Family-specific options of `method` (the kernel's step-control options are not listed).
  virtual std::vector<SettingSpec> options(const std::string& method) const = 0;
  /// The method as `options` complete it (ABI 2.9): a method whose order comes from its options (a
  /// coefficient table read from a file) returns the table's orders here; throws liesim::Error when
  /// the options cannot make the method (a table that fails its order conditions). Default: the
  /// listed entry.
  virtual MethodInfo resolved_method(const std::string& method, const Settings& options) const {
    (void)options;
    for (auto& m : methods())
      if (m.name == method) return m;
    throw Error("no method '" + method + "'");
  }
  /// Create a kernel-driven stepper (nullptr and `error` set on failure; never throws).
  virtual Stepper* create_stepper(const std::string& method, const Settings& options, std::string& error) const noexcept {
    (void)options;
    error = "method '" + method + "' is not a kernel-driven stepper";
    return nullptr;
  }
  /// Create a self-controlled solver (nullptr and `error` set on failure; never throws).
  virtual Solver* create_solver(const std::string& method, const Settings& options, std::string& error) const noexcept {
    (void)options;
    error = "method '" + method + "' is not a self-controlled solver";
    return nullptr;
  }
};

}  // namespace liesim::sdk
