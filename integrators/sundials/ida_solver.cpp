// IDA solver: setup with every flag checked, IDA_NORMAL output mapped to the model state, statistics.
#include "ida_solver.hpp"

#include <ida/ida.h>
#include <ida/ida_ls.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunnonlinsol/sunnonlinsol_newton.h>

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>

namespace liesim::sundials {

namespace {

// ---- SUNDIALS' Newton solver with a new Jacobian at every step ----
//
// IDA re-evaluates the Newton matrix G_x + cj G_x' only when cj has changed by more than 25 %
// since the last evaluation (IDASetDeltaCjLSetup) or after a convergence failure, never because
// the state moved. On an index-2 DAE (the GGL pendulum chain) the modified Newton iteration with
// such a matrix is far from normal in IDA's weighted norm: one iteration may leave the error of
// x, v unchanged although the iteration converges in the end, so IDA's rate estimate (carried
// over from earlier steps) accepts iterates whose error is up to ~2.6x the local error tolerance.
// That noise pollutes IDA's error estimates: orders 3-4 instead of 5, 2-3x the steps, dozens of
// error test and convergence failures (README.md, "ida"). This wrapper hands every solve to
// SUNDIALS' Newton solver with callLSetup = true, so each step starts from the Jacobian at its
// predictor; everything else (IDA's residual, linear solver, convergence test) is unchanged.

SUNNonlinearSolver inner(SUNNonlinearSolver s) { return static_cast<SUNNonlinearSolver>(s->content); }

SUNNonlinearSolver_Type fresh_type(SUNNonlinearSolver) { return SUNNONLINEARSOLVER_ROOTFIND; }
int fresh_initialize(SUNNonlinearSolver s) { return SUNNonlinSolInitialize(inner(s)); }
int fresh_setup(SUNNonlinearSolver s, N_Vector y, void* mem) { return SUNNonlinSolSetup(inner(s), y, mem); }
int fresh_solve(SUNNonlinearSolver s, N_Vector y0, N_Vector ycor, N_Vector w, realtype tol, booleantype, void* mem) {
  return SUNNonlinSolSolve(inner(s), y0, ycor, w, tol, SUNTRUE, mem);
}
int fresh_free(SUNNonlinearSolver s) {
  if (!s) return SUN_NLS_SUCCESS;
  if (s->content) SUNNonlinSolFree(inner(s));
  s->content = nullptr;
  SUNNonlinSolFreeEmpty(s);
  return SUN_NLS_SUCCESS;
}
int fresh_sysfn(SUNNonlinearSolver s, SUNNonlinSolSysFn f) { return SUNNonlinSolSetSysFn(inner(s), f); }
int fresh_lsetupfn(SUNNonlinearSolver s, SUNNonlinSolLSetupFn f) { return SUNNonlinSolSetLSetupFn(inner(s), f); }
int fresh_lsolvefn(SUNNonlinearSolver s, SUNNonlinSolLSolveFn f) { return SUNNonlinSolSetLSolveFn(inner(s), f); }
int fresh_ctestfn(SUNNonlinearSolver s, SUNNonlinSolConvTestFn f, void* data) {
  return SUNNonlinSolSetConvTestFn(inner(s), f, data);
}
int fresh_maxiters(SUNNonlinearSolver s, int m) { return SUNNonlinSolSetMaxIters(inner(s), m); }
int fresh_numiters(SUNNonlinearSolver s, long* n) { return SUNNonlinSolGetNumIters(inner(s), n); }
int fresh_curiter(SUNNonlinearSolver s, int* i) { return SUNNonlinSolGetCurIter(inner(s), i); }
int fresh_convfails(SUNNonlinearSolver s, long* n) { return SUNNonlinSolGetNumConvFails(inner(s), n); }

/// A Newton solver (for vectors like y) that asks for a new Jacobian at every solve; nullptr if out of memory.
SUNNonlinearSolver fresh_jacobian_newton(N_Vector y, SUNContext ctx) {
  SUNNonlinearSolver newton = SUNNonlinSol_Newton(y, ctx);
  if (!newton) return nullptr;
  SUNNonlinearSolver s = SUNNonlinSolNewEmpty(ctx);
  if (!s) {
    SUNNonlinSolFree(newton);
    return nullptr;
  }
  s->content = newton;
  s->ops->gettype = fresh_type;
  s->ops->initialize = fresh_initialize;
  s->ops->setup = newton->ops->setup ? fresh_setup : nullptr;
  s->ops->solve = fresh_solve;
  s->ops->free = fresh_free;
  s->ops->setsysfn = fresh_sysfn;
  s->ops->setlsetupfn = fresh_lsetupfn;
  s->ops->setlsolvefn = fresh_lsolvefn;
  s->ops->setctestfn = fresh_ctestfn;
  s->ops->setmaxiters = fresh_maxiters;
  s->ops->getnumiters = fresh_numiters;
  s->ops->getcuriter = fresh_curiter;
  s->ops->getnumconvfails = fresh_convfails;
  return s;
}

}  // namespace

IdaSolver::~IdaSolver() {
  if (mem_) IDAFree(&mem_);
  if (NLS_) SUNNonlinSolFree(NLS_);  // attached with IDASetNonlinearSolver: IDA does not own it
  if (LS_) SUNLinSolFree(LS_);
  if (A_) SUNMatDestroy(A_);
  xv_.reset();
  xdotv_.reset();
  idv_.reset();
}

std::string IdaSolver::flag_name(int flag) const {
  char* name = IDAGetReturnFlagName(flag);
  std::string s = name ? name : fmt::format("flag {}", flag);
  std::free(name);
  return s;
}

Status IdaSolver::init(ModelView& model, double t0, ConstVec y0, const SolverTolerances& tol, std::string& error) noexcept {
  try {
    dae_ = model.dae();
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
    // Tolerances: rtol for all components, atol for the differential ones, option algebraic_atol
    // for the algebraic ones, whose weights weights() also multiplies by the step size (README.md, "ida").
    rtol_ = tol.rtol;
    atol_ = (id_.array() > 0.5).select(Eigen::VectorXd::Constant(n, tol.atol), opt_.algebraic_atol);
    // Before IDA's first step the weights need a step size: opt_.h0, else IDA's own bound on its
    // initial step, 0.5 / |x'|_wrms over the differential components (IDASolve takes the smaller of
    // it and 0.001 |t_out - t0|, at tight tolerances this one).
    h_ref_ = opt_.h0;
    if (!(h_ref_ > 0)) {
      const Eigen::ArrayXd w = id_.array() / (tol.rtol * x_.array().abs() + atol_.array());
      const double ypnorm = std::sqrt((xdot_.array() * w).square().sum() / n);
      h_ref_ = ypnorm > 0 && std::isfinite(ypnorm) ? 0.5 / ypnorm : 1e-6;
    }
    if (!xv_.create(n, x_.data(), ctx_) || !xdotv_.create(n, xdot_.data(), ctx_) || !idv_.create(n, id_.data(), ctx_)) {
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
        !check(IDAWFtolerances(mem_, &IdaSolver::weights), "IDAWFtolerances",
               fmt::format("rtol = {}, atol = {}, option algebraic_atol = {}", tol.rtol, tol.atol, opt_.algebraic_atol), error) ||
        !check(IDASetId(mem_, idv_.get()), "IDASetId", "differential/algebraic components", error) ||
        !check(IDASetSuppressAlg(mem_, SUNTRUE), "IDASetSuppressAlg", "algebraic components out of the error test", error))
      return Status::fatal;
    if (opt_.fresh_jacobian) {
      NLS_ = fresh_jacobian_newton(xv_.get(), ctx_);
      if (!NLS_) {
        error = "SUNNonlinSol_Newton failed (out of memory)";
        return Status::fatal;
      }
      if (!check(IDASetNonlinearSolver(mem_, NLS_), "IDASetNonlinearSolver", "option fresh_jacobian = true", error))
        return Status::fatal;
    }
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

bool IdaSolver::init_roots(std::string& error) noexcept {
  root_state_.resize(y0_.size());
  const std::string what = fmt::format("{} events", events_.count);
  return check(IDARootInit(mem_, events_.count, &IdaSolver::root), "IDARootInit", what, error) &&
         check(IDASetRootDirection(mem_, directions_.data()), "IDASetRootDirection", what, error) &&
         check(IDASetNoInactiveRootWarn(mem_), "IDASetNoInactiveRootWarn", what, error);
}

int IdaSolver::root(double t, N_Vector x, N_Vector xdot, double* g, void* self) noexcept {
  auto* s = static_cast<IdaSolver*>(self);
  s->dae_->to_state(cview(x), cview(xdot), s->root_state_);
  return s->events_at(t, s->root_state_.data(), g);
}

Status IdaSolver::advance_to_event(double t_out, Vec y_out, double& t_reached, int32_t* found) noexcept {
  if (!mem_ || y_out.size() != y0_.size()) {
    last_error_ = "IDA: advance() before a successful init(), or output vector of the wrong size";
    return Status::fatal;
  }
  message_[0] = '\0';
  t_reached = t_out;
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
  report_roots(flag == IDA_ROOT_RETURN && IDAGetRootInfo(mem_, found_.data()) == IDA_SUCCESS, found);
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

int IdaSolver::weights(N_Vector x, N_Vector w, void* self) noexcept {
  auto* s = static_cast<IdaSolver*>(self);
  double h = 0.0;
  if (IDAGetCurrentStep(s->mem_, &h) != IDA_SUCCESS || !(std::abs(h) > 0)) h = s->h_ref_;  // 0 before the first step
  h = std::abs(h);
  const auto xs = cview(x);
  auto ws = view(w);
  for (Eigen::Index i = 0; i < xs.size(); ++i) {
    const double d = s->rtol_ * std::abs(xs[i]) + s->atol_[i];
    if (!(d > 0)) return -1;
    ws[i] = (s->id_[i] > 0.5 ? 1.0 : h) / d;
  }
  return 0;
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
