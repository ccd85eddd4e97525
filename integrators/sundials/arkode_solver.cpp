// ARKODE solver: ERKStep / ARKStep setup with every flag checked, ARK_NORMAL output, statistics.
#include "arkode_solver.hpp"

#include <cstdio>  // arkode_butcher.h uses FILE without including <stdio.h>

#include <arkode/arkode_arkstep.h>
#include <arkode/arkode_erkstep.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>

#include <fmt/format.h>

#include <cstdlib>

namespace liesim::sundials {

ArkodeSolver::~ArkodeSolver() {
  if (mem_) {
    if (erk())
      ERKStepFree(&mem_);
    else
      ARKStepFree(&mem_);
  }
  if (LS_) SUNLinSolFree(LS_);
  if (A_) SUNMatDestroy(A_);
}

std::string ArkodeSolver::flag_name(int flag) const {
  char* name = erk() ? ERKStepGetReturnFlagName(flag) : ARKStepGetReturnFlagName(flag);
  std::string s = name ? name : fmt::format("flag {}", flag);
  std::free(name);
  return s;
}

Status ArkodeSolver::init(ModelView& model, double t0, ConstVec y0, const SolverTolerances& tol, std::string& error) noexcept {
  try {
    const bool fixed = tol.fixed_step > 0;
    if (!fixed && (!(tol.atol > 0) || !(tol.rtol >= 0))) {
      error = fmt::format("ARKODE needs a fixed step > 0 or tolerances with atol > 0 and rtol >= 0 (got rtol = {}, atol = {})",
                          tol.rtol, tol.atol);
      return Status::fatal;
    }
    if (!fixed && opt_.table_embedded == 0) {
      error = fmt::format("table {} has no embedded method, so ARKODE cannot adapt the step: give a fixed step (--step H) "
                          "or choose a table with an embedding",
                          opt_.table_name);
      return Status::fatal;
    }
    if (!setup_common(model, y0, error)) return Status::fatal;
    const Eigen::Index n = y0_.size();
    const std::string table = fmt::format("option table = {}", opt_.table_name);
    const std::string h0 = fmt::format("option h0 = {}", opt_.h0);
    const std::string max_steps = fmt::format("option max_steps = {}", opt_.max_steps);
    const std::string max_step = fmt::format("option max_step = {}", opt_.max_step);
    const std::string min_step = fmt::format("option min_step = {}", opt_.min_step);
    const std::string step = fmt::format("fixed step h = {}", tol.fixed_step);
    const std::string adaptivity = fmt::format("option adaptivity (ARKODE controller {})", opt_.adaptivity);
    const double rtol = fixed ? opt_.fixed_step_tol : tol.rtol;
    const double atol = fixed ? opt_.fixed_step_tol : tol.atol;
    const std::string tols = fixed ? fmt::format("option fixed_step_tol = {}", opt_.fixed_step_tol)
                                   : fmt::format("rtol = {}, atol = {}", rtol, atol);
    if (erk()) {
      mem_ = ERKStepCreate(&SolverBase::rhs, t0, y_.get(), ctx_);
      if (!mem_) {
        error = "ERKStepCreate failed (invalid initial state or out of memory)";
        return Status::fatal;
      }
      if (!check(ERKStepSetErrHandlerFn(mem_, &SolverBase::on_message, this), "ERKStepSetErrHandlerFn", "", error) ||
          !check(ERKStepSetUserData(mem_, this), "ERKStepSetUserData", "", error) ||
          !check(ERKStepSetTableNum(mem_, static_cast<ARKODE_ERKTableID>(opt_.table)), "ERKStepSetTableNum", table, error) ||
          !check(ERKStepSStolerances(mem_, rtol, atol), "ERKStepSStolerances", tols, error) ||
          (fixed && !check(ERKStepSetFixedStep(mem_, tol.fixed_step), "ERKStepSetFixedStep", step, error)) ||
          !check(ERKStepSetMaxNumSteps(mem_, opt_.max_steps), "ERKStepSetMaxNumSteps", max_steps, error) ||
          (!fixed && !check(ERKStepSetInitStep(mem_, opt_.h0), "ERKStepSetInitStep", h0, error)) ||
          !check(ERKStepSetMaxStep(mem_, opt_.max_step), "ERKStepSetMaxStep", max_step, error) ||
          !check(ERKStepSetMinStep(mem_, opt_.min_step), "ERKStepSetMinStep", min_step, error) ||
          // SUNDIALS' default (ERKStep: PI) is left untouched; a chosen controller gets SUNDIALS' parameters for it
          // (idefault = 1) and the embedding's order in its exponents (pq = 0), as the default does.
          (opt_.adaptivity >= 0 &&
           !check(ERKStepSetAdaptivityMethod(mem_, opt_.adaptivity, 1, 0, nullptr), "ERKStepSetAdaptivityMethod", adaptivity, error)))
        return Status::fatal;
      return Status::ok;
    }
    // ARKStep: a DIRK table on the whole field as implicit part (fe = NULL), solved by Newton
    // with a dense matrix; or an explicit table as explicit part only (fi = NULL).
    const bool implicit = kind_ == Kind::arkstep_implicit;
    mem_ = implicit ? ARKStepCreate(nullptr, &SolverBase::rhs, t0, y_.get(), ctx_)
                    : ARKStepCreate(&SolverBase::rhs, nullptr, t0, y_.get(), ctx_);
    if (!mem_) {
      error = "ARKStepCreate failed (invalid initial state or out of memory)";
      return Status::fatal;
    }
    if (!check(ARKStepSetErrHandlerFn(mem_, &SolverBase::on_message, this), "ARKStepSetErrHandlerFn", "", error) ||
        !check(ARKStepSetUserData(mem_, this), "ARKStepSetUserData", "", error) ||
        !check(implicit ? ARKStepSetTableNum(mem_, static_cast<ARKODE_DIRKTableID>(opt_.table), ARKODE_ERK_NONE)
                        : ARKStepSetTableNum(mem_, ARKODE_DIRK_NONE, static_cast<ARKODE_ERKTableID>(opt_.table)),
               "ARKStepSetTableNum", table, error) ||
        !check(ARKStepSStolerances(mem_, rtol, atol), "ARKStepSStolerances", tols, error))
      return Status::fatal;
    if (implicit) {
      A_ = SUNDenseMatrix(n, n, ctx_);
      LS_ = A_ ? SUNLinSol_Dense(y_.get(), A_, ctx_) : nullptr;
      if (!LS_) {
        error = "SUNDenseMatrix / SUNLinSol_Dense failed (out of memory)";
        return Status::fatal;
      }
      if (!check(ARKStepSetLinearSolver(mem_, LS_, A_), "ARKStepSetLinearSolver", "dense linear solver", error))
        return Status::fatal;
      if (uses_model_jacobian(opt_.jacobian, model) && !check(ARKStepSetJacFn(mem_, &SolverBase::jac), "ARKStepSetJacFn", "the model's Jacobian", error))
        return Status::fatal;
    }
    if ((fixed && !check(ARKStepSetFixedStep(mem_, tol.fixed_step), "ARKStepSetFixedStep", step, error)) ||
        !check(ARKStepSetMaxNumSteps(mem_, opt_.max_steps), "ARKStepSetMaxNumSteps", max_steps, error) ||
        (!fixed && !check(ARKStepSetInitStep(mem_, opt_.h0), "ARKStepSetInitStep", h0, error)) ||
        !check(ARKStepSetMaxStep(mem_, opt_.max_step), "ARKStepSetMaxStep", max_step, error) ||
        !check(ARKStepSetMinStep(mem_, opt_.min_step), "ARKStepSetMinStep", min_step, error) ||
        (opt_.adaptivity >= 0 &&
         !check(ARKStepSetAdaptivityMethod(mem_, opt_.adaptivity, 1, 0, nullptr), "ARKStepSetAdaptivityMethod", adaptivity, error)))
      return Status::fatal;
    return Status::ok;
  } catch (const std::exception& e) {
    error = e.what();
    return Status::fatal;
  }
}

bool ArkodeSolver::init_roots(std::string& error) noexcept {
  const std::string what = fmt::format("{} events", events_.count);
  if (erk())
    return check(ERKStepRootInit(mem_, events_.count, &SolverBase::root), "ERKStepRootInit", what, error) &&
           check(ERKStepSetRootDirection(mem_, directions_.data()), "ERKStepSetRootDirection", what, error) &&
           check(ERKStepSetNoInactiveRootWarn(mem_), "ERKStepSetNoInactiveRootWarn", what, error);
  return check(ARKStepRootInit(mem_, events_.count, &SolverBase::root), "ARKStepRootInit", what, error) &&
         check(ARKStepSetRootDirection(mem_, directions_.data()), "ARKStepSetRootDirection", what, error) &&
         check(ARKStepSetNoInactiveRootWarn(mem_), "ARKStepSetNoInactiveRootWarn", what, error);
}

Status ArkodeSolver::advance_to_event(double t_out, Vec y_out, double& t_reached, int32_t* found) noexcept {
  if (!mem_ || y_out.size() != y0_.size()) {
    last_error_ = "ARKODE: advance() before a successful init(), or output vector of the wrong size";
    return Status::fatal;
  }
  message_[0] = '\0';
  y_.bind(y_out.data());  // ARKODE writes y(t_out) straight into the caller's vector
  t_reached = t_out;
  const int flag = erk() ? ERKStepEvolve(mem_, t_out, y_.get(), &t_reached, ARK_NORMAL)
                         : ARKStepEvolve(mem_, t_out, y_.get(), &t_reached, ARK_NORMAL);
  if (flag < 0) {
    double t = t_reached;
    const int f = erk() ? ERKStepGetCurrentTime(mem_, &t) : ARKStepGetCurrentTime(mem_, &t);
    if (f < 0) t = t_reached;
    return fail(flag, t);
  }
  const bool root = flag == ARK_ROOT_RETURN &&
                    (erk() ? ERKStepGetRootInfo(mem_, found_.data()) : ARKStepGetRootInfo(mem_, found_.data())) == ARK_SUCCESS;
  report_roots(root, found);
  return Status::ok;
}

void ArkodeSolver::add_stats(Stats& stats) const noexcept {
  if (!mem_) return;
  long v = 0;
  if (erk()) {
    if (ERKStepGetNumSteps(mem_, &v) == ARK_SUCCESS) stats.steps += v;
    if (ERKStepGetNumErrTestFails(mem_, &v) == ARK_SUCCESS) stats.rejected_steps += v;
    return;
  }
  if (ARKStepGetNumSteps(mem_, &v) == ARK_SUCCESS) stats.steps += v;
  if (ARKStepGetNumErrTestFails(mem_, &v) == ARK_SUCCESS) stats.rejected_steps += v;
  if (ARKStepGetNumNonlinSolvIters(mem_, &v) == ARK_SUCCESS) stats.nonlinear_iters += v;
  if (ARKStepGetNumNonlinSolvConvFails(mem_, &v) == ARK_SUCCESS) stats.nonlinear_conv_fails += v;
  if (ARKStepGetNumJacEvals(mem_, &v) == ARKLS_SUCCESS) stats.jac_evals += v;
  if (ARKStepGetNumLinRhsEvals(mem_, &v) == ARKLS_SUCCESS) stats.rhs_evals_jac += v;
}

}  // namespace liesim::sundials
