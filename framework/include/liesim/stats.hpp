// Work counters of a run: one place, filled the same way for every method.
#pragma once
#include <cstdint>

namespace liesim {

/// Evaluation counters incremented by the model and space wrappers (non-virtual interface).
struct Counters {
  std::int64_t f_evals = 0;         ///< generator evaluations f: M -> g
  std::int64_t F_evals = 0;         ///< embedded vector field evaluations F: R^n -> R^n
  std::int64_t exps = 0;            ///< exponentials applied through the action (act-exp)
  std::int64_t dexpinv_calls = 0;   ///< dexpinv evaluations
  std::int64_t brackets = 0;        ///< Lie brackets
  std::int64_t projections = 0;     ///< projections onto the manifold
  std::int64_t newton_iters = 0;    ///< Newton iterations of implicit kernel-driven methods
  std::int64_t newton_fails = 0;    ///< Newton convergence failures of implicit kernel-driven methods
};

/// Statistics of one run, reported in the summary under "stats".
struct Stats {
  std::int64_t steps = 0;             ///< accepted steps
  std::int64_t rejected_steps = 0;    ///< rejected steps (error test failures)
  Counters counters;                  ///< evaluation counters
  std::int64_t rhs_evals_jac = 0;     ///< F evaluations spent on difference-quotient Jacobians
  std::int64_t jac_evals = 0;         ///< Jacobian evaluations
  std::int64_t nonlinear_iters = 0;   ///< nonlinear solver iterations
  std::int64_t nonlinear_conv_fails = 0;  ///< nonlinear convergence failures
  double h_min_used = 0.0;            ///< smallest accepted step size
  double h_max_used = 0.0;            ///< largest accepted step size
  double wall_time_s = 0.0;           ///< wall time of the integration loop
};

}  // namespace liesim
