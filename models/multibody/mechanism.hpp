// The validated kinematic tree the model integrates: bodies in topological order (parent before
// child, each subtree contiguous), body i moved by joint i, spatial inertias, motion subspaces,
// the state layout and the initial state. Built once from a Description (build_mechanism checks
// everything a description can get wrong and names it).
#pragma once
#include "description.hpp"

#include <liesim/lie/se3.hpp>

#include <Eigen/Core>

#include <optional>
#include <string>
#include <vector>

namespace liesim::multibody {

using Vector6 = Eigen::Matrix<double, 6, 1>;
using Matrix6 = Eigen::Matrix<double, 6, 6>;
/// A joint's motion subspace S (6 x dof, dof <= 6) without heap storage.
using MotionSubspace = Eigen::Matrix<double, 6, Eigen::Dynamic, 0, 6, 6>;

/// Joint i: moves body i relative to its parent body (or the world, parent = -1).
struct Joint {
  std::string name;
  Where where;
  JointType type = JointType::fixed;
  int dof = 0;
  int parent = -1;                  ///< parent body index, -1: the world (fixed root)
  lie::SE3::Element origin;         ///< joint frame in the parent body's frame (Featherstone's X_T)
  Eigen::Vector3d axis = Eigen::Vector3d::UnitX();  ///< one-dof joints: unit axis, joint frame
  MotionSubspace S;                 ///< motion subspace in the child body's frame, rotation first
  int point_offset = 0;             ///< start of the joint's block in the state
  int algebra_offset = 0;           ///< start of its block in the Lie algebra
  int velocity_offset = 0;          ///< start of its velocity components in the generalised velocity
  // Generalised forces.
  double stiffness = 0, rest = 0, damping = 0;
  Eigen::Matrix3d rest_attitude = Eigen::Matrix3d::Identity();  ///< spherical springs
  Vector6 torque = Vector6::Zero();
  std::vector<TorqueSample> torque_table;
  std::optional<PdController> pd;
  /// Whether no force element acts at the joint (only the constraint).
  bool free_of_forces() const {
    return damping == 0 && stiffness == 0 && !pd && torque_table.empty() && torque.cwiseAbs().maxCoeff() == 0;
  }
};

/// Body i: its frame is the child frame of joint i.
struct Body {
  std::string name;
  Where where;
  double mass = 0;
  Eigen::Vector3d com = Eigen::Vector3d::Zero();       ///< body frame
  Eigen::Matrix3d inertia_com = Eigen::Matrix3d::Zero();  ///< about the centre of mass, body axes
  Matrix6 I = Matrix6::Zero();  ///< spatial inertia about the body frame's origin, rotation first
};

/// The whole mechanism.
struct Mechanism {
  std::string file, format, root;
  Eigen::Vector3d gravity = Eigen::Vector3d::Zero();  ///< world frame
  std::vector<Joint> joints;  ///< joints[i] moves bodies[i]
  std::vector<Body> bodies;
  int point_size = 0;   ///< state size n
  int algebra_dim = 0;  ///< dim g
  int dof = 0;          ///< generalised velocities
  Eigen::VectorXd y0;
  std::vector<std::string> state_names;
  /// Whether no joint force does work other than springs, PD springs and constant one-dof torques
  /// (then energy, with their potentials, is conserved).
  bool conservative = true;
  std::string nonconservative_reason;
};

/// Overrides of the description given as model parameters.
struct Overrides {
  std::optional<Eigen::Vector3d> gravity;
  std::optional<std::vector<double>> q0, v0;
};

/// Validate a description and build the mechanism (throws liesim::Error naming the file, line,
/// body or joint, and the fix).
Mechanism build_mechanism(const Description& d, const Overrides& o);

/// The spatial inertia about a body frame's origin of mass m, centre of mass c and inertia Ic
/// about c (body axes), rotation first: [[Ic + m hat(c) hat(c)^T, m hat(c)], [m hat(c)^T, m 1]].
Matrix6 spatial_inertia(double m, const Eigen::Vector3d& c, const Eigen::Matrix3d& Ic);

}  // namespace liesim::multibody
