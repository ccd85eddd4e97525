// Hermite one-step methods: a cubic Hermite trajectory on each step, q(t0 + s h) =
// q0 N1 + v0 N2 + q1 N3 + v1 N4 (thesis (4.5)–(4.6)), whose end point (q1, v1) solves two
// vector equations by Newton's method [Sharma 2020 (seed 001) §4.2]:
//   variational (order 2):  dL_d/dv0 + g_d^- = 0,  dL_d/dv1 + g_d^+ = 0   ((4.13)–(4.14)), with
//                           L_d = int_0^h L dt, g_d^- = int f N2 dt, g_d^+ = int f N4 dt;
//   Galerkin (order 4):     int_0^h M_eq P_j dt = 0, P_0 = 1, P_1 = (2t - h)/h, with the equation
//                           of motion's residual M_eq = M q'' + dU/dq - f(t, q, q').
// The integrals use Gauss–Legendre quadrature (option `quadrature`, points).
#pragma once
#include <liesim/sdk/newton.hpp>
#include <liesim/sdk/integrator.hpp>

#include <Eigen/Cholesky>

#include <vector>

namespace liesim::variational {

/// Which equations the Hermite trajectory satisfies.
enum class HermiteKind { variational, galerkin };

/// Gauss–Legendre nodes in (0, 1) and weights (sum 1) with `points` points.
void gauss_legendre(int points, std::vector<double>& nodes, std::vector<double>& weights);

class HermiteStepper final : public sdk::Stepper {
 public:
  HermiteStepper(HermiteKind kind, int points, double newton_tol, int max_iters);
  Status init(ModelView& model, std::string& error) noexcept override;
  ErrorSpace error_space() const noexcept override { return ErrorSpace::none; }
  Status step(double t, double h, ConstVec y, Vec y_new, Vec err) noexcept override;
  /// residual: max-norm of the step equations at the accepted end point.
  void diagnostics(Vec out) const noexcept override { out[0] = residual_; }
  std::string last_error() const override { return error_; }

 private:
  Status equations(double t, double h, ConstVec y, ConstVec z, Vec r) noexcept;

  HermiteKind kind_;
  std::vector<double> nodes_, weights_;
  ModelView* model_ = nullptr;
  const MechanicalSystemView* mech_ = nullptr;
  int m_ = 0;
  Eigen::MatrixXd mass_;
  Newton newton_;
  Eigen::VectorXd z_, q_, qd_, qdd_, grad_, f_, mv_;
  double residual_ = 0.0;
  std::string error_;
};

}  // namespace liesim::variational
