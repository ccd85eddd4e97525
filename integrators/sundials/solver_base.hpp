// What every SUNDIALS-backed solver shares: the options, one SUNContext per run, the RHS
// trampoline into Model::vector_field, the capture of SUNDIALS' own messages, and the failure
// messages naming the SUNDIALS flag and the time.
#pragma once
#include "nvector.hpp"

#include <liesim/sdk/integrator.hpp>
#include <liesim/sdk/jacobian_option.hpp>

#include <sundials/sundials_context.h>
#include <sundials/sundials_matrix.h>

#include <string>
#include <vector>

namespace liesim::sundials {

/// The methods of the plugin.
enum class Method { cvode_bdf, cvode_adams, cvode_adams_fixedpoint, cvode_bdf_proj, arkode_erk, arkode_dirk, ida };

/// Options of a run, parsed from the method's SettingSpec list (see family.cpp and README.md).
struct Options {
  long max_steps = 10000;        ///< max_steps: steps allowed between two output times (mxstep)
  double h0 = 0.0;               ///< h0: initial step (0 = SUNDIALS' estimate)
  double max_step = 0.0;         ///< max_step: largest step (0 = unlimited)
  double min_step = 0.0;         ///< min_step: smallest step
  long max_order = 5;            ///< max_order: largest BDF/Adams order (CVODE)
  int table = -1;                ///< table: ARKODE table id (-1 = none)
  std::string table_name;        ///< table: its SUNDIALS name
  int table_embedded = 0;        ///< embedding order of the table (0 = none)
  bool table_via_arkstep = false;  ///< arkode_erk: drive the table through ARKStep (ERKStep FSAL bug)
  long fixedpoint_accel = 0;     ///< fixedpoint_accel: Anderson acceleration depth m
  bool proj_err_est = true;      ///< proj_err_est: project the error estimate too
  double fixed_step_tol = 1e-10; ///< fixed_step_tol: rtol = atol of the Newton test with a fixed step
  double algebraic_atol = 1.0;   ///< algebraic_atol: IDA's absolute tolerance of h times the algebraic components
  bool fresh_jacobian = true;    ///< fresh_jacobian: IDA's Newton starts every step from a new Jacobian
  bool stop_at_outputs = true;   ///< stop_at_outputs: IDA steps to each output time (IDASetStopTime)
  JacobianSource jacobian = JacobianSource::automatic;  ///< jacobian (Newton-based CVODE and ARKODE methods)
  int adaptivity = -1;           ///< adaptivity: ARK_ADAPT_PID (0) ... ARK_ADAPT_IMEX_GUS (5); -1 = SUNDIALS' default
};

/// Common part of the CVODE and ARKODE solvers.
class SolverBase : public sdk::Solver {
 public:
  std::string last_error() const override { return last_error_; }
  /// Events through SUNDIALS' root finding (CVodeRootInit, ERKStepRootInit, ..., IDARootInit).
  Status set_events(const sdk::EventFunctions& events, std::string& error) noexcept override;
  Status advance(double t_out, Vec y_out) noexcept final {
    double t_reached = t_out;
    return advance_to_event(t_out, y_out, t_reached, nullptr);
  }

 protected:
  SolverBase(Method method, Options options) : method_(method), opt_(std::move(options)) {}
  /// Frees the output vector header and the SUNContext (derived classes free their memory first).
  ~SolverBase() override;

  /// Create the SUNContext and the vector holding y0; false with `error` set on failure.
  bool setup_common(ModelView& model, ConstVec y0, std::string& error) noexcept;
  /// Check the return flag of a setup call. `what` names our option or input ("option max_order = 13");
  /// on failure `error` names the call, the SUNDIALS flag and SUNDIALS' own message.
  bool check(int flag, const char* call, const std::string& what, std::string& error) noexcept;
  /// Record a failure of the integrator's step call (flag < 0) at time t and return Status::fatal:
  /// "<module> failed at t = ...: <flag> (<hint>); SUNDIALS: <its message>".
  Status fail(int flag, double t) noexcept;
  /// What a failure flag (by its SUNDIALS name) means and how to fix it; "" if nothing to add.
  /// CVODE's and ARKODE's flags here; IDA adds its own.
  virtual std::string failure_hint(const std::string& name) const;

  /// Register events_ with the module's root finding, directions_ as their directions.
  virtual bool init_roots(std::string& error) noexcept = 0;
  /// After a return of the module's step call: found[k] (if given) = 1 for the events the module
  /// located (`root`: it returned at a root; then found_ holds its root information), else 0.
  void report_roots(bool root, int32_t* found) const noexcept {
    if (!found) return;
    for (std::size_t k = 0; k < found_.size(); ++k) found[k] = root && found_[k] != 0;
  }
  /// Root function for SUNDIALS (CVRootFn, ARKRootFn): g = the events' functions at (t, y).
  static int root(double t, N_Vector y, double* g, void* self) noexcept;
  /// The events' functions at the model state y (0 ok, -1 failed: SUNDIALS' root function convention).
  int events_at(double t, const double* y, double* g) const noexcept { return events_.g(events_.context, t, y, g) == 0 ? 0 : -1; }

  /// The SUNDIALS name of a return flag (CV_..., ARK_...).
  virtual std::string flag_name(int flag) const = 0;
  /// "CVODE" / "ARKODE".
  virtual const char* module() const noexcept = 0;

  /// RHS for SUNDIALS: ydot = F(t, y) through Model::vector_field (0 ok, 1 recoverable, -1 fatal).
  static int rhs(double t, N_Vector y, N_Vector ydot, void* self) noexcept;
  /// Jacobian for SUNDIALS' dense linear solvers (CVLsJacFn, ARKLsJacFn): J = dF/dy through
  /// Model::vector_field_jacobian, written into the dense column-major matrix.
  static int jac(double t, N_Vector y, N_Vector fy, SUNMatrix J, void* self, N_Vector, N_Vector, N_Vector) noexcept;
  /// Error handler for SUNDIALS: keep its message (instead of printing to stderr).
  static void on_message(int code, const char* module, const char* function, char* msg, void* self) noexcept;

  Method method_;
  Options opt_;
  ModelView* model_ = nullptr;
  SUNContext ctx_ = nullptr;
  Eigen::VectorXd y0_;   ///< copy of the initial state (SUNDIALS reads it at init)
  BorrowedVector y_;     ///< points at y0_ during init, then at each caller's output vector
  Status rhs_status_ = Status::ok;  ///< last non-ok status of the model's callback (F or the DAE residual)
  sdk::EventFunctions events_;      ///< the run's events (count 0: none)
  std::vector<int> directions_, found_;  ///< their directions, and SUNDIALS' root information
  char message_[640] = {};          ///< last message SUNDIALS reported (error or warning)
  std::string last_error_;
};

}  // namespace liesim::sundials
