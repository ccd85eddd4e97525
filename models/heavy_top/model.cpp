// The heavy_top plugin: a rigid body with a fixed point in uniform gravity, in three formulations
// (canonical on T*SO(3), Lie–Poisson on se(3)*, quadratic Hamiltonian on T*(SO(3) x R^3)).
#include <liesim/lie/actions.hpp>
#include <liesim/lie_space.hpp>
#include <liesim/manifold_checks.hpp>
#include <liesim/plugin.hpp>

#include <Eigen/Eigenvalues>
#include <fmt/format.h>

#include <cmath>
#include <memory>

namespace liesim::heavy_top {

namespace {

constexpr const char* conventions_text = R"(SPACE       Heavy top: rigid body turning about a fixed point O (the origin) in uniform gravity. Three
            formulations, chosen by the parameter `formulation`:
            tso3        T*SO(3), right-trivialised: (Q, pi); Q in SO(3) the attitude (body -> space),
                        pi = Q Pi the spatial angular momentum about O (Pi the body momentum).
            lie_poisson se(3)* = R^6: (Pi, Gamma), Gamma = Q^T u the upward vertical seen in the body;
                        the motion stays on the coadjoint orbit |Gamma| = 1, Pi . Gamma = const.
            quadratic   T*(SO(3) x R^3) with a quadratic Hamiltonian: (Q, pi, p, q); p = -m|g| c is a
                        constant momentum, q in R^3 its conjugate position (thesis (2.3.20)-(2.3.23));
                        the (Q, pi) part is the tso3 solution.
GROUP       tso3: SO(3) x R^3 (direct product); lie_poisson: SE(3), se(3) = R^6 ordered (u rotation,
            v translation); quadratic: (SO(3) x R^3) x R^6. so(3) = R^3 with hat(w) v = w x v.
ACTION      tso3: (B, b).(Q, pi) = (B Q, pi + b); generator (hat(eta) Q, beta) for xi = (eta, beta).
            lie_poisson: coadjoint (g, r).(Pi, Gamma) = (g Pi + r x g Gamma, g Gamma); generator
            psi_*(u, v)|_(Pi,Gamma) = (u x Pi + v x Gamma, u x Gamma); preserves |Gamma| and Pi . Gamma.
            quadratic: the tso3 action on (Q, pi) times the translations (p, q) -> (p + a, q + b).
            All left actions; exp right-trivialised (d/dt exp(s) = dexp_s(s') exp(s)).
GENERATOR   Omega = I^-1 Pi (body angular velocity), omega = Q Omega = Q I^-1 Q^T pi (spatial).
            tso3:        f(Q, pi) = (omega, tau),  tau = (Q c) x (m g), the torque about O (spatial).
            lie_poisson: f(Pi, Gamma) = (-I^-1 Pi, -m|g| c): psi_*(f)|_(Pi,Gamma) = (Pi x Omega +
                         m|g| Gamma x c, Gamma x Omega) = thesis (2.3.14)-(2.3.15). The minus signs are
                         required by this left action (as for the rigid body, errata 2): the thesis's
                         (I^-1 Pi, m g l X) would reverse time.
            quadratic:   f(Q, pi, p, q) = (omega, -u x Q p, 0, p - Q^T u).
EMBEDDING   tso3:        [Q11 Q12 Q13 Q21 .. Q33 (Q row-major), pi_x pi_y pi_z]               n = 12
            lie_poisson: [Pi_x Pi_y Pi_z, Gamma_x Gamma_y Gamma_z]                          n = 6
            quadratic:   [Q (row-major, 9), pi (3), p (3), q (3)], q(0) = 0                 n = 18
            F (coded directly, equal to psi_*(f(y))|_y): Q' = hat(omega) Q, pi' = tau;
            Pi' = Pi x Omega + m|g| Gamma x c, Gamma' = Gamma x Omega;
            quadratic: Q' = hat(omega) Q, pi' = -u x Q p, p' = 0, q' = p - Q^T u.
            Exact Jacobian dF/dy (every formulation) for implicit solvers.
INVARIANTS  energy (J) = 1/2 Omega . I Omega - m g . (Q c)    [tso3; as 1/2 Pi . I^-1 Pi with Pi = Q^T pi]
                       = 1/2 Pi . I^-1 Pi + m|g| Gamma . c      [lie_poisson]
                       = 1/2 Pi . I^-1 Pi - p . (Q^T u)         [quadratic; = the same at p = p(0)]
            tso3, quadratic: vertical_momentum = pi . u (constant: the torque is horizontal),
                             orthogonality = ||Q^T Q - I||_F (0 on SO(3));
            quadratic also: p_change = |p - p(0)|;
            lie_poisson: gamma_norm = |Gamma|, pi_dot_gamma = Pi . Gamma (= pi . u), the Casimirs.
PARAMETERS  mass m (kg), inertia_com (kg m^2, about the centre of mass, body axes; 3 principal values
            or 9 row-major), com c (m, O -> centre of mass, body frame), gravity g (m/s^2, spatial
            vector including 9.81), omega0 = Omega(0) (rad/s, body frame), Q0 = Q(0) (9, row-major).
            Inertia about O (parallel-axis theorem): I = I_com + m (|c|^2 I_3 - c c^T).
            u = -g/|g|, the unit upward vertical (e3 for the default g; e3 if g = 0).
            Pi(0) = I omega0, pi(0) = Q0 Pi(0), Gamma(0) = Q0^T u, p(0) = -m|g| c, q(0) = 0.
            Gravity sign: the thesis prints Gamma0 = (0, 0, -9.81) for its upward axis, which reverses
            gravity if used literally (errata 3). Here the torque is the physical (Q c) x (m g): a top
            released at rest with its centre of mass beside O falls (its potential -m g.(Q c) drops).
SOURCE      Celledoni, Cokaj, Leone, Murari, Owren, IJCM 99 (2022) §3.4 (thesis of E. Cokaj §2.3.4,
            (2.3.10)-(2.3.23)); data: the benchmark top of Bruls & Cardona, J. Comput. Nonlinear Dynam.
            5 (2010) 031002 (m = 15, I_com = diag(0.234375, 0.46875, 0.234375), c = (0, 1, 0),
            g = (0, 0, -9.81), Omega(0) = (0, 150, -4.61538), Q(0) = I).)";

using RowMajor3 = Eigen::Matrix<double, 3, 3, Eigen::RowMajor>;

/// (Q, pi, p, q) under (SO(3) x R^3) x R^6: the tso3 action times translations of (p, q).
using QuadraticAction = lie::ProductAction<lie::SO3xR3OnTSO3, lie::RnTranslation<6>>;

enum class Formulation { tso3, lie_poisson, quadratic };

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

std::unique_ptr<sdk::HomogeneousSpace> make_space(Formulation f) {
  switch (f) {
    case Formulation::tso3: return std::make_unique<PowerSpace<lie::SO3xR3OnTSO3>>(1);
    case Formulation::lie_poisson: return std::make_unique<PowerSpace<lie::SE3Coadjoint>>(1);
    case Formulation::quadratic: return std::make_unique<PowerSpace<QuadraticAction>>(1);
  }
  return nullptr;
}

/// ||Q^T Q - I||_F.
double orthogonality_defect(const Eigen::Ref<const RowMajor3>& Q) {
  return (Q.transpose() * Q - Eigen::Matrix3d::Identity()).norm();
}

class HeavyTop final : public sdk::Model {
 public:
  HeavyTop(Formulation f, Physics ph, Eigen::VectorXd y0)
      : sdk::Model(make_space(f)), f_(f), ph_(std::move(ph)), y0_(std::move(y0)) {}

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
      case Formulation::lie_poisson: add_vec("Pi"); add_vec("Gamma"); break;
      case Formulation::quadratic: add_Q(); add_vec("pi"); add_vec("p"); add_vec("q"); break;
    }
    return names;
  }

