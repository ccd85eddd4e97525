// The underwater_vehicle plugin: a rigid body in an ideal fluid (added mass, no dissipation) with
// gravity and buoyancy, on SE(3) as SO(3) x R^3 with body velocities (Sharma 2020, seed 001, ch. 6,
// M8; Nordkvist & Sanyal, CDC 2010).
#include "../heavy_top/inertia_solid.hpp"

#include <liesim/lie/actions.hpp>
#include <liesim/sdk/lie_space.hpp>
#include <liesim/sdk/manifold_checks.hpp>
#include <liesim/sdk/plugin.hpp>

#include <Eigen/Eigenvalues>
#include <fmt/format.h>

#include <cmath>

namespace liesim::underwater_vehicle {

namespace {

constexpr const char* conventions_text = R"(SPACE       state [R, x, Pi, P] in R^18: R in SO(3) the attitude (body -> space, 9 values row-major),
            x the position in space (x3 positive DOWN), Pi = J Omega and P = M v the body angular and
            linear momenta (Omega, v the body angular and linear velocities: R' = R hat(Omega), x' = R v).
GROUP       SO(3) x R^9 (direct product): left multiplication on R, translations on (x, Pi, P).
ACTION      (B, b).(R, x, Pi, P) = (B R, (x, Pi, P) + b); generator (hat(eta) R, beta); exp right-trivialised.
GENERATOR   f = (omega, R v, Pi x Omega + P x v, P x Omega - R^T dU/dx), omega = R Omega (spatial):
            Kirchhoff's equations with the Munk moment P x v (M anisotropic).
EMBEDDING   F = (hat(omega) R, R v, Pi x Omega + P x v, P x Omega - R^T dU/dx) in R^18.
MECHANICS   rigid body on SO(3) x R^3 (ABI 2.2): L = 1/2 Omega^T J Omega + 1/2 v^T M v - U(x),
            U(x) = -(m g - rho V g) x3 (gravity and buoyancy along +e3, down); moment 0 (centre of
            buoyancy = centre of gravity), dU/dx = (0, 0, -(m g - rho V g)).
INVARIANTS  energy 1/2 Omega.J Omega + 1/2 v.M v + U; momentum_x, momentum_y: the horizontal
            components of the spatial linear momentum gamma = R P (no horizontal force);
            vertical_angular_momentum e3 . (R Pi + x x R P) (torque about the vertical axis is 0);
            orthogonality ||R^T R - I||_F.
PARAMETERS  m (mass, for the weight), M (mass matrix with added mass), J (inertia), buoyancy rho V g, g,
            start = 1 | 2 | 3 (the source's initial conditions: R0 = exp(hat(a)), x0 = (0, 0, 10),
            Omega0, v0 = R0^T v_inertial).
SOURCE      H. A. Sharma, PhD thesis, Virginia Tech 2020 (seed 001) §6.3, (6.56)-(6.58): m = 123.8 kg,
            M = m I + diag(65, 70, 75), J = diag(5.46, 5.29, 5.72), rho V g = 1215.8 N; g = 9.81 (not printed);
            Nordkvist & Sanyal, CDC 2010.)";

using RowMajor3 = Eigen::Matrix<double, 3, 3, Eigen::RowMajor>;
using Action = lie::ProductAction<lie::SO3OnSO3, lie::RnTranslation<9>>;

Eigen::Matrix3d symmetric3(const Settings& p, const std::string& key) {
  const auto v = p.numbers(key, {3, 9});
  Eigen::Matrix3d A = Eigen::Matrix3d::Zero();
  if (v.size() == 3) A.diagonal() << v[0], v[1], v[2];
  else A = Eigen::Map<const RowMajor3>(v.data());
  if ((A - A.transpose()).cwiseAbs().maxCoeff() > 1e-12 * A.cwiseAbs().maxCoeff())
    throw Error(fmt::format("parameter '{}': the matrix is not symmetric; give 3 diagonal values or a symmetric 3x3 matrix", key));
  const Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> eig(A, Eigen::EigenvaluesOnly);
  if (!(eig.eigenvalues()[0] > 0)) throw Error(fmt::format("parameter '{}': not positive definite", key));
  return A;
}

class Vehicle final : public sdk::Model, public sdk::RigidBodySystem {
 public:
  Vehicle(double mass, const Eigen::Matrix3d& J, const Eigen::Matrix3d& M, double net_weight, Eigen::VectorXd y0)
      : sdk::Model(std::make_unique<PowerSpace<Action>>(1)), J_(J), M_(M), Jinv_(J.inverse()), Minv_(M.inverse()),
        net_(net_weight), y0_(std::move(y0)), hull_(scene_shapes::inertia_solid(mass, J, 0.0, false)) {}

