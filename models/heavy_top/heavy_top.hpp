// The heavy top as a model class, shared by the heavy_top plugin (three formulations) and the
// rigid_pendulum plugin (the 3D pendulum of Lee, Leok & McClamroch: the tso3 formulation with its
// inertia given about the pivot). Header-only, compiled into each plugin.
#pragma once
#include "inertia_solid.hpp"

#include <liesim/lie/actions.hpp>
#include <liesim/sdk/lie_space.hpp>
#include <liesim/sdk/manifold_checks.hpp>
#include <liesim/sdk/model.hpp>

#include <Eigen/Eigenvalues>
#include <fmt/format.h>

#include <cmath>
#include <memory>

namespace liesim::heavy_top {

using RowMajor3 = Eigen::Matrix<double, 3, 3, Eigen::RowMajor>;

/// (Q, pi, p, q) under (SO(3) x R^3) x R^6: the tso3 action times translations of (p, q).
using QuadraticAction = lie::ProductAction<lie::SO3xR3OnTSO3, lie::RnTranslation<6>>;

enum class Formulation { tso3, lie_poisson, quadratic, velocity };

/// The physical data, in the form the equations use.
struct Physics {
  double mass = 0;
  Eigen::Matrix3d inertia;      ///< I about the fixed point O, body axes
  Eigen::Matrix3d inv_inertia;  ///< I^-1
  Eigen::Vector3d com;          ///< c, O -> centre of mass, body frame
  Eigen::Vector3d gravity;      ///< g, spatial
  Eigen::Vector3d mg;           ///< m g
  Eigen::Vector3d up;           ///< u = -g/|g| (e3 when g = 0)
  double weight = 0;            ///< m |g|
  Eigen::Vector3d p0;           ///< -m|g| c, the constant momentum of the quadratic form
};

inline std::unique_ptr<sdk::HomogeneousSpace> make_space(Formulation f) {
  switch (f) {
    case Formulation::tso3:
    case Formulation::velocity: return std::make_unique<PowerSpace<lie::SO3xR3OnTSO3>>(1);
    case Formulation::lie_poisson: return std::make_unique<PowerSpace<lie::SE3Coadjoint>>(1);
    case Formulation::quadratic: return std::make_unique<PowerSpace<QuadraticAction>>(1);
  }
  return nullptr;
}

/// ||Q^T Q - I||_F.
inline double orthogonality_defect(const Eigen::Ref<const RowMajor3>& Q) {
  return (Q.transpose() * Q - Eigen::Matrix3d::Identity()).norm();
}

/// The Hamiltonian description (ABI 2.3) of the tso3 formulation: T*SO(3) right-trivialised,
/// g = Q, mu = pi, H = 1/2 pi . Q I^-1 Q^T pi - m g . (Q c):
///   dH/dpi = omega = Q I^-1 Q^T pi,   R_Q^* dH/dQ = omega x pi - tau,  tau = (Q c) x (m g),
/// so that pi' = -R^* dH/dQ - ad*_omega pi = tau (ad*_omega pi = -omega x pi), Q' = hat(omega) Q.
class Tso3Hamiltonian final : public sdk::HamiltonianOn<lie::SO3> {
 public:
  explicit Tso3Hamiltonian(const Physics& ph) : ph_(ph) {}
  void from_state(ConstVec y, Vec g, Vec mu) const noexcept override {
    g = y.head<9>();
    mu = y.segment<3>(9);
  }
  void to_state(ConstVec g, ConstVec mu, Vec y) const noexcept override {
    y.head<9>() = g;
    y.segment<3>(9) = mu;
  }
  Status gradient(double, ConstVec g, ConstVec mu, Vec dH_dmu, Vec dH_dg) noexcept override {
    const Eigen::Map<const RowMajor3> Q(g.data());
    const Eigen::Vector3d pi = mu;
    const Eigen::Vector3d omega = Q * (ph_.inv_inertia * (Q.transpose() * pi));
    dH_dmu = omega;
    dH_dg = omega.cross(pi) - (Q * ph_.com).cross(ph_.mg);
    return Status::ok;
  }

