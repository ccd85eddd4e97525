// The adaptive energy-preserving variational integrator on the extended phase space, for forced
// and time-dependent systems [Sharma 2020 (seed 001) §3.2–3.3, (3.34)–(3.37); Kane, Marsden &
// Ortiz 1999]: time is a configuration variable and the step size is an unknown of every step,
// fixed by the discrete energy equation, not by an error estimate. The steps: vi_adaptive_core.hpp.
#pragma once
#include "vi_adaptive_core.hpp"

#include <liesim/sdk/integrator.hpp>

namespace liesim::variational {

/// The method vi_adaptive: AdaptiveVi<double> on a model's mechanical description. The first step is
/// of size h0 (the run's --step). Inside a step: q by cubic Hermite interpolation, v linearly. The
/// host drives the steps (sdk::SteppingSolver): output at requested times and events on that
/// interpolant.
class ViAdaptiveSolver final : public sdk::SteppingSolver {
 public:
  ViAdaptiveSolver(const LagrangianRule& rule, AdaptiveSolve solve, int passes, double newton_tol, int max_iters, long max_steps)
      : rule_(rule), max_steps_(max_steps) {
    vi_.configure(solve, passes, newton_tol, max_iters);
  }
  Status init(ModelView& model, double t0, ConstVec y0, const SolverTolerances& tol, std::string& error) noexcept override;
  Status step(double& t_new, Vec y_new) noexcept override;
  Status interpolate(double t, Vec y) noexcept override;
  void add_stats(Stats& stats) const noexcept override;
  std::string last_error() const override { return error_; }
  /// h_k, discrete_energy, residual_momentum, residual_energy, condition.
  void diagnostics(Vec out) const noexcept override {
    out[0] = vi_.h();
    out[1] = vi_.energy();
    out[2] = vi_.residual_momentum();
    out[3] = vi_.residual_energy();
    out[4] = vi_.condition();
  }

 private:
  const LagrangianRule& rule_;
  long max_steps_;
  ModelView* model_ = nullptr;
  AdaptiveVi<double, MechanicalSystemView> vi_;
  int m_ = 0;
  double h_min_ = 0.0, h_max_ = 0.0;
  std::string error_;
};

}  // namespace liesim::variational