  /// The hull as the box of uniform density with the body's inertia J and mass m (principal axes),
  /// centred on x with attitude R (body -> space); the body axes there; the velocity R v as an
  /// arrow from x. x3 points down: up = -e3. No sea floor (no ground).
  Scene scene() const override {
    Scene s;
    s.extent = 2.5 * hull_.radius();
    s.bodies.push_back({"hull", Shape::box, hull_.size, 0xccbb44});
    s.bodies.push_back({"body_axes", Shape::axes, {1.3 * hull_.radius(), 0, 0}, 0x000000});
    s.bodies.push_back({"velocity", Shape::arrow, {0.01 * s.extent, 0, 0}, 0x4477aa});
    s.up = {0, 0, -1};
    return s;
  }
  /// hull at (x, R A) (A the principal axes, I for a diagonal J), body_axes at (x, R), velocity
  /// from x to x + s R v with v = M^-1 P and s = 0.6 extent / |v(0)| (1 s when v(0) = 0).
  Status scene_poses(double, ConstVec y, Vec out) noexcept override {
    const Eigen::Map<const RowMajor3> R(y.data());
    const Eigen::Vector3d x = y.segment<3>(9), v = Minv_ * y.segment<3>(15);
    const double v0 = (Minv_ * y0_.segment<3>(15)).norm(), extent = 2.5 * hull_.radius();
    sdk::set_pose(out, 0, x, R * hull_.axes);
    sdk::set_pose(out, 1, x, R);
    sdk::set_pose_points(out, 2, x, Eigen::Vector3d(x + (v0 > 0 ? 0.6 * extent / v0 : 1.0) * (R * v)));
    return Status::ok;
  }

  void initial_state(Vec y) const override { y = y0_; }
  std::vector<std::string> state_names() const override {
    std::vector<std::string> n;
    for (int i = 1; i <= 3; ++i)
      for (int j = 1; j <= 3; ++j) n.push_back(fmt::format("R{}{}", i, j));
    for (const char* v : {"x", "Pi", "P"})
      for (const char* c : {"1", "2", "3"}) n.push_back(std::string(v) + c);
    return n;
  }
  std::vector<InvariantInfo> invariants() const override {
    return {{"energy", "1/2 Omega.J Omega + 1/2 v.M v + U(x)"},
            {"momentum_x", "spatial linear momentum (R P)_1"},
            {"momentum_y", "spatial linear momentum (R P)_2"},
            {"vertical_angular_momentum", "e3 . (R Pi + x x R P), angular momentum about the vertical axis through 0"},
            {"orthogonality", "||R^T R - I||_F (0 on SO(3))"}};
  }
  void evaluate_invariants(ConstVec y, Vec out) const noexcept override {
    const Eigen::Map<const RowMajor3> R(y.data());
    const Eigen::Vector3d x = y.segment<3>(9), Pi = y.segment<3>(12), P = y.segment<3>(15);
    const Eigen::Vector3d gamma = R * P;
    out[0] = 0.5 * Pi.dot(Jinv_ * Pi) + 0.5 * P.dot(Minv_ * P) + potential_at(x);
    out[1] = gamma[0];
    out[2] = gamma[1];
    out[3] = (R * Pi + x.cross(gamma))[2];
    out[4] = (R.transpose() * R - Eigen::Matrix3d::Identity()).norm();
  }
  std::string check_state(ConstVec y) const override { return rotation_violation(Eigen::Map<const RowMajor3>(y.data()), "R"); }

  // The rigid-body description.
  RigidBodySystem* rigid_body() noexcept override { return this; }
  int translation() const noexcept override { return 3; }
  void inertia(Matrix3& J, Matrix3& M) const noexcept override {
    J = J_;
    M = M_;
  }
  Status potential(double, const RigidBodySystem::RowMajor3&, const Eigen::Vector3d& x, double& U, Eigen::Vector3d& moment,
                   Eigen::Vector3d& dU_dx) noexcept override {
    U = potential_at(x);
    moment.setZero();
    dU_dx << 0.0, 0.0, -net_;
    return Status::ok;
  }
  void from_state(ConstVec y, RigidBodySystem::RowMajor3& R, Eigen::Vector3d& x, Eigen::Vector3d& Omega,
                  Eigen::Vector3d& v) const noexcept override {
    R = Eigen::Map<const RowMajor3>(y.data());
    x = y.segment<3>(9);
    Omega = Jinv_ * y.segment<3>(12);
    v = Minv_ * y.segment<3>(15);
  }
  void to_state(const RigidBodySystem::RowMajor3& R, const Eigen::Vector3d& x, const Eigen::Vector3d& Omega, const Eigen::Vector3d& v,
                Vec y) const noexcept override {
    Eigen::Map<RowMajor3>(y.data()) = R;
    y.segment<3>(9) = x;
    y.segment<3>(12) = J_ * Omega;
    y.segment<3>(15) = M_ * v;
  }

