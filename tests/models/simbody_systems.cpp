// The double pendulum, the 7-joint arm and the satellite built with Simbody's own bodies and
// mobilizers from the numbers of the shipped descriptions (not from liesim's readers), integrated
// with Runge-Kutta-Merson at accuracy 1e-14.
#include "simbody_systems.hpp"

#include <Simbody.h>

namespace simbody_systems {

namespace {

/// Mass properties (inertia about the body origin) of mass m, centre of mass c, principal inertia Ic about c.
SimTK::MassProperties mass_properties(double m, const SimTK::Vec3& c, const SimTK::Vec3& Ic) {
  SimTK::Mat33 I(0);
  for (int k = 0; k < 3; ++k) I(k, k) = Ic[k];
  I += m * (c.normSqr() * SimTK::Mat33(1) - c * ~c);
  return SimTK::MassProperties(m, c, SimTK::Inertia(I));
}

/// A pin about `axis` at `origin` of the parent: Simbody's Pin turns about the z axes of its F and
/// M frames, so both frames take `axis` as their z axis (then the body frame is origin * Rot(axis, q)).
SimTK::MobilizedBody::Pin pin(SimTK::MobilizedBody& parent, const SimTK::Vec3& origin, const SimTK::Vec3& axis, const SimTK::Body& body) {
  const SimTK::Rotation z_to_axis(SimTK::UnitVec3(axis), SimTK::ZAxis);
  return SimTK::MobilizedBody::Pin(parent, SimTK::Transform(z_to_axis, origin), body, SimTK::Transform(z_to_axis, SimTK::Vec3(0)));
}

Positions integrate(SimTK::MultibodySystem& system, const std::vector<SimTK::MobilizedBody>& bodies, SimTK::State& state, double T) {
  SimTK::RungeKuttaMersonIntegrator integrator(system);
  integrator.setAccuracy(1e-14);  // the arm's whip needs it: 1e-12 leaves 2e-8 m there
  SimTK::TimeStepper stepper(system, integrator);
  stepper.initialize(state);
  stepper.stepTo(T);
  const SimTK::State& s = integrator.getState();
  system.realize(s, SimTK::Stage::Position);
  Positions out;
  for (const auto& b : bodies) {
    const SimTK::Vec3 p = b.getBodyOriginLocation(s);
    out.push_back({p[0], p[1], p[2]});
  }
  return out;
}

}  // namespace

Positions double_pendulum(double T) {
  SimTK::MultibodySystem system;
  SimTK::SimbodyMatterSubsystem matter(system);
  SimTK::GeneralForceSubsystem forces(system);
  SimTK::Force::UniformGravity gravity(forces, matter, SimTK::Vec3(0, 0, -9.81));
  const double I = 1.0 / 12;
  const SimTK::Body::Rigid rod(mass_properties(1.0, SimTK::Vec3(0, 0, -0.5), SimTK::Vec3(I, I, 1e-4)));
  auto upper = pin(matter.Ground(), SimTK::Vec3(0), SimTK::Vec3(0, 1, 0), rod);
  auto lower = pin(upper, SimTK::Vec3(0, 0, -1), SimTK::Vec3(0, 1, 0), rod);
  SimTK::State state = system.realizeTopology();
  upper.setOneQ(state, 0, 1.2);
  lower.setOneQ(state, 0, -0.6);
  lower.setOneU(state, 0, 1.0);
  return integrate(system, {upper, lower}, state, T);
}

Positions arm(double T) {
  SimTK::MultibodySystem system;
  SimTK::SimbodyMatterSubsystem matter(system);
  SimTK::GeneralForceSubsystem forces(system);
  SimTK::Force::UniformGravity gravity(forces, matter, SimTK::Vec3(0, 0, -9.81));
  struct Link {
    double m, r, h, offset;  // mass, cylinder radius and length, joint origin above the previous joint
    SimTK::Vec3 axis;
  };
  const std::vector<Link> table = {{4.0, 0.07, 0.30, 0.06, {0, 0, 1}}, {4.0, 0.07, 0.20, 0.30, {0, 1, 0}}, {3.0, 0.06, 0.20, 0.20, {0, 0, 1}},
                                   {2.7, 0.06, 0.20, 0.20, {0, -1, 0}}, {1.7, 0.05, 0.20, 0.20, {0, 0, 1}}, {1.8, 0.05, 0.08, 0.20, {0, 1, 0}},
                                   {0.3, 0.04, 0.05, 0.08, {0, 0, 1}}};
  const double q0[7] = {0.3, 0.8, -0.4, 1.2, 0.5, -0.7, 0.2}, v0[7] = {0.5, -0.3, 0.4, 0.2, -0.6, 0.3, 1.0};
  std::vector<SimTK::MobilizedBody> bodies;
  SimTK::MobilizedBody parent = matter.Ground();
  for (const Link& l : table) {
    const double across = l.m * (3 * l.r * l.r + l.h * l.h) / 12, along = 0.5 * l.m * l.r * l.r;
    const SimTK::Body::Rigid body(mass_properties(l.m, SimTK::Vec3(0, 0, l.h / 2), SimTK::Vec3(across, across, along)));
    bodies.push_back(pin(parent, SimTK::Vec3(0, 0, l.offset), l.axis, body));
    parent = bodies.back();
  }
  SimTK::State state = system.realizeTopology();
  for (std::size_t k = 0; k < 7; ++k) {
    bodies[k].setOneQ(state, 0, q0[k]);
    bodies[k].setOneU(state, 0, v0[k]);
  }
  return integrate(system, bodies, state, T);
}

Positions satellite(double T) {
  SimTK::MultibodySystem system;
  SimTK::SimbodyMatterSubsystem matter(system);
  SimTK::GeneralForceSubsystem forces(system);  // no gravity
  const double Ib = 500.0 / 6, Ia = 0.05625, It = 5.0 * (3 * 0.15 * 0.15 + 0.05 * 0.05) / 12;
  const SimTK::Body::Rigid bus_body(mass_properties(500.0, SimTK::Vec3(0), SimTK::Vec3(Ib, Ib, Ib)));
  SimTK::MobilizedBody::Free bus(matter.Ground(), SimTK::Transform(), bus_body, SimTK::Transform());
  std::vector<SimTK::MobilizedBody> bodies = {bus};
  const SimTK::Vec3 axes[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  for (int k = 0; k < 3; ++k) {
    SimTK::Vec3 Iw(It);
    Iw[k] = Ia;
    const SimTK::Body::Rigid wheel(mass_properties(5.0, SimTK::Vec3(0), Iw));
    bodies.push_back(pin(bus, 0.3 * axes[k], axes[k], wheel));
  }
  SimTK::State state = system.realizeTopology();
  const SimTK::Rotation R(0.3, SimTK::UnitVec3(1, 1, 0));
  bus.setQToFitTransform(state, SimTK::Transform(R, SimTK::Vec3(0)));
  // Free's generalised speeds: angular and linear velocity in the parent (ground) frame.
  bus.setUToFitVelocity(state, SimTK::SpatialVec(R * SimTK::Vec3(0.02, -0.01, 0.03), R * SimTK::Vec3(0.1, 0, -0.05)));
  const double spin[3] = {60.0, -40.0, 25.0};
  for (std::size_t k = 0; k < 3; ++k) bodies[k + 1].setOneU(state, 0, spin[k]);
  return integrate(system, bodies, state, T);
}

}  // namespace simbody_systems
