// Comparison systems built with Simbody (compiled as C++17: Simbody 3.7's headers are ambiguous
// under C++20's rewritten comparison operators). Plain types only cross to the test and to
// benchmarks/bench_multibody (the library liesim_simbody_systems, cmake/SimbodySystems.cmake).
#pragma once
#include <array>
#include <memory>
#include <vector>

namespace simbody_systems {
using Positions = std::vector<std::array<double, 3>>;
/// Body origins (world) at time T: upper, lower.
Positions double_pendulum(double T);
/// Body origins at time T: link1 .. link7.
Positions arm(double T);
/// Body origins at time T: bus, wheel_x, wheel_y, wheel_z.
Positions satellite(double T);

/// One body of a serial chain of pins (revolute joints), each the child of the previous one (the
/// first of the ground). Body frame = joint frame turned by q about `axis`; the joint frame has
/// the parent's axes and its origin at `origin` in the parent's frame.
struct PinLink {
  double mass;
  std::array<double, 3> com;      ///< centre of mass, body frame (m)
  std::array<double, 3> inertia;  ///< principal moments about the centre of mass, body axes (kg m^2)
  std::array<double, 3> origin;   ///< joint origin in the parent's frame (m)
  std::array<double, 3> axis;     ///< joint axis, unit, parent (= joint) axes
};

/// The 7-joint arm of models/multibody/examples/arm7.urdf, from the URDF's table of cylinders.
std::vector<PinLink> arm_links();

/// A serial chain of pins under gravity (0, 0, -9.81) in Simbody: its forward dynamics at given
/// states, and its motion.
class PinChain {
 public:
  explicit PinChain(const std::vector<PinLink>& links);
  ~PinChain();
  PinChain(const PinChain&) = delete;
  PinChain& operator=(const PinChain&) = delete;
  /// Number of joints (one q and one u each).
  int dof() const;
  /// Joint accelerations udot at (q, u): writes q and u into the state (invalidating its
  /// position stage) and realizes it to Stage::Acceleration (Simbody's forward dynamics).
  void accelerations(const double* q, const double* u, double* udot);
  /// Body origins (world) at T from (q0, u0), Runge-Kutta-Merson at accuracy 1e-14.
  Positions integrate(const double* q0, const double* u0, double T);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};
}  // namespace simbody_systems
