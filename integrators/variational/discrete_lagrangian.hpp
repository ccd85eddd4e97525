// The discrete Lagrangian of one step in the extended configuration space R x Q, built from a
// quadrature rule on [t_k, t_k + h] with the straight line q(t_k + s h) = q_k + s h v (v the
// discrete velocity (q_{k+1} - q_k)/h), and the discrete forces and power terms that go with it
// [Sharma 2020 (seed 001) §2, §3.2; Marsden & West 2001]:
//   L_d = h sum_i w_i L(t_k + s_i h, q_k + s_i h v, v),       L = 1/2 v^T M v - U(t, q),
//   f_d^- = h sum_i w_i (1 - s_i) f_i,   f_d^+ = h sum_i w_i s_i f_i,   g_d^+- = -f_d^+- . v.
// The midpoint rule (s = 1/2, w = 1) and the trapezoidal rule (s = 0, 1; w = 1/2, 1/2) are data.
#pragma once
#include <liesim/sdk/model_view.hpp>
#include <liesim/sdk/status.hpp>

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

/// The mass matrix M (m x m) of a mechanical description and its Cholesky factor; throws when M is
/// not positive definite.
template <class Mechanics, class Matrix>
void factor_mass(const Mechanics& mech, Matrix& mass, Eigen::LLT<Matrix>& llt) {
  mass.resize(mech.dof(), mech.dof());
  mech.mass_matrix(mass);
  llt.compute(mass);
  if (llt.info() != Eigen::Success) throw Error("the model's mass matrix is not positive definite");
}

/// The terms of the discrete Euler–Lagrange / Lagrange–d'Alembert equations of one step
/// (t_k, q_k) -> (t_k + h, q_k + h v), in position–momentum form:
///   p_k     = M v + h sum w_i (1 - s_i) dU_i - f_d^-      (minus_D2)
///   p_{k+1} = M v - h sum w_i s_i dU_i       + f_d^+      (plus_D4)
///   E_k     = 1/2 v^T M v + sum w_i U_i - h sum w_i (1 - s_i) dU/dt_i - f_d^- . v   (energy_k)
///   E_{k+1} = 1/2 v^T M v + sum w_i U_i + h sum w_i s_i dU/dt_i       + f_d^+ . v   (energy_k1)
/// (E_k = D_1 L_d + g_d^-, E_{k+1} = -D_3 L_d - g_d^+: the signs of the notes' errata for (3.14), (3.37)).
/// Generic in the scalar and the mechanical description: double with a model's MechanicalSystemView
/// (every variational stepper), or an extended-precision number with a description in that scalar
/// (Mechanics: dof(), mass_matrix(M), potential(t, q, U, dU_dq, dU_dt), force(t, q, v, f)).
template <class Scalar, class Mechanics>
class BasicDiscreteLagrangian {
 public:
  using Vector = Eigen::Matrix<Scalar, Eigen::Dynamic, 1>;
  using Matrix = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic>;

  /// Bind to a mechanical description (allocates).
  void init(const Mechanics& mech, const LagrangianRule& rule) {
    mech_ = &mech;
    rule_ = &rule;
    m_ = mech.dof();
    factor_mass(mech, mass_, llt_);
    for (auto* v : {&x_, &grad_, &force_, &fd_minus_, &fd_plus_, &p_k_, &p_k1_, &mv_}) v->resize(m_);
  }
  /// Evaluate every term for the step from (t, q) with size h and discrete velocity v.
  template <class Q, class V>
  Status evaluate(const Scalar& t, const Q& q, const Scalar& h, const V& v) noexcept {
    mv_.noalias() = mass_ * v;
    const Scalar kinetic = v.dot(mv_) / 2;
    p_k_ = mv_;
    p_k1_ = mv_;
    fd_minus_.setZero();
    fd_plus_.setZero();
    Scalar potential = 0, dt_k = 0, dt_k1 = 0;
    for (std::size_t i = 0; i < rule_->nodes.size(); ++i) {
      const Scalar s = rule_->nodes[i], w = rule_->weights[i];
      const Scalar ti = t + s * h;
      x_ = q + (s * h) * v;
      Scalar U = 0, dU_dt = 0;
      Status st = mech_->potential(ti, x_, U, grad_, dU_dt);
      if (st != Status::ok) return st;
      st = mech_->force(ti, x_, v, force_);
      if (st != Status::ok) return st;
      potential += w * U;
      p_k_ += (h * w * (1 - s)) * grad_;
      p_k1_ -= (h * w * s) * grad_;
      fd_minus_ += (h * w * (1 - s)) * force_;
      fd_plus_ += (h * w * s) * force_;
      dt_k += h * w * (1 - s) * dU_dt;
      dt_k1 += h * w * s * dU_dt;
    }
    p_k_ -= fd_minus_;
    p_k1_ += fd_plus_;
    e_k_ = kinetic + potential - dt_k - fd_minus_.dot(v);
    e_k1_ = kinetic + potential + dt_k1 + fd_plus_.dot(v);
    return Status::ok;
  }
  /// p_k (what the momentum equation equates to the carried momentum).
  const Vector& momentum_k() const noexcept { return p_k_; }
  /// p_{k+1}.
  const Vector& momentum_k1() const noexcept { return p_k1_; }
  const Scalar& energy_k() const noexcept { return e_k_; }
  const Scalar& energy_k1() const noexcept { return e_k1_; }
  /// M and its Cholesky factor.
  const Matrix& mass() const noexcept { return mass_; }
  const Eigen::LLT<Matrix>& mass_llt() const noexcept { return llt_; }
  int dof() const noexcept { return m_; }

 private:
  const Mechanics* mech_ = nullptr;
  const LagrangianRule* rule_ = nullptr;
  int m_ = 0;
  Matrix mass_;
  Eigen::LLT<Matrix> llt_;
  Vector x_, grad_, force_, fd_minus_, fd_plus_, p_k_, p_k1_, mv_;
  Scalar e_k_ = 0, e_k1_ = 0;
};

/// The discrete Lagrangian of a model's mechanical description (every variational stepper).
using DiscreteLagrangian = BasicDiscreteLagrangian<double, MechanicalSystemView>;

}  // namespace liesim::variational
