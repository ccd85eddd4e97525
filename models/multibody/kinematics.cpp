// Workspaces, the forward pass over positions and velocities, world poses, energies and momenta.
#include "dynamics.hpp"

#include <liesim/lie/so3.hpp>

namespace liesim::multibody {

namespace {
using RowMajor3 = Eigen::Matrix<double, 3, 3, Eigen::RowMajor>;

/// The joint's own motion: the child frame relative to the joint frame at the state y.
lie::SE3::Element joint_motion(const Joint& j, ConstVec y) {
  const double* p = y.data() + j.point_offset;
  switch (j.type) {
    case JointType::revolute:
    case JointType::continuous: return {lie::SO3::exp(j.axis * p[0]), Eigen::Vector3d::Zero()};
    case JointType::prismatic: return {Eigen::Matrix3d::Identity(), j.axis * p[0]};
    case JointType::spherical: return {Eigen::Map<const RowMajor3>(p), Eigen::Vector3d::Zero()};
    case JointType::floating: return {Eigen::Map<const RowMajor3>(p), Eigen::Map<const Eigen::Vector3d>(p + 9)};
    case JointType::fixed: break;
  }
  return lie::SE3::identity();
}

/// A spherical joint's attitude relative to a reference R_ref, as a rotation vector:
/// log(R_ref^T R) with |angle| <= pi (body frame).
Eigen::Vector3d attitude_error(const Eigen::Matrix3d& R_ref, ConstVec y, const Joint& j) {
  return lie::SO3::log(R_ref.transpose() * Eigen::Map<const RowMajor3>(y.data() + j.point_offset));
}
}  // namespace

Dynamics::Dynamics(const Mechanism& m) : m_(m) {
  const std::size_t n = m.bodies.size();
  a0_.head<3>().setZero();
  a0_.tail<3>() = -m.gravity;
  T_.assign(n, lie::SE3::identity());
  world_.assign(n, lie::SE3::identity());
  X_.assign(n, Matrix6::Zero());
  IA_.assign(n, Matrix6::Zero());
  Ic_.assign(n, Matrix6::Zero());
  v_.assign(n, Vector6::Zero());
  c_.assign(n, Vector6::Zero());
  pA_.assign(n, Vector6::Zero());
  a_.assign(n, Vector6::Zero());
  f_.assign(n, Vector6::Zero());
  U_.assign(n, Matrix6::Zero());
  Dinv_.assign(n, Matrix6::Zero());
  u_.assign(n, Vector6::Zero());
  subtree_size_.assign(n, 1);
  for (std::size_t i = n; i-- > 0;)
    if (m.joints[i].parent >= 0) subtree_size_[static_cast<std::size_t>(m.joints[i].parent)] += subtree_size_[i];
  tau_.setZero(m.dof);
  bias_.setZero(m.dof);
  H_.setZero(m.dof, m.dof);
  H_llt_ = Eigen::LLT<Eigen::MatrixXd>(m.dof);
}

JointVector Dynamics::joint_velocity(const Joint& j, ConstVec y) {
  const double* p = y.data() + j.point_offset;
  switch (j.type) {
    case JointType::revolute:
    case JointType::continuous:
    case JointType::prismatic: return JointVector::Constant(1, p[1]);
    case JointType::spherical: return Eigen::Map<const JointVector>(p + 9, 3);
    case JointType::floating: return Eigen::Map<const JointVector>(p + 12, 6);
    case JointType::fixed: break;
  }
  return JointVector(0);
}

void Dynamics::kinematics(ConstVec y) {
  for (std::size_t i = 0; i < m_.joints.size(); ++i) {
    const Joint& j = m_.joints[i];
    T_[i] = lie::SE3::compose(j.origin, joint_motion(j, y));
    X_[i] = lie::SE3::Ad(lie::SE3::inverse(T_[i]));  // iX_lambda: parent coordinates -> body i's
    Vector6 vJ = Vector6::Zero();
    if (j.dof > 0) vJ = j.S * joint_velocity(j, y);
    v_[i] = j.parent >= 0 ? Vector6(X_[i] * v_[static_cast<std::size_t>(j.parent)] + vJ) : vJ;
    c_[i] = cross_motion(v_[i], vJ);
  }
}

void Dynamics::world_poses() {
  for (std::size_t i = 0; i < m_.joints.size(); ++i) {
    const int p = m_.joints[i].parent;
    world_[i] = p >= 0 ? lie::SE3::compose(world_[static_cast<std::size_t>(p)], T_[i]) : T_[i];
  }
}

double Dynamics::kinetic_energy() const {
  double k = 0;
  for (std::size_t i = 0; i < m_.bodies.size(); ++i) k += 0.5 * v_[i].dot(m_.bodies[i].I * v_[i]);
  return k;
}

double Dynamics::potential_energy(ConstVec y) const {
  double u = 0;
  for (std::size_t i = 0; i < m_.bodies.size(); ++i) {
    const Body& b = m_.bodies[i];
    u -= b.mass * m_.gravity.dot(world_[i].R * b.com + world_[i].r);
    const Joint& j = m_.joints[i];
    if (j.type == JointType::spherical) {
      if (j.stiffness > 0) u += 0.5 * j.stiffness * attitude_error(j.rest_attitude, y, j).squaredNorm();
      if (j.pd) u += 0.5 * j.pd->kp * attitude_error(j.pd->setpoint_attitude, y, j).squaredNorm();
    }
    if (j.dof != 1) continue;
    const double q = y[j.point_offset];
    u += 0.5 * j.stiffness * (q - j.rest) * (q - j.rest) - j.torque[0] * q;
    if (j.pd) u += 0.5 * j.pd->kp * (q - j.pd->setpoint) * (q - j.pd->setpoint);
  }
  return u;
}

Vector6 Dynamics::subtree_momentum(int i) const {
  Vector6 h = Vector6::Zero();
  for (int k = i; k < i + subtree_size(i); ++k) {
    const auto s = static_cast<std::size_t>(k);
    const Vector6 hb = m_.bodies[s].I * v_[s];  // about the body origin, body frame
    const Eigen::Vector3d p = world_[s].R * hb.tail<3>();
    h.head<3>() += world_[s].R * hb.head<3>() + world_[s].r.cross(p);
    h.tail<3>() += p;
  }
  return h;
}

void Dynamics::joint_forces(double t, ConstVec y, Eigen::Ref<Eigen::VectorXd> tau) const {
  for (const Joint& j : m_.joints) {
    if (j.dof == 0) continue;
    auto out = tau.segment(j.velocity_offset, j.dof);
    const JointVector v = joint_velocity(j, y);
    out = j.torque.head(j.dof) - j.damping * v;
    const auto& table = j.torque_table;
    if (!table.empty()) {
      if (t <= table.front().t) {
        out += table.front().tau.head(j.dof);
      } else if (t >= table.back().t) {
        out += table.back().tau.head(j.dof);
      } else {
        std::size_t k = 1;
        while (table[k].t < t) ++k;
        const TorqueSample &a = table[k - 1], &b = table[k];
        out += a.tau.head(j.dof) + (t - a.t) / (b.t - a.t) * (b.tau - a.tau).head(j.dof);
      }
    }
    if (j.type == JointType::spherical) {
      // The gradient of 1/2 k |log(R_ref^T R)|^2 along R exp(hat(xi)) is k log(R_ref^T R) . xi
      // (J_r^-T of the log maps log(.) to itself), so the body-frame moment is -k log(R_ref^T R).
      if (j.stiffness > 0) out -= j.stiffness * attitude_error(j.rest_attitude, y, j);
      if (j.pd) out -= j.pd->kp * attitude_error(j.pd->setpoint_attitude, y, j) + j.pd->kd * v;
    }
    if (j.dof != 1) continue;
    const double q = y[j.point_offset];
    out[0] -= j.stiffness * (q - j.rest);
    if (j.pd) out[0] += j.pd->kp * (j.pd->setpoint - q) - j.pd->kd * v[0];
  }
}

}  // namespace liesim::multibody
