// Work counters of a run: one place, filled the same way for every method.
#pragma once
#include <liesim/sdk/cpu_clock.hpp>  // the clock of Stats::cpu_time_s
#include <liesim/plugin.h>

#include <cstdint>

namespace liesim {

/// Evaluation counters of a model instance: the C struct liesim_counters (liesim/plugin.h), owned
/// by the host and incremented by whoever calls the model (the kernel or an integrator plugin).
using Counters = liesim_counters;

/// Statistics of one run, reported in the summary under "stats".
struct Stats {
  std::int64_t steps = 0;             ///< accepted steps
  std::int64_t rejected_steps = 0;    ///< rejected steps (error test failures)
  Counters counters{};                ///< evaluation counters
  std::int64_t rhs_evals_jac = 0;     ///< F evaluations spent on difference-quotient Jacobians
  std::int64_t jac_evals = 0;         ///< Jacobian evaluations
  std::int64_t nonlinear_iters = 0;   ///< nonlinear solver iterations
  std::int64_t nonlinear_conv_fails = 0;  ///< nonlinear convergence failures
  double h_min_used = 0.0;            ///< smallest accepted step size
  double h_max_used = 0.0;            ///< largest accepted step size
  double wall_time_s = 0.0;           ///< wall time of the integration loop
  /// f and F evaluations spent inside steps for output at requested times (dense output), kept out
  /// of `counters` so that the work of a run does not depend on how often it is sampled.
  std::int64_t output_evals = 0;
  double cpu_time_s = 0.0;            ///< CPU time of the thread that ran the loop (cpu_clock.hpp)
};

}  // namespace liesim
