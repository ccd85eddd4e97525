// The multibody model's generator, embedded field, invariants and observables.
#include "multibody_model.hpp"

#include "../heavy_top/inertia_solid.hpp"

#include <liesim/lie/so3.hpp>
#include <liesim/sdk/manifold_checks.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

namespace liesim::multibody {

namespace {
using RowMajor3 = Eigen::Matrix<double, 3, 3, Eigen::RowMajor>;
const char* axis_name(int k) { return k == 0 ? "x" : k == 1 ? "y" : "z"; }
}  // namespace

MultibodyModel::MultibodyModel(Mechanism m, Algorithm a, const Description& d)
    : sdk::Model(std::make_unique<JointSpace>(m)), mech_(std::move(m)), algorithm_(a), dyn_(mech_), qdd_(Eigen::VectorXd::Zero(mech_.dof)) {
  check_mass_matrix();
  build_scene(d);
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

void MultibodyModel::build_scene(const Description& d) {
  // Paul Tol's bright colours for the bodies (grey is the stick figure's, dark grey the pivots').
  static constexpr std::uint32_t palette[] = {0x4477aa, 0xee6677, 0x228833, 0xccbb44, 0x66ccee, 0xaa3377};
  std::map<std::string, const BodyDescription*> described;
  for (const auto& b : d.bodies) described[b.name] = &b;
  // The initial configuration sizes the scene.
  dyn_.kinematics(mech_.y0);
  dyn_.world_poses();
  const auto world = [&](int b) { return b >= 0 ? dyn_.world(b) : lie::SE3::identity(); };
  Eigen::Vector3d lo = Eigen::Vector3d::Constant(INFINITY), hi = -lo;  // the box around the mechanism
  const auto include = [&](int b, const Eigen::Vector3d& local) {
    const lie::SE3::Element w = world(b);
    const Eigen::Vector3d x = w.R * local + w.r;
    lo = lo.cwiseMin(x);
    hi = hi.cwiseMax(x);
  };
  const auto include_solid = [&](const SceneBody& body, const ScenePart& part) {
    const lie::SE3::Element w = world(part.body);
    const Eigen::Matrix3d W = w.R * part.R;
    const Eigen::Vector3d x = w.R * part.a + w.r, size(body.size[0], body.size[1], body.size[2]);
    Eigen::Vector3d h = Eigen::Vector3d::Constant(size[0]);  // half extents along the world axes (sphere)
    if (body.shape == Shape::box) h = 0.5 * (W.cwiseAbs() * size);
    if (body.shape == Shape::cylinder || body.shape == Shape::capsule)
      for (int i = 0; i < 3; ++i) {
        const double across = std::sqrt(std::max(0.0, 1 - W(i, 2) * W(i, 2)));  // the axis is the shape's z
        h[i] = 0.5 * size[1] * std::abs(W(i, 2)) + size[0] * (across + (body.shape == Shape::capsule ? 1 : 0));
      }
    lo = lo.cwiseMin(x - h);
    hi = hi.cwiseMax(x + h);
  };
  double heaviest = 0;
  for (const Body& b : mech_.bodies) heaviest = std::max(heaviest, b.mass);
  if (d.root_body) heaviest = std::max(heaviest, d.root_body->mass);

  // Solids; point masses and meshes of bodies with no inertia are sized once the scene's size is known.
  struct Deferred {
    std::size_t index;
    double mass;  ///< 0: a mesh drawn as a small cube
  };
  std::vector<Deferred> deferred;
  const auto add = [&](SceneBody body, ScenePart part) {
    if (!part.segment) include_solid(body, part);
    scene_.bodies.push_back(std::move(body));
    parts_.push_back(part);
  };
  const auto inertia_solid = [&](const BodyDescription& bd, const std::string& name, std::uint32_t colour, int b) {
    ScenePart part{b, false, Eigen::Matrix3d::Identity(), bd.com, bd.com};
    if (bd.mass > 0 && bd.inertia.cwiseAbs().maxCoeff() > 0) {
      const scene_shapes::InertiaSolid s = scene_shapes::inertia_solid(bd.mass, 0.5 * (bd.inertia + bd.inertia.transpose()), 0.0, true);
      part.R = s.axes;
      add({name, s.shape, s.size, colour}, part);
    } else if (bd.mass > 0) {  // a point mass
      deferred.push_back({scene_.bodies.size(), bd.mass});
      add({name, Shape::sphere, {0, 0, 0}, colour}, part);
    }
  };
  const auto draw = [&](const BodyDescription& bd, int b, std::uint32_t colour) {
    if (bd.visuals.empty()) return inertia_solid(bd, bd.name, colour, b);
    for (std::size_t k = 0; k < bd.visuals.size(); ++k) {
      const VisualDescription& v = bd.visuals[k];
      const std::string name = bd.visuals.size() == 1 ? bd.name : fmt::format("{}.visual{}", bd.name, k + 1);
      const std::uint32_t c = v.color.value_or(colour);
      const std::array<double, 3> size{v.size[0], v.size[1], v.size[2]};
      const ScenePart part{b, false, v.rotation, v.position, v.position};
      switch (v.geometry) {
        case VisualDescription::Geometry::box:
          add({name, Shape::box, size, c}, part);
          break;
        case VisualDescription::Geometry::cylinder:
        case VisualDescription::Geometry::capsule:
          add({name, v.geometry == VisualDescription::Geometry::cylinder ? Shape::cylinder : Shape::capsule, size, c}, part);
          break;
        case VisualDescription::Geometry::sphere:
          add({name, Shape::sphere, size, c}, part);
          break;
        case VisualDescription::Geometry::mesh:
          // The mesh file is not read: the body's inertia solid stands for it (a small cube at the
          // visual's origin for a body with no inertia).
          if (bd.mass > 0 && bd.inertia.cwiseAbs().maxCoeff() > 0) {
            inertia_solid(bd, name, c, b);
          } else {
            deferred.push_back({scene_.bodies.size(), 0.0});
            add({name, Shape::box, {0, 0, 0}, c}, part);
          }
          break;
      }
    }
  };
  if (d.root_body) draw(*d.root_body, -1, 0xbbbbbb);
  for (std::size_t i = 0; i < mech_.bodies.size(); ++i) {
    const auto it = described.find(mech_.bodies[i].name);
    if (it != described.end()) draw(*it->second, static_cast<int>(i), palette[i % 6]);
  }

  // The stick figure: from each body's origin (the world's, for a URDF root link) to the joints
  // it carries, and from a body with no child to its centre of mass; a pivot at each joint to the world.
  std::vector<ScenePart> sticks, pivots;
  std::vector<std::string> stick_names, pivot_names;
  std::vector<bool> has_child(mech_.bodies.size(), false);
  for (std::size_t i = 0; i < mech_.joints.size(); ++i) {
    const Joint& j = mech_.joints[i];
    if (j.parent >= 0) has_child[static_cast<std::size_t>(j.parent)] = true;
    if (j.origin.r.norm() > 0 && (j.parent >= 0 || d.format == "urdf")) {
      sticks.push_back({j.parent, true, Eigen::Matrix3d::Identity(), Eigen::Vector3d::Zero(), j.origin.r});
      stick_names.push_back(fmt::format("{}.to_{}", j.parent >= 0 ? mech_.bodies[static_cast<std::size_t>(j.parent)].name : mech_.root, j.name));
    }
    if (j.parent < 0 && j.type != JointType::floating) {
      pivots.push_back({-1, false, Eigen::Matrix3d::Identity(), j.origin.r, j.origin.r});
      pivot_names.push_back(fmt::format("{}.pivot", j.name));
    }
    if (j.parent >= 0 || j.type != JointType::floating) {  // (a floating body's place in the world is no part of it)
      include(j.parent, Eigen::Vector3d::Zero());
      include(j.parent, j.origin.r);
    }
    include(static_cast<int>(i), Eigen::Vector3d::Zero());
    include(static_cast<int>(i), mech_.bodies[i].com);
  }
  for (std::size_t i = 0; i < mech_.bodies.size(); ++i)
    if (!has_child[i] && mech_.bodies[i].com.norm() > 0) {
      sticks.push_back({static_cast<int>(i), true, Eigen::Matrix3d::Identity(), Eigen::Vector3d::Zero(), mech_.bodies[i].com});
      stick_names.push_back(fmt::format("{}.to_com", mech_.bodies[i].name));
    }

  const double size = std::max((hi - lo).norm(), 1e-3);
  for (const Deferred& p : deferred) {
    auto& s = scene_.bodies[p.index].size;
    if (p.mass > 0) s = {0.04 * size * std::cbrt(p.mass / heaviest), 0, 0};
    else s = {0.05 * size, 0.05 * size, 0.05 * size};
  }
  for (std::size_t k = 0; k < sticks.size(); ++k) add({stick_names[k], Shape::segment, {0.006 * size, 0, 0}, 0x777777}, sticks[k]);
  for (std::size_t k = 0; k < pivots.size(); ++k) add({pivot_names[k], Shape::sphere, {0.02 * size, 0, 0}, 0x222222}, pivots[k]);
  scene_.extent = size;
  const Eigen::Vector3d g = mech_.gravity;
  const Eigen::Vector3d up = g.norm() > 0 ? Eigen::Vector3d(-g.normalized()) : Eigen::Vector3d::UnitZ();
  scene_.up = {up[0] + 0.0, up[1] + 0.0, up[2] + 0.0};  // (+ 0.0: no -0)
}

Status MultibodyModel::scene_poses(double, ConstVec y, Vec out) noexcept {
  dyn_.kinematics(y);
  dyn_.world_poses();
  for (std::size_t k = 0; k < parts_.size(); ++k) {
    const ScenePart& p = parts_[k];
    const lie::SE3::Element w = p.body >= 0 ? dyn_.world(p.body) : lie::SE3::identity();
    const int i = static_cast<int>(k);
    if (p.segment) sdk::set_pose_points(out, i, Eigen::Vector3d(w.R * p.a + w.r), Eigen::Vector3d(w.R * p.b + w.r));
    else sdk::set_pose(out, i, Eigen::Vector3d(w.R * p.a + w.r), Eigen::Matrix3d(w.R * p.R));
  }
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
