// A kinematic tree as read from a description file (URDF or TOML), before validation: bodies,
// joints, forces and the initial state, each with the place in the file it came from so that
// every later error can name it. Plain data; readers fill it, build_mechanism checks it.
#pragma once
#include <Eigen/Core>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace liesim::multibody {

/// A place in a description file: "FILE:LINE" (line 0: the file as a whole).
struct Where {
  std::string file;
  int line = 0;
  std::string text() const { return line > 0 ? file + ":" + std::to_string(line) : file; }
};

enum class JointType { revolute, continuous, prismatic, fixed, floating, spherical };

/// The name of a joint type as written in the files.
inline const char* joint_type_name(JointType t) {
  switch (t) {
    case JointType::revolute: return "revolute";
    case JointType::continuous: return "continuous";
    case JointType::prismatic: return "prismatic";
    case JointType::fixed: return "fixed";
    case JointType::floating: return "floating";
    case JointType::spherical: return "spherical";
  }
  return "?";
}

/// Degrees of freedom (velocity components) of a joint type.
inline int joint_dof(JointType t) {
  switch (t) {
    case JointType::revolute:
    case JointType::continuous:
    case JointType::prismatic: return 1;
    case JointType::fixed: return 0;
    case JointType::spherical: return 3;
    case JointType::floating: return 6;
  }
  return 0;
}

/// How a body looks (URDF <visual>, TOML `visual`): drawn by liesim view (the model's scene), never
/// simulated. A solid centred on its own frame, which is (rotation, position) in the body frame.
struct VisualDescription {
  enum class Geometry { box, cylinder, sphere, capsule, mesh };
  Where where;
  Geometry geometry = Geometry::box;
  /// box: edge lengths along x, y, z; cylinder, capsule: radius, length along z; sphere: radius;
  /// mesh: none (the file is not read: the scene draws the body's inertia solid instead).
  Eigen::Vector3d size = Eigen::Vector3d::Zero();
  Eigen::Matrix3d rotation = Eigen::Matrix3d::Identity();
  Eigen::Vector3d position = Eigen::Vector3d::Zero();
  std::optional<std::uint32_t> color;  ///< 0xRRGGBB (URDF material rgba, TOML "#rrggbb"); none: the scene's choice
};

/// A rigid body (URDF: a link): mass m, centre of mass c and inertia about c, both in the body's
/// own frame, and how it looks.
struct BodyDescription {
  std::string name;
  Where where;
  double mass = 0;
  Eigen::Vector3d com = Eigen::Vector3d::Zero();
  Eigen::Matrix3d inertia = Eigen::Matrix3d::Zero();  ///< about the centre of mass, body axes
  std::vector<VisualDescription> visuals;
};

/// A PD controller to a set-point: tau = kp (setpoint - q) - kd v on a one-degree-of-freedom joint;
/// on a spherical joint tau = -kp log(R_set^T R) - kd omega (body frame), R_set = setpoint_attitude.
struct PdController {
  double kp = 0, kd = 0, setpoint = 0;
  Eigen::Matrix3d setpoint_attitude = Eigen::Matrix3d::Identity();
};

/// One row of a time-tabulated joint force: at time t, the generalised force tau (first dof()
/// entries: one-dof tau; spherical moment, body frame; floating moment then force, body frame).
struct TorqueSample {
  double t = 0;
  Eigen::Matrix<double, 6, 1> tau = Eigen::Matrix<double, 6, 1>::Zero();
};

/// A joint: the child body's frame relative to the parent's is origin * motion(q).
struct JointDescription {
  std::string name;
  Where where;
  JointType type = JointType::fixed;
  std::string parent, child;  ///< parent "" = the world (the fixed root)
  Eigen::Matrix3d origin_rotation = Eigen::Matrix3d::Identity();  ///< joint frame in the parent frame
  Eigen::Vector3d origin_position = Eigen::Vector3d::Zero();
  Eigen::Vector3d axis = Eigen::Vector3d::UnitX();  ///< unit, joint frame (revolute, continuous, prismatic)
  // Forces (generalised, in the joint's own coordinates).
  double stiffness = 0, rest = 0;  ///< spring -k (q - rest) (one-dof); spherical: -k log(R_rest^T R)
  Eigen::Matrix3d rest_attitude = Eigen::Matrix3d::Identity();  ///< spherical spring's rest attitude R_rest
  double damping = 0;              ///< damper -c v (every moving joint: -c times each velocity component)
  Eigen::Matrix<double, 6, 1> torque = Eigen::Matrix<double, 6, 1>::Zero();  ///< constant (first dof() entries)
  std::vector<TorqueSample> torque_table;  ///< linear interpolation in t, constant outside
  std::optional<PdController> pd;
  // Initial state: q0/v0 (one-dof), attitude/omega (spherical, floating), position/velocity (floating).
  double q0 = 0, v0 = 0;
  Eigen::Matrix3d attitude0 = Eigen::Matrix3d::Identity();
  Eigen::Vector3d omega0 = Eigen::Vector3d::Zero();     ///< body frame
  Eigen::Vector3d position0 = Eigen::Vector3d::Zero();  ///< joint frame
  Eigen::Vector3d velocity0 = Eigen::Vector3d::Zero();  ///< body frame
};

/// A whole description.
struct Description {
  std::string file;
  std::string format;  ///< "urdf" or "toml"
  std::string root;    ///< name of the fixed root link ("world" for TOML)
  Where root_where;
  std::optional<BodyDescription> root_body;  ///< URDF: the root link as read (fixed: drawn, not simulated)
  std::optional<Eigen::Vector3d> gravity;  ///< world frame, m/s^2 (absent in URDF)
  std::vector<BodyDescription> bodies;
  std::vector<JointDescription> joints;
};

/// The rotation of roll-pitch-yaw angles (URDF: fixed axes X, Y, Z): Rz(yaw) Ry(pitch) Rx(roll).
Eigen::Matrix3d rotation_rpy(const Eigen::Vector3d& rpy);

}  // namespace liesim::multibody

namespace liesim::multibody {

/// Throw liesim::Error "WHERE: SUBJECT: MESSAGE" (SUBJECT e.g. "joint 'elbow'"; may be empty).
[[noreturn]] void fail_at(const Where& where, const std::string& subject, const std::string& message);

/// A rotation from an axis and an angle (rad); the axis must not be zero.
Eigen::Matrix3d rotation_axis_angle(const Eigen::Vector3d& axis, double angle);
/// A rotation from a quaternion (w, x, y, z), normalised.
Eigen::Matrix3d rotation_quaternion(double w, double x, double y, double z);

}  // namespace liesim::multibody
