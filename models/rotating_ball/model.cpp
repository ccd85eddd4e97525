// The rotating_ball plugin: a ball with homogeneous mass distribution (J = m I_3) on a damped
// torsional spring, R' = R hat(w), J w' + d w + k log(R) = 0, on TSO(3) under SO(3) x R^3
// (M. Arnold's Lie group test equation, seed 003 §3).
#include "../oscillator/damped_oscillator.hpp"

#include <liesim/lie/actions.hpp>
#include <liesim/sdk/lie_space.hpp>
#include <liesim/sdk/manifold_checks.hpp>
#include <liesim/sdk/plugin.hpp>

#include <fmt/format.h>

#include <cmath>
#include <numbers>

namespace liesim::rotating_ball {

namespace {

using RowMajor3 = Eigen::Matrix<double, 3, 3, Eigen::RowMajor>;

constexpr const char* conventions_text = R"(SPACE       TSO(3) = SO(3) x R^3, (R, w): attitude R of the ball, body angular velocity w;
            R' = R hat(w), m w' = -d w - k log(R) (J = m I_3, so the gyroscopic term w x J w vanishes).
GROUP       SO(3) x R^3, DIRECT product (B1, b1)(B2, b2) = (B1 B2, b1 + b2); algebra (eta, beta) in R^6,
            so(3) part first; dexpinv = (so(3) dexpinv, identity).
ACTION      left action (B, b) . (R, w) = (B R, w + b) (lie::SO3xR3OnTSO3); generator
            psi_*(eta, beta)|_(R,w) = (hat(eta) R, beta). As in seed 003, an RKMK step is
            R_{r+1} = exp(hat(theta)) R_r (left multiplication, right-trivialised dexpinv).
GENERATOR   f(R, w) = (R w, -(d w + k log(R))/m), since R hat(w) = hat(R w) R. For w parallel to the
            axis n and R = exp(alpha hat(n)): R w = w, every stage stays parallel to n, dexpinv acts as the
            identity, and an RKMK method reproduces the classical RK method with the same tableau on
            alpha' = v, m v' = -d v - k alpha (seed 003 §3) - to round-off.
EMBEDDING   state [R (row-major, 9 numbers), w (3)] in R^12; F = (R hat(w), w').
            log(R) = lie::SO3::log (rotation vector, angle in [0, pi]) is smooth only for angles < pi: when
            k > 0 and the angle |log R| of a state (stage) reaches pi - pi_margin, the hooks return a fatal
            status. The check sees states only: a stage that rotates by more than 2 pi_margin can jump across
            pi unseen (the torque then flips), so keep h |w| well below 2 pi_margin near pi. The angle stays
            below pi - pi_margin if 1/2 m |w0|^2 + 1/2 k alpha0^2 < 1/2 k (pi - pi_margin)^2 (E never increases).
MECHANICS   rigid body on SO(3) (ABI 2.2, a fixed point): J = m I_3, U(R) = 1/2 k |log R|^2 with the body
            moment -grad_L U = -k log R (exact), damping torque -d w; for lgvi and lie_generalized_alpha.
INVARIANTS  energy E = 1/2 m |w|^2 + 1/2 k |log R|^2 (dE/dt = -d |w|^2: conserved for d = 0, non-increasing
            for d > 0); orthogonality = ||R^T R - I||_F.
            Exact solution (has_exact_solution) when w0_perp = 0 and 1/2 m v0^2 + 1/2 k alpha0^2 <
            1/2 k (pi - pi_margin)^2:
            R = exp(alpha(t) hat(n)), w = alpha'(t) n with m alpha'' + d alpha' + k alpha = 0 (underdamped,
            critically damped and overdamped); and when k = 0:
            w = e^{-d t/m} w0, R = R0 exp(phi(t) hat(w0)), phi = (m/d)(1 - e^{-d t/m}) (phi = t for d = 0).
PARAMETERS  m > 0 (J = m I_3), d >= 0, k >= 0; axis n (non-zero, normalised to |n| = 1); alpha0 (|alpha0| < pi
            - pi_margin when k > 0); v0; w0_perp (perpendicular to n); pi_margin in (0, 1] (default 0.01 rad).
            R0 = exp(alpha0 hat(n)), w0 = v0 n + w0_perp.
SOURCE      M. Arnold, Stability analysis of Lie group integrators in terms of test equations,
            EasyChair preprint 2024 (seed 003), §3 equations (1)-(3); oscillator is its R^2 counterpart.)";


/// The ball also states its rigid-body description (ABI 2.2), for Lie group variational and
/// generalized-alpha methods: a fixed point, J = m I, U = 1/2 k |log R|^2 with the body moment
/// -grad_L U = -k log R (exact: dexpinv_theta theta = theta), damping torque -d w.
class RotatingBall final : public sdk::Model, public sdk::RigidBodySystem {
 public:
  RotatingBall(double m, double d, double k, const Eigen::Vector3d& n, double alpha0, double v0, const Eigen::Vector3d& w0_perp,
               double pi_margin)
      : sdk::Model(std::make_unique<PowerSpace<lie::SO3xR3OnTSO3>>(1)),
        m_(m), d_(d), k_(k), n_(n), alpha0_(alpha0), v0_(v0), w0_perp_(w0_perp), angle_max_(std::numbers::pi - pi_margin) {
    R0_ = lie::SO3::exp(alpha0 * n);
    w0_ = v0 * n + w0_perp;
  }

