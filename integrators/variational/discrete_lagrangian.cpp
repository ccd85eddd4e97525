// Discrete Lagrangians from quadrature rules, and the terms of their step equations.
#include "discrete_lagrangian.hpp"

#include <liesim/sdk/status.hpp>

namespace liesim::variational {

const LagrangianRule& lagrangian_rule(const std::string& name) {
  static const LagrangianRule midpoint{{0.5}, {1.0}};
  static const LagrangianRule trapezoidal{{0.0, 1.0}, {0.5, 0.5}};
  if (name == "midpoint") return midpoint;
  if (name == "trapezoidal") return trapezoidal;
  throw Error("unknown discrete Lagrangian '" + name + "': choose midpoint or trapezoidal");
}

void factor_mass(const MechanicalSystemView& mech, Eigen::MatrixXd& mass, Eigen::LLT<Eigen::MatrixXd>& llt) {
  mass.resize(mech.dof(), mech.dof());
  mech.mass_matrix(mass);
  llt.compute(mass);
  if (llt.info() != Eigen::Success) throw Error("the model's mass matrix is not positive definite");
}

void DiscreteLagrangian::init(const MechanicalSystemView& mech, const LagrangianRule& rule) {
  mech_ = &mech;
  rule_ = &rule;
  m_ = mech.dof();
  factor_mass(mech, mass_, llt_);
  for (auto* v : {&x_, &grad_, &force_, &fd_minus_, &fd_plus_, &p_k_, &p_k1_, &mv_}) v->resize(m_);
}

Status DiscreteLagrangian::evaluate(double t, ConstVec q, double h, ConstVec v) noexcept {
  mv_.noalias() = mass_ * v;
  const double kinetic = 0.5 * v.dot(mv_);
  p_k_ = mv_;
  p_k1_ = mv_;
  fd_minus_.setZero();
  fd_plus_.setZero();
  double potential = 0.0, dt_k = 0.0, dt_k1 = 0.0;
  for (std::size_t i = 0; i < rule_->nodes.size(); ++i) {
    const double s = rule_->nodes[i], w = rule_->weights[i];
    const double ti = t + s * h;
    x_ = q + (s * h) * v;
    double U = 0.0, dU_dt = 0.0;
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

}  // namespace liesim::variational