 private:
  const Physics& ph_;
};

/// The Hamiltonian description (ABI 2.3) of the quadratic formulation (thesis (2.3.20)-(2.3.23),
/// "SLGIKK"): T*(SO(3) x R^3) right-trivialised, g = (Q, q), mu = (pi, p),
/// H = 1/2 pi . Q I^-1 Q^T pi + 1/2 |p - Q^T u|^2 - 1/2 |Q^T u|^2:
///   dH/dmu = (omega, p - Q^T u),   R^* dH/dg = (omega x pi + u x Q p, 0),
/// so that pi' = -u x Q p, p' = 0, q' = p - Q^T u.
class QuadraticHamiltonian final : public sdk::HamiltonianOn<lie::Product<lie::SO3, lie::Rn<3>>> {
 public:
  explicit QuadraticHamiltonian(const Physics& ph) : ph_(ph) {}
  void from_state(ConstVec y, Vec g, Vec mu) const noexcept override {
    g.head<9>() = y.head<9>();
    g.tail<3>() = y.segment<3>(15);
    mu = y.segment<6>(9);
  }
  void to_state(ConstVec g, ConstVec mu, Vec y) const noexcept override {
    y.head<9>() = g.head<9>();
    y.segment<6>(9) = mu;
    y.segment<3>(15) = g.tail<3>();
  }
  Status gradient(double, ConstVec g, ConstVec mu, Vec dH_dmu, Vec dH_dg) noexcept override {
    const Eigen::Map<const RowMajor3> Q(g.data());
    const Eigen::Vector3d pi = mu.head<3>(), p = mu.tail<3>();
    const Eigen::Vector3d omega = Q * (ph_.inv_inertia * (Q.transpose() * pi));
    dH_dmu.head<3>() = omega;
    dH_dmu.tail<3>() = p - Q.transpose() * ph_.up;
    dH_dg.head<3>() = omega.cross(pi) + ph_.up.cross(Q * p);
    dH_dg.tail<3>().setZero();
    return Status::ok;
  }

 private:
  const Physics& ph_;
};

/// The heavy top; in the tso3 and velocity formulations it also states its rigid-body description
/// (ABI 2.2: J about O, U = -m g . (Q c), moment c x Q^T (m g); state [Q, pi] with pi = Q J Omega,
/// or [Q, Omega]) for Lie group variational integrators.
class HeavyTop final : public sdk::Model, public sdk::RigidBodySystem {
 public:
  HeavyTop(Formulation f, Physics ph, Eigen::VectorXd y0)
      : sdk::Model(make_space(f)), f_(f), ph_(std::move(ph)), y0_(std::move(y0)) {
    if (f == Formulation::tso3) ham_ = std::make_unique<Tso3Hamiltonian>(ph_);
    if (f == Formulation::quadratic) ham_ = std::make_unique<QuadraticHamiltonian>(ph_);
    // The drawn body: the uniform solid with the inertia about the centre of mass (parallel axis
    // theorem back from O), a cylinder for a body of revolution.
    const Eigen::Matrix3d I_com = ph_.inertia - ph_.mass * (ph_.com.squaredNorm() * Eigen::Matrix3d::Identity() - ph_.com * ph_.com.transpose());
    solid_ = scene_shapes::inertia_solid(ph_.mass, I_com, ph_.com.norm() > 0 ? ph_.com.norm() : 1.0, true);
  }