  void initial_state(Vec y) const override {
    Eigen::Map<RowMajor3>(y.data()) = R0_;
    y.segment<3>(9) = w0_;
  }

  /// The ball (radius 0.5: the model has no length, only J = m I_3) turning about its fixed centre
  /// with attitude R (body -> space), its body axes (which show the rotation of the round ball; the
  /// spring pulls them back onto the space axes, R = I), and the spatial angular velocity R w as an
  /// arrow from the centre. No gravity: up is e3, no ground.
  Scene scene() const override {
    Scene s;
    s.bodies.push_back({"ball", Shape::sphere, {0.5, 0, 0}, 0x66ccee});
    s.bodies.push_back({"body_axes", Shape::axes, {0.8, 0, 0}, 0x000000});
    s.bodies.push_back({"angular_velocity", Shape::arrow, {0.015, 0, 0}, 0xee6677});
    s.extent = 1.2;
    s.up = {0, 0, 1};
    return s;
  }
  /// ball and body_axes at the origin with attitude R; the arrow from the origin to
  /// 0.9 R w / |w0| (0.9 R w when w0 = 0).
  Status scene_poses(double, ConstVec y, Vec out) noexcept override {
    const Eigen::Map<const RowMajor3> R(y.data());
    const Eigen::Vector3d w = y.segment<3>(9), o = Eigen::Vector3d::Zero();
    const double w0 = w0_.norm();
    sdk::set_pose(out, 0, o, R);
    sdk::set_pose(out, 1, o, R);
    sdk::set_pose_points(out, 2, o, Eigen::Vector3d((w0 > 0 ? 0.9 / w0 : 0.9) * (R * w)));
    return Status::ok;
  }

  std::vector<std::string> state_names() const override {
    std::vector<std::string> names;
    for (int i = 1; i <= 3; ++i)
      for (int j = 1; j <= 3; ++j) names.push_back(fmt::format("R{}{}", i, j));
    for (const char* c : {"x", "y", "z"}) names.push_back(fmt::format("w_{}", c));
    return names;
  }

  std::vector<InvariantInfo> invariants() const override {
    // dE/dt = -d |w|^2 <= 0 (d >= 0 is enforced): a growing energy is a blown-up run.
    return {{"energy", "E = 1/2 m |w|^2 + 1/2 k |log R|^2 (conserved for d = 0, non-increasing for d > 0), J",
             d_ == 0 ? InvariantKind::conserved : InvariantKind::nonincreasing},
            {"orthogonality", "||R^T R - I||_F (stays on SO(3))", InvariantKind::conserved, 1.0}};
  }

  void evaluate_invariants(ConstVec y, Vec out) const noexcept override {
    const Eigen::Matrix3d R = Eigen::Map<const RowMajor3>(y.data());
    const Eigen::Vector3d w = y.segment<3>(9);
    out[0] = 0.5 * m_ * w.squaredNorm() + 0.5 * k_ * lie::SO3::log(R).squaredNorm();
    out[1] = (R.transpose() * R - Eigen::Matrix3d::Identity()).norm();
  }

  std::string check_state(ConstVec y) const override {
    return rotation_violation(Eigen::Map<const RowMajor3>(y.data()), "R");
  }

  /// w0_perp = 0 (while the angle stays below pi - pi_margin, guaranteed by E0 < 1/2 k (pi - pi_margin)^2), or k = 0.
  bool has_exact_solution() const noexcept override {
    if (k_ == 0.0) return true;
    const double E0 = 0.5 * m_ * v0_ * v0_ + 0.5 * k_ * alpha0_ * alpha0_;
    return w0_perp_.squaredNorm() == 0.0 && E0 < 0.5 * k_ * angle_max_ * angle_max_;
  }

