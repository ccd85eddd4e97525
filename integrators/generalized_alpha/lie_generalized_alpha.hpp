// The Lie group generalized-alpha method (Brüls & Cardona, J. Comput. Nonlinear Dynam. 5 (2010);
// Arnold & Brüls, Multibody Syst. Dyn. 18 (2007); Arnold, Brüls & Cardona, Numer. Math. 129
// (2015)) for a rigid body with a fixed point, R' = R hat(w), J w' = -w x J w + M(R) + tau(R, w),
// from the model's rigid-body description (ABI 2.2). With the pseudo-acceleration a:
//   R_{n+1} = R_n exp(h hat(dq)),   dq = w_n + (1/2 - beta) h a_n + beta h a_{n+1},
//   w_{n+1} = w_n + (1 - gamma) h a_n + gamma h a_{n+1},
//   (1 - alpha_m) a_{n+1} + alpha_m a_n = (1 - alpha_f) w'_{n+1} + alpha_f w'_n,
// w'_{n+1} the acceleration of the equations of motion at (t_{n+1}, R_{n+1}, w_{n+1}), solved for by
// the kernel's Newton method; a_0 = w'_0. The parameters from the spectral radius at infinity
// rho_inf in [0, 1] (Chung & Hulbert): alpha_m = (2 rho - 1)/(rho + 1), alpha_f = rho/(rho + 1),
// gamma = 1/2 + alpha_f - alpha_m, beta = (gamma + 1/2)^2 / 4. Second order for every rho_inf;
// unconditionally stable on the linear test equation, with numerical damping of the high
// frequencies for rho_inf < 1.
#pragma once
#include <liesim/sdk/newton.hpp>
#include <liesim/sdk/integrator.hpp>

#include <string>

namespace liesim::generalized_alpha {

class LieGeneralizedAlpha final : public sdk::Stepper {
 public:
  LieGeneralizedAlpha(double rho_inf, double newton_tol, int max_iters);
  Status init(ModelView& model, std::string& error) noexcept override;
  ErrorSpace error_space() const noexcept override { return ErrorSpace::none; }
  Status step(double t, double h, ConstVec y, Vec y_new, Vec err) noexcept override;
  /// Dense output of order 2 that leaves the method's memory alone (repeating the step would
  /// restart it): R(theta) = R_n exp(theta h w_n + theta^2 (h dq - h w_n)),
  /// w(theta) = w_n + theta h w'_n + theta^2 (w_{n+1} - w_n - h w'_n); both end at the step's values.
  Status interpolate(double t, double h, ConstVec y, ConstVec y_new, double theta, Vec out, Vec work) noexcept override;
  /// residual (of the equations of motion at the accepted step), newton_iterations.
  void diagnostics(Vec out) const noexcept override {
    out[0] = residual_;
    out[1] = iterations_;
  }
  std::string last_error() const override { return error_; }

 private:
  using RowMajor3 = RigidBodySystemView::RowMajor3;
  /// w' = J^-1 (-w x J w + M(R) + tau(R, w)) at t.
  Status acceleration(double t, const RowMajor3& R, const Eigen::Vector3d& w, Eigen::Vector3d& wdot) noexcept;
  /// (R1, w1, a1) of the step for the acceleration guess wdot1.
  void advance(double h, const Eigen::Vector3d& wdot1) noexcept;

  double alpha_m_, alpha_f_, gamma_, beta_;
  ModelView* model_ = nullptr;
  const RigidBodySystemView* rb_ = nullptr;
  Eigen::Matrix3d J_, Jinv_;
  Newton newton_;
  // The step's start and its memory from the last step: the acceleration and pseudo-acceleration.
  RowMajor3 R0_, R1_;
  Eigen::Vector3d x_, v_, w0_, w1_, a0_, a1_, wdot0_, acc_;
  Eigen::Vector3d hdq_, wdot_start_;  ///< the last step's h dq and w'_n (for interpolate)
  Eigen::VectorXd z_, last_y_;
  double last_t_ = 0.0;
  bool have_memory_ = false;
  double residual_ = 0.0, iterations_ = 0.0;
  std::string error_;
};

}  // namespace liesim::generalized_alpha