  /// The body as the uniform solid with its inertia (a box, or a cylinder about the symmetry axis)
  /// centred on the centre of mass, its principal axes there, the rod from the fixed point O to the
  /// centre of mass, and O. Attitude formulations (tso3, quadratic, velocity) pose them in space by
  /// Q (body -> space); lie_poisson has no attitude (its state is (Pi, Gamma), the motion up to a
  /// rotation about the vertical): the body is drawn fixed in its own frame, with the upward
  /// vertical Gamma = Q^T u and the body angular momentum Pi as arrows from O.
  Scene scene() const override {
    Scene s;
    const double c = ph_.com.norm();
    s.extent = std::max(c + solid_.radius(), 1e-3);
    s.bodies.push_back({"body", solid_.shape, solid_.size, 0x4477aa});
    s.bodies.push_back({"principal_axes", Shape::axes, {std::max(0.45 * s.extent, 1.3 * solid_.radius()), 0, 0}, 0x000000});
    s.bodies.push_back({"rod", Shape::segment, {0.012 * s.extent, 0, 0}, 0x777777});
    s.bodies.push_back({"pivot", Shape::sphere, {0.035 * s.extent, 0, 0}, 0x222222});
    if (f_ == Formulation::lie_poisson) {
      s.bodies.push_back({"up", Shape::arrow, {0.008 * s.extent, 0, 0}, 0x228833});
      s.bodies.push_back({"angular_momentum", Shape::arrow, {0.008 * s.extent, 0, 0}, 0xee6677});
      const Eigen::Vector3d G0 = y0_.tail<3>();
      const Eigen::Vector3d up = G0.norm() > 0 ? Eigen::Vector3d(G0.normalized()) : Eigen::Vector3d::UnitZ();
      s.up = {up[0], up[1], up[2]};  // the initial upward vertical, seen in the body
    } else {
      s.up = {ph_.up[0] + 0.0, ph_.up[1] + 0.0, ph_.up[2] + 0.0};  // (+ 0.0: no -0 in the text)
    }
    return s;
  }
  /// Attitude formulations: body and principal axes at Q c with attitudes Q A (A the solid's frame)
  /// and Q V (V the principal axes, I for a diagonal inertia), the rod from O to Q c, O at the
  /// origin. lie_poisson: the same with Q = I, the arrow "up" from O to l Gamma and the arrow
  /// "angular_momentum" from O to l Pi / |Pi(0)| (l = 0.8 extent; 1/|Pi(0)| read as 1 when Pi(0) = 0).
  Status scene_poses(double, ConstVec y, Vec out) noexcept override {
    const double extent = std::max(ph_.com.norm() + solid_.radius(), 1e-3);
    Eigen::Matrix3d Q = Eigen::Matrix3d::Identity();
    if (f_ != Formulation::lie_poisson) Q = Eigen::Map<const RowMajor3>(y.data());
    const Eigen::Vector3d x = Q * ph_.com;
    sdk::set_pose(out, 0, x, Q * solid_.axes);
    sdk::set_pose(out, 1, x, Q * solid_.principal);
    sdk::set_pose_points(out, 2, Eigen::Vector3d::Zero(), x);
    sdk::set_pose(out, 3, Eigen::Vector3d::Zero(), Eigen::Matrix3d::Identity());
    if (f_ == Formulation::lie_poisson) {
      const double l = 0.8 * extent, Pi0 = y0_.head<3>().norm();
      sdk::set_pose_points(out, 4, Eigen::Vector3d::Zero(), Eigen::Vector3d(l * y.tail<3>()));
      sdk::set_pose_points(out, 5, Eigen::Vector3d::Zero(), Eigen::Vector3d((Pi0 > 0 ? l / Pi0 : l) * y.head<3>()));
    }
    return Status::ok;
  }

  void initial_state(Vec y) const override { y = y0_; }

  std::vector<std::string> state_names() const override {
    std::vector<std::string> names;
    const auto add_Q = [&] {
      for (int i = 1; i <= 3; ++i)
        for (int j = 1; j <= 3; ++j) names.push_back(fmt::format("Q{}{}", i, j));
    };
    const auto add_vec = [&](const char* v) {
      for (const char* c : {"x", "y", "z"}) names.push_back(fmt::format("{}_{}", v, c));
    };
    switch (f_) {
      case Formulation::tso3: add_Q(); add_vec("pi"); break;
      case Formulation::velocity: add_Q(); add_vec("Omega"); break;
      case Formulation::lie_poisson: add_vec("Pi"); add_vec("Gamma"); break;
      case Formulation::quadratic: add_Q(); add_vec("pi"); add_vec("p"); add_vec("q"); break;
    }
    return names;
  }

