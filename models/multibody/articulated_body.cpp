// The articulated-body algorithm (Featherstone, RBDA Table 7.1), rotation-first spatial vectors,
// everything in body coordinates. Pass 1 (velocities and c_i) is kinematics(); passes 2 and 3:
//   backward: U_i = I^A_i S_i, D_i = S_i^T U_i, u_i = tau_i - S_i^T p^A_i,
//             I^a = I^A_i - U_i D_i^-1 U_i^T, p^a = p^A_i + I^a c_i + U_i D_i^-1 u_i,
//             I^A_lambda += X_i^T I^a X_i, p^A_lambda += X_i^T p^a   (X^T: the force transform back)
//   forward:  a'_i = X_i a_lambda + c_i, qdd_i = D_i^-1 (u_i - U_i^T a'_i), a_i = a'_i + S_i qdd_i.
// The joint-space quantities are fixed-size per joint type (dof 1, 3 or 6): no allocation.
#include "dynamics.hpp"

namespace liesim::multibody {

namespace {

/// The backward step of one joint with D degrees of freedom; false where D_i is not positive definite.
template <int D>
bool backward_step(const MotionSubspace& S_all, const Matrix6& IA, const Vector6& pA, const Vector6& c, const double* tau, Matrix6& U_out,
                   Matrix6& Dinv_out, Vector6& u_out, Matrix6& Ia, Vector6& pa) {
  const Eigen::Matrix<double, 6, D> S = S_all.template leftCols<D>();
  const Eigen::Matrix<double, 6, D> U = IA * S;
  const Eigen::LLT<Eigen::Matrix<double, D, D>> llt(Eigen::Matrix<double, D, D>(S.transpose() * U));
  if (llt.info() != Eigen::Success) return false;
  const Eigen::Matrix<double, D, D> Dinv = llt.solve(Eigen::Matrix<double, D, D>::Identity());
  const Eigen::Matrix<double, D, 1> u = Eigen::Map<const Eigen::Matrix<double, D, 1>>(tau) - S.transpose() * pA;
  Ia = IA - U * Dinv * U.transpose();
  pa = pA + Ia * c + U * (Dinv * u);
  U_out.template leftCols<D>() = U;
  Dinv_out.template topLeftCorner<D, D>() = Dinv;
  u_out.template head<D>() = u;
  return true;
}

/// The forward step of one joint: qdd = D^-1 (u - U^T a'), a = a' + S qdd.
template <int D>
void forward_step(const MotionSubspace& S_all, const Matrix6& U, const Matrix6& Dinv, const Vector6& u, Vector6& a, double* qdd) {
  const Eigen::Matrix<double, D, 1> acc =
      Dinv.template topLeftCorner<D, D>() * (u.template head<D>() - U.template leftCols<D>().transpose() * a);
  Eigen::Map<Eigen::Matrix<double, D, 1>>{qdd} = acc;
  a += S_all.template leftCols<D>() * acc;
}

}  // namespace

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
    const double* tau = tau_.data() + j.velocity_offset;
    bool ok = true;
    switch (j.dof) {
      case 1: ok = backward_step<1>(j.S, IA_[i], pA_[i], c_[i], tau, U_[i], Dinv_[i], u_[i], Ia, pa); break;
      case 3: ok = backward_step<3>(j.S, IA_[i], pA_[i], c_[i], tau, U_[i], Dinv_[i], u_[i], Ia, pa); break;
      case 6: ok = backward_step<6>(j.S, IA_[i], pA_[i], c_[i], tau, U_[i], Dinv_[i], u_[i], Ia, pa); break;
      default: break;  // fixed: the body is rigidly part of its parent's articulated body
    }
    if (!ok) {
      failed_joint_ = static_cast<int>(i);
      return false;
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
    double* out = qdd.data() + j.velocity_offset;
    switch (j.dof) {
      case 1: forward_step<1>(j.S, U_[i], Dinv_[i], u_[i], a_[i], out); break;
      case 3: forward_step<3>(j.S, U_[i], Dinv_[i], u_[i], a_[i], out); break;
      case 6: forward_step<6>(j.S, U_[i], Dinv_[i], u_[i], a_[i], out); break;
      default: break;
    }
  }
  return true;
}

}  // namespace liesim::multibody