  Status exact_solution(double t, Vec y) const noexcept override {
    if (!has_exact_solution()) return Status::fatal;
    if (w0_perp_.squaredNorm() == 0.0) {
      const auto [alpha, v] = damped_oscillator::flow(m_, d_, k_, alpha0_, v0_, t);
      Eigen::Map<RowMajor3>(y.data()) = lie::SO3::exp(alpha * n_);
      y.segment<3>(9) = v * n_;
      return Status::ok;
    }
    if (k_ == 0.0) {
      // Free spin with linear damping: w = e^{-d t/m} w0 keeps its direction, R = R0 exp(phi hat(w0)).
      const double phi = d_ > 0 ? -(m_ / d_) * std::expm1(-d_ * t / m_) : t;
      Eigen::Map<RowMajor3>(y.data()) = R0_ * lie::SO3::exp(phi * w0_);
      y.segment<3>(9) = std::exp(-d_ * t / m_) * w0_;
    }
    return Status::ok;
  }

  RigidBodySystem* rigid_body() noexcept override { return this; }
  int translation() const noexcept override { return 0; }
  void inertia(Matrix3& J, Matrix3&) const noexcept override { J = m_ * Matrix3::Identity(); }
  Status potential(double, const RigidBodySystem::RowMajor3& R, const Eigen::Vector3d&, double& U, Eigen::Vector3d& moment,
                   Eigen::Vector3d& dU_dx) noexcept override {
    const Eigen::Vector3d theta = lie::SO3::log(R);
    if (k_ > 0.0 && !(theta.norm() < angle_max_)) return angle_failure();
    U = 0.5 * k_ * theta.squaredNorm();
    moment = -k_ * theta;
    dU_dx.setZero();
    return Status::ok;
  }
  Status forces(double, const RigidBodySystem::RowMajor3&, const Eigen::Vector3d&, const Eigen::Vector3d& Omega, const Eigen::Vector3d&,
                Eigen::Vector3d& torque, Eigen::Vector3d& force) noexcept override {
    torque = -d_ * Omega;
    force.setZero();
    return Status::ok;
  }
  void from_state(ConstVec y, RigidBodySystem::RowMajor3& R, Eigen::Vector3d& x, Eigen::Vector3d& Omega,
                  Eigen::Vector3d& v) const noexcept override {
    R = Eigen::Map<const RowMajor3>(y.data());
    Omega = y.segment<3>(9);
    x.setZero();
    v.setZero();
  }
  void to_state(const RigidBodySystem::RowMajor3& R, const Eigen::Vector3d&, const Eigen::Vector3d& Omega, const Eigen::Vector3d&,
                Vec y) const noexcept override {
    Eigen::Map<RowMajor3>(y.data()) = R;
    y.segment<3>(9) = Omega;
  }

 private:
  Status angle_failure() noexcept {
    return fail(Status::fatal,
                "rotating_ball: the rotation angle |log R| reached pi (within pi_margin); log(R), and with it the "
                "spring torque -k log(R), is smooth only for angles below pi (keep 1/2 m |w0|^2 + 1/2 k alpha0^2 "
                "below 1/2 k (pi - pi_margin)^2)");
  }
  /// w' = -(d w + k log R)/m; fatal when k > 0 and the rotation angle reaches pi - pi_margin.
  Status angular_acceleration(const Eigen::Matrix3d& R, const Eigen::Vector3d& w, Eigen::Vector3d& wdot) noexcept {
    if (k_ == 0.0) {
      wdot = -(d_ / m_) * w;
      return Status::ok;
    }
    const Eigen::Vector3d theta = lie::SO3::log(R);
    if (!(theta.norm() < angle_max_)) return angle_failure();
    wdot = -(d_ * w + k_ * theta) / m_;
    return Status::ok;
  }

  Status do_generator(double, ConstVec y, Vec xi) noexcept override {
    const Eigen::Matrix3d R = Eigen::Map<const RowMajor3>(y.data());
    const Eigen::Vector3d w = y.segment<3>(9);
    Eigen::Vector3d wdot;
    if (Status s = angular_acceleration(R, w, wdot); s != Status::ok) return s;
    xi.head<3>() = R * w;
    xi.tail<3>() = wdot;
    return Status::ok;
  }