  std::vector<InvariantInfo> invariants() const override {
    // The energy is conserved (no damping or forcing); it may be 0 at t0, so its scale is the
    // potential's amplitude m |g| |c| (the divergence check: liesim/sdk/model_view.hpp, InvariantKind).
    const double scale = ph_.weight * ph_.com.norm();
    const InvariantInfo energy{"energy", "kinetic + potential, J: 1/2 Omega . I Omega - m g . (Q c)", InvariantKind::conserved, scale};
    switch (f_) {
      case Formulation::tso3:
        return {energy, {"vertical_momentum", "pi . u, spatial angular momentum along the upward vertical u = -g/|g|"},
                {"orthogonality", "||Q^T Q - I||_F (0 on SO(3))"}};
      case Formulation::velocity:
        return {energy, {"vertical_momentum", "(Q I Omega) . u, spatial angular momentum along the upward vertical u = -g/|g|"},
                {"orthogonality", "||Q^T Q - I||_F (0 on SO(3))"}};
      case Formulation::lie_poisson:
        return {{"energy", "kinetic + potential, J: 1/2 Pi . I^-1 Pi + m|g| Gamma . c", InvariantKind::conserved, scale},
                {"gamma_norm", "|Gamma| (Casimir; 1 for Gamma = Q^T u)"},
                {"pi_dot_gamma", "Pi . Gamma (Casimir; = pi . u, the vertical angular momentum)"}};
      case Formulation::quadratic:
        return {{"energy", "kinetic + potential, J: 1/2 Pi . I^-1 Pi - p . (Q^T u), Pi = Q^T pi", InvariantKind::conserved, scale},
                {"vertical_momentum", "pi . u, spatial angular momentum along the upward vertical u = -g/|g|"},
                {"orthogonality", "||Q^T Q - I||_F (0 on SO(3))"},
                {"p_change", "|p - p(0)| (p is constant)"}};
    }
    return {};
  }

  void evaluate_invariants(ConstVec y, Vec out) const noexcept override {
    if (f_ == Formulation::lie_poisson) {
      const Eigen::Vector3d Pi = y.head<3>(), G = y.tail<3>();
      out[0] = 0.5 * Pi.dot(ph_.inv_inertia * Pi) + ph_.weight * G.dot(ph_.com);
      out[1] = G.norm();
      out[2] = Pi.dot(G);
      return;
    }
    const Eigen::Map<const RowMajor3> Q(y.data());
    if (f_ == Formulation::velocity) {
      const Eigen::Vector3d Omega = y.segment<3>(9);
      out[0] = 0.5 * Omega.dot(ph_.inertia * Omega) - ph_.mg.dot(Q * ph_.com);
      out[1] = (Q * (ph_.inertia * Omega)).dot(ph_.up);
      out[2] = orthogonality_defect(Q);
      return;
    }
    const Eigen::Vector3d pi = y.segment<3>(9);
    const Eigen::Vector3d Pi = Q.transpose() * pi;
    const double kinetic = 0.5 * Pi.dot(ph_.inv_inertia * Pi);
    if (f_ == Formulation::tso3) {
      out[0] = kinetic - ph_.mg.dot(Q * ph_.com);
    } else {
      const Eigen::Vector3d p = y.segment<3>(12);
      out[0] = kinetic - p.dot(Q.transpose() * ph_.up);
      out[3] = (p - ph_.p0).norm();
    }
    out[1] = pi.dot(ph_.up);
    out[2] = orthogonality_defect(Q);
  }

