// The symplectic Lie group integrator SLGI(theta) on T*G = G x g*, right-trivialised (E. Cokaj,
// thesis §2.3.2, (2.3.6)–(2.3.8); Bogfjellmo & Marthinsen, FoCM 16 (2016)), for models with a
// Hamiltonian description (ABI 2.3). One step from (g0, mu0) solves for (xi, nbar) in g x g*:
//   a   = Ad*_{exp(theta xi)} nbar,
//   M   = dexp*_{-xi}(mu0 + a) - theta dexp*_{-theta xi}(a),                       (2.3.6)
//   (xi, nbar) = h (dH/dmu, -R_g^* dH/dg) at (exp(theta xi) g0, M),                   (2.3.7)
// then (g1, mu1) = (exp(xi) g0, Ad*_{exp((theta-1) xi)} nbar + Ad*_{exp(-xi)} mu0).    (2.3.8)
// theta = 1/2 is of order 2, theta = 0 and 1 of order 1. Newton's method (liesim/sdk/newton.hpp)
// solves the 2k equations, started from the explicit guess h (dH/dmu, -R_g^* dH/dg) at (g0, mu0).
#pragma once
#include <liesim/sdk/newton.hpp>
#include <liesim/sdk/integrator.hpp>

#include <string>

namespace liesim::symplectic {

class SlgiStepper final : public sdk::Stepper {
 public:
  SlgiStepper(double theta, double newton_tol, int max_iters) : theta_(theta) { newton_.configure(newton_tol, max_iters); }
  Status init(ModelView& model, std::string& error) noexcept override;
  ErrorSpace error_space() const noexcept override { return ErrorSpace::none; }
  Status step(double t, double h, ConstVec y, Vec y_new, Vec err) noexcept override;
  /// residual (max-norm of (2.3.7) at the accepted (xi, nbar)), newton_iterations.
  void diagnostics(Vec out) const noexcept override {
    out[0] = residual_;
    out[1] = iterations_;
  }
  std::string last_error() const override { return error_; }

 private:
  /// r = z - h (dH/dmu, -R^* dH/dg) at (exp(theta xi) g0, M(z)), z = (xi, nbar).
  Status equations(double t, double h, ConstVec z, Vec r) noexcept;

  double theta_;
  ModelView* model_ = nullptr;
  const HamiltonianSystemView* ham_ = nullptr;
  int k_ = 0;
  Newton newton_;
  Eigen::VectorXd g0_, mu0_, g_, z_, a_, b_, c_, M_, xi_, dHdmu_, dHdg_, mu1_;
  double residual_ = 0.0, iterations_ = 0.0;
  std::string error_;
};

}  // namespace liesim::symplectic