 private:
  double potential_at(const Eigen::Vector3d& x) const noexcept { return -net_ * x[2]; }

  Status do_generator(double, ConstVec y, Vec xi) noexcept override {
    const Eigen::Map<const RowMajor3> R(y.data());
    const Eigen::Vector3d Pi = y.segment<3>(12), P = y.segment<3>(15);
    const Eigen::Vector3d Omega = Jinv_ * Pi, v = Minv_ * P;
    xi.head<3>() = R * Omega;
    xi.segment<3>(3) = R * v;
    xi.segment<3>(6) = Pi.cross(Omega) + P.cross(v);
    xi.segment<3>(9) = P.cross(Omega) - R.transpose() * Eigen::Vector3d(0, 0, -net_);
    return Status::ok;
  }
  Status do_vector_field(double t, ConstVec y, Vec dy) noexcept override {
    Eigen::Matrix<double, 12, 1> xi;
    do_generator(t, y, xi);
    const Eigen::Map<const RowMajor3> R(y.data());
    Eigen::Map<RowMajor3>(dy.data()) = lie::SO3::hat(xi.head<3>()) * R;
    dy.tail<9>() = xi.tail<9>();
    return Status::ok;
  }

  Eigen::Matrix3d J_, M_, Jinv_, Minv_;
  double net_;  // m g - rho V g
  Eigen::VectorXd y0_;
  scene_shapes::InertiaSolid hull_;  ///< the drawn hull (scene)
};

class VehicleType final : public sdk::ModelTypeBase<VehicleType> {
 public:
  std::string summary() const override {
    return "neutrally buoyant underwater vehicle on SE(3) with added mass (Kirchhoff; Sharma 2020 ch. 6)";
  }
  std::vector<SettingSpec> parameters() const override {
    return {{"m", "123.8", "kg", "mass (for the weight m g)"},
            {"M", "188.8,193.8,198.8", "kg", "mass matrix including added mass: 3 diagonal values or 9 (symmetric)"},
            {"J", "5.46,5.29,5.72", "kg m^2", "inertia, body axes: 3 diagonal values or 9 (symmetric)"},
            {"buoyancy", "1215.8", "N", "weight of the displaced water rho V g"},
            {"g", "9.81", "m/s^2", "gravitational acceleration (along +e3, down)"},
            {"start", "1", "", "initial condition 1 | 2 | 3 of the source (attitude, angular and linear velocity)"}};
  }
  std::string conventions() const override { return conventions_text; }
  std::unique_ptr<sdk::Model> make(const Settings& p) const {
    const double m = p.positive("m"), g = p.number("g"), b = p.number("buoyancy");
    if (!std::isfinite(g) || !std::isfinite(b)) throw Error("parameters 'g' and 'buoyancy' must be finite");
    const Eigen::Matrix3d M = symmetric3(p, "M"), J = symmetric3(p, "J");
    const std::string start = p.choice("start", {"1", "2", "3"});
    const Eigen::Vector3d a = start == "3" ? Eigen::Vector3d(3, 2, 3) : Eigen::Vector3d(1, 2, 3);
    const Eigen::Vector3d omega0 = start == "3" ? Eigen::Vector3d(1.0, 1.5, 0.5) : Eigen::Vector3d(1.5, 1.0, 0.5);
    const Eigen::Vector3d v_inertial = start == "1" ? Eigen::Vector3d(0.1, -0.2, 0.1) : Eigen::Vector3d(0.1, 0.15, 0.1);
    const Eigen::Matrix3d R0 = lie::SO3::exp(a);
    Eigen::VectorXd y0(18);
    Eigen::Map<RowMajor3>(y0.data()) = R0;
    y0.segment<3>(9) = Eigen::Vector3d(0, 0, 10);
    y0.segment<3>(12) = J * omega0;
    y0.segment<3>(15) = M * (R0.transpose() * v_inertial);
    return std::make_unique<Vehicle>(m, J, M, m * g - b, std::move(y0));
  }
};

}  // namespace

}  // namespace liesim::underwater_vehicle

LIESIM_PLUGIN(model, "underwater_vehicle", "0.1.0", "underwater vehicle on SE(3) with added mass (Sharma 2020 ch. 6)",
              liesim::underwater_vehicle::VehicleType)