  /// The thesis's plotted quantities (seed 000 Figs. 2.2-2.3): M l Gamma, Gamma = Q^-1 Gamma_0 the
  /// upward unit vertical seen in the body (l = |c|), and the spatial direction of the centre of
  /// mass Q X, X = c / |c| (attitude formulations only).
  std::vector<ObservableInfo> observables() const override {
    std::vector<ObservableInfo> out;
    for (const char* c : {"x", "y", "z"})
      out.push_back({fmt::format("Ml_Gamma_{}", c), "kg m", fmt::format("M l Q^-1 Gamma_0, {} component: mass x |c| x the upward unit vertical in the body (seed 000 Figs. 2.2-2.3, left)", c)});
    if (f_ != Formulation::lie_poisson)
      for (const char* c : {"x", "y", "z"})
        out.push_back({fmt::format("QX_{}", c), "", fmt::format("Q X, {} component: spatial direction of the centre of mass, X = c/|c| (seed 000 Fig. 2.2, centre)", c)});
    return out;
  }

  Status evaluate_observables(double, ConstVec y, Vec out) noexcept override {
    const double l = ph_.com.norm(), Ml = ph_.mass * l;
    if (f_ == Formulation::lie_poisson) {
      out.head<3>() = Ml * y.tail<3>();
      return Status::ok;
    }
    const Eigen::Map<const RowMajor3> Q(y.data());
    out.head<3>() = Ml * (Q.transpose() * ph_.up);
    out.segment<3>(3) = l > 0 ? Eigen::Vector3d(Q * ph_.com / l) : Eigen::Vector3d::Zero();
    return Status::ok;
  }

  std::string check_state(ConstVec y) const override {
    if (f_ == Formulation::lie_poisson) return {};
    return rotation_violation(Eigen::Map<const RowMajor3>(y.data()), "Q");
  }

  RigidBodySystem* rigid_body() noexcept override {
    return f_ == Formulation::tso3 || f_ == Formulation::velocity ? this : nullptr;
  }
  sdk::HamiltonianSystem* hamiltonian() noexcept override { return ham_.get(); }
  int translation() const noexcept override { return 0; }
  void inertia(Matrix3& J, Matrix3&) const noexcept override { J = ph_.inertia; }
  Status potential(double, const RigidBodySystem::RowMajor3& R, const Eigen::Vector3d&, double& U, Eigen::Vector3d& moment,
                   Eigen::Vector3d& dU_dx) noexcept override {
    U = -ph_.mg.dot(R * ph_.com);
    moment = ph_.com.cross(R.transpose() * ph_.mg);  // -grad_L U: the torque about O in the body frame
    dU_dx.setZero();
    return Status::ok;
  }
  void from_state(ConstVec y, RigidBodySystem::RowMajor3& R, Eigen::Vector3d& x, Eigen::Vector3d& Omega,
                  Eigen::Vector3d& v) const noexcept override {
    R = Eigen::Map<const RowMajor3>(y.data());
    Omega = f_ == Formulation::velocity ? Eigen::Vector3d(y.segment<3>(9)) : Eigen::Vector3d(ph_.inv_inertia * (R.transpose() * y.segment<3>(9)));
    x.setZero();
    v.setZero();
  }
  void to_state(const RigidBodySystem::RowMajor3& R, const Eigen::Vector3d&, const Eigen::Vector3d& Omega, const Eigen::Vector3d&,
                Vec y) const noexcept override {
    Eigen::Map<RowMajor3>(y.data()) = R;
    y.segment<3>(9) = f_ == Formulation::velocity ? Omega : Eigen::Vector3d(R * (ph_.inertia * Omega));
  }

  bool has_jacobian() const noexcept override { return true; }
  /// Column c of dF/dy is the exact derivative of F in the direction of the unit vector e_c.
  Status jacobian(double, ConstVec y, MatRef J) noexcept override {
    for (Eigen::Index c = 0; c < y.size(); ++c) directional_derivative(y, c, J.col(c));
    return Status::ok;
  }

 private:
  /// omega = Q I^-1 Q^T pi from the (Q, pi) part of a tso3 / quadratic state.
  Eigen::Vector3d spatial_omega(const Eigen::Map<const RowMajor3>& Q, const Eigen::Vector3d& pi) const {
    return Q * (ph_.inv_inertia * (Q.transpose() * pi));
  }

