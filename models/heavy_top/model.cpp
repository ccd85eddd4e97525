// The heavy_top plugin: a rigid body with a fixed point in uniform gravity, in four formulations
// (canonical on T*SO(3), Lie–Poisson on se(3)*, quadratic Hamiltonian on T*(SO(3) x R^3), and
// attitude with body angular velocity, Euler's equations).
#include "heavy_top.hpp"

#include <liesim/sdk/plugin.hpp>

namespace liesim::heavy_top {

namespace {

constexpr const char* conventions_text = R"(SPACE       Heavy top: rigid body turning about a fixed point O (the origin) in uniform gravity. Four
            formulations, chosen by the parameter `formulation`:
            tso3        T*SO(3), right-trivialised: (Q, pi); Q in SO(3) the attitude (body -> space),
                        pi = Q Pi the spatial angular momentum about O (Pi the body momentum).
            lie_poisson se(3)* = R^6: (Pi, Gamma), Gamma = Q^T u the upward vertical seen in the body;
                        the motion stays on the coadjoint orbit |Gamma| = 1, Pi . Gamma = const.
            quadratic   T*(SO(3) x R^3) with a quadratic Hamiltonian: (Q, pi, p, q); p = -m|g| c is a
                        constant momentum, q in R^3 its conjugate position (thesis (2.3.20)-(2.3.23));
                        the (Q, pi) part is the tso3 solution.
            velocity    T SO(3) in velocities: (Q, Omega), Omega the body angular velocity (Euler's
                        equations); the state a multibody description of a top has (spherical joint).
GROUP       tso3, velocity: SO(3) x R^3 (direct product); lie_poisson: SE(3), se(3) = R^6 ordered (u rotation,
            v translation); quadratic: (SO(3) x R^3) x R^6. so(3) = R^3 with hat(w) v = w x v.
ACTION      tso3: (B, b).(Q, pi) = (B Q, pi + b); generator (hat(eta) Q, beta) for xi = (eta, beta).
            velocity: the same action on (Q, Omega).
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
            velocity:    f(Q, Omega) = (Q Omega, I^-1 ((I Omega) x Omega + c x Q^T (m g))).
EMBEDDING   tso3:        [Q11 Q12 Q13 Q21 .. Q33 (Q row-major), pi_x pi_y pi_z]               n = 12
            lie_poisson: [Pi_x Pi_y Pi_z, Gamma_x Gamma_y Gamma_z]                          n = 6
            quadratic:   [Q (row-major, 9), pi (3), p (3), q (3)], q(0) = 0                 n = 18
            velocity:    [Q (row-major, 9), Omega_x Omega_y Omega_z]                        n = 12
            F (coded directly, equal to psi_*(f(y))|_y): Q' = hat(omega) Q, pi' = tau;
            Pi' = Pi x Omega + m|g| Gamma x c, Gamma' = Gamma x Omega;
            quadratic: Q' = hat(omega) Q, pi' = -u x Q p, p' = 0, q' = p - Q^T u;
            velocity: Q' = Q hat(Omega), Omega' = I^-1 ((I Omega) x Omega + c x Q^T (m g)).
            Exact Jacobian dF/dy (every formulation) for implicit solvers.
HAMILTONIAN (symplectic Lie group methods, ABI 2.3) right-trivialised T*G, ad*_w m = -w x m:
            tso3:      g = Q, mu = pi, H = 1/2 pi . omega - m g . (Q c); dH/dpi = omega,
                       R_Q^* dH/dQ = omega x pi - tau.
            quadratic: G = SO(3) x R^3, g = (Q, q), mu = (pi, p), H = 1/2 pi . omega
                       + 1/2 |p - Q^T u|^2 - 1/2 |Q^T u|^2; dH/dmu = (omega, p - Q^T u),
                       R^* dH/dg = (omega x pi + u x Q p, 0) (thesis (2.3.20)-(2.3.23)).
INVARIANTS  energy (J) = 1/2 Omega . I Omega - m g . (Q c)    [velocity; tso3 as 1/2 Pi . I^-1 Pi, Pi = Q^T pi]
                       = 1/2 Pi . I^-1 Pi + m|g| Gamma . c      [lie_poisson]
                       = 1/2 Pi . I^-1 Pi - p . (Q^T u)         [quadratic; = the same at p = p(0)]
            tso3, quadratic, velocity: vertical_momentum = pi . u (pi = Q I Omega; constant: the
                             torque is horizontal),
                             orthogonality = ||Q^T Q - I||_F (0 on SO(3));
            quadratic also: p_change = |p - p(0)|;
            lie_poisson: gamma_norm = |Gamma|, pi_dot_gamma = Pi . Gamma (= pi . u), the Casimirs.
OBSERVABLES Ml_Gamma_x/y/z = m |c| Gamma, Gamma = Q^T u the upward unit vertical in the body (kg m;
            the thesis's M l Q^-1 Gamma_0, Figs. 2.2-2.3); QX_x/y/z = Q c/|c|, the spatial
            direction of the centre of mass (Fig. 2.2; attitude formulations only).
PARAMETERS  mass m (kg), inertia_com (kg m^2, about the centre of mass, body axes; 3 principal values
            or 9 row-major), com c (m, O -> centre of mass, body frame), gravity g (m/s^2, spatial
            vector including 9.81), omega0 = Omega(0) (rad/s, body frame), Q0 = Q(0) (9, row-major).
            Inertia about O (parallel-axis theorem): I = I_com + m (|c|^2 I_3 - c c^T); with
            inertia_point = pivot, I = the given inertia (the thesis's literal use of its data).
            u = -g/|g|, the unit upward vertical (e3 for the default g; e3 if g = 0).
            Pi(0) = I omega0, pi(0) = Q0 Pi(0), Gamma(0) = Q0^T u, p(0) = -m|g| c, q(0) = 0, Omega(0) = omega0.
            Gravity sign: the thesis prints Gamma0 = (0, 0, -9.81) for its upward axis, which reverses
            gravity if used literally (errata 3). Here the torque is the physical (Q c) x (m g): a top
            released at rest with its centre of mass beside O falls (its potential -m g.(Q c) drops).
SOURCE      Celledoni, Cokaj, Leone, Murari, Owren, IJCM 99 (2022) §3.4 (thesis of E. Cokaj §2.3.4,
            (2.3.10)-(2.3.23)); data: the benchmark top of Bruls & Cardona, J. Comput. Nonlinear Dynam.
            5 (2010) 031002 (m = 15, I_com = diag(0.234375, 0.46875, 0.234375), c = (0, 1, 0),
            g = (0, 0, -9.81), Omega(0) = (0, 150, -4.61538), Q(0) = I).)";

class HeavyTopType final : public sdk::ModelTypeBase<HeavyTopType> {
 public:
  std::string summary() const override {
    return "heavy top (rigid body with a fixed point in gravity): T*SO(3), se(3)* Lie–Poisson, quadratic form or (Q, Omega)";
  }
  std::vector<SettingSpec> parameters() const override {
    return {
        {"formulation", "tso3", "", "tso3 (canonical on T*SO(3), state [Q, pi]) | lie_poisson (se(3)*, state [Pi, Gamma]) "
                                    "| quadratic (T*(SO(3) x R^3), state [Q, pi, p, q]) | velocity (attitude and body angular velocity, state [Q, Omega])"},
        {"mass", "15", "kg", "mass m (positive)"},
        {"inertia_com", "0.234375,0.46875,0.234375", "kg m^2",
         "inertia about the centre of mass, body axes: 3 principal moments or 9 values (symmetric, row-major); "
         "positive definite, triangle inequalities"},
        {"inertia_point", "com", "", "point about which inertia_com is given: com (the centre of mass; the parallel-axis theorem gives "
                                     "the inertia about O) | pivot (the fixed point O itself: the thesis's literal data, I = diag(0.234375, "
                                     "0.46875, 0.234375) about O with com = 0,2,0)"},
        {"com", "0,1,0", "m", "centre of mass in the body frame, from the fixed point"},
        {"gravity", "0,0,-9.81", "m/s^2", "gravity vector, spatial frame (points down)"},
        {"omega0", "0,150,-4.61538", "rad/s", "initial body angular velocity Omega(0)"},
        {"Q0", "1,0,0,0,1,0,0,0,1", "", "initial attitude (body -> space), 9 values row-major, a rotation within 1e-12"},
    };
  }
  std::string conventions() const override { return conventions_text; }

  std::unique_ptr<sdk::Model> make(const Settings& p) const {
    const std::string fs = p.choice("formulation", {"tso3", "lie_poisson", "quadratic", "velocity"});
    const Formulation f = fs == "tso3"          ? Formulation::tso3
                          : fs == "lie_poisson" ? Formulation::lie_poisson
                          : fs == "quadratic"   ? Formulation::quadratic
                                                : Formulation::velocity;

    const Eigen::Matrix3d J = inertia_about_com(p);
    const Eigen::Vector3d c = vector3(p, "com");
    const double mass = p.positive("mass");
    // Parallel axis: the inertia about the fixed point O (unless given about O).
    const bool about_pivot = p.choice("inertia_point", {"com", "pivot"}) == "pivot";
    const Eigen::Matrix3d I_O = about_pivot ? J : Eigen::Matrix3d(J + mass * (c.squaredNorm() * Eigen::Matrix3d::Identity() - c * c.transpose()));
    Physics ph = physics(mass, I_O, c, vector3(p, "gravity"));
    Eigen::VectorXd y0 = initial_state(f, ph, initial_attitude(p), vector3(p, "omega0"));
    return std::make_unique<HeavyTop>(f, std::move(ph), std::move(y0));
  }
};

}  // namespace

}  // namespace liesim::heavy_top

LIESIM_PLUGIN(model, "heavy_top", "0.2.0", "heavy top: T*SO(3), se(3)* Lie–Poisson, quadratic or (Q, Omega) formulation",
              liesim::heavy_top::HeavyTopType)
