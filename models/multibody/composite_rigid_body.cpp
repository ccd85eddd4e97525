// The independent check of the articulated-body algorithm: H qdd = tau - C with the joint-space
// inertia H by the composite-rigid-body algorithm (RBDA Table 6.2) and the bias C (Coriolis,
// centrifugal, gravity) by the recursive Newton-Euler algorithm at qdd = 0 (RBDA Table 5.1),
// solved by Cholesky. O(n^3); used by the tests and by the parameter dynamics=composite_rigid_body.
#include "dynamics.hpp"

namespace liesim::multibody {

const Eigen::MatrixXd& Dynamics::mass_matrix() {
  const std::size_t n = m_.bodies.size();
  for (std::size_t i = 0; i < n; ++i) Ic_[i] = m_.bodies[i].I;
  for (std::size_t i = n; i-- > 0;) {
    const int p = m_.joints[i].parent;
    if (p >= 0) Ic_[static_cast<std::size_t>(p)].noalias() += X_[i].transpose() * Ic_[i] * X_[i];
  }
  H_.setZero();
  for (std::size_t i = 0; i < n; ++i) {
    const Joint& ji = m_.joints[i];
    if (ji.dof == 0) continue;
    MotionSubspace F = Ic_[i] * ji.S;  // force columns
    H_.block(ji.velocity_offset, ji.velocity_offset, ji.dof, ji.dof) = ji.S.transpose() * F;
    std::size_t k = i;
    while (m_.joints[k].parent >= 0) {
      F = X_[k].transpose() * F;
      k = static_cast<std::size_t>(m_.joints[k].parent);
      const Joint& jk = m_.joints[k];
      if (jk.dof == 0) continue;
      H_.block(jk.velocity_offset, ji.velocity_offset, jk.dof, ji.dof) = jk.S.transpose() * F;
      H_.block(ji.velocity_offset, jk.velocity_offset, ji.dof, jk.dof) = H_.block(jk.velocity_offset, ji.velocity_offset, jk.dof, ji.dof).transpose();
    }
  }
  return H_;
}

bool Dynamics::composite_rigid_body(double t, ConstVec y, Eigen::Ref<Eigen::VectorXd> qdd) {
  const std::size_t n = m_.bodies.size();
  // Bias: inverse dynamics at qdd = 0.
  for (std::size_t i = 0; i < n; ++i) {
    const Joint& j = m_.joints[i];
    a_[i] = X_[i] * (j.parent >= 0 ? a_[static_cast<std::size_t>(j.parent)] : a0_) + c_[i];
    const Vector6 h = m_.bodies[i].I * v_[i];
    f_[i] = m_.bodies[i].I * a_[i] + cross_force(v_[i], h);
  }
  for (std::size_t i = n; i-- > 0;) {
    const Joint& j = m_.joints[i];
    if (j.dof > 0) bias_.segment(j.velocity_offset, j.dof) = j.S.transpose() * f_[i];
    if (j.parent >= 0) f_[static_cast<std::size_t>(j.parent)].noalias() += X_[i].transpose() * f_[i];
  }
  mass_matrix();
  joint_forces(t, y, tau_);
  H_llt_.compute(H_);
  if (H_llt_.info() != Eigen::Success) return false;
  bias_ = tau_ - bias_;
  H_llt_.solveInPlace(bias_);
  qdd = bias_;
  return true;
}

}  // namespace liesim::multibody