  /// Euler's equations with the gravity moment: Omega' = I^-1 ((I Omega) x Omega + c x Q^T (m g)).
  Eigen::Vector3d angular_acceleration(const Eigen::Map<const RowMajor3>& Q, const Eigen::Vector3d& Omega) const {
    return ph_.inv_inertia * ((ph_.inertia * Omega).cross(Omega) + ph_.com.cross(Q.transpose() * ph_.mg));
  }

  Status do_generator(double, ConstVec y, Vec xi) noexcept override {
    switch (f_) {
      case Formulation::velocity: {
        const Eigen::Map<const RowMajor3> Q(y.data());
        const Eigen::Vector3d Omega = y.segment<3>(9);
        xi.head<3>() = Q * Omega;
        xi.segment<3>(3) = angular_acceleration(Q, Omega);
        break;
      }
      case Formulation::tso3: {
        const Eigen::Map<const RowMajor3> Q(y.data());
        xi.head<3>() = spatial_omega(Q, y.segment<3>(9));
        xi.segment<3>(3) = (Q * ph_.com).cross(ph_.mg);
        break;
      }
      case Formulation::lie_poisson:
        xi.head<3>() = -(ph_.inv_inertia * y.head<3>());
        xi.tail<3>() = -ph_.weight * ph_.com;
        break;
      case Formulation::quadratic: {
        const Eigen::Map<const RowMajor3> Q(y.data());
        const Eigen::Vector3d p = y.segment<3>(12);
        xi.head<3>() = spatial_omega(Q, y.segment<3>(9));
        xi.segment<3>(3) = -ph_.up.cross(Q * p);
        xi.segment<3>(6).setZero();
        xi.segment<3>(9) = p - Q.transpose() * ph_.up;
        break;
      }
    }
    return Status::ok;
  }

  /// dF = (d/ds) F(y + s e_c) at s = 0, from the formulas of do_vector_field (linear in e_c).
  template <class Column>
  void directional_derivative(ConstVec y, Eigen::Index c, Column&& dF) const noexcept {
    dF.setZero();
    if (f_ == Formulation::lie_poisson) {
      const Eigen::Vector3d Pi = y.head<3>(), G = y.tail<3>();
      Eigen::Vector3d dPi = Eigen::Vector3d::Zero(), dG = Eigen::Vector3d::Zero();
      (c < 3 ? dPi[c] : dG[c - 3]) = 1.0;
      const Eigen::Vector3d Omega = ph_.inv_inertia * Pi, dOmega = ph_.inv_inertia * dPi;
      dF.template head<3>() = dPi.cross(Omega) + Pi.cross(dOmega) + ph_.weight * dG.cross(ph_.com);
      dF.template tail<3>() = dG.cross(Omega) + G.cross(dOmega);
      return;
    }
    const Eigen::Map<const RowMajor3> Q(y.data());
    const Eigen::Vector3d pi = y.segment<3>(9);
    Eigen::Matrix3d dQ = Eigen::Matrix3d::Zero();
    Eigen::Vector3d dpi = Eigen::Vector3d::Zero(), dp = Eigen::Vector3d::Zero();
    if (c < 9) dQ(c / 3, c % 3) = 1.0;  // row-major, as the state
    else if (c < 12) dpi[c - 9] = 1.0;
    else if (c < 15) dp[c - 12] = 1.0;  // (components 15-17, q, do not enter F)
    if (f_ == Formulation::velocity) {  // pi stands for Omega: Q' = Q hat(Omega), Omega' as in angular_acceleration
      const Eigen::Vector3d& Omega = pi;
      const Eigen::Vector3d& dOmega = dpi;
      Eigen::Map<RowMajor3>(dF.data()) = dQ * lie::SO3::hat(Omega) + Q * lie::SO3::hat(dOmega);
      dF.template segment<3>(9) = ph_.inv_inertia * ((ph_.inertia * dOmega).cross(Omega) + (ph_.inertia * Omega).cross(dOmega) +
                                                     ph_.com.cross(dQ.transpose() * ph_.mg));
      return;
    }
    // omega = Q D Q^T pi: d omega = dQ D Q^T pi + Q D dQ^T pi + Q D Q^T dpi.
    const Eigen::Vector3d omega = spatial_omega(Q, pi);
    const Eigen::Vector3d domega = dQ * (ph_.inv_inertia * (Q.transpose() * pi)) +
                                   Q * (ph_.inv_inertia * (dQ.transpose() * pi + Q.transpose() * dpi));
    Eigen::Map<RowMajor3>(dF.data()) = lie::SO3::hat(domega) * Q + lie::SO3::hat(omega) * dQ;
    if (f_ == Formulation::tso3) {
      dF.template segment<3>(9) = (dQ * ph_.com).cross(ph_.mg);
    } else {
      const Eigen::Vector3d p = y.segment<3>(12);
      dF.template segment<3>(9) = -ph_.up.cross(dQ * p + Q * dp);
      dF.template segment<3>(15) = dp - dQ.transpose() * ph_.up;
    }
  }

