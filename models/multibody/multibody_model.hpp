// The multibody model: a mechanism's state on the joints' Lie groups, the generator from the
// articulated-body algorithm (or the CRBA check), invariants and observables.
#pragma once
#include "dynamics.hpp"
#include "joint_space.hpp"
#include "mechanism.hpp"

#include <liesim/sdk/model.hpp>

namespace liesim::multibody {

enum class Algorithm { articulated_body, composite_rigid_body };

/// A single body on a spherical or floating joint with no joint forces also states its rigid-body
/// description (ABI 2.2) for Lie group variational integrators: (R, x) = the joint's (R, p),
/// body velocities (omega, v); J about the joint centre (spherical) or the centre of mass
/// (floating, which needs the centre of mass at the body origin); U the gravity potential.
class MultibodyModel final : public sdk::Model, public sdk::RigidBodySystem {
 public:
  /// `d` the description `m` was built from: how its bodies look (visuals, the URDF root link).
  MultibodyModel(Mechanism m, Algorithm a, const Description& d);

  sdk::RigidBodySystem* rigid_body() noexcept override { return rigid_body_ ? this : nullptr; }
  int translation() const noexcept override { return mech_.joints[0].type == JointType::floating ? 3 : 0; }
  void inertia(Matrix3& J, Matrix3& M) const noexcept override;
  Status potential(double t, const RigidBodySystem::RowMajor3& R, const Eigen::Vector3d& x, double& U, Eigen::Vector3d& moment,
                   Eigen::Vector3d& dU_dx) noexcept override;
  void from_state(ConstVec y, RigidBodySystem::RowMajor3& R, Eigen::Vector3d& x, Eigen::Vector3d& Omega, Eigen::Vector3d& v) const noexcept override;
  void to_state(const RigidBodySystem::RowMajor3& R, const Eigen::Vector3d& x, const Eigen::Vector3d& Omega, const Eigen::Vector3d& v,
                Vec y) const noexcept override;

  void initial_state(Vec y) const override { y = mech_.y0; }
  std::vector<std::string> state_names() const override { return mech_.state_names; }
  std::vector<InvariantInfo> invariants() const override;
  void evaluate_invariants(ConstVec y, Vec out) const noexcept override;
  std::vector<ObservableInfo> observables() const override;
  Status evaluate_observables(double t, ConstVec y, Vec out) noexcept override;
  std::string check_state(ConstVec y) const override;
  /// Each body by its visuals (URDF <visual>, TOML visual; a mesh as the body's inertia solid), or
  /// without one by the uniform solid with its inertia at its centre of mass (a point mass: a
  /// sphere sized by its mass), the fixed URDF root link likewise; a stick figure (from each body's
  /// origin to its child joints, and to the centre of mass of a body with no child) and a pivot
  /// at each joint to the world (not floating). Poses from the model's kinematics.
  Scene scene() const override { return scene_; }
  Status scene_poses(double t, ConstVec y, Vec out) noexcept override;

  const Mechanism& mechanism() const noexcept { return mech_; }

 private:
  /// The generalised accelerations at (t, y) into qdd_ (kinematics included).
  Status accelerations(double t, ConstVec y) noexcept;
  Status do_generator(double t, ConstVec y, Vec xi) noexcept override;
  Status do_vector_field(double t, ConstVec y, Vec dy) noexcept override;
  /// Throws liesim::Error naming the joint whose subtree has no inertia along its motion.
  void check_mass_matrix();

  /// A conserved momentum component: the subtree of body `body`, angular about `point` along
  /// `direction` (angular) or linear along `direction`.
  struct Momentum {
    std::string name, doc;
    int body;
    bool angular;
    Eigen::Vector3d point, direction;
  };

  Mechanism mech_;
  Algorithm algorithm_;
  mutable Dynamics dyn_;
  Eigen::VectorXd qdd_;
  std::vector<Momentum> momenta_;
  bool rigid_body_ = false;  ///< whether the rigid-body description applies

  /// One body of the scene: a solid at (R, p) in the frame of body `body` (-1: the world), or a
  /// segment between the points a and b of that frame.
  struct ScenePart {
    int body = -1;
    bool segment = false;
    Eigen::Matrix3d R = Eigen::Matrix3d::Identity();
    Eigen::Vector3d a = Eigen::Vector3d::Zero(), b = Eigen::Vector3d::Zero();  ///< solid: a = its centre
  };
  /// Builds scene_ and parts_ (the constructor).
  void build_scene(const Description& d);
  Scene scene_;
  std::vector<ScenePart> parts_;
};

}  // namespace liesim::multibody
