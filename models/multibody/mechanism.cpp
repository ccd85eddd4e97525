// Validation of a description and construction of the mechanism: names, tree structure (missing
// parents, loops, detached bodies), inertias, the state layout and the initial state.
#include "mechanism.hpp"

#include <liesim/lie/so3.hpp>
#include <liesim/sdk/status.hpp>

#include <Eigen/Eigenvalues>
#include <fmt/format.h>

#include <cmath>
#include <functional>
#include <map>

namespace liesim::multibody {

Matrix6 spatial_inertia(double m, const Eigen::Vector3d& c, const Eigen::Matrix3d& Ic) {
  const Eigen::Matrix3d C = lie::SO3::hat(c);
  Matrix6 I;
  I.topLeftCorner<3, 3>() = Ic + m * C * C.transpose();
  I.topRightCorner<3, 3>() = m * C;
  I.bottomLeftCorner<3, 3>() = m * C.transpose();
  I.bottomRightCorner<3, 3>() = m * Eigen::Matrix3d::Identity();
  return I;
}

namespace {

std::string subject(const BodyDescription& b) { return fmt::format("body '{}'", b.name); }
std::string subject(const JointDescription& j) { return fmt::format("joint '{}'", j.name); }
const char* body_word(const Description& d) { return d.format == "urdf" ? "link" : "body"; }

void check_inertia(const Description& d, const BodyDescription& b) {
  const std::string who = fmt::format("{} '{}'", body_word(d), b.name);
  if (!(b.mass >= 0)) fail_at(b.where, who, fmt::format("mass = {} kg is negative: give a mass >= 0", b.mass));
  const Eigen::Matrix3d& J = b.inertia;
  const double scale = std::max(1e-300, J.cwiseAbs().maxCoeff());
  if ((J - J.transpose()).cwiseAbs().maxCoeff() > 1e-12 * scale)
    fail_at(b.where, who, "the inertia matrix is not symmetric: give a symmetric matrix (ixy = iyx, ...)");
  if (b.mass == 0 && J.cwiseAbs().maxCoeff() > 0)
    fail_at(b.where, who, "mass is 0 but the inertia is not: a body with rotational inertia has mass; give its mass");
  const Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> eig(0.5 * (J + J.transpose()), Eigen::EigenvaluesOnly);
  const Eigen::Vector3d l = eig.eigenvalues();
  if (l[0] < -1e-12 * scale)
    fail_at(b.where, who, fmt::format("the inertia is not positive semi-definite (principal moments {:.6g}, {:.6g}, {:.6g} kg m^2): "
                                      "every principal moment must be >= 0 (check the signs of the products of inertia)",
                                      l[0], l[1], l[2]));
  if (l[2] > (l[0] + l[1]) * (1 + 1e-9) + 1e-12 * scale)
    fail_at(b.where, who, fmt::format("principal moments {:.6g}, {:.6g}, {:.6g} kg m^2 violate the triangle inequality "
                                      "I3 <= I1 + I2: no rigid body has this inertia (check the values and units)",
                                      l[0], l[1], l[2]));
}

}  // namespace

Mechanism build_mechanism(const Description& d, const Overrides& o) {
  Mechanism m;
  m.file = d.file;
  m.format = d.format;
  m.root = d.root;
  const Where file_where{d.file, 0};
  if (o.gravity) m.gravity = *o.gravity;
  else if (d.gravity) m.gravity = *d.gravity;
  else m.gravity = Eigen::Vector3d(0, 0, -9.81);  // URDF has none: the documented default

  // Names.
  std::map<std::string, int> body_index;
  for (std::size_t k = 0; k < d.bodies.size(); ++k) {
    const auto& b = d.bodies[k];
    if (b.name.empty()) fail_at(b.where, "", fmt::format("a {} has an empty name: give it a unique name", body_word(d)));
    if (b.name == d.root) fail_at(b.where, subject(b), fmt::format("the name '{}' is the fixed root's: choose another", d.root));
    if (!body_index.emplace(b.name, static_cast<int>(k)).second)
      fail_at(b.where, fmt::format("{} '{}'", body_word(d), b.name),
              fmt::format("the name is used twice (also at line {}): names must be unique", d.bodies[static_cast<std::size_t>(body_index[b.name])].where.line));
    check_inertia(d, b);
  }
  std::map<std::string, int> joint_names;
  std::vector<int> parent_joint(d.bodies.size(), -1);
  for (std::size_t k = 0; k < d.joints.size(); ++k) {
    const auto& j = d.joints[k];
    if (j.name.empty()) fail_at(j.where, "", "a joint has an empty name: give it a unique name");
    if (!joint_names.emplace(j.name, static_cast<int>(k)).second)
      fail_at(j.where, subject(j),
              fmt::format("the name is used twice (also at line {}): names must be unique", d.joints[static_cast<std::size_t>(joint_names[j.name])].where.line));
    if (!j.parent.empty() && !body_index.count(j.parent))
      fail_at(j.where, subject(j), fmt::format("parent '{}' is not a {} of the description (missing parent: define it, or use the root '{}')",
                                               j.parent, body_word(d), d.root));
    if (j.child == d.root) fail_at(j.where, subject(j), fmt::format("the root '{}' cannot be a child: it is fixed in space", d.root));
    const auto c = body_index.find(j.child);
    if (c == body_index.end())
      fail_at(j.where, subject(j), fmt::format("child '{}' is not a {} of the description: define it", j.child, body_word(d)));
    if (j.parent == j.child) fail_at(j.where, subject(j), "parent and child are the same body: a joint connects two bodies");
    int& pj = parent_joint[static_cast<std::size_t>(c->second)];
    if (pj >= 0)
      fail_at(j.where, subject(j),
              fmt::format("{} '{}' is already the child of joint '{}' (line {}): a second parent closes a kinematic loop, which is not "
                          "supported (a tree only: remove one of the joints)",
                          body_word(d), j.child, d.joints[static_cast<std::size_t>(pj)].name, d.joints[static_cast<std::size_t>(pj)].where.line));
    pj = static_cast<int>(k);
  }
  for (std::size_t k = 0; k < d.bodies.size(); ++k)
    if (parent_joint[k] < 0)
      fail_at(d.bodies[k].where, fmt::format("{} '{}'", body_word(d), d.bodies[k].name),
              fmt::format("no joint holds it: add a joint with child = '{}' (to the root '{}' or another {})", d.bodies[k].name, d.root,
                          body_word(d)));

  // Depth-first order from the root, siblings in file order: parents before children, subtrees contiguous.
  std::vector<std::vector<int>> children(d.bodies.size() + 1);  // last: the root
  for (std::size_t k = 0; k < d.joints.size(); ++k) {
    const auto& j = d.joints[k];
    const std::size_t p = j.parent.empty() ? d.bodies.size() : static_cast<std::size_t>(body_index[j.parent]);
    children[p].push_back(body_index[j.child]);
  }
  std::vector<int> order, new_index(d.bodies.size(), -1);
  std::function<void(std::size_t)> visit = [&](std::size_t p) {
    for (int c : children[p]) {
      if (new_index[static_cast<std::size_t>(c)] >= 0) continue;
      new_index[static_cast<std::size_t>(c)] = static_cast<int>(order.size());
      order.push_back(c);
      visit(static_cast<std::size_t>(c));
    }
  };
  visit(d.bodies.size());
  for (std::size_t k = 0; k < d.bodies.size(); ++k)
    if (new_index[k] < 0) {
      const auto& j = d.joints[static_cast<std::size_t>(parent_joint[k])];
      fail_at(j.where, subject(j),
              fmt::format("{} '{}' is not connected to the root '{}': its joints form a closed loop, which is not supported (a tree only)",
                          body_word(d), d.bodies[k].name, d.root));
    }

  // Bodies and joints in that order; state layout.
  int point = 0, algebra = 0, velocity = 0;
  for (int old : order) {
    const auto& bd = d.bodies[static_cast<std::size_t>(old)];
    const auto& jd = d.joints[static_cast<std::size_t>(parent_joint[static_cast<std::size_t>(old)])];
    Body b;
    b.name = bd.name;
    b.where = bd.where;
    b.mass = bd.mass;
    b.com = bd.com;
    b.inertia_com = 0.5 * (bd.inertia + bd.inertia.transpose());
    b.I = spatial_inertia(b.mass, b.com, b.inertia_com);
    m.bodies.push_back(b);
    Joint j;
    j.name = jd.name;
    j.where = jd.where;
    j.type = jd.type;
    j.dof = joint_dof(jd.type);
    j.parent = jd.parent.empty() ? -1 : new_index[static_cast<std::size_t>(body_index[jd.parent])];
    j.origin = {jd.origin_rotation, jd.origin_position};
    j.axis = jd.axis;
    j.S.setZero(6, j.dof);
    switch (j.type) {
      case JointType::revolute:
      case JointType::continuous: j.S.col(0).head<3>() = j.axis; break;
      case JointType::prismatic: j.S.col(0).tail<3>() = j.axis; break;
      case JointType::spherical: j.S.topRows<3>().setIdentity(); break;
      case JointType::floating: j.S.setIdentity(); break;
      case JointType::fixed: break;
    }
    j.point_offset = point;
    j.algebra_offset = algebra;
    j.velocity_offset = velocity;
    j.stiffness = jd.stiffness;
    j.rest = jd.rest;
    j.rest_attitude = jd.rest_attitude;
    j.damping = jd.damping;
    j.torque = jd.torque;
    j.torque_table = jd.torque_table;
    j.pd = jd.pd;
    if (j.damping > 0 && m.conservative) m.conservative = false, m.nonconservative_reason = fmt::format("joint '{}' has damping", j.name);
    if (j.pd && j.pd->kd > 0 && m.conservative) m.conservative = false, m.nonconservative_reason = fmt::format("joint '{}' has a PD controller with kd > 0", j.name);
    if (!j.torque_table.empty() && m.conservative) m.conservative = false, m.nonconservative_reason = fmt::format("joint '{}' has a tabulated torque", j.name);
    if (j.dof > 1 && j.torque.head(j.dof).cwiseAbs().maxCoeff() > 0 && m.conservative)
      m.conservative = false, m.nonconservative_reason = fmt::format("joint '{}' has a constant body-frame torque", j.name);
    switch (j.type) {
      case JointType::revolute:
      case JointType::continuous:
      case JointType::prismatic:
        point += 2, algebra += 2;
        m.state_names.push_back(j.name + ".q");
        m.state_names.push_back(j.name + ".v");
        break;
      case JointType::spherical:
      case JointType::floating:
        for (int r = 1; r <= 3; ++r)
          for (int c = 1; c <= 3; ++c) m.state_names.push_back(fmt::format("{}.R{}{}", j.name, r, c));
        if (j.type == JointType::floating)
          for (const char* c : {"x", "y", "z"}) m.state_names.push_back(fmt::format("{}.{}", j.name, c));
        for (const char* c : {"wx", "wy", "wz"}) m.state_names.push_back(fmt::format("{}.{}", j.name, c));
        if (j.type == JointType::floating)
          for (const char* c : {"vx", "vy", "vz"}) m.state_names.push_back(fmt::format("{}.{}", j.name, c));
        point += j.type == JointType::spherical ? 12 : 18;
        algebra += j.type == JointType::spherical ? 6 : 12;
        break;
      case JointType::fixed: break;
    }
    velocity += j.dof;
    m.joints.push_back(j);
  }
  m.point_size = point;
  m.algebra_dim = algebra;
  m.dof = velocity;
  if (m.dof == 0) fail_at(file_where, "", "no joint moves: the description needs at least one joint that is not fixed");

  // Initial state: the description's, then the overrides (moving joints in state order).
  m.y0.setZero(point);
  std::size_t qi = 0, vi = 0;
  const auto take = [&](const std::optional<std::vector<double>>& values, std::size_t& at, int count, const char* name,
                        const std::string& joint) -> const double* {
    if (!values) return nullptr;
    if (at + static_cast<std::size_t>(count) > values->size())
      throw Error(fmt::format("parameter '{}': {} values given, but joint '{}' needs values {} to {} (moving joints in state order: "
                              "one-dof 1 value; spherical 3; floating 6)",
                              name, values->size(), joint, at + 1, at + static_cast<std::size_t>(count)));
    const double* p = values->data() + at;
    at += static_cast<std::size_t>(count);
    return p;
  };
  for (std::size_t k = 0; k < m.joints.size(); ++k) {
    const Joint& j = m.joints[k];
    const auto& jd = d.joints[static_cast<std::size_t>(parent_joint[static_cast<std::size_t>(order[k])])];
    double* y = m.y0.data() + j.point_offset;
    if (j.dof == 1) {
      y[0] = jd.q0;
      y[1] = jd.v0;
      if (const double* q = take(o.q0, qi, 1, "q0", j.name)) y[0] = *q;
      if (const double* v = take(o.v0, vi, 1, "v0", j.name)) y[1] = *v;
    } else if (j.dof > 1) {
      Eigen::Matrix3d R = jd.attitude0;
      Eigen::Vector3d p = jd.position0, w = jd.omega0, v = jd.velocity0;
      if (j.type == JointType::floating) {
        if (const double* q = take(o.q0, qi, 6, "q0", j.name)) p = Eigen::Vector3d(q[0], q[1], q[2]), R = lie::SO3::exp(Eigen::Vector3d(q[3], q[4], q[5]));
        if (const double* s = take(o.v0, vi, 6, "v0", j.name)) w = Eigen::Vector3d(s[0], s[1], s[2]), v = Eigen::Vector3d(s[3], s[4], s[5]);
      } else {
        if (const double* q = take(o.q0, qi, 3, "q0", j.name)) R = lie::SO3::exp(Eigen::Vector3d(q[0], q[1], q[2]));
        if (const double* s = take(o.v0, vi, 3, "v0", j.name)) w = Eigen::Vector3d(s[0], s[1], s[2]);
      }
      Eigen::Map<Eigen::Matrix<double, 3, 3, Eigen::RowMajor>> attitude(y);
      attitude = R;
      if (j.type == JointType::floating) {
        Eigen::Map<Eigen::Vector3d>{y + 9} = p;
        Eigen::Map<Eigen::Vector3d>{y + 12} = w;
        Eigen::Map<Eigen::Vector3d>{y + 15} = v;
      } else {
        Eigen::Map<Eigen::Vector3d>{y + 9} = w;
      }
    }
  }
  if (o.q0 && qi != o.q0->size())
    throw Error(fmt::format("parameter 'q0': {} values given, the moving joints take {} (1 per one-dof joint, 3 per spherical joint: a "
                            "rotation vector, 6 per floating joint: position then rotation vector; state order)", o.q0->size(), qi));
  if (o.v0 && vi != o.v0->size())
    throw Error(fmt::format("parameter 'v0': {} values given, the moving joints take {} (one per degree of freedom, state order)",
                            o.v0->size(), vi));
  return m;
}

}  // namespace liesim::multibody
