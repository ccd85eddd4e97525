// The double pendulum, the 7-joint arm and the satellite built with Simbody's own bodies and
// mobilizers from the numbers of the shipped descriptions (not from liesim's readers), integrated
// with Runge-Kutta-Merson at accuracy 1e-14; any serial chain of pins (PinChain) for the
// forward-dynamics benchmark.
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

struct PinChain::Impl {
  SimTK::MultibodySystem system;
  SimTK::SimbodyMatterSubsystem matter{system};
  SimTK::GeneralForceSubsystem forces{system};
  SimTK::Force::UniformGravity gravity{forces, matter, SimTK::Vec3(0, 0, -9.81)};
  std::vector<SimTK::MobilizedBody> bodies;
  SimTK::State state;
};

PinChain::PinChain(const std::vector<PinLink>& links) : impl_(std::make_unique<Impl>()) {
  SimTK::MobilizedBody parent = impl_->matter.Ground();
  for (const PinLink& l : links) {
    const SimTK::Body::Rigid body(mass_properties(l.mass, SimTK::Vec3(l.com[0], l.com[1], l.com[2]),
                                                  SimTK::Vec3(l.inertia[0], l.inertia[1], l.inertia[2])));
    impl_->bodies.push_back(pin(parent, SimTK::Vec3(l.origin[0], l.origin[1], l.origin[2]), SimTK::Vec3(l.axis[0], l.axis[1], l.axis[2]), body));
    parent = impl_->bodies.back();
  }
  impl_->state = impl_->system.realizeTopology();
}

PinChain::~PinChain() = default;

int PinChain::dof() const { return static_cast<int>(impl_->bodies.size()); }

void PinChain::accelerations(const double* q, const double* u, double* udot) {
  // A serial chain of pins: body k's q and u are the k-th entries of the state's Q and U.
  SimTK::Vector& Q = impl_->state.updQ();
  for (int k = 0; k < dof(); ++k) Q[k] = q[k];
  SimTK::Vector& U = impl_->state.updU();
  for (int k = 0; k < dof(); ++k) U[k] = u[k];
  impl_->system.realize(impl_->state, SimTK::Stage::Acceleration);
  const SimTK::Vector& a = impl_->state.getUDot();
  for (int k = 0; k < dof(); ++k) udot[k] = a[k];
}

Positions PinChain::integrate(const double* q0, const double* u0, double T) {
  SimTK::State state = impl_->state;
  for (std::size_t k = 0; k < impl_->bodies.size(); ++k) {
    impl_->bodies[k].setOneQ(state, 0, q0[k]);
    impl_->bodies[k].setOneU(state, 0, u0[k]);
  }
  return simbody_systems::integrate(impl_->system, impl_->bodies, state, T);
}

Positions double_pendulum(double T) {
  const double I = 1.0 / 12;
  const PinLink rod = {1.0, {0, 0, -0.5}, {I, I, 1e-4}, {0, 0, 0}, {0, 1, 0}};
  PinLink lower = rod;
  lower.origin = {0, 0, -1};
  const double q0[2] = {1.2, -0.6}, u0[2] = {0.0, 1.0};
  return PinChain({rod, lower}).integrate(q0, u0, T);
}

std::vector<PinLink> arm_links() {
  struct Link {
    double m, r, h, offset;  // mass, cylinder radius and length, joint origin above the previous joint
    std::array<double, 3> axis;
  };
  const std::vector<Link> table = {{4.0, 0.07, 0.30, 0.06, {0, 0, 1}}, {4.0, 0.07, 0.20, 0.30, {0, 1, 0}}, {3.0, 0.06, 0.20, 0.20, {0, 0, 1}},
                                   {2.7, 0.06, 0.20, 0.20, {0, -1, 0}}, {1.7, 0.05, 0.20, 0.20, {0, 0, 1}}, {1.8, 0.05, 0.08, 0.20, {0, 1, 0}},
                                   {0.3, 0.04, 0.05, 0.08, {0, 0, 1}}};
  std::vector<PinLink> links;
  for (const Link& l : table) {
    const double across = l.m * (3 * l.r * l.r + l.h * l.h) / 12, along = 0.5 * l.m * l.r * l.r;
    links.push_back({l.m, {0, 0, l.h / 2}, {across, across, along}, {0, 0, l.offset}, l.axis});
  }
  return links;
}

Positions arm(double T) {
  const double q0[7] = {0.3, 0.8, -0.4, 1.2, 0.5, -0.7, 0.2}, u0[7] = {0.5, -0.3, 0.4, 0.2, -0.6, 0.3, 1.0};
  return PinChain(arm_links()).integrate(q0, u0, T);
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
