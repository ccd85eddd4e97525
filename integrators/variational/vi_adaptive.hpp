// The adaptive energy-preserving variational integrator on the extended phase space, for forced
// and time-dependent systems [Sharma 2020 (seed 001) §3.2–3.3, (3.34)–(3.37); Kane, Marsden &
// Ortiz 1999]: time is a configuration variable and the step size is an unknown of every step,
// fixed by the discrete energy equation, not by an error estimate.
#pragma once
#include "discrete_lagrangian.hpp"

#include <liesim/sdk/newton.hpp>
#include <liesim/sdk/integrator.hpp>

namespace liesim::variational {

/// How each step's equations are solved.
enum class AdaptiveSolve {
  converged,  ///< Newton on (h, v) jointly until both equations hold to round-off
  sequential  ///< `passes` rounds of: momentum equation for v at fixed h, then energy equation for h at fixed displacement
};

/// Per step, from the carried (t_k, q_k, p_k, E_k), solve
///   (3.34)  -D_2 L_d - f_d^- = p_k,   (3.35)  D_1 L_d + g_d^- = E_k
/// for (h_k, v_k) with h_k > 0, then q_{k+1} = q_k + h_k v_k, t_{k+1} = t_k + h_k,
///   (3.36)  p_{k+1} = D_4 L_d + f_d^+,   (3.37)  E_{k+1} = -D_3 L_d - g_d^+.
/// The first step is a fixed-step step of size h0 (the run's --step) from p_0 = M v_0, which
/// defines E_1. Inside a step: q by cubic Hermite interpolation, v linearly. The host drives the
/// steps (sdk::SteppingSolver): output at requested times and events on that interpolant.
class ViAdaptiveSolver final : public sdk::SteppingSolver {
 public:
  ViAdaptiveSolver(const LagrangianRule& rule, AdaptiveSolve solve, int passes, double newton_tol, int max_iters, long max_steps)
      : rule_(rule), solve_(solve), passes_(passes), max_steps_(max_steps) {
    joint_.configure(newton_tol, max_iters, true);
    momentum_.configure(newton_tol, max_iters);
    scalar_.configure(newton_tol, max_iters);
  }
  Status init(ModelView& model, double t0, ConstVec y0, const SolverTolerances& tol, std::string& error) noexcept override;
  Status step(double& t_new, Vec y_new) noexcept override;
  Status interpolate(double t, Vec y) noexcept override;
  void add_stats(Stats& stats) const noexcept override;
  std::string last_error() const override { return error_; }
  /// h_k, discrete_energy, residual_momentum, residual_energy, condition.
  void diagnostics(Vec out) const noexcept override {
    out[0] = h_;
    out[1] = energy_;
    out[2] = residual_p_;
    out[3] = residual_e_;
    out[4] = condition_;
  }

 private:
  Status take_step() noexcept;
  Status fail_no_root(const char* why, const NewtonResult& newton = {}) noexcept;

  const LagrangianRule& rule_;
  AdaptiveSolve solve_;
  int passes_;
  long max_steps_;
  ModelView* model_ = nullptr;
  DiscreteLagrangian ld_;
  Newton joint_, momentum_, scalar_;  // (h, v); v at fixed h; h at fixed displacement
  int m_ = 0;
  double t_ = 0.0, t_prev_ = 0.0, h_ = 0.0, h0_ = 0.0, energy_ = 0.0;
  double residual_p_ = 0.0, residual_e_ = 0.0, condition_ = 0.0;
  Eigen::VectorXd q_, p_, q_prev_, w_prev_, w_, z_, dq_, v_, hv_;
  long steps_ = 0;
  double h_min_ = 0.0, h_max_ = 0.0;
  std::string error_;
};

}  // namespace liesim::variational
