// The rigid_pendulum plugin: the 3D pendulum of Lee, Leok & McClamroch — a rigid body on a
// frictionless pivot in gravity (Sharma 2020, seed 001, ch. 5, M7) — as the heavy top's T*SO(3)
// formulation with its inertia given about the pivot.
#include "../heavy_top/heavy_top.hpp"

#include <liesim/sdk/plugin.hpp>

namespace liesim::rigid_pendulum {

namespace {

constexpr const char* conventions_text = R"(SPACE       T*SO(3), right-trivialised: state [R, pi]; R in SO(3) the attitude (body -> space, 9 values
            row-major), pi = R J Omega the spatial angular momentum about the pivot (Omega the body
            angular velocity, Pi = J Omega the body momentum).
GROUP       SO(3) x R^3 (direct product); so(3) = R^3 with hat(w) v = w x v.
ACTION      (B, b).(R, pi) = (B R, pi + b) (left); generator (hat(eta) R, beta) for xi = (eta, beta);
            exp right-trivialised.
GENERATOR   f(R, pi) = (omega, tau): omega = R J^-1 R^T pi (spatial angular velocity), tau = (R rho) x (m g e3)
            the gravity torque about the pivot (spatial).
EMBEDDING   F(R, pi) = (hat(omega) R, tau) in R^12.
MECHANICS   rigid body on SO(3) (ABI 2.2, a fixed point: no translation): L = 1/2 Omega^T J Omega - U(R),
            U(R) = -m g e3^T R rho (e3 points DOWN, as in the source: the hanging equilibrium is R = I
            with rho = (0, 0, 1)); moment M = -grad_L U = m g rho x R^T e3 (body frame).
HAMILTONIAN T*SO(3) right-trivialised (ABI 2.3, for slgi): g = R, mu = pi; dH/dpi = omega,
            R^* dH/dR = omega x pi - tau (ad*_w m = -w x m).
INVARIANTS  energy 1/2 Omega^T J Omega - m g e3^T R rho; vertical_momentum pi . u with u = -e3 the
            upward vertical (= -e3^T R Pi: the thesis's e3^T R Pi up to its sign); orthogonality
            ||R^T R - I||_F.
PARAMETERS  J (inertia about the pivot, body axes; 3 principal moments or 9 values), m, rho (pivot ->
            centre of mass, body frame), g, start = hanging (R0 = I) | inverted (R0 = diag(-1, 1, -1)),
            omega0 (Omega(0)).
SOURCE      T. Lee, M. Leok, N. H. McClamroch, Lie group variational integrators for the full body
            problem / the 3D pendulum (CCA 2005); H. A. Sharma, PhD thesis, Virginia Tech 2020 (seed 001)
            §5.3, (5.36)-(5.43): J = diag(1, 2.8, 2), m = 1, rho = (0, 0, 1), omega0 = (0.5, -0.5, 0.4);
            g = 9.81 (not printed; it reproduces Table 5.1, notes §7.1).)";

/// J about the pivot: 3 principal moments or a symmetric 3x3 matrix, positive definite.
Eigen::Matrix3d inertia_about_pivot(const Settings& p) {
  const auto v = p.numbers("J", {3, 9});
  Eigen::Matrix3d J = Eigen::Matrix3d::Zero();
  if (v.size() == 3) J.diagonal() << v[0], v[1], v[2];
  else J = Eigen::Map<const heavy_top::RowMajor3>(v.data());
  if ((J - J.transpose()).cwiseAbs().maxCoeff() > 1e-12 * J.cwiseAbs().maxCoeff())
    throw Error("parameter 'J': the matrix is not symmetric; give 3 principal moments or a symmetric 3x3 matrix, row-major");
  const Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> eig(J, Eigen::EigenvaluesOnly);
  if (!(eig.eigenvalues()[0] > 0))
    throw Error(fmt::format("parameter 'J': not positive definite (smallest principal moment {:.6g})", eig.eigenvalues()[0]));
  return J;
}

class RigidPendulumType final : public sdk::ModelTypeBase<RigidPendulumType> {
 public:
  std::string summary() const override {
    return "3D pendulum: rigid body on a pivot in gravity, T*SO(3) (Lee–Leok–McClamroch; Sharma 2020 ch. 5)";
  }
  std::vector<SettingSpec> parameters() const override {
    return {{"J", "1,2.8,2", "kg m^2", "inertia about the pivot, body axes: 3 principal moments or 9 values (symmetric, row-major)"},
            {"m", "1", "kg", "mass (positive)"},
            {"rho", "0,0,1", "m", "pivot -> centre of mass, body frame"},
            {"g", "9.81", "m/s^2", "gravitational acceleration (along +e3, which points down)"},
            {"start", "hanging", "", "hanging (R0 = I) | inverted (R0 = diag(-1, 1, -1), chaotic)"},
            {"omega0", "0.5,-0.5,0.4", "rad/s", "initial body angular velocity Omega(0)"}};
  }
  std::string conventions() const override { return conventions_text; }
  std::unique_ptr<sdk::Model> make(const Settings& p) const {
    const double m = p.positive("m"), g = p.number("g");
    if (!std::isfinite(g)) throw Error("parameter 'g' must be finite");
    const heavy_top::Physics ph = heavy_top::physics(m, inertia_about_pivot(p), heavy_top::vector3(p, "rho"), Eigen::Vector3d(0, 0, g));
    const Eigen::Matrix3d R0 = p.choice("start", {"hanging", "inverted"}) == "hanging" ? Eigen::Matrix3d::Identity()
                                                                                        : Eigen::Vector3d(-1, 1, -1).asDiagonal().toDenseMatrix();
    Eigen::VectorXd y0 = heavy_top::initial_state(heavy_top::Formulation::tso3, ph, R0, heavy_top::vector3(p, "omega0"));
    return std::make_unique<heavy_top::HeavyTop>(heavy_top::Formulation::tso3, ph, std::move(y0));
  }
};

}  // namespace

}  // namespace liesim::rigid_pendulum

LIESIM_PLUGIN(model, "rigid_pendulum", "0.1.0", "3D pendulum on SO(3) (Lee–Leok–McClamroch; Sharma 2020 ch. 5)",
              liesim::rigid_pendulum::RigidPendulumType)
