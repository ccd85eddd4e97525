// The discrete Lagrangian of one step in the extended configuration space R x Q, built from a
// quadrature rule on [t_k, t_k + h] with the straight line q(t_k + s h) = q_k + s h v (v the
// discrete velocity (q_{k+1} - q_k)/h), and the discrete forces and power terms that go with it
// [Sharma 2020 (seed 001) §2, §3.2; Marsden & West 2001]:
//   L_d = h sum_i w_i L(t_k + s_i h, q_k + s_i h v, v),       L = 1/2 v^T M v - U(t, q),
//   f_d^- = h sum_i w_i (1 - s_i) f_i,   f_d^+ = h sum_i w_i s_i f_i,   g_d^+- = -f_d^+- . v.
// The midpoint rule (s = 1/2, w = 1) and the trapezoidal rule (s = 0, 1; w = 1/2, 1/2) are data.
#pragma once
#include <liesim/sdk/model_view.hpp>

#include <Eigen/Cholesky>

#include <string>
#include <vector>

namespace liesim::variational {

/// Nodes s_i in [0, 1] and weights w_i (sum 1) of the rule that defines L_d.
struct LagrangianRule {
  std::vector<double> nodes;
  std::vector<double> weights;
};
/// "midpoint" or "trapezoidal".
const LagrangianRule& lagrangian_rule(const std::string& name);

/// The model's mass matrix M (m x m) and its Cholesky factor; throws when M is not positive definite.
void factor_mass(const MechanicalSystemView& mech, Eigen::MatrixXd& mass, Eigen::LLT<Eigen::MatrixXd>& llt);

/// The terms of the discrete Euler–Lagrange / Lagrange–d'Alembert equations of one step
/// (t_k, q_k) -> (t_k + h, q_k + h v), in position–momentum form:
///   p_k     = M v + h sum w_i (1 - s_i) dU_i - f_d^-      (minus_D2)
///   p_{k+1} = M v - h sum w_i s_i dU_i       + f_d^+      (plus_D4)
///   E_k     = 1/2 v^T M v + sum w_i U_i - h sum w_i (1 - s_i) dU/dt_i - f_d^- . v   (energy_k)
///   E_{k+1} = 1/2 v^T M v + sum w_i U_i + h sum w_i s_i dU/dt_i       + f_d^+ . v   (energy_k1)
/// (E_k = D_1 L_d + g_d^-, E_{k+1} = -D_3 L_d - g_d^+: the signs of the notes' errata for (3.14), (3.37)).
class DiscreteLagrangian {
 public:
  /// Bind to a model's mechanical description (allocates).
  void init(const MechanicalSystemView& mech, const LagrangianRule& rule);
  /// Evaluate every term for the step from (t, q) with size h and discrete velocity v.
  Status evaluate(double t, ConstVec q, double h, ConstVec v) noexcept;
  /// p_k (what the momentum equation equates to the carried momentum).
  const Eigen::VectorXd& momentum_k() const noexcept { return p_k_; }
  /// p_{k+1}.
  const Eigen::VectorXd& momentum_k1() const noexcept { return p_k1_; }
  double energy_k() const noexcept { return e_k_; }
  double energy_k1() const noexcept { return e_k1_; }
  /// M and its Cholesky factor.
  const Eigen::MatrixXd& mass() const noexcept { return mass_; }
  const Eigen::LLT<Eigen::MatrixXd>& mass_llt() const noexcept { return llt_; }
  int dof() const noexcept { return m_; }

 private:
  const MechanicalSystemView* mech_ = nullptr;
  const LagrangianRule* rule_ = nullptr;
  int m_ = 0;
  Eigen::MatrixXd mass_;
  Eigen::LLT<Eigen::MatrixXd> llt_;
  Eigen::VectorXd x_, grad_, force_, fd_minus_, fd_plus_, p_k_, p_k1_, mv_;
  double e_k_ = 0.0, e_k1_ = 0.0;
};

}  // namespace liesim::variational
