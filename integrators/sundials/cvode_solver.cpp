// CVODE solver: setup with every flag checked, CV_NORMAL output, statistics, projection.
#include "cvode_solver.hpp"

#include <cvode/cvode.h>
#include <cvode/cvode_ls.h>
#include <cvode/cvode_proj.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunnonlinsol/sunnonlinsol_fixedpoint.h>

#include <fmt/format.h>

#include <cstdlib>

namespace liesim::sundials {

CvodeSolver::~CvodeSolver() {
  if (mem_) CVodeFree(&mem_);
  if (NLS_) SUNNonlinSolFree(NLS_);
  if (LS_) SUNLinSolFree(LS_);
  if (A_) SUNMatDestroy(A_);
}

std::string CvodeSolver::flag_name(int flag) const {
  char* name = CVodeGetReturnFlagName(flag);
  std::string s = name ? name : fmt::format("flag {}", flag);
  std::free(name);
  return s;
}

Status CvodeSolver::init(ModelView& model, double t0, ConstVec y0, const SolverTolerances& tol, std::string& error) noexcept {
  try {
    if (tol.fixed_step > 0) {
      error = "CVODE has no fixed-step mode: give --rtol/--atol, or use arkode_erk / arkode_dirk for a fixed step";
      return Status::fatal;
    }
    if (!(tol.atol > 0) || !(tol.rtol >= 0)) {
      error = fmt::format("CVODE needs tolerances with atol > 0 and rtol >= 0 (got rtol = {}, atol = {})", tol.rtol, tol.atol);
      return Status::fatal;
    }
    if (method_ == Method::cvode_bdf_proj && !model.space().can_project()) {
      error = "cvode_bdf_proj needs a model whose manifold has a projection (HomogeneousSpace::can_project() is false "
              "for this model); use cvode_bdf instead";
      return Status::fatal;
    }
    if (!setup_common(model, y0, error)) return Status::fatal;
    const int lmm = (method_ == Method::cvode_bdf || method_ == Method::cvode_bdf_proj) ? CV_BDF : CV_ADAMS;
    mem_ = CVodeCreate(lmm, ctx_);
    if (!mem_) {
      error = "CVodeCreate failed (out of memory)";
      return Status::fatal;
    }
    const Eigen::Index n = y0_.size();
    if (!check(CVodeSetErrHandlerFn(mem_, &SolverBase::on_message, this), "CVodeSetErrHandlerFn", "", error) ||
        !check(CVodeInit(mem_, &SolverBase::rhs, t0, y_.get()), "CVodeInit", "initial state", error) ||
        !check(CVodeSetUserData(mem_, this), "CVodeSetUserData", "", error) ||
        !check(CVodeSStolerances(mem_, tol.rtol, tol.atol), "CVodeSStolerances",
               fmt::format("rtol = {}, atol = {}", tol.rtol, tol.atol), error))
      return Status::fatal;
    if (newton()) {
      A_ = SUNDenseMatrix(n, n, ctx_);
      LS_ = A_ ? SUNLinSol_Dense(y_.get(), A_, ctx_) : nullptr;
      if (!LS_) {
        error = "SUNDenseMatrix / SUNLinSol_Dense failed (out of memory)";
        return Status::fatal;
      }
      if (!check(CVodeSetLinearSolver(mem_, LS_, A_), "CVodeSetLinearSolver", "dense linear solver", error)) return Status::fatal;
      if (uses_model_jacobian(opt_.jacobian, model) && !check(CVodeSetJacFn(mem_, &SolverBase::jac), "CVodeSetJacFn", "the model's Jacobian", error))
        return Status::fatal;
    } else {
      NLS_ = SUNNonlinSol_FixedPoint(y_.get(), static_cast<int>(opt_.fixedpoint_accel), ctx_);
      if (!NLS_) {
        error = fmt::format("SUNNonlinSol_FixedPoint failed for option fixedpoint_accel = {}", opt_.fixedpoint_accel);
        return Status::fatal;
      }
      if (!check(CVodeSetNonlinearSolver(mem_, NLS_), "CVodeSetNonlinearSolver", "fixed-point iteration", error))
        return Status::fatal;
    }
    if (!check(CVodeSetMaxNumSteps(mem_, opt_.max_steps), "CVodeSetMaxNumSteps", fmt::format("option max_steps = {}", opt_.max_steps), error) ||
        !check(CVodeSetInitStep(mem_, opt_.h0), "CVodeSetInitStep", fmt::format("option h0 = {}", opt_.h0), error) ||
        !check(CVodeSetMaxStep(mem_, opt_.max_step), "CVodeSetMaxStep", fmt::format("option max_step = {}", opt_.max_step), error) ||
        !check(CVodeSetMinStep(mem_, opt_.min_step), "CVodeSetMinStep", fmt::format("option min_step = {}", opt_.min_step), error))
      return Status::fatal;
    if (!check(CVodeSetMaxOrd(mem_, static_cast<int>(opt_.max_order)), "CVodeSetMaxOrd",
               fmt::format("option max_order = {}", opt_.max_order), error))
      return Status::fatal;
    if (method_ == Method::cvode_bdf_proj) {
      work_.resize(n);
      if (!check(CVodeSetProjFn(mem_, &CvodeSolver::project), "CVodeSetProjFn", "projection", error) ||
          !check(CVodeSetProjErrEst(mem_, opt_.proj_err_est ? SUNTRUE : SUNFALSE), "CVodeSetProjErrEst",
                 fmt::format("option proj_err_est = {}", opt_.proj_err_est), error))
        return Status::fatal;
    }
    return Status::ok;
  } catch (const std::exception& e) {
    error = e.what();
    return Status::fatal;
  }
}

bool CvodeSolver::init_roots(std::string& error) noexcept {
  const std::string what = fmt::format("{} events", events_.count);
  return check(CVodeRootInit(mem_, events_.count, &SolverBase::root), "CVodeRootInit", what, error) &&
         check(CVodeSetRootDirection(mem_, directions_.data()), "CVodeSetRootDirection", what, error) &&
         check(CVodeSetNoInactiveRootWarn(mem_), "CVodeSetNoInactiveRootWarn", what, error);
}

Status CvodeSolver::advance_to_event(double t_out, Vec y_out, double& t_reached, int32_t* found) noexcept {
  if (!mem_ || y_out.size() != y0_.size()) {
    last_error_ = "CVODE: advance() before a successful init(), or output vector of the wrong size";
    return Status::fatal;
  }
  message_[0] = '\0';
  y_.bind(y_out.data());  // CVODE writes y(t_out) straight into the caller's vector
  t_reached = t_out;
  const int flag = CVode(mem_, t_out, y_.get(), &t_reached, CV_NORMAL);
  if (flag < 0) {
    double t = t_reached;
    if (CVodeGetCurrentTime(mem_, &t) < 0) t = t_reached;
    return fail(flag, t);
  }
  const bool root = flag == CV_ROOT_RETURN && CVodeGetRootInfo(mem_, found_.data()) == CV_SUCCESS;
  report_roots(root, found);
  // CVODE projects its steps, not the interpolant it returns between them: project the output too.
  if (method_ == Method::cvode_bdf_proj && model_->space().project(y_out) != Status::ok) {
    last_error_ = fmt::format("CVODE: projecting the output at t = {} failed: {}", t_reached, model_->last_error());
    return Status::fatal;
  }
  return Status::ok;
}

void CvodeSolver::add_stats(Stats& stats) const noexcept {
  if (!mem_) return;
  long v = 0;
  if (CVodeGetNumSteps(mem_, &v) == CV_SUCCESS) stats.steps += v;
  if (CVodeGetNumErrTestFails(mem_, &v) == CV_SUCCESS) stats.rejected_steps += v;
  if (CVodeGetNumNonlinSolvIters(mem_, &v) == CV_SUCCESS) stats.nonlinear_iters += v;
  if (CVodeGetNumNonlinSolvConvFails(mem_, &v) == CV_SUCCESS) stats.nonlinear_conv_fails += v;
  if (newton()) {
    if (CVodeGetNumJacEvals(mem_, &v) == CVLS_SUCCESS) stats.jac_evals += v;
    if (CVodeGetNumLinRhsEvals(mem_, &v) == CVLS_SUCCESS) stats.rhs_evals_jac += v;
  }
}

int CvodeSolver::project(double t, N_Vector ycur, N_Vector corr, double eps, N_Vector err, void* self) noexcept {
  (void)t;
  (void)eps;  // the model's projection is a closed form: exact, whatever the tolerance
  auto* s = static_cast<CvodeSolver*>(self);
  const HomogeneousSpaceView& space = s->model_->space();
  auto c = view(corr);
  const auto y = cview(ycur);
  c = y;
  if (space.project(c) != Status::ok) {
    return -1;
  }
  if (err) {
    // Tangential part of the error estimate at P(y), to first order: P(P(y) + e) - P(y).
    auto e = view(err);
    s->work_ = c + e;
    if (space.project(s->work_) != Status::ok) {
      return -1;
    }
    e = s->work_ - c;
  }
  c -= y;
  return c.allFinite() ? 0 : 1;
}

}  // namespace liesim::sundials