  Status do_vector_field(double, ConstVec y, Vec dy) noexcept override {
    if (f_ == Formulation::lie_poisson) {
      const Eigen::Vector3d Pi = y.head<3>(), G = y.tail<3>();
      const Eigen::Vector3d Omega = ph_.inv_inertia * Pi;
      dy.head<3>() = Pi.cross(Omega) + ph_.weight * G.cross(ph_.com);
      dy.tail<3>() = G.cross(Omega);
      return Status::ok;
    }
    const Eigen::Map<const RowMajor3> Q(y.data());
    if (f_ == Formulation::velocity) {
      const Eigen::Vector3d Omega = y.segment<3>(9);
      Eigen::Map<RowMajor3>(dy.data()) = Q * lie::SO3::hat(Omega);
      dy.segment<3>(9) = angular_acceleration(Q, Omega);
      return Status::ok;
    }
    const Eigen::Vector3d omega = spatial_omega(Q, y.segment<3>(9));
    Eigen::Map<RowMajor3>(dy.data()) = lie::SO3::hat(omega) * Q;
    if (f_ == Formulation::tso3) {
      dy.segment<3>(9) = (Q * ph_.com).cross(ph_.mg);
    } else {
      const Eigen::Vector3d p = y.segment<3>(12);
      dy.segment<3>(9) = -ph_.up.cross(Q * p);
      dy.segment<3>(12).setZero();
      dy.segment<3>(15) = p - Q.transpose() * ph_.up;
    }
    return Status::ok;
  }

