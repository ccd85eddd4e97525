// The multibody model's generator, embedded field, invariants and observables.
#include "multibody_model.hpp"

#include <liesim/lie/so3.hpp>
#include <liesim/manifold_checks.hpp>

#include <fmt/format.h>

namespace liesim::multibody {

namespace {
using RowMajor3 = Eigen::Matrix<double, 3, 3, Eigen::RowMajor>;
const char* axis_name(int k) { return k == 0 ? "x" : k == 1 ? "y" : "z"; }
}  // namespace

MultibodyModel::MultibodyModel(Mechanism m, Algorithm a)
    : sdk::Model(std::make_unique<JointSpace>(m)), mech_(std::move(m)), algorithm_(a), dyn_(mech_), qdd_(Eigen::VectorXd::Zero(mech_.dof)) {
  check_mass_matrix();
  if (mech_.joints.size() == 1) {
    const Joint& j = mech_.joints[0];
    rigid_body_ = j.free_of_forces() && (j.type == JointType::spherical || (j.type == JointType::floating && mech_.bodies[0].com.norm() == 0));
  }
  // Conserved momentum components of each subtree hanging from the world (RBDA §2.13: only
  // gravity and the root joint's constraint and actuation act on it).
  const Eigen::Vector3d g = mech_.gravity;
  const bool weightless = g.norm() == 0;
  const Eigen::Vector3d up = weightless ? Eigen::Vector3d::UnitZ() : Eigen::Vector3d(-g.normalized());
  for (std::size_t i = 0; i < mech_.joints.size(); ++i) {
    const Joint& j = mech_.joints[i];
    if (j.parent >= 0 || j.dof == 0) continue;
    if (!j.free_of_forces()) continue;
    const int b = static_cast<int>(i);
    const Eigen::Vector3d o = j.origin.r, axis = j.origin.R * j.axis;
    const std::string about = fmt::format("of the bodies joint '{}' carries", j.name);
    if (j.type == JointType::floating || j.type == JointType::spherical) {
      const Eigen::Vector3d point = j.type == JointType::floating ? Eigen::Vector3d::Zero() : o;
      const std::string where = j.type == JointType::floating ? "the world origin" : "the joint's centre";
      if (weightless) {
        for (int k = 0; k < 3; ++k)
          momenta_.push_back({fmt::format("{}.angular_momentum_{}", j.name, axis_name(k)),
                              fmt::format("angular momentum {} about {}, world {} axis (N m s)", about, where, axis_name(k)), b, true, point,
                              Eigen::Vector3d::Unit(k)});
      } else {
        momenta_.push_back({fmt::format("{}.vertical_angular_momentum", j.name),
                            fmt::format("angular momentum {} about {} along the upward vertical -g/|g| (N m s)", about, where), b, true, point, up});
      }
      if (j.type == JointType::floating)
        for (int k = 0; k < 3; ++k)
          if (weightless || g[k] == 0)
            momenta_.push_back({fmt::format("{}.linear_momentum_{}", j.name, axis_name(k)),
                                fmt::format("linear momentum {}, world {} axis (N s)", about, axis_name(k)), b, false, point,
                                Eigen::Vector3d::Unit(k)});
    } else if (j.type == JointType::prismatic) {
      if (weightless || std::abs(axis.dot(g)) <= 1e-15 * g.norm())
        momenta_.push_back({fmt::format("{}.linear_momentum", j.name), fmt::format("linear momentum {} along its axis (N s)", about), b, false, o, axis});
    } else if (weightless || axis.cross(g).norm() <= 1e-15 * g.norm()) {
      momenta_.push_back({fmt::format("{}.angular_momentum", j.name), fmt::format("angular momentum {} about its axis (N m s)", about), b, true, o, axis});
    }
  }
}

void MultibodyModel::inertia(Matrix3& J, Matrix3& M) const noexcept {
  const Body& b = mech_.bodies[0];
  J = mech_.joints[0].type == JointType::floating ? b.inertia_com : Eigen::Matrix3d(b.I.topLeftCorner<3, 3>());
  M = b.mass * Eigen::Matrix3d::Identity();
}

Status MultibodyModel::potential(double, const RigidBodySystem::RowMajor3& R, const Eigen::Vector3d& x, double& U, Eigen::Vector3d& moment,
                                 Eigen::Vector3d& dU_dx) noexcept {
  // World attitude E R and position E x + o of the body (E, o: the joint's origin); U = -m g . x_com.
  const Joint& j = mech_.joints[0];
  const Body& b = mech_.bodies[0];
  const Eigen::Vector3d mg_joint = j.origin.R.transpose() * (b.mass * mech_.gravity);  // m g in the joint frame
  const Eigen::Vector3d position = j.type == JointType::floating ? x : Eigen::Vector3d::Zero();
  U = -mg_joint.dot(R * b.com + position) - b.mass * mech_.gravity.dot(j.origin.r);
  moment = b.com.cross(R.transpose() * mg_joint);  // -grad_L U, body frame
  dU_dx = -mg_joint;
  return Status::ok;
}

void MultibodyModel::from_state(ConstVec y, RigidBodySystem::RowMajor3& R, Eigen::Vector3d& x, Eigen::Vector3d& Omega,
                                Eigen::Vector3d& v) const noexcept {
  R = Eigen::Map<const RowMajor3>(y.data());
  const bool floating = mech_.joints[0].type == JointType::floating;
  x = floating ? Eigen::Vector3d(y.segment<3>(9)) : Eigen::Vector3d::Zero();
  Omega = y.segment<3>(floating ? 12 : 9);
  v = floating ? Eigen::Vector3d(y.segment<3>(15)) : Eigen::Vector3d::Zero();
}

void MultibodyModel::to_state(const RigidBodySystem::RowMajor3& R, const Eigen::Vector3d& x, const Eigen::Vector3d& Omega,
                              const Eigen::Vector3d& v, Vec y) const noexcept {
  Eigen::Map<RowMajor3>{y.data()} = R;
  if (mech_.joints[0].type == JointType::floating) {
    y.segment<3>(9) = x;
    y.segment<3>(12) = Omega;
    y.segment<3>(15) = v;
  } else {
    y.segment<3>(9) = Omega;
  }
}

void MultibodyModel::check_mass_matrix() {
  dyn_.kinematics(mech_.y0);
  if (dyn_.articulated_body(0.0, mech_.y0, qdd_)) return;
  const auto i = static_cast<std::size_t>(dyn_.failed_joint());
  const Joint& j = mech_.joints[i];
  fail_at(j.where, fmt::format("joint '{}'", j.name),
          fmt::format("the bodies it moves ('{}' and its descendants) have no inertia along its motion at the initial state "
                      "(singular articulated inertia): give them mass, and inertia about the joint's axes; a point mass on a "
                      "spherical joint needs a small inertia about the rod (docs/multibody.md)", mech_.bodies[i].name));
}

Status MultibodyModel::accelerations(double t, ConstVec y) noexcept {
  dyn_.kinematics(y);
  const bool ok = algorithm_ == Algorithm::articulated_body ? dyn_.articulated_body(t, y, qdd_) : dyn_.composite_rigid_body(t, y, qdd_);
  if (!ok) return fail(Status::recoverable, "the mass matrix is singular at this state (a joint's articulated inertia is not positive definite)");
  return Status::ok;
}

Status MultibodyModel::do_generator(double t, ConstVec y, Vec xi) noexcept {
  if (Status s = accelerations(t, y); s != Status::ok) return s;
  for (const Joint& j : mech_.joints) {
    const double* p = y.data() + j.point_offset;
    double* x = xi.data() + j.algebra_offset;
    const double* a = qdd_.data() + j.velocity_offset;
    switch (j.type) {
      case JointType::revolute:
      case JointType::continuous:
      case JointType::prismatic:
        x[0] = p[1];  // (q, v)' = (v, qdd): a translation of R^2
        x[1] = a[0];
        break;
      case JointType::spherical: {
        // R' = R hat(omega) = hat(R omega) R: eta = R omega; omega' = omegadot.
        const Eigen::Map<const RowMajor3> R(p);
        Eigen::Map<Eigen::Vector3d>{x} = R * Eigen::Map<const Eigen::Vector3d>(p + 9);
        Eigen::Map<Eigen::Vector3d>{x + 3} = Eigen::Map<const Eigen::Vector3d>(a);
        break;
      }
      case JointType::floating: {
        // R' = hat(R omega) R, p' = R v, (omega, v)' = qdd.
        const Eigen::Map<const RowMajor3> R(p);
        Eigen::Map<Eigen::Vector3d>{x} = R * Eigen::Map<const Eigen::Vector3d>(p + 12);
        Eigen::Map<Eigen::Vector3d>{x + 3} = R * Eigen::Map<const Eigen::Vector3d>(p + 15);
        Eigen::Map<Eigen::Matrix<double, 6, 1>>{x + 6} = Eigen::Map<const Eigen::Matrix<double, 6, 1>>(a);
        break;
      }
      case JointType::fixed: break;
    }
  }
  return Status::ok;
}

Status MultibodyModel::do_vector_field(double t, ConstVec y, Vec dy) noexcept {
  if (Status s = accelerations(t, y); s != Status::ok) return s;
  for (const Joint& j : mech_.joints) {
    const double* p = y.data() + j.point_offset;
    double* d = dy.data() + j.point_offset;
    const double* a = qdd_.data() + j.velocity_offset;
    switch (j.type) {
      case JointType::revolute:
      case JointType::continuous:
      case JointType::prismatic:
        d[0] = p[1];
        d[1] = a[0];
        break;
      case JointType::spherical:
      case JointType::floating: {
        const Eigen::Map<const RowMajor3> R(p);
        const int w = j.type == JointType::spherical ? 9 : 12;
        Eigen::Map<RowMajor3>{d} = R * lie::SO3::hat(Eigen::Map<const Eigen::Vector3d>(p + w));
        if (j.type == JointType::floating) Eigen::Map<Eigen::Vector3d>(d + 9) = R * Eigen::Map<const Eigen::Vector3d>(p + 15);
        for (int k = 0; k < j.dof; ++k) d[w + k] = a[k];
        break;
      }
      case JointType::fixed: break;
    }
  }
  return Status::ok;
}

std::vector<InvariantInfo> MultibodyModel::invariants() const {
  std::vector<InvariantInfo> out;
  out.push_back({"energy", mech_.conservative
                               ? "total energy, J: kinetic 1/2 sum v_i . I_i v_i + gravity - sum m_i g . x_i + springs 1/2 k (q - rest)^2 "
                                 "(spherical: 1/2 k |log(R_rest^T R)|^2) + PD 1/2 kp (q - setpoint)^2 (spherical: 1/2 kp |log(R_set^T R)|^2) "
                                 "- constant one-dof torques tau q (conserved)"
                               : "total energy, J (kinetic + potential as for a conservative description); NOT conserved: " +
                                     mech_.nonconservative_reason + " (its drift is the work of those forces)"});
  for (const auto& m : momenta_) out.push_back({m.name, m.doc + " (conserved)"});
  for (const Joint& j : mech_.joints)
    if (j.dof > 1) out.push_back({j.name + ".orthogonality", "||R^T R - I||_F of the joint's rotation (0 on SO(3))"});
  return out;
}

void MultibodyModel::evaluate_invariants(ConstVec y, Vec out) const noexcept {
  dyn_.kinematics(y);
  dyn_.world_poses();
  out[0] = dyn_.kinetic_energy() + dyn_.potential_energy(y);
  Eigen::Index k = 1;
  for (const auto& m : momenta_) {
    const Vector6 h = dyn_.subtree_momentum(m.body);
    const Eigen::Vector3d L = h.head<3>() - m.point.cross(h.tail<3>());
    out[k++] = m.angular ? L.dot(m.direction) : h.tail<3>().dot(m.direction);
  }
  for (const Joint& j : mech_.joints)
    if (j.dof > 1) {
      const Eigen::Map<const RowMajor3> R(y.data() + j.point_offset);
      out[k++] = (R.transpose() * R - Eigen::Matrix3d::Identity()).norm();
    }
}

std::vector<ObservableInfo> MultibodyModel::observables() const {
  std::vector<ObservableInfo> out;
  for (const Joint& j : mech_.joints)
    if (j.dof == 1) {
      const bool linear = j.type == JointType::prismatic;
      out.push_back({j.name + ".q", linear ? "m" : "rad", fmt::format("position of {} joint '{}'", joint_type_name(j.type), j.name)});
      out.push_back({j.name + ".v", linear ? "m/s" : "rad/s", fmt::format("rate of {} joint '{}'", joint_type_name(j.type), j.name)});
    }
  const auto link = [&](const std::string& name) {
    for (int k = 0; k < 3; ++k)
      out.push_back({fmt::format("{}.{}", name, axis_name(k)), "m", fmt::format("origin of link '{}' in the world frame, {}", name, axis_name(k))});
    for (int r = 1; r <= 3; ++r)
      for (int c = 1; c <= 3; ++c)
        out.push_back({fmt::format("{}.R{}{}", name, r, c), "", fmt::format("attitude of link '{}' (link -> world), row {} column {}", name, r, c)});
  };
  if (mech_.format == "urdf") link(mech_.root);
  for (const Body& b : mech_.bodies) link(b.name);
  out.push_back({"kinetic_energy", "J", "1/2 sum v_i . I_i v_i"});
  out.push_back({"potential_energy", "J", "gravity, springs, PD springs and constant one-dof torques"});
  return out;
}

Status MultibodyModel::evaluate_observables(double, ConstVec y, Vec out) noexcept {
  dyn_.kinematics(y);
  dyn_.world_poses();
  Eigen::Index k = 0;
  for (const Joint& j : mech_.joints)
    if (j.dof == 1) {
      out[k++] = y[j.point_offset];
      out[k++] = y[j.point_offset + 1];
    }
  const auto link = [&](const lie::SE3::Element& w) {
    for (int i = 0; i < 3; ++i) out[k++] = w.r[i];
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) out[k++] = w.R(r, c);
  };
  if (mech_.format == "urdf") link(lie::SE3::identity());
  for (std::size_t i = 0; i < mech_.bodies.size(); ++i) link(dyn_.world(static_cast<int>(i)));
  out[k++] = dyn_.kinetic_energy();
  out[k++] = dyn_.potential_energy(y);
  return Status::ok;
}

std::string MultibodyModel::check_state(ConstVec y) const {
  for (const Joint& j : mech_.joints)
    if (j.dof > 1) {
      std::string v = rotation_violation(Eigen::Map<const RowMajor3>(y.data() + j.point_offset), fmt::format("the rotation of joint '{}'", j.name));
      if (!v.empty()) return v;
    }
  return {};
}

}  // namespace liesim::multibody
