// IDA solver: setup with every flag checked, IDA_NORMAL output mapped to the model state, statistics.
#include "ida_solver.hpp"

#include <ida/ida.h>
#include <ida/ida_ls.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>

#include <fmt/format.h>

#include <cstdlib>

namespace liesim::sundials {

IdaSolver::~IdaSolver() {
  if (mem_) IDAFree(&mem_);
  if (LS_) SUNLinSolFree(LS_);
  if (A_) SUNMatDestroy(A_);
  xv_.reset();
  xdotv_.reset();
  idv_.reset();
  atolv_.reset();
}

std::string IdaSolver::flag_name(int flag) const {
  char* name = IDAGetReturnFlagName(flag);
  std::string s = name ? name : fmt::format("flag {}", flag);
  std::free(name);
  return s;
}

Status IdaSolver::init(Model& model, double t0, ConstVec y0, const SolverTolerances& tol, std::string& error) noexcept {
  try {
    dae_ = model.dae_formulation();
    if (!dae_) {
      error = "method 'ida' needs a differential-algebraic formulation of the model (Model::dae()), and this model "
              "offers none with these parameters; for pendulum_chain give the parameter formulation=cartesian_dae";
      return Status::fatal;
    }
    if (tol.fixed_step > 0) {
      error = "IDA has no fixed-step mode: give --rtol/--atol";
      return Status::fatal;
    }
    if (!(tol.atol > 0) || !(tol.rtol >= 0)) {
      error = fmt::format("IDA needs tolerances with atol > 0 and rtol >= 0 (got rtol = {}, atol = {})", tol.rtol, tol.atol);
      return Status::fatal;
    }
    if (!setup_common(model, y0, error)) return Status::fatal;
    const int n = dae_->size();
    if (n <= 0) {
      error = fmt::format("the model's DAE formulation has {} unknowns", n);
      return Status::fatal;
    }
    x_.setZero(n);
    xdot_.setZero(n);
    id_.setZero(n);
    dae_->differential_components(id_);
    // Consistent initial values from the model (IDACalcIC is not used: for index-2 constraints
    // its YA_YDP_INIT system is singular, see README.md).
    if (dae_->initial_values(t0, y0_, x_, xdot_) != Status::ok) {
      error = fmt::format("the model's DAE formulation could not compute initial values: {}", dae_->last_error());
      return Status::fatal;
    }
    if (!x_.allFinite() || !xdot_.allFinite()) {
      error = "the model's DAE formulation returned non-finite initial values";
      return Status::fatal;
    }
    // Absolute tolerances: atol for the differential components, option algebraic_atol for the
    // algebraic ones (which only IDA's Newton convergence test sees; README.md, "ida").
    atol_ = (id_.array() > 0.5).select(Eigen::VectorXd::Constant(n, tol.atol), opt_.algebraic_atol);
    if (!xv_.create(n, x_.data(), ctx_) || !xdotv_.create(n, xdot_.data(), ctx_) || !idv_.create(n, id_.data(), ctx_) ||
        !atolv_.create(n, atol_.data(), ctx_)) {
      error = "N_VMake_Serial failed (out of memory)";
      return Status::fatal;
    }
    mem_ = IDACreate(ctx_);
    if (!mem_) {
      error = "IDACreate failed (out of memory)";
      return Status::fatal;
    }
    if (!check(IDASetErrHandlerFn(mem_, &SolverBase::on_message, this), "IDASetErrHandlerFn", "", error) ||
        !check(IDAInit(mem_, &IdaSolver::residual, t0, xv_.get(), xdotv_.get()), "IDAInit", "initial values", error) ||
        !check(IDASetUserData(mem_, this), "IDASetUserData", "", error) ||
        !check(IDASVtolerances(mem_, tol.rtol, atolv_.get()), "IDASVtolerances",
               fmt::format("rtol = {}, atol = {}, option algebraic_atol = {}", tol.rtol, tol.atol, opt_.algebraic_atol), error) ||
        !check(IDASetId(mem_, idv_.get()), "IDASetId", "differential/algebraic components", error) ||
        !check(IDASetSuppressAlg(mem_, SUNTRUE), "IDASetSuppressAlg", "algebraic components out of the error test", error))
      return Status::fatal;
    A_ = SUNDenseMatrix(n, n, ctx_);
    LS_ = A_ ? SUNLinSol_Dense(xv_.get(), A_, ctx_) : nullptr;
    if (!LS_) {
      error = "SUNDenseMatrix / SUNLinSol_Dense failed (out of memory)";
      return Status::fatal;
    }
    if (!check(IDASetLinearSolver(mem_, LS_, A_), "IDASetLinearSolver", "dense linear solver", error) ||
        !check(IDASetMaxNumSteps(mem_, opt_.max_steps), "IDASetMaxNumSteps", fmt::format("option max_steps = {}", opt_.max_steps), error) ||
        !check(IDASetInitStep(mem_, opt_.h0), "IDASetInitStep", fmt::format("option h0 = {}", opt_.h0), error) ||
        !check(IDASetMaxStep(mem_, opt_.max_step), "IDASetMaxStep", fmt::format("option max_step = {}", opt_.max_step), error) ||
        !check(IDASetMinStep(mem_, opt_.min_step), "IDASetMinStep", fmt::format("option min_step = {}", opt_.min_step), error) ||
        !check(IDASetMaxOrd(mem_, static_cast<int>(opt_.max_order)), "IDASetMaxOrd",
               fmt::format("option max_order = {}", opt_.max_order), error))
      return Status::fatal;
    return Status::ok;
  } catch (const std::exception& e) {
    error = e.what();
    return Status::fatal;
  }
}

Status IdaSolver::advance(double t_out, Vec y_out) noexcept {
  if (!mem_ || y_out.size() != y0_.size()) {
    last_error_ = "IDA: advance() before a successful init(), or output vector of the wrong size";
    return Status::fatal;
  }
  message_[0] = '\0';
  double t_reached = 0.0;
  // IDA writes x(t_out), x'(t_out) into x_, xdot_ (the vectors given at IDAInit are IDA's copies).
  // With stop_at_outputs, IDA steps exactly to t_out (IDA_TSTOP_RETURN), so that the output is a
  // Newton solution of the DAE rather than IDA's interpolant between two steps.
  if (opt_.stop_at_outputs) {
    const int f = IDASetStopTime(mem_, t_out);
    if (f < 0) {
      last_error_ = fmt::format("IDA: IDASetStopTime({}) refused it with {}", t_out, flag_name(f));
      return Status::fatal;
    }
  }
  const int flag = IDASolve(mem_, t_out, &t_reached, xv_.get(), xdotv_.get(), IDA_NORMAL);
  if (flag < 0) {
    double t = t_reached;
    if (IDAGetCurrentTime(mem_, &t) < 0) t = t_reached;
    return fail(flag, t);
  }
  dae_->to_state(x_, xdot_, y_out);
  return Status::ok;
}

void IdaSolver::add_stats(Stats& stats) const noexcept {
  if (!mem_) return;
  long v = 0;
  if (IDAGetNumSteps(mem_, &v) == IDA_SUCCESS) stats.steps += v;
  if (IDAGetNumErrTestFails(mem_, &v) == IDA_SUCCESS) stats.rejected_steps += v;
  if (IDAGetNumNonlinSolvIters(mem_, &v) == IDA_SUCCESS) stats.nonlinear_iters += v;
  if (IDAGetNumNonlinSolvConvFails(mem_, &v) == IDA_SUCCESS) stats.nonlinear_conv_fails += v;
  if (IDAGetNumJacEvals(mem_, &v) == IDALS_SUCCESS) stats.jac_evals += v;
  if (IDAGetNumLinResEvals(mem_, &v) == IDALS_SUCCESS) stats.rhs_evals_jac += v;
  // Residual evaluations are counted in counters.F_evals by residual() itself (in the model's
  // counters, which the kernel reports also for a failed run).
}

int IdaSolver::residual(double t, N_Vector x, N_Vector xdot, N_Vector r, void* self) noexcept {
  auto* s = static_cast<IdaSolver*>(self);
  ++s->model_->counters().F_evals;
  auto out = view(r);
  Status st = s->dae_->residual(t, cview(x), cview(xdot), out);
  if (st == Status::ok && !out.allFinite()) st = Status::recoverable;  // IDA retries with a smaller step
  if (st != Status::ok) s->rhs_status_ = st;
  return st == Status::ok ? 0 : st == Status::recoverable ? 1 : -1;
}

std::string IdaSolver::failure_hint(const std::string& name) const {
  std::string model_error = dae_ ? dae_->last_error() : std::string();
  if (model_error.empty() && model_) model_error = model_->last_error();
  const char* kind = rhs_status_ == Status::recoverable ? "recoverable" : "fatal";
  const bool residual_flag = name == "IDA_RES_FAIL" || name == "IDA_REP_RES_ERR";
  std::string hint;
  if (name == "IDA_ERR_FAIL")
    hint = "repeated error test failures: the solution may be non-smooth, or reached min_step; loosen the tolerances";
  else if (name == "IDA_CONV_FAIL" || name == "IDA_NLS_FAIL")
    hint = "repeated Newton convergence failures: inconsistent initial values, a DAE of index > 2, or a singular "
           "constraint Jacobian; lower max_step";
  else if (name == "IDA_LSETUP_FAIL" || name == "IDA_LSOLVE_FAIL")
    hint = "the dense linear solver failed (singular iteration matrix: are the constraints independent?)";
  else if (residual_flag)
    hint = fmt::format("the model's DAE residual returned a {} status{}{}", kind, model_error.empty() ? "" : ": ", model_error);
  else if (name == "IDA_CONSTR_FAIL")
    hint = "the inequality constraints could not be met";
  else
    hint = SolverBase::failure_hint(name);  // too much work or accuracy
  // A failure the residual caused without a residual flag (recoverable failures make IDA retry
  // with smaller steps until it runs out of steps or convergence): say so too.
  if (rhs_status_ != Status::ok && !residual_flag)
    hint += fmt::format("{}the model's DAE residual last returned a {} status{}{}", hint.empty() ? "" : "; ", kind,
                        model_error.empty() ? "" : ": ", model_error);
  return hint;
}

}  // namespace liesim::sundials
