// The quadrotor_load plugin: two quadrotors carrying a point mass by rigid massless links, on
// TR^3 x (TSO(3))^2 x (TS^2)^2 under R^6 x (SO(3) x R^3)^2 x SE(3)^2 (seed 002 §6; thesis §2.6).
#include <liesim/lie/actions.hpp>
#include <liesim/lie_space.hpp>
#include <liesim/manifold_checks.hpp>
#include <liesim/plugin.hpp>

#include <Eigen/Dense>
#include <fmt/format.h>

#include <array>
#include <cmath>
#include <numbers>

namespace liesim::quadrotor_load {

namespace {

/// M = TR^3 x (TSO(3))^2 x (TS^2)^2 under R^6 x (SO(3) x R^3)^2 x SE(3)^2 (thesis §2.6.1, notes §2.7).
using Action = lie::ProductAction<lie::RnTranslation<6>, lie::SO3xR3OnTSO3, lie::SO3xR3OnTSO3, lie::SE3OnTS2, lie::SE3OnTS2>;
static_assert(Action::point_dim == 42 && Action::Group::dim == 30);

using RowMajor3 = Eigen::Matrix<double, 3, 3, Eigen::RowMajor>;
using V3 = Eigen::Vector3d;

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
            u_i = -T_i R_i e3 (thrust), u_i^par = q_i q_i^T u_i, u_i^perp = (I - q_i q_i^T) u_i; constant
            thrust magnitudes T_i and body moments M_i (open loop; the thesis's controllers are not modelled).
EMBEDDING   state [y, v, R1 (row-major), Omega1, R2 (row-major), Omega2, q1, w1, q2, w2] (42 numbers) in
            R^42; F = [v, v', R1 hat(Omega1), Omega1', R2 hat(Omega2), Omega2', w1 x q1, w1', w2 x q2, w2'].
INVARIANTS  mechanical_energy E = 1/2 m_y |v|^2 + 1/2 sum_i (m_i |v - L_i w_i x q_i|^2 + Omega_i . J_i Omega_i)
            - m_y g e3 . y - sum_i m_i g e3 . (y - L_i q_i), NOT conserved: dE/dt = input_power;
            input_power P = sum_i (u_i . (v - L_i w_i x q_i) + M_i . Omega_i) (so E(t) - E(0) - int_0^t P
            is the conserved energy balance); q<i>_norm_minus_1 = |q_i| - 1; q<i>_dot_w<i> = q_i . w_i;
            R<i>_orthogonality = ||R_i^T R_i - I||_F.
PARAMETERS  J1, J2 (principal moments, body frame), m_y, m1, m2, L1, L2, g (e3 down); thrust1, thrust2
            (default: hover share T_i = m_i g + t_i q_i(0) . e3, where the link tensions t_i solve the load's
            static equilibrium t_1 q_1(0) + t_2 q_2(0) = m_y g e3 in least squares; equal shares
            t_i q_i . e3 = m_y g / 2 if the links are parallel: the vertical thrusts then carry the whole
            weight (m_y + m1 + m2) g while R_i = I); moment1, moment2 (body frame, default (1, 1, 1) as in
            the original experiment); initial y0, v0, theta1_0, theta2_0 (R_i(0) = exp(hat(theta_i_0))),
            Omega1_0, Omega2_0, q1_0, q2_0 (unit), w1_0, w2_0 (tangent).
SOURCE      Celledoni, Cokaj, Leone, Murari, Owren, Lie group integrators for mechanical systems, IJCM 99
            (2022) §6 (seed 002); thesis of E. Cokaj §2.6; model of Lee, Sreenath, Kumar, IEEE CDC 2013;
            data of the authors' code (J, masses, lengths, initial state, M_i = (1, 1, 1)).)";

struct Data {
  std::array<Eigen::Vector3d, 2> J;       // principal moments
  double my = 0, g = 0;
  std::array<double, 2> m{}, L{}, T{};    // quadrotor masses, link lengths, thrust magnitudes
  std::array<Eigen::Vector3d, 2> M;       // body moments
};

class QuadrotorLoad final : public sdk::Model {
 public:
  QuadrotorLoad(Data data, Eigen::VectorXd y0)
      : sdk::Model(std::make_unique<PowerSpace<Action>>(1)), p_(std::move(data)), y0_(std::move(y0)) {}

  void initial_state(Vec y) const override { y = y0_; }

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
    return {{"mechanical_energy", "kinetic + potential energy, J; not conserved: dE/dt = input_power"},
            {"input_power", "power of thrusts and moments, sum_i u_i . (quadrotor i velocity) + M_i . Omega_i, W"},
            {"q1_norm_minus_1", "|q_1| - 1 (stays on S^2)"},
            {"q1_dot_w1", "q_1 . w_1 (tangency)"},
            {"q2_norm_minus_1", "|q_2| - 1 (stays on S^2)"},
            {"q2_dot_w2", "q_2 . w_2 (tangency)"},
            {"R1_orthogonality", "||R_1^T R_1 - I||_F (stays on SO(3))"},
            {"R2_orthogonality", "||R_2^T R_2 - I||_F (stays on SO(3))"}};
  }

  void evaluate_invariants(ConstVec y, Vec out) const noexcept override {
    const V3 e3 = V3::UnitZ();
    const V3 pos = y.segment<3>(Y), v = y.segment<3>(V);
    double T = 0.5 * p_.my * v.squaredNorm(), U = -p_.my * p_.g * e3.dot(pos), P = 0;
    for (int i = 0; i < 2; ++i) {
      const Eigen::Matrix3d R = Eigen::Map<const RowMajor3>(y.data() + R_at[i]);
      const V3 Om = y.segment<3>(OM_at[i]), q = y.segment<3>(Q_at[i]), w = y.segment<3>(W_at[i]);
      const V3 vq = v - p_.L[i] * w.cross(q);  // velocity of quadrotor i
      T += 0.5 * p_.m[i] * vq.squaredNorm() + 0.5 * Om.dot(p_.J[i].cwiseProduct(Om));
      U -= p_.m[i] * p_.g * e3.dot(pos - p_.L[i] * q);
      P += (-p_.T[i] * (R * e3)).dot(vq) + p_.M[i].dot(Om);
      out[2 + 2 * i] = q.norm() - 1.0;
      out[3 + 2 * i] = q.dot(w);
      out[6 + i] = (R.transpose() * R - Eigen::Matrix3d::Identity()).norm();
    }
    out[0] = T + U;
    out[1] = P;
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
  /// Accelerations v', Omega_i', w_i' at y (A(z) z' = h(z) solved block by block).
  void accelerations(ConstVec y, V3& vdot, std::array<V3, 2>& Omdot, std::array<V3, 2>& wdot) const noexcept {
    const V3 e3 = V3::UnitZ();
    Eigen::Matrix3d Mq = p_.my * Eigen::Matrix3d::Identity();
    V3 rhs = V3::Zero();
    std::array<V3, 2> u_perp;
    for (int i = 0; i < 2; ++i) {
      const Eigen::Matrix3d R = Eigen::Map<const RowMajor3>(y.data() + R_at[i]);
      const V3 q = y.segment<3>(Q_at[i]), w = y.segment<3>(W_at[i]);
      const V3 u = -p_.T[i] * (R * e3);
      const V3 u_par = q * q.dot(u);
      u_perp[i] = u - u_par;
      Mq.noalias() += p_.m[i] * (q * q.transpose());
      rhs += u_par - p_.m[i] * p_.L[i] * w.squaredNorm() * q;
    }
    rhs += Mq * (p_.g * e3);
    vdot = Mq.llt().solve(rhs);
    for (int i = 0; i < 2; ++i) {
      const V3 Om = y.segment<3>(OM_at[i]), q = y.segment<3>(Q_at[i]);
      Omdot[i] = (p_.M[i] - Om.cross(p_.J[i].cwiseProduct(Om))).cwiseQuotient(p_.J[i]);
      wdot[i] = (q.cross(vdot) - p_.g * q.cross(e3)) / p_.L[i] - q.cross(u_perp[i]) / (p_.m[i] * p_.L[i]);
    }
  }

  Status do_generator(double, ConstVec y, Vec xi) noexcept override {
    V3 vdot;
    std::array<V3, 2> Omdot, wdot;
    accelerations(y, vdot, Omdot, wdot);
    xi.segment<3>(0) = y.segment<3>(V);
    xi.segment<3>(3) = vdot;
    for (int i = 0; i < 2; ++i) {
      const Eigen::Matrix3d R = Eigen::Map<const RowMajor3>(y.data() + R_at[i]);
      xi.segment<3>(ETA_at[i]) = R * V3(y.segment<3>(OM_at[i]));
      xi.segment<3>(ETA_at[i] + 3) = Omdot[i];
      xi.segment<3>(MU_at[i]) = y.segment<3>(W_at[i]);
      xi.segment<3>(MU_at[i] + 3) = V3(y.segment<3>(Q_at[i])).cross(wdot[i]);
    }
    return xi.allFinite() ? Status::ok : fail(Status::fatal, "quadrotor_load: non-finite generator (state left the manifold?)");
  }

  Status do_vector_field(double, ConstVec y, Vec dy) noexcept override {
    V3 vdot;
    std::array<V3, 2> Omdot, wdot;
    accelerations(y, vdot, Omdot, wdot);
    dy.segment<3>(Y) = y.segment<3>(V);
    dy.segment<3>(V) = vdot;
    for (int i = 0; i < 2; ++i) {
      const Eigen::Matrix3d R = Eigen::Map<const RowMajor3>(y.data() + R_at[i]);
      Eigen::Map<RowMajor3>(dy.data() + R_at[i]) = R * lie::SO3::hat(y.segment<3>(OM_at[i]));
      dy.segment<3>(OM_at[i]) = Omdot[i];
      dy.segment<3>(Q_at[i]) = V3(y.segment<3>(W_at[i])).cross(V3(y.segment<3>(Q_at[i])));
      dy.segment<3>(W_at[i]) = wdot[i];
    }
    return dy.allFinite() ? Status::ok : fail(Status::fatal, "quadrotor_load: non-finite vector field");
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