  Formulation f_;
  Physics ph_;
  Eigen::VectorXd y0_;
  std::unique_ptr<sdk::HamiltonianSystem> ham_;  ///< tso3 and quadratic (ABI 2.3)
  scene_shapes::InertiaSolid solid_;              ///< the drawn body (scene)
};

/// A 3-vector parameter (exactly 3 finite numbers).
inline Eigen::Vector3d vector3(const Settings& p, const std::string& key) {
  const auto v = p.numbers(key, {3});
  return {v[0], v[1], v[2]};
}

/// inertia_com: 3 principal values or 9 row-major entries; symmetric positive definite, with
/// principal moments satisfying the triangle inequalities.
inline Eigen::Matrix3d inertia_about_com(const Settings& p) {
  const auto v = p.numbers("inertia_com", {3, 9});
  Eigen::Matrix3d J = Eigen::Matrix3d::Zero();
  if (v.size() == 3) {
    J.diagonal() << v[0], v[1], v[2];
  } else {
    J = Eigen::Map<const RowMajor3>(v.data());
    const double scale = J.cwiseAbs().maxCoeff();
    const double asym = (J - J.transpose()).cwiseAbs().maxCoeff();
    if (asym > 1e-12 * scale)
      throw Error(fmt::format("parameter 'inertia_com': the matrix is not symmetric (max |J_ij - J_ji| = {:.3g}); "
                              "give 3 principal moments or a symmetric 3x3 matrix, row-major", asym));
    J = 0.5 * (J + J.transpose()).eval();
  }
  const Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> eig(J, Eigen::EigenvaluesOnly);
  const Eigen::Vector3d l = eig.eigenvalues();  // ascending
  if (!(l[0] > 0))
    throw Error(fmt::format("parameter 'inertia_com': not positive definite (principal moments {:.6g}, {:.6g}, {:.6g}); "
                            "every principal moment must be > 0", l[0], l[1], l[2]));
  // Largest moment <= sum of the other two (equality: a planar body); relative slack for round-off.
  if (l[2] > (l[0] + l[1]) * (1 + 1e-12))
    throw Error(fmt::format("parameter 'inertia_com': principal moments {:.6g}, {:.6g}, {:.6g} violate the triangle "
                            "inequality I3 <= I1 + I2 ({:.6g} > {:.6g}): no rigid body has this inertia",
                            l[0], l[1], l[2], l[2], l[0] + l[1]));
  return J;
}

/// Q0: 9 numbers row-major, orthogonal with det 1 within 1e-12.
inline Eigen::Matrix3d initial_attitude(const Settings& p) {
  const auto v = p.numbers("Q0", {9});
  const Eigen::Matrix3d Q = Eigen::Map<const RowMajor3>(v.data());
  const double d = (Q.transpose() * Q - Eigen::Matrix3d::Identity()).norm();
  if (d > 1e-12)
    throw Error(fmt::format("parameter 'Q0': not orthogonal, ||Q0^T Q0 - I||_F = {:.3g} > 1e-12 "
                            "(give a rotation matrix, 9 values row-major, to about 16 digits)", d));
  const double det = Q.determinant();
  if (std::abs(det - 1.0) > 1e-12)
    throw Error(fmt::format("parameter 'Q0': det Q0 = {:.17g}, must be 1 within 1e-12 (a rotation, not a reflection)", det));
  return Q;
}


/// The physical data from the mass, the inertia about the fixed point O (body axes), the centre
/// of mass c (body frame, from O) and the gravity vector (space frame).
inline Physics physics(double mass, const Eigen::Matrix3d& inertia_about_O, const Eigen::Vector3d& c, const Eigen::Vector3d& gravity) {
  Physics ph;
  ph.mass = mass;
  ph.com = c;
  ph.gravity = gravity;
  ph.inertia = inertia_about_O;
  ph.inv_inertia = ph.inertia.inverse();
  ph.mg = ph.mass * ph.gravity;
  const double gn = ph.gravity.norm();
  ph.up = gn > 0 ? Eigen::Vector3d(-ph.gravity / gn) : Eigen::Vector3d::UnitZ();
  ph.weight = ph.mass * gn;
  ph.p0 = -ph.weight * c;
  return ph;
}

/// The initial state of a formulation for the attitude Q0 and body angular velocity omega0.
inline Eigen::VectorXd initial_state(Formulation f, const Physics& ph, const Eigen::Matrix3d& Q0, const Eigen::Vector3d& omega0) {
  const Eigen::Vector3d Pi0 = ph.inertia * omega0;
  Eigen::VectorXd y0;
  const auto put_Q = [&](Eigen::VectorXd& y) { Eigen::Map<RowMajor3>(y.data()) = Q0; };
  switch (f) {
    case Formulation::tso3:
      y0.resize(12);
      put_Q(y0);
      y0.segment<3>(9) = Q0 * Pi0;
      break;
    case Formulation::velocity:
      y0.resize(12);
      put_Q(y0);
      y0.segment<3>(9) = omega0;
      break;
    case Formulation::lie_poisson:
      y0.resize(6);
      y0.head<3>() = Pi0;
      y0.tail<3>() = Q0.transpose() * ph.up;
      break;
    case Formulation::quadratic:
      y0.resize(18);
      put_Q(y0);
      y0.segment<3>(9) = Q0 * Pi0;
      y0.segment<3>(12) = ph.p0;
      y0.segment<3>(15).setZero();
      break;
  }
  return y0;
}

}  // namespace liesim::heavy_top
