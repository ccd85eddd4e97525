// Optimisation schemes on SO(3) as integrators of a damped rigid body (Sharma 2020, seed 001, ch. 7,
// notes I-11): L = 1/2 Omega^T J Omega - U(R), U = eta f(R), body torque tau (linear damping
// -D Omega). One step of size h:
//   gd   (gradient descent, the overdamped limit J -> 0, Omega = D^-1 M(R)):
//        R1 = R exp(h D^-1 M(R)),  M = -grad_L U the moment   [(7.23): alpha = h eta / gamma]
//   agd  (accelerated gradient descent = symplectic Euler of the damped body):
//        Pi1 = Pi + h (Pi x Omega + M(R) + tau(Omega)),  R1 = R exp(h Omega1)
//        [(7.24)-(7.25) with J = j I: mu = 1 - h gamma / j, eps = h^2 eta / j]
//   sagd (the damped LGVI with the potential at the right end point, (7.33)-(7.35)):
//        h (Pi + h tau)^ = F J_d - J_d F^T,  R1 = R F,  Pi1 = F^T (Pi + h tau) + h M(R1)
//        [J = j I: F = exp(asin(|g|/j) g/|g|), g = h (Pi + h tau) (7.36); |g|/j > 1 has no solution:
//        clamped to 1 and reported as the diagnostic `clamped`].
#pragma once
#include <liesim/lie/cayley.hpp>
#include <liesim/sdk/integrator.hpp>

#include <string>

namespace liesim::variational {

enum class Descent { gd, agd, sagd };

class DescentStepper final : public sdk::Stepper {
 public:
  explicit DescentStepper(Descent kind) : kind_(kind) {}
  Status init(ModelView& model, std::string& error) noexcept override;
  ErrorSpace error_space() const noexcept override { return ErrorSpace::none; }
  Status step(double t, double h, ConstVec y, Vec y_new, Vec err) noexcept override;
  /// clamped: 1 when SAGD's asin argument |g|/j exceeded 1 in this step (0 otherwise, and for gd, agd).
  void diagnostics(Vec out) const noexcept override { out[0] = clamped_ ? 1.0 : 0.0; }
  std::string last_error() const override { return error_; }

 private:
  Descent kind_;
  ModelView* model_ = nullptr;
  const RigidBodySystemView* rb_ = nullptr;
  Eigen::Matrix3d J_, Jinv_, Dinv_;
  bool isotropic_ = false, clamped_ = false;
  std::string error_;
};

}  // namespace liesim::variational
