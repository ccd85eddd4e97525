// The N-fold pendulum as a differential-algebraic system in Cartesian coordinates (for IDA):
// point masses x_i in R^3 with rigid-link constraints, in the stabilised index-2 form of
// Gear, Gupta and Leimkuhler (1985).
#pragma once
#include "chain_dynamics.hpp"

#include <liesim/sdk/model.hpp>

namespace liesim::pendulum_chain {

/// GGL formulation of the chain (README.md, "The cartesian_dae formulation").
///
/// Unknowns X = [x (3N), v (3N), lambda (N), mu (N)], size 8N: x_i the position of mass i,
/// v_i its velocity, lambda_i the tension of link i, mu_i the GGL multiplier (0 on solutions).
/// With d_i = x_i - x_{i-1} (x_0 = 0, v_0 = 0), n_i = d_i / L_i and the constraints
/// c_i(x) = (|d_i|^2 - L_i^2) / (2 L_i), whose gradient rows are G_i = (.., -n_i, n_i, ..):
///   x_k' - v_k + mu_k n_k - mu_{k+1} n_{k+1}                          = 0   (3N, differential)
///   m_k (v_k' - g_vec) + lambda_k n_k - lambda_{k+1} n_{k+1}          = 0   (3N, differential)
///   n_i . (v_i - v_{i-1})                      (G(x) v, index 2)      = 0   (N, algebraic: lambda)
///   (|d_i|^2 - L_i^2) / (2 L_i)                (c(x))                 = 0   (N, algebraic: mu)
/// so that, with this scaling, lambda_i is exactly the link tension tau_i of chain_dynamics.cpp.
class CartesianDae final : public sdk::DaeFormulation {
 public:
  /// `chain` must outlive the formulation (it is the owning model's).
  explicit CartesianDae(const Chain& chain) : chain_(chain), n_(chain.size()), ws_(n_), wdot_(3 * n_) {}

  int size() const noexcept override { return 8 * n_; }
  void differential_components(Vec id) const noexcept override;
  /// x from q, v from w x q, lambda = the link tensions, mu = 0; x' = v, v' = the accelerations of
  /// the masses, lambda' = mu' = 0 (they enter no residual).
  Status initial_values(double t0, ConstVec y0, Vec x, Vec xdot) noexcept override;
  Status residual(double t, ConstVec x, ConstVec xdot, Vec r) noexcept override;
  /// q_i = (x_i - x_{i-1}) / L_i, w_i = q_i x q_i' with q_i' = (v_i - v_{i-1}) / L_i.
  void to_state(ConstVec x, ConstVec xdot, Vec y) const noexcept override;
  /// 2N residuals: |x_i - x_{i-1}|^2 - L_i^2 (m^2) for i = 1..N, then the velocity constraints
  /// (x_i - x_{i-1}) . (v_i - v_{i-1}) (m^2/s), half the time derivative of the former.
  int constraint_count() const noexcept override { return 2 * n_; }
  void constraints(ConstVec x, Vec c) const noexcept override;
  std::string last_error() const override { return last_error_; }

  /// Offsets of the blocks in X.
  int x_offset() const noexcept { return 0; }
  int v_offset() const noexcept { return 3 * n_; }
  int lambda_offset() const noexcept { return 6 * n_; }
  int mu_offset() const noexcept { return 7 * n_; }

 private:
  const Chain& chain_;
  int n_;
  ChainWorkspace ws_;      ///< tension solve of the initial values
  Eigen::VectorXd wdot_;   ///< its angular accelerations (unused output)
  std::string last_error_;
};

}  // namespace liesim::pendulum_chain
