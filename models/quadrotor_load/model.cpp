// The quadrotor_load plugin: two quadrotors carrying a point mass by rigid massless links, on
// TR^3 x (TSO(3))^2 x (TS^2)^2 under R^6 x (SO(3) x R^3)^2 x SE(3)^2 (seed 002 §6; thesis §2.6).
#include <liesim/lie/actions.hpp>
#include <liesim/sdk/lie_space.hpp>
#include <liesim/sdk/manifold_checks.hpp>
#include <liesim/sdk/plugin.hpp>

#include "tracking.hpp"

#include <Eigen/Dense>
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>

namespace liesim::quadrotor_load {

namespace {

/// M = TR^3 x (TSO(3))^2 x (TS^2)^2 under R^6 x (SO(3) x R^3)^2 x SE(3)^2 (thesis §2.6.1, notes §2.7).
using Action = lie::ProductAction<lie::RnTranslation<6>, lie::SO3xR3OnTSO3, lie::SO3xR3OnTSO3, lie::SE3OnTS2, lie::SE3OnTS2>;
static_assert(Action::point_dim == 42 && Action::Group::dim == 30);

using RowMajor3 = Eigen::Matrix<double, 3, 3, Eigen::RowMajor>;

// Offsets in the state [y, v, R1, Omega1, R2, Omega2, q1, w1, q2, w2].
constexpr int Y = 0, V = 3, R1 = 6, OM1 = 15, R2 = 18, OM2 = 27, Q1 = 30, W1 = 33, Q2 = 36, W2 = 39;
constexpr std::array<int, 2> R_at{R1, R2}, OM_at{OM1, OM2}, Q_at{Q1, Q2}, W_at{W1, W2};
// Offsets in the algebra [xi1, xi2, eta1, eta2, eta3, eta4, mu1, mu2, mu3, mu4].
constexpr std::array<int, 2> ETA_at{6, 12}, MU_at{18, 24};

constexpr const char* conventions_text = R"(SPACE       M = TR^3 x (TSO(3))^2 x (TS^2)^2, points P = (y, v, R1, Omega1, R2, Omega2, q1, w1, q2, w2): load
            position y and velocity v; quadrotor attitudes R_i with body angular velocities Omega_i
            (R_i' = R_i hat(Omega_i), left trivialisation of TSO(3)); link directions q_i in S^2 (from
            quadrotor i towards the load, quadrotor i at y - L_i q_i) with angular velocities w_i
            (q_i' = w_i x q_i, q_i . w_i = 0). Inertial e3 points DOWN, along gravity (thesis erratum 6).
GROUP       R^6 x (SO(3) x R^3)^2 x SE(3)^2, direct product, 30-dim algebra xi = [xi1, xi2 | eta1, eta2 |
            eta3, eta4 | mu1, mu2 | mu3, mu4] (so(3) before R^3, se(3) rotation first); dexpinv blockwise:
            identity on R^6 and R^3, so(3)-dexpinv on eta1, eta3, se(3)-dexpinv on (mu1, mu2), (mu3, mu4).
ACTION      left action psi_g(P) = [y + a1, v + a2, B1 R1, Omega1 + b1, B2 R2, Omega2 + b2, C1 q1,
            C1 w1 + c1 x C1 q1, C2 q2, C2 w2 + c2 x C2 q2] (lie::RnTranslation<6>, lie::SO3xR3OnTSO3,
            lie::SE3OnTS2); generator [xi1, xi2, hat(eta1) R1, eta2, hat(eta3) R2, eta4, mu1 x q1,
            mu1 x w1 + mu2 x q1, mu3 x q2, mu3 x w2 + mu4 x q2]. Preserves R_i^T R_i = I, |q_i|, q_i . w_i.
GENERATOR   f(P) = [v, v', R1 Omega1, Omega1', R2 Omega2, Omega2', w1, q1 x w1', w2, q2 x w2'] with
            (A(z) z' = h(z), seed 002 (37), notes §3.5):
              M_q v' = -sum_i m_i L_i |w_i|^2 q_i + M_q g e3 + sum_i u_i^par,  M_q = m_y I + sum_i m_i q_i q_i^T,
              J_i Omega_i' = -Omega_i x J_i Omega_i + M_i,
              w_i' = (1/L_i) q_i x v' - (g/L_i) q_i x e3 - (1/(m_i L_i)) q_i x u_i^perp,
            control = open_loop: u_i = -T_i R_i e3 (thrust), u_i^par = q_i q_i^T u_i, u_i^perp = (I - q_i q_i^T) u_i,
            constant thrust magnitudes T_i. control = tracking (thesis §2.6 Figs 2.13-2.18, spec
            quadrotor-tracking.md §4): f = f(t, P); the geometric controller of Lee-Sreenath-Kumar prescribes
            u_i^par = m_i L_i |w_i|^2 q_i + mu_i + (m_i/m_y)(q_i . (mu_1 + mu_2)) q_i, mu_i = c_i (F . q_i) q_i,
            F = m_y(-k_y e_y - k_v e_v + y_d'' - g e3), e_y = y - y_d(t), e_v = v - y_d'(t), and
            u_i^perp = m_i L_i q_i x X_i - (m_i/m_y) q_i x (q_i x mu_j) with X_i = -k_q e_qi - k_w e_wi
            - (q_i . w_id) q_i' - q_i x (q_i x w_id'), e_qi = q_id x q_i, e_wi = w_i + q_i x (q_i x w_id),
            q_id = Q_d r_id, Q_d = [b1 | b2 | b3](F, s_d), b3 = -F/|F|; F', F'' exact along the closed loop.
            Body moments M_i constant in both modes (the attitudes are not controlled; R_i plays no role
            in the load and links under tracking).
EMBEDDING   state [y, v, R1 (row-major), Omega1, R2 (row-major), Omega2, q1, w1, q2, w2] (42 numbers) in
            R^42; F = [v, v', R1 hat(Omega1), Omega1', R2 hat(Omega2), Omega2', w1 x q1, w1', w2 x q2, w2'].
INVARIANTS  mechanical_energy E = 1/2 m_y |v|^2 + 1/2 sum_i (m_i |v - L_i w_i x q_i|^2 + Omega_i . J_i Omega_i)
            - m_y g e3 . y - sum_i m_i g e3 . (y - L_i q_i), NOT conserved: dE/dt = input_power;
            input_power P = sum_i (u_i . (v - L_i w_i x q_i) + M_i . Omega_i) (so E(t) - E(0) - int_0^t P
            is the conserved energy balance); q<i>_norm_minus_1 = |q_i| - 1; q<i>_dot_w<i> = q_i . w_i;
            R<i>_orthogonality = ||R_i^T R_i - I||_F. Under tracking input_power is an observable (it depends on t).
OBSERVABLES control = tracking only, written after the invariants: tracking_error |y - y_d(t)| (m, same t: not
            the original code's one-step-lagged |y(t_k+1) - y_d(t_k)|), link<i>_direction_error |q_id x q_i|,
            yd_x, yd_y, yd_z = y_d(t) (m), input_power (W).
PARAMETERS  J1, J2 (principal moments, body frame), m_y, m1, m2, L1, L2, g (e3 down); thrust1, thrust2
            (default: hover share T_i = m_i g + t_i q_i(0) . e3, where the link tensions t_i solve the load's
            static equilibrium t_1 q_1(0) + t_2 q_2(0) = m_y g e3 in least squares; equal shares
            t_i q_i . e3 = m_y g / 2 if the links are parallel: the vertical thrusts then carry the whole
            weight (m_y + m1 + m2) g while R_i = I); moment1, moment2 (body frame, default (1, 1, 1) as in
            the original experiment); initial y0, v0, theta1_0, theta2_0 (R_i(0) = exp(hat(theta_i_0))),
            Omega1_0, Omega2_0, q1_0, q2_0 (unit), w1_0, w2_0 (tangent); control = open_loop | tracking;
            tracking: gains k_y = 12, k_v = 5, k_q = 16, k_w = 5; y_d(t) = yd_p0 + yd_p1 s + yd_p2 s^2, s = t - yd_tc
            (default (t - 2.5, 0, (t - 2.5)^2 - 7)); formation r1d, r2d = (+-sin 30 deg, 0, cos 30 deg), s_d = (0, -1, 0).
SOURCE      Celledoni, Cokaj, Leone, Murari, Owren, Lie group integrators for mechanical systems, IJCM 99
            (2022) §6 (seed 002); thesis of E. Cokaj §2.6; model of Lee, Sreenath, Kumar, IEEE CDC 2013;
            data of the authors' code (J, masses, lengths, initial state, M_i = (1, 1, 1), gains, y_d, formation;
            GitHub THREAD-3-2/RKMK_Commutator_free_integrators, src/control_functions).)";

struct Data {
  std::array<Eigen::Vector3d, 2> J;       // principal moments
  double my = 0, g = 0;
  std::array<double, 2> m{}, L{}, T{};    // quadrotor masses, link lengths, thrust magnitudes (open loop)
  std::array<Eigen::Vector3d, 2> M;       // body moments
  bool tracking = false;                  // control = tracking: forces from the controller, f depends on t
  Tracking controller;
};

/// The link forces u_i^par (along q_i) and u_i^perp (across) at (t, y): the controller's in
/// tracking mode, else those of the thrust u_i = -T_i R_i e3.
struct LinkForces {
  std::array<V3, 2> par, perp;
};

class QuadrotorLoad final : public sdk::Model {
 public:
  QuadrotorLoad(Data data, Eigen::VectorXd y0)
      : sdk::Model(std::make_unique<PowerSpace<Action>>(1)), p_(std::move(data)), y0_(std::move(y0)) {}

  void initial_state(Vec y) const override { y = y0_; }

  /// Each quadrotor i at x_i = y - L_i q_i with attitude R_i (body -> space; body e3 points down,
  /// the thrust -T_i R_i e3 up): its body axes, an airframe of two crossed arms along its body x
  /// and y axes, and four rotor discs (normal body e3) at the arm tips, slightly above the arms;
  /// the two links (cables) from x_i to the load y; the load, a sphere at y. The model has no
  /// arm length: the arms are 0.25 min(L1, L2) long from the centre (an airframe with the inertia
  /// J_i would have arms of about sqrt(3 J_i3 / m_i) = 0.74 m and the two quadrotors would overlap
  /// at the default links). e3 points down: up = -e3. Under control = tracking, the desired load
  /// trajectory y_d(t) (observables yd_x, yd_y, yd_z) is drawn as a path.
  Scene scene() const override {
    Scene s;
    const double d = arm();
    for (int i = 1; i <= 2; ++i) {
      const std::uint32_t frame = i == 1 ? 0x4477aa : 0xee6677;
      s.bodies.push_back({fmt::format("quadrotor{}_axes", i), Shape::axes, {1.6 * d, 0, 0}, 0x000000});
      s.bodies.push_back({fmt::format("quadrotor{}_arm_x", i), Shape::box, {2 * d, 0.1 * d, 0.06 * d}, frame});
      s.bodies.push_back({fmt::format("quadrotor{}_arm_y", i), Shape::box, {0.1 * d, 2 * d, 0.06 * d}, frame});
      for (int k = 1; k <= 4; ++k) s.bodies.push_back({fmt::format("quadrotor{}_rotor{}", i, k), Shape::cylinder, {0.45 * d, 0.04 * d, 0}, 0xbbbbbb});
    }
    for (int i = 1; i <= 2; ++i) s.bodies.push_back({fmt::format("link{}", i), Shape::segment, {0.03 * d, 0, 0}, 0x555555});
    s.bodies.push_back({"load", Shape::sphere, {0.35 * d, 0, 0}, 0x228833});
    s.up = {0, 0, -1};
    s.extent = p_.L[0] + p_.L[1];
    if (p_.tracking) s.paths.push_back({"yd_x", "yd_y", "yd_z"});
    return s;
  }
  /// Bodies 7 i .. 7 i + 6 for quadrotor i (0-based): axes and arms at (x_i, R_i), rotor k at
  /// x_i + R_i r_k (r_k = (d, 0, -h), (-d, 0, -h), (0, d, -h), (0, -d, -h), h = 0.08 d) with attitude R_i;
  /// bodies 14, 15 the links from x_i to y; body 16 the load at y.
  Status scene_poses(double, ConstVec y, Vec out) noexcept override {
    const double d = arm(), h = 0.08 * d;
    const V3 load = y.segment<3>(Y);
    const std::array<V3, 4> rotor{V3(d, 0, -h), V3(-d, 0, -h), V3(0, d, -h), V3(0, -d, -h)};
    for (int i = 0; i < 2; ++i) {
      const Eigen::Map<const RowMajor3> R(y.data() + R_at[i]);
      const V3 x = load - p_.L[i] * V3(y.segment<3>(Q_at[i]));
      for (int k = 0; k < 3; ++k) sdk::set_pose(out, 7 * i + k, x, R);
      for (int k = 0; k < 4; ++k) sdk::set_pose(out, 7 * i + 3 + k, V3(x + R * rotor[k]), R);
      sdk::set_pose_points(out, 14 + i, x, load);
    }
    sdk::set_pose(out, 16, load, Eigen::Matrix3d::Identity());
    return Status::ok;
  }

  std::vector<std::string> state_names() const override {
    std::vector<std::string> names;
    auto vec = [&](const std::string& v) {
      for (const char* c : {"x", "y", "z"}) names.push_back(v + "_" + c);
    };
    vec("y");
    vec("v");
    for (int i = 1; i <= 2; ++i) {
      for (int r = 1; r <= 3; ++r)
        for (int c = 1; c <= 3; ++c) names.push_back(fmt::format("R{}_{}{}", i, r, c));
      vec(fmt::format("Omega{}", i));
    }
    for (int i = 1; i <= 2; ++i) {
      vec(fmt::format("q{}", i));
      vec(fmt::format("w{}", i));
    }
    return names;
  }

  std::vector<InvariantInfo> invariants() const override {
    std::vector<InvariantInfo> out{{"mechanical_energy", "kinetic + potential energy, J; not conserved: dE/dt = input_power"}};
    if (!p_.tracking)
      out.push_back({"input_power", "power of thrusts and moments, sum_i u_i . (quadrotor i velocity) + M_i . Omega_i, W"});
    for (InvariantInfo& i : constraints()) out.push_back(std::move(i));
    return out;
  }

  std::vector<ObservableInfo> observables() const override {
    if (!p_.tracking) return {};
    return {{"tracking_error", "m", "|y - y_d(t)|, distance of the load from the desired trajectory (at the same t)"},
            {"link1_direction_error", "", "|e_q1| = |q_1d x q_1|, q_1d = Q_d r_1d the desired direction of link 1"},
            {"link2_direction_error", "", "|e_q2| = |q_2d x q_2|"},
            {"yd_x", "m", "desired load position y_d(t), first component"},
            {"yd_y", "m", "y_d(t), second component"},
            {"yd_z", "m", "y_d(t), third component (e3 points down: altitude is -yd_z)"},
            {"input_power", "W", "power of the controller's forces and the moments, sum_i u_i . (quadrotor i velocity) + M_i . Omega_i"}};
  }

  Status evaluate_observables(double t, ConstVec y, Vec out) noexcept override {
    if (!p_.tracking) return Status::ok;
    const Tracking::Output c = control(t, y);
    out[0] = (y.segment<3>(Y) - c.y_d).norm();
    for (int i = 0; i < 2; ++i) out[1 + i] = c.q_d[i].cross(V3(y.segment<3>(Q_at[i]))).norm();
    out.segment<3>(3) = c.y_d;
    out[6] = input_power(y, {c.u_par, c.u_perp});
    return out.allFinite() ? Status::ok : fail(Status::fatal, undefined_frame);
  }

  void evaluate_invariants(ConstVec y, Vec out) const noexcept override {
    const V3 e3 = V3::UnitZ();
    const V3 pos = y.segment<3>(Y), v = y.segment<3>(V);
    double T = 0.5 * p_.my * v.squaredNorm(), U = -p_.my * p_.g * e3.dot(pos);
    const int c = p_.tracking ? 1 : 2;  // first constraint's index
    for (int i = 0; i < 2; ++i) {
      const Eigen::Matrix3d R = Eigen::Map<const RowMajor3>(y.data() + R_at[i]);
      const V3 Om = y.segment<3>(OM_at[i]), q = y.segment<3>(Q_at[i]), w = y.segment<3>(W_at[i]);
      const V3 vq = v - p_.L[i] * w.cross(q);  // velocity of quadrotor i
      T += 0.5 * p_.m[i] * vq.squaredNorm() + 0.5 * Om.dot(p_.J[i].cwiseProduct(Om));
      U -= p_.m[i] * p_.g * e3.dot(pos - p_.L[i] * q);
      out[c + 2 * i] = q.norm() - 1.0;
      out[c + 1 + 2 * i] = q.dot(w);
      out[c + 4 + i] = (R.transpose() * R - Eigen::Matrix3d::Identity()).norm();
    }
    out[0] = T + U;
    if (!p_.tracking) out[1] = input_power(y, thrust_forces(y));
  }

  static std::vector<InvariantInfo> constraints() {
    return {{"q1_norm_minus_1", "|q_1| - 1 (stays on S^2)"},
            {"q1_dot_w1", "q_1 . w_1 (tangency)"},
            {"q2_norm_minus_1", "|q_2| - 1 (stays on S^2)"},
            {"q2_dot_w2", "q_2 . w_2 (tangency)"},
            {"R1_orthogonality", "||R_1^T R_1 - I||_F (stays on SO(3))"},
            {"R2_orthogonality", "||R_2^T R_2 - I||_F (stays on SO(3))"}};
  }

  std::string check_state(ConstVec y) const override { return check_quadrotor_state(y); }

  /// "" when R_i are rotations (||R_i^T R_i - I||_F <= 1e-12, det > 0), |q_i| = 1 and q_i . w_i = 0
  /// within 1e-12 (relative to |w_i| for tangency); else a message naming the violation.
  static std::string check_quadrotor_state(ConstVec y) {
    for (int i = 0; i < 2; ++i) {
      std::string off = rotation_violation(Eigen::Map<const RowMajor3>(y.data() + R_at[i]), fmt::format("R{}", i + 1));
      if (off.empty()) off = tangent_sphere_violation(y.segment<3>(Q_at[i]), y.segment<3>(W_at[i]), i + 1);
      if (!off.empty()) return off;
    }
    return {};
  }

 private:
  static constexpr const char* undefined_frame =
      "quadrotor_load: the tracking controller's formation frame is undefined (desired force F = 0 or parallel to "
      "s_d; or the state left the manifold): change s_d, the gains or the desired trajectory";

  /// The controller's output at (t, y) (tracking mode).
  Tracking::Output control(double t, ConstVec y) const {
    const std::array<V3, 2> q{y.segment<3>(Q1), y.segment<3>(Q2)}, w{y.segment<3>(W1), y.segment<3>(W2)};
    return p_.controller(t, y.segment<3>(Y), y.segment<3>(V), q, w);
  }

  /// Open loop: u_i = -T_i R_i e3 split along and across q_i.
  LinkForces thrust_forces(ConstVec y) const {
    LinkForces f;
    for (int i = 0; i < 2; ++i) {
      const Eigen::Matrix3d R = Eigen::Map<const RowMajor3>(y.data() + R_at[i]);
      const V3 q = y.segment<3>(Q_at[i]);
      const V3 u = -p_.T[i] * (R * V3::UnitZ());
      f.par[i] = q * q.dot(u);
      f.perp[i] = u - f.par[i];
    }
    return f;
  }

  LinkForces forces(double t, ConstVec y) const {
    if (!p_.tracking) return thrust_forces(y);
    const Tracking::Output c = control(t, y);
    return {c.u_par, c.u_perp};
  }

  /// sum_i u_i . (v - L_i w_i x q_i) + M_i . Omega_i (thrust acts on the quadrotor).
  double input_power(ConstVec y, const LinkForces& f) const {
    double P = 0;
    for (int i = 0; i < 2; ++i) {
      const V3 q = y.segment<3>(Q_at[i]), w = y.segment<3>(W_at[i]);
      P += (f.par[i] + f.perp[i]).dot(V3(y.segment<3>(V)) - p_.L[i] * w.cross(q)) + p_.M[i].dot(V3(y.segment<3>(OM_at[i])));
    }
    return P;
  }

  /// Accelerations v', Omega_i', w_i' at (t, y) (A(z) z' = h(z) solved block by block).
  void accelerations(double t, ConstVec y, V3& vdot, std::array<V3, 2>& Omdot, std::array<V3, 2>& wdot) const noexcept {
    const V3 e3 = V3::UnitZ();
    const LinkForces u = forces(t, y);
    Eigen::Matrix3d Mq = p_.my * Eigen::Matrix3d::Identity();
    V3 rhs = V3::Zero();
    for (int i = 0; i < 2; ++i) {
      const V3 q = y.segment<3>(Q_at[i]), w = y.segment<3>(W_at[i]);
      Mq.noalias() += p_.m[i] * (q * q.transpose());
      rhs += u.par[i] - p_.m[i] * p_.L[i] * w.squaredNorm() * q;
    }
    rhs += Mq * (p_.g * e3);
    vdot = Mq.llt().solve(rhs);
    for (int i = 0; i < 2; ++i) {
      const V3 Om = y.segment<3>(OM_at[i]), q = y.segment<3>(Q_at[i]);
      Omdot[i] = (p_.M[i] - Om.cross(p_.J[i].cwiseProduct(Om))).cwiseQuotient(p_.J[i]);
      wdot[i] = (q.cross(vdot) - p_.g * q.cross(e3)) / p_.L[i] - q.cross(u.perp[i]) / (p_.m[i] * p_.L[i]);
    }
  }

  /// The drawn arm length (centre to rotor axis): 0.25 min(L1, L2).
  double arm() const noexcept { return 0.25 * std::min(p_.L[0], p_.L[1]); }

  const char* nonfinite(const char* what) const noexcept { return p_.tracking ? undefined_frame : what; }

  Status do_generator(double t, ConstVec y, Vec xi) noexcept override {
    V3 vdot;
    std::array<V3, 2> Omdot, wdot;
    accelerations(t, y, vdot, Omdot, wdot);
    xi.segment<3>(0) = y.segment<3>(V);
    xi.segment<3>(3) = vdot;
    for (int i = 0; i < 2; ++i) {
      const Eigen::Matrix3d R = Eigen::Map<const RowMajor3>(y.data() + R_at[i]);
      xi.segment<3>(ETA_at[i]) = R * V3(y.segment<3>(OM_at[i]));
      xi.segment<3>(ETA_at[i] + 3) = Omdot[i];
      xi.segment<3>(MU_at[i]) = y.segment<3>(W_at[i]);
      xi.segment<3>(MU_at[i] + 3) = V3(y.segment<3>(Q_at[i])).cross(wdot[i]);
    }
    return xi.allFinite() ? Status::ok : fail(Status::fatal, nonfinite("quadrotor_load: non-finite generator (state left the manifold?)"));
  }

  Status do_vector_field(double t, ConstVec y, Vec dy) noexcept override {
    V3 vdot;
    std::array<V3, 2> Omdot, wdot;
    accelerations(t, y, vdot, Omdot, wdot);
    dy.segment<3>(Y) = y.segment<3>(V);
    dy.segment<3>(V) = vdot;
    for (int i = 0; i < 2; ++i) {
      const Eigen::Matrix3d R = Eigen::Map<const RowMajor3>(y.data() + R_at[i]);
      Eigen::Map<RowMajor3>(dy.data() + R_at[i]) = R * lie::SO3::hat(y.segment<3>(OM_at[i]));
      dy.segment<3>(OM_at[i]) = Omdot[i];
      dy.segment<3>(Q_at[i]) = V3(y.segment<3>(W_at[i])).cross(V3(y.segment<3>(Q_at[i])));
      dy.segment<3>(W_at[i]) = wdot[i];
    }
    return dy.allFinite() ? Status::ok : fail(Status::fatal, nonfinite("quadrotor_load: non-finite vector field"));
  }

  Data p_;
  Eigen::VectorXd y0_;
};

V3 vector3(const Settings& p, const std::string& key) {
  const auto v = p.numbers(key, {3});
  return V3(v[0], v[1], v[2]);
}

double positive_param(const Settings& p, const std::string& key, const char* what) {
  const double v = p.number(key);
  if (!(v > 0)) throw Error(fmt::format("parameter '{}': {} {} must be positive", key, what, v));
  return v;
}

/// The tracking controller's data from the parameters (spec §3), validated.
Tracking tracking_controller(const Settings& p, const Data& d) {
  Tracking c;
  c.m_y = d.my;
  c.g = d.g;
  c.m = d.m;
  c.L = d.L;
  for (auto [key, gain] : {std::pair{"k_y", &c.k_y}, {"k_v", &c.k_v}, {"k_q", &c.k_q}, {"k_w", &c.k_w}}) {
    *gain = p.number(key);
    if (!(*gain >= 0)) throw Error(fmt::format("parameter '{}': gain {} must be >= 0", key, *gain));
  }
  c.y_d.t_c = p.number("yd_tc");
  c.y_d.p0 = vector3(p, "yd_p0");
  c.y_d.p1 = vector3(p, "yd_p1");
  c.y_d.p2 = vector3(p, "yd_p2");
  const V3 e3 = V3::UnitZ();
  for (int i = 0; i < 2; ++i) {
    const std::string key = fmt::format("r{}d", i + 1);
    c.r_d[i] = vector3(p, key);
    if (!(std::abs(c.r_d[i].norm() - 1) <= 1e-12))
      throw Error(fmt::format("parameter '{}': the formation direction must be a unit vector (|r| = {:.17g})", key, c.r_d[i].norm()));
    if (!(c.r_d[i].dot(e3) > 0))
      throw Error(fmt::format("parameter '{}': the formation direction must point below its vehicle (r . e3 > 0, e3 down)", key));
  }
  const V3 sum = c.r_d[0] + c.r_d[1];
  if (!(sum.cross(e3).norm() <= 1e-12 * sum.norm()))
    throw Error(fmt::format("parameters 'r1d', 'r2d': r1d + r2d = ({:g}, {:g}, {:g}) must be parallel to e3: the controller's tension "
                            "split c_i = 1/((r_id . e3) |r1d + r2d|) gives mu_1 + mu_2 = F only then (spec §6.3(7))",
                            sum[0], sum[1], sum[2]));
  for (int i = 0; i < 2; ++i) c.c[i] = 1.0 / (c.r_d[i].dot(e3) * sum.norm());
  c.s_d = vector3(p, "s_d");
  if (!(c.s_d.norm() > 0)) throw Error("parameter 's_d': the heading vector must not be zero");
  return c;
}

class QuadrotorLoadType final : public sdk::ModelTypeBase<QuadrotorLoadType> {
 public:
  std::string summary() const override {
    return "two quadrotors carrying a point mass by rigid links, on TR^3 x (TSO(3))^2 x (TS^2)^2 under R^6 x (SO(3) x R^3)^2 x SE(3)^2";
  }

  std::vector<SettingSpec> parameters() const override {
    return {
        {"J1", "0.0820,0.0845,0.1377", "kg m^2", "principal moments of inertia of quadrotor 1 (body frame, positive)"},
        {"J2", "0.0820,0.0845,0.1377", "kg m^2", "principal moments of inertia of quadrotor 2 (body frame, positive)"},
        {"m_y", "0.4", "kg", "mass of the load (positive)"},
        {"m1", "0.755", "kg", "mass of quadrotor 1 (positive)"},
        {"m2", "0.755", "kg", "mass of quadrotor 2 (positive)"},
        {"L1", "0.6", "m", "length of link 1 (positive)"},
        {"L2", "0.8", "m", "length of link 2 (positive)"},
        {"g", "9.81", "m/s^2", "gravitational acceleration (>= 0), along +e3 (e3 points down)"},
        {"thrust1", "", "N", "thrust magnitude T_1 >= 0, u_1 = -T_1 R_1 e3 (default: hover share m_1 g + t_1 q_1(0) . e3, see conventions)"},
        {"thrust2", "", "N", "thrust magnitude T_2 >= 0, u_2 = -T_2 R_2 e3 (default: hover share m_2 g + t_2 q_2(0) . e3)"},
        {"moment1", "1,1,1", "N m", "constant moment M_1 of quadrotor 1 (body frame)"},
        {"moment2", "1,1,1", "N m", "constant moment M_2 of quadrotor 2 (body frame)"},
        {"y0", "-2,0,0", "m", "initial load position"},
        {"v0", "0,0,0", "m/s", "initial load velocity"},
        {"theta1_0", "0,0,0", "rad", "initial attitude of quadrotor 1 as a rotation vector: R_1(0) = exp(hat(theta1_0))"},
        {"theta2_0", "0,0,0", "rad", "initial attitude of quadrotor 2: R_2(0) = exp(hat(theta2_0))"},
        {"Omega1_0", "0,0,0", "rad/s", "initial body angular velocity of quadrotor 1"},
        {"Omega2_0", "0,0,0", "rad/s", "initial body angular velocity of quadrotor 2"},
        {"q1_0", "0.984807753012208,0,0.17364817766693033", "", "initial direction of link 1, unit (default (sin 80 deg, 0, cos 80 deg))"},
        {"q2_0", "-0.984807753012208,0,0.17364817766693033", "", "initial direction of link 2, unit (default (-sin 80 deg, 0, cos 80 deg))"},
        {"w1_0", "0,0,0", "rad/s", "initial angular velocity of link 1 (tangent: q1_0 . w1_0 = 0)"},
        {"w2_0", "0,0,0", "rad/s", "initial angular velocity of link 2 (tangent: q2_0 . w2_0 = 0)"},
        {"control", "open_loop", "", "open_loop (constant thrusts thrust1, thrust2) or tracking (the geometric tracking controller of the "
                                     "original experiment prescribes the link forces; the vector field depends on t)"},
        {"k_y", "12", "1/s^2", "tracking: load position gain"},
        {"k_v", "5", "1/s", "tracking: load velocity gain"},
        {"k_q", "16", "1/s^2", "tracking: link direction gain"},
        {"k_w", "5", "1/s", "tracking: link angular velocity gain"},
        {"yd_tc", "2.5", "s", "tracking: desired load trajectory y_d(t) = yd_p0 + yd_p1 s + yd_p2 s^2 with s = t - yd_tc"},
        {"yd_p0", "0,0,-7", "m", "tracking: y_d at t = yd_tc (e3 down: 7 m above the plane x3 = 0)"},
        {"yd_p1", "1,0,0", "m/s", "tracking: desired load velocity at t = yd_tc"},
        {"yd_p2", "0,0,1", "m/s^2", "tracking: half the desired load acceleration (constant)"},
        {"r1d", "0.49999999999999994,0,0.86602540378443865", "", "tracking: direction of link 1 in the formation frame, unit "
                                                                  "(default (sin 30 deg, 0, cos 30 deg))"},
        {"r2d", "-0.49999999999999994,0,0.86602540378443865", "", "tracking: direction of link 2 in the formation frame, unit; "
                                                                   "r1d + r2d must be parallel to e3 (the tension split assumes it)"},
        {"s_d", "0,-1,0", "", "tracking: heading vector fixing the formation frame about the desired force"},
    };
  }

  std::string conventions() const override { return conventions_text; }

  std::unique_ptr<sdk::Model> make(const Settings& p) const {
    Data d;
    for (int i = 0; i < 2; ++i) {
      const std::string key = fmt::format("J{}", i + 1);
      d.J[i] = vector3(p, key);
      for (int k = 0; k < 3; ++k)
        if (!(d.J[i][k] > 0)) throw Error(fmt::format("parameter '{}': moment J{}{} = {} must be positive", key, i + 1, k + 1, d.J[i][k]));
      d.m[i] = positive_param(p, fmt::format("m{}", i + 1), "quadrotor mass");
      d.L[i] = positive_param(p, fmt::format("L{}", i + 1), "link length");
      d.M[i] = vector3(p, fmt::format("moment{}", i + 1));
    }
    d.my = positive_param(p, "m_y", "load mass");
    d.g = p.number("g");
    if (!(d.g >= 0)) throw Error(fmt::format("parameter 'g' must be >= 0 (got {}); gravity points along +e3 (down)", d.g));

    Eigen::VectorXd y0(42);
    y0.segment<3>(Y) = vector3(p, "y0");
    y0.segment<3>(V) = vector3(p, "v0");
    for (int i = 0; i < 2; ++i) {
      Eigen::Map<RowMajor3>(y0.data() + R_at[i]) = lie::SO3::exp(vector3(p, fmt::format("theta{}_0", i + 1)));
      y0.segment<3>(OM_at[i]) = vector3(p, fmt::format("Omega{}_0", i + 1));
      y0.segment<3>(Q_at[i]) = vector3(p, fmt::format("q{}_0", i + 1));
      y0.segment<3>(W_at[i]) = vector3(p, fmt::format("w{}_0", i + 1));
    }
    const std::string off = QuadrotorLoad::check_quadrotor_state(y0);
    if (!off.empty())
      throw Error("the initial state from parameters theta1_0, q1_0, w1_0, theta2_0, q2_0, w2_0 is off the manifold: " + off);

    // Hover share: link tensions of the load's static equilibrium t1 q1 + t2 q2 = m_y g e3 (least
    // squares), each quadrotor carrying its weight plus the vertical component of its link's tension.
    const V3 q1 = y0.segment<3>(Q1), q2 = y0.segment<3>(Q2), e3 = V3::UnitZ();
    Eigen::Matrix<double, 3, 2> Q;
    Q << q1, q2;
    const Eigen::Matrix2d G = Q.transpose() * Q;
    std::array<double, 2> vertical{0.5 * d.my * d.g, 0.5 * d.my * d.g};  // t_i q_i . e3
    if (G.determinant() > 1e-12) {
      const Eigen::Vector2d t = G.ldlt().solve(Q.transpose() * (d.my * d.g * e3));
      vertical = {t[0] * q1.dot(e3), t[1] * q2.dot(e3)};
    }
    d.tracking = p.choice("control", {"open_loop", "tracking"}) == "tracking";
    for (const char* key : {"k_y", "k_v", "k_q", "k_w", "yd_tc", "yd_p0", "yd_p1", "yd_p2", "r1d", "r2d", "s_d"})
      if (!d.tracking && p.given(key))
        throw Error(fmt::format("parameter '{}' belongs to the tracking controller: add control=tracking, or leave it out", key));
    for (const char* key : {"thrust1", "thrust2"})
      if (d.tracking && p.given(key))
        throw Error(fmt::format("parameter '{}' is the open-loop thrust; with control=tracking the controller sets the link forces: "
                                "leave it out, or use control=open_loop", key));
    if (d.tracking) d.controller = tracking_controller(p, d);
    for (int i = 0; i < 2; ++i) {
      const std::string key = fmt::format("thrust{}", i + 1);
      d.T[i] = p.given(key) ? p.number(key) : d.m[i] * d.g + vertical[i];
      if (!(d.T[i] >= 0))
        throw Error(fmt::format("parameter '{}': thrust magnitude {} must be >= 0{}", key, d.T[i],
                                p.given(key) ? "" : " (the default hover share is negative for these link directions: give it explicitly)"));
    }
    return std::make_unique<QuadrotorLoad>(std::move(d), std::move(y0));
  }
};

}  // namespace

}  // namespace liesim::quadrotor_load

LIESIM_PLUGIN(model, "quadrotor_load", "0.1.0", "two quadrotors carrying a point mass (TR^3 x (TSO(3))^2 x (TS^2)^2)",
              liesim::quadrotor_load::QuadrotorLoadType)
