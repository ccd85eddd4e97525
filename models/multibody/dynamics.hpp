// Forward dynamics of a mechanism on 6-D spatial quantities (Featherstone, Rigid Body Dynamics
// Algorithms, 2008), rotation first: motion vectors (omega, v), force vectors (n, f), each in the
// frame of its body. All workspaces are allocated by the constructor: no evaluation allocates.
//
//   kinematics(y)           X_i = iX_lambda(i) (motion transform parent -> body i), body velocities
//                           v_i = X_i v_lambda + S_i qd_i and velocity-product terms c_i = v_i x vJ_i
//   articulated_body(...)   the articulated-body algorithm (RBDA Table 7.1), O(n)
//   composite_rigid_body(...) the joint-space inertia H by the composite-rigid-body algorithm
//                           (RBDA Table 6.2), the bias C by the recursive Newton-Euler algorithm
//                           with qdd = 0 (Table 5.1), then H qdd = tau - C by Cholesky: O(n^3),
//                           the independent check of the tests
// Gravity enters both as a fictitious acceleration of the root, a_0 = (0, -g) (RBDA §5.3).
#pragma once
#include "mechanism.hpp"

#include <liesim/sdk/types.hpp>

#include <Eigen/Cholesky>

#include <vector>

namespace liesim::multibody {

/// A joint's generalised velocity (at most 6 components) without heap storage.
using JointVector = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, 6, 1>;

/// v x f for a motion vector v = (w, u) and a force vector f = (n, f): (w x n + u x f, w x f).
inline Vector6 cross_force(const Vector6& v, const Vector6& f) {
  Vector6 out;
  out.head<3>() = v.head<3>().cross(f.head<3>()) + v.tail<3>().cross(f.tail<3>());
  out.tail<3>() = v.head<3>().cross(f.tail<3>());
  return out;
}
/// v x m for motion vectors: (w x m_w, w x m_u + u x m_w) = ad_v m (lie::SE3::bracket).
inline Vector6 cross_motion(const Vector6& v, const Vector6& m) { return lie::SE3::bracket(v, m); }

class Dynamics {
 public:
  explicit Dynamics(const Mechanism& m);

  /// Relative poses, transforms, velocities and velocity-product terms at the state y.
  void kinematics(ConstVec y);
  /// Generalised joint forces tau(t, y) (springs, dampers, constant and tabulated torques, PD).
  void joint_forces(double t, ConstVec y, Eigen::Ref<Eigen::VectorXd> tau) const;
  /// qdd by the articulated-body algorithm, after kinematics(y); false (and failed_joint()) where
  /// a joint's articulated inertia S^T I^A S is not positive definite.
  bool articulated_body(double t, ConstVec y, Eigen::Ref<Eigen::VectorXd> qdd);
  /// qdd by CRBA + Cholesky, after kinematics(y); false where H is not positive definite.
  bool composite_rigid_body(double t, ConstVec y, Eigen::Ref<Eigen::VectorXd> qdd);
  /// The joint-space inertia matrix H(q) (after kinematics): CRBA.
  const Eigen::MatrixXd& mass_matrix();
  /// The joint whose articulated inertia was singular in the last failed articulated_body call.
  int failed_joint() const noexcept { return failed_joint_; }

  /// World poses of the bodies (after kinematics).
  void world_poses();
  const lie::SE3::Element& world(int i) const { return world_[static_cast<std::size_t>(i)]; }
  /// Body velocity v_i (body frame; after kinematics).
  const Vector6& velocity(int i) const { return v_[static_cast<std::size_t>(i)]; }
  /// 1/2 sum v_i^T I_i v_i (after kinematics).
  double kinetic_energy() const;
  /// Gravity -sum m_i g . x_com,i plus the potentials of springs, PD springs and constant
  /// one-dof torques (after world_poses).
  double potential_energy(ConstVec y) const;
  /// The spatial momentum (angular about the world origin, linear), world frame, of the subtree
  /// of body i (after world_poses).
  Vector6 subtree_momentum(int i) const;
  /// Number of bodies in the subtree of body i (itself included).
  int subtree_size(int i) const { return subtree_size_[static_cast<std::size_t>(i)]; }

  /// The joint's generalised velocity (dof components) in the state y.
  static JointVector joint_velocity(const Joint& j, ConstVec y);

 private:
  const Mechanism& m_;
  Vector6 a0_;  ///< (0, -g): gravity as an acceleration of the root
  std::vector<lie::SE3::Element> T_, world_;
  std::vector<Matrix6> X_, IA_, Ic_;
  std::vector<Vector6> v_, c_, pA_, a_, f_;
  std::vector<Matrix6> U_, Dinv_;  ///< U_i = I^A_i S_i and D_i^-1, in the leading dof columns (fixed size: no allocation)
  std::vector<Vector6> u_;
  std::vector<int> subtree_size_;
  Eigen::VectorXd tau_, bias_;
  Eigen::MatrixXd H_;
  Eigen::LLT<Eigen::MatrixXd> H_llt_;
  int failed_joint_ = -1;
};

}  // namespace liesim::multibody