  Status do_vector_field(double, ConstVec y, Vec dy) noexcept override {
    const Eigen::Matrix3d R = Eigen::Map<const RowMajor3>(y.data());
    const Eigen::Vector3d w = y.segment<3>(9);
    Eigen::Vector3d wdot;
    if (Status s = angular_acceleration(R, w, wdot); s != Status::ok) return s;
    Eigen::Map<RowMajor3>(dy.data()) = R * lie::SO3::hat(w);
    dy.segment<3>(9) = wdot;
    return Status::ok;
  }

  double m_, d_, k_;
  Eigen::Vector3d n_;
  double alpha0_, v0_;
  Eigen::Vector3d w0_perp_;
  double angle_max_;  // pi - pi_margin
  Eigen::Matrix3d R0_;
  Eigen::Vector3d w0_;
};

class RotatingBallType final : public sdk::ModelTypeBase<RotatingBallType> {
 public:
  std::string summary() const override {
    return "ball (J = m I) on a damped torsional spring on TSO(3) under SO(3) x R^3 (Lie group test equation)";
  }
  std::vector<SettingSpec> parameters() const override {
    return {{"m", "1", "kg m^2", "moment of inertia of the ball, J = m I_3 (positive)"},
            {"d", "0", "N m s", "damping coefficient (>= 0)"},
            {"k", "1", "N m", "torsional stiffness (>= 0)"},
            {"axis", "0,0,1", "", "rotation axis n (non-zero; normalised to a unit vector)"},
            {"alpha0", "0.5", "rad", "initial rotation angle about n, R0 = exp(alpha0 hat(n)) (|alpha0| < pi - pi_margin when k > 0)"},
            {"v0", "1", "rad/s", "initial angular speed about n"},
            {"w0_perp", "0,0,0", "rad/s", "off-axis part of the initial angular velocity (perpendicular to n); w0 = v0 n + w0_perp"},
            {"pi_margin", "0.01", "rad", "the hooks fail when k > 0 and the rotation angle reaches pi - pi_margin (0 < pi_margin <= 1)"}};
  }
  std::string conventions() const override { return conventions_text; }
  std::unique_ptr<sdk::Model> make(const Settings& p) const {
    const double m = p.number("m"), d = p.number("d"), k = p.number("k");
    if (!(m > 0)) throw Error(fmt::format("parameter 'm': moment of inertia {} must be positive", m));
    if (!(d >= 0)) throw Error(fmt::format("parameter 'd': damping {} must be >= 0", d));
    if (!(k >= 0)) throw Error(fmt::format("parameter 'k': stiffness {} must be >= 0", k));
    const auto a = p.numbers("axis", {3});
    Eigen::Vector3d n(a[0], a[1], a[2]);
    if (!(n.norm() > 0)) throw Error("parameter 'axis': the rotation axis n must be non-zero (it is normalised to |n| = 1)");
    n.normalize();
    const double pi_margin = p.number("pi_margin");
    if (!(pi_margin > 0 && pi_margin <= 1))
      throw Error(fmt::format("parameter 'pi_margin' = {}: must lie in (0, 1] rad", pi_margin));
    const double alpha0 = p.number("alpha0");
    if (k > 0 && !(std::abs(alpha0) < std::numbers::pi - pi_margin))
      throw Error(fmt::format("parameter 'alpha0' = {}: |alpha0| must be below pi - pi_margin = {} when k > 0 (log(R) in "
                              "the spring torque is smooth only for rotation angles < pi)", alpha0, std::numbers::pi - pi_margin));
    const auto wp = p.numbers("w0_perp", {3});
    const Eigen::Vector3d w0_perp(wp[0], wp[1], wp[2]);
    if (std::abs(w0_perp.dot(n)) > 1e-12 * w0_perp.norm())
      throw Error(fmt::format("parameter 'w0_perp': must be perpendicular to the axis n (w0_perp . n = {:.3g}, "
                              "|w0_perp| = {:.3g}); put the parallel part into 'v0'", w0_perp.dot(n), w0_perp.norm()));
    return std::make_unique<RotatingBall>(m, d, k, n, alpha0, p.number("v0"), w0_perp, pi_margin);
  }
};

}  // namespace

}  // namespace liesim::rotating_ball

LIESIM_PLUGIN(model, "rotating_ball", "0.1.0", "ball on a damped torsional spring on TSO(3) (Arnold's Lie group test equation)",
              liesim::rotating_ball::RotatingBallType)
