// The articulated-body algorithm (Featherstone, RBDA Table 7.1), rotation-first spatial vectors,
// everything in body coordinates. Pass 1 (velocities and c_i) is kinematics(); passes 2 and 3:
//   backward: U_i = I^A_i S_i, D_i = S_i^T U_i, u_i = tau_i - S_i^T p^A_i,
//             I^a = I^A_i - U_i D_i^-1 U_i^T, p^a = p^A_i + I^a c_i + U_i D_i^-1 u_i,
//             I^A_lambda += X_i^T I^a X_i, p^A_lambda += X_i^T p^a   (X^T: the force transform back)
//   forward:  a'_i = X_i a_lambda + c_i, qdd_i = D_i^-1 (u_i - U_i^T a'_i), a_i = a'_i + S_i qdd_i.
#include "dynamics.hpp"

namespace liesim::multibody {

bool Dynamics::articulated_body(double t, ConstVec y, Eigen::Ref<Eigen::VectorXd> qdd) {
  const std::size_t n = m_.bodies.size();
  joint_forces(t, y, tau_);
  for (std::size_t i = 0; i < n; ++i) {
    IA_[i] = m_.bodies[i].I;
    pA_[i] = cross_force(v_[i], m_.bodies[i].I * v_[i]);
  }
  for (std::size_t i = n; i-- > 0;) {
    const Joint& j = m_.joints[i];
    Matrix6 Ia = IA_[i];
    Vector6 pa = pA_[i] + Ia * c_[i];
    if (j.dof > 0) {
      U_[i].noalias() = IA_[i] * j.S;
      D_[i].compute(j.S.transpose() * U_[i]);
      if (D_[i].info() != Eigen::Success) {
        failed_joint_ = static_cast<int>(i);
        return false;
      }
      u_[i] = tau_.segment(j.velocity_offset, j.dof) - j.S.transpose() * pA_[i];
      const JointMatrix DinvUt = D_[i].solve(U_[i].transpose());
      Ia.noalias() -= U_[i] * DinvUt;
      pa = pA_[i] + Ia * c_[i] + U_[i] * D_[i].solve(u_[i]);
    }
    if (j.parent < 0) continue;
    const auto p = static_cast<std::size_t>(j.parent);
    IA_[p].noalias() += X_[i].transpose() * Ia * X_[i];
    pA_[p].noalias() += X_[i].transpose() * pa;
  }
  for (std::size_t i = 0; i < n; ++i) {
    const Joint& j = m_.joints[i];
    const Vector6 a_parent = j.parent >= 0 ? a_[static_cast<std::size_t>(j.parent)] : a0_;
    a_[i] = X_[i] * a_parent + c_[i];
    if (j.dof == 0) continue;
    const JointVector acc = D_[i].solve(u_[i] - U_[i].transpose() * a_[i]);
    qdd.segment(j.velocity_offset, j.dof) = acc;
    a_[i] += j.S * acc;
  }
  return true;
}

}  // namespace liesim::multibody