  std::vector<InvariantInfo> invariants() const override {
    const InvariantInfo energy{"energy", "kinetic + potential, J: 1/2 Omega . I Omega - m g . (Q c)"};
    switch (f_) {
      case Formulation::tso3:
        return {energy, {"vertical_momentum", "pi . u, spatial angular momentum along the upward vertical u = -g/|g|"},
                {"orthogonality", "||Q^T Q - I||_F (0 on SO(3))"}};
      case Formulation::lie_poisson:
        return {{"energy", "kinetic + potential, J: 1/2 Pi . I^-1 Pi + m|g| Gamma . c"},
                {"gamma_norm", "|Gamma| (Casimir; 1 for Gamma = Q^T u)"},
                {"pi_dot_gamma", "Pi . Gamma (Casimir; = pi . u, the vertical angular momentum)"}};
      case Formulation::quadratic:
        return {{"energy", "kinetic + potential, J: 1/2 Pi . I^-1 Pi - p . (Q^T u), Pi = Q^T pi"},
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

  std::string check_state(ConstVec y) const override {
    if (f_ == Formulation::lie_poisson) return {};
    return rotation_violation(Eigen::Map<const RowMajor3>(y.data()), "Q");
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

  Status do_generator(double, ConstVec y, Vec xi) noexcept override {
    switch (f_) {
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
};

/// A 3-vector parameter (exactly 3 finite numbers).
Eigen::Vector3d vector3(const Settings& p, const std::string& key) {
  const auto v = p.numbers(key, {3});
  return {v[0], v[1], v[2]};
}

/// inertia_com: 3 principal values or 9 row-major entries; symmetric positive definite, with
/// principal moments satisfying the triangle inequalities.
Eigen::Matrix3d inertia_about_com(const Settings& p) {
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
Eigen::Matrix3d initial_attitude(const Settings& p) {
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

class HeavyTopType final : public sdk::ModelTypeBase<HeavyTopType> {
 public:
  std::string summary() const override {
    return "heavy top (rigid body with a fixed point in gravity): T*SO(3), se(3)* Lie–Poisson or quadratic form";
  }
  std::vector<SettingSpec> parameters() const override {
    return {
        {"formulation", "tso3", "", "tso3 (canonical on T*SO(3), state [Q, pi]) | lie_poisson (se(3)*, state [Pi, Gamma]) "
                                    "| quadratic (T*(SO(3) x R^3), state [Q, pi, p, q])"},
        {"mass", "15", "kg", "mass m (positive)"},
        {"inertia_com", "0.234375,0.46875,0.234375", "kg m^2",
         "inertia about the centre of mass, body axes: 3 principal moments or 9 values (symmetric, row-major); "
         "positive definite, triangle inequalities"},
        {"com", "0,1,0", "m", "centre of mass in the body frame, from the fixed point"},
        {"gravity", "0,0,-9.81", "m/s^2", "gravity vector, spatial frame (points down)"},
        {"omega0", "0,150,-4.61538", "rad/s", "initial body angular velocity Omega(0)"},
        {"Q0", "1,0,0,0,1,0,0,0,1", "", "initial attitude (body -> space), 9 values row-major, a rotation within 1e-12"},
    };
  }
  std::string conventions() const override { return conventions_text; }

  std::unique_ptr<sdk::Model> make(const Settings& p) const {
    const std::string fs = p.choice("formulation", {"tso3", "lie_poisson", "quadratic"});
    const Formulation f = fs == "tso3" ? Formulation::tso3 : fs == "lie_poisson" ? Formulation::lie_poisson : Formulation::quadratic;

    Physics ph;
    ph.mass = p.positive("mass");
    const Eigen::Matrix3d J = inertia_about_com(p);
    ph.com = vector3(p, "com");
    ph.gravity = vector3(p, "gravity");
    const Eigen::Vector3d omega0 = vector3(p, "omega0");
    const Eigen::Matrix3d Q0 = initial_attitude(p);

    const Eigen::Vector3d& c = ph.com;
    ph.inertia = J + ph.mass * (c.squaredNorm() * Eigen::Matrix3d::Identity() - c * c.transpose());
    ph.inv_inertia = ph.inertia.inverse();
    ph.mg = ph.mass * ph.gravity;
    const double gn = ph.gravity.norm();
    ph.up = gn > 0 ? Eigen::Vector3d(-ph.gravity / gn) : Eigen::Vector3d::UnitZ();
    ph.weight = ph.mass * gn;
    ph.p0 = -ph.weight * c;

    const Eigen::Vector3d Pi0 = ph.inertia * omega0;
    Eigen::VectorXd y0;
    const auto put_Q = [&](Eigen::VectorXd& y) { Eigen::Map<RowMajor3>(y.data()) = Q0; };
    switch (f) {
      case Formulation::tso3:
        y0.resize(12);
        put_Q(y0);
        y0.segment<3>(9) = Q0 * Pi0;
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
    return std::make_unique<HeavyTop>(f, std::move(ph), std::move(y0));
  }
};

}  // namespace

}  // namespace liesim::heavy_top

LIESIM_PLUGIN(model, "heavy_top", "0.2.0", "heavy top: T*SO(3), se(3)* Lie–Poisson or quadratic formulation",
              liesim::heavy_top::HeavyTopType)
