// The trace_function plugin: minimising f(R) = -tr(X^T R) over SO(3) as the motion of a damped rigid
// body, L = 1/2 Omega^T J Omega - eta f(R), torque -gamma Omega (Sharma 2020, seed 001, ch. 7, M9):
// gradient descent, accelerated gradient descent and SAGD are integrators of this system.
#include <liesim/lie/actions.hpp>
#include <liesim/sdk/lie_space.hpp>
#include <liesim/sdk/manifold_checks.hpp>
#include <liesim/sdk/plugin.hpp>

#include <Eigen/SVD>
#include <fmt/format.h>

#include <cmath>

namespace liesim::trace_function {

namespace {

constexpr const char* conventions_text = R"(SPACE       TSO(3): state [R, Omega]; R in SO(3) (9 values row-major), Omega the body angular velocity.
GROUP       SO(3) x R^3 (direct product); so(3) = R^3 with hat(w) v = w x v.
ACTION      (B, b).(R, Omega) = (B R, Omega + b) (left); generator (hat(eta) R, beta); exp right-trivialised.
GENERATOR   f(R, Omega) = (R Omega, Omega'), j Omega' = -eta grad_L f(R) - gamma Omega (J = j I: no
            gyroscopic term), grad_L f(R) = (X^T R - R^T X)^vee (left-trivialised gradient, (7.22)).
EMBEDDING   F = (R hat(Omega), Omega') in R^12.
MECHANICS   rigid body on SO(3) (ABI 2.2): J = j I, U(R) = eta f(R) with moment -eta grad_L f(R), the
            non-conservative torque -gamma Omega. Its integrators are optimisation schemes: gd (the
            overdamped limit), agd (symplectic Euler: heavy-ball / accelerated gradient descent),
            sagd (the damped LGVI, (7.33)-(7.37)).
INVARIANTS  objective_gap f(R) - f* (decays to 0; f* from the proper SVD of X), energy 1/2 j |Omega|^2 +
            eta f(R) (decays), orthogonality ||R^T R - I||_F.
PARAMETERS  X (9 values row-major), j, eta, gamma, a (R0 = exp(hat(a))), omega0.
SOURCE      H. A. Sharma, PhD thesis, Virginia Tech 2020 (seed 001) §7.3, (7.22)-(7.38): X = [[45, 1, 0],
            [0, 20, 0], [0, 0, 2]], f* = -67.007691852580; SAGD j = h = sqrt(0.125), eta = 2h,
            gamma = 0.909 (the defaults). R0 = exp(hat(1, 2, 3)) is the notes' choice (not printed).)";

using RowMajor3 = Eigen::Matrix<double, 3, 3, Eigen::RowMajor>;

class TraceFunction final : public sdk::Model, public sdk::RigidBodySystem {
 public:
  TraceFunction(const Eigen::Matrix3d& X, double j, double eta, double gamma, Eigen::VectorXd y0)
      : sdk::Model(std::make_unique<PowerSpace<lie::SO3xR3OnTSO3>>(1)), X_(X), j_(j), eta_(eta), gamma_(gamma), y0_(std::move(y0)) {
    // f* = -(s1 + s2 + d s3), d = det(U V^T): the proper SVD (Shuster–Oh).
    const Eigen::JacobiSVD<Eigen::Matrix3d> svd(X, Eigen::ComputeFullU | Eigen::ComputeFullV);
    const double d = (svd.matrixU() * svd.matrixV().transpose()).determinant() > 0 ? 1.0 : -1.0;
    const Eigen::Vector3d s = svd.singularValues();
    f_star_ = -(s[0] + s[1] + d * s[2]);
  }

  void initial_state(Vec y) const override { y = y0_; }
  std::vector<std::string> state_names() const override {
    std::vector<std::string> n;
    for (int i = 1; i <= 3; ++i)
      for (int k = 1; k <= 3; ++k) n.push_back(fmt::format("R{}{}", i, k));
    for (const char* c : {"Omega1", "Omega2", "Omega3"}) n.push_back(c);
    return n;
  }
  std::vector<InvariantInfo> invariants() const override {
    return {{"objective_gap", fmt::format("f(R) - f*, f(R) = -tr(X^T R), f* = {:.15g} (decays to 0)", f_star_)},
            {"energy", "1/2 j |Omega|^2 + eta f(R) (decays: the damping dissipates it)"},
            {"orthogonality", "||R^T R - I||_F (0 on SO(3))"}};
  }
  void evaluate_invariants(ConstVec y, Vec out) const noexcept override {
    const Eigen::Map<const RowMajor3> R(y.data());
    const double f = objective(R);
    out[0] = f - f_star_;
    out[1] = 0.5 * j_ * y.tail<3>().squaredNorm() + eta_ * f;
    out[2] = (R.transpose() * R - Eigen::Matrix3d::Identity()).norm();
  }
  std::string check_state(ConstVec y) const override { return rotation_violation(Eigen::Map<const RowMajor3>(y.data()), "R"); }

  RigidBodySystem* rigid_body() noexcept override { return this; }
  int translation() const noexcept override { return 0; }
  void inertia(Matrix3& J, Matrix3&) const noexcept override { J = j_ * Eigen::Matrix3d::Identity(); }
  Status potential(double, const RigidBodySystem::RowMajor3& R, const Eigen::Vector3d&, double& U, Eigen::Vector3d& moment,
                   Eigen::Vector3d& dU_dx) noexcept override {
    U = eta_ * objective(R);
    moment = -eta_ * gradient(R);
    dU_dx.setZero();
    return Status::ok;
  }
  Status forces(double, const RigidBodySystem::RowMajor3&, const Eigen::Vector3d&, const Eigen::Vector3d& Omega, const Eigen::Vector3d&,
                Eigen::Vector3d& torque, Eigen::Vector3d& force) noexcept override {
    torque = -gamma_ * Omega;
    force.setZero();
    return Status::ok;
  }
  void from_state(ConstVec y, RigidBodySystem::RowMajor3& R, Eigen::Vector3d& x, Eigen::Vector3d& Omega,
                  Eigen::Vector3d& v) const noexcept override {
    R = Eigen::Map<const RowMajor3>(y.data());
    Omega = y.tail<3>();
    x.setZero();
    v.setZero();
  }
  void to_state(const RigidBodySystem::RowMajor3& R, const Eigen::Vector3d&, const Eigen::Vector3d& Omega, const Eigen::Vector3d&,
                Vec y) const noexcept override {
    Eigen::Map<RowMajor3>(y.data()) = R;
    y.tail<3>() = Omega;
  }

 private:
  double objective(const Eigen::Matrix3d& R) const noexcept { return -(X_.transpose() * R).trace(); }
  /// grad_L f(R) = (X^T R - R^T X)^vee.
  Eigen::Vector3d gradient(const Eigen::Matrix3d& R) const noexcept {
    const Eigen::Matrix3d A = X_.transpose() * R - R.transpose() * X_;
    return {A(2, 1), A(0, 2), A(1, 0)};
  }
  Status do_generator(double, ConstVec y, Vec xi) noexcept override {
    const Eigen::Map<const RowMajor3> R(y.data());
    const Eigen::Vector3d Omega = y.tail<3>();
    xi.head<3>() = R * Omega;
    xi.tail<3>() = (-eta_ * gradient(R) - gamma_ * Omega) / j_;
    return Status::ok;
  }
  Status do_vector_field(double t, ConstVec y, Vec dy) noexcept override {
    Eigen::Matrix<double, 6, 1> xi;
    do_generator(t, y, xi);
    const Eigen::Map<const RowMajor3> R(y.data());
    Eigen::Map<RowMajor3>(dy.data()) = lie::SO3::hat(xi.head<3>()) * R;
    dy.tail<3>() = xi.tail<3>();
    return Status::ok;
  }

  Eigen::Matrix3d X_;
  double j_, eta_, gamma_, f_star_ = 0.0;
  Eigen::VectorXd y0_;
};

class TraceFunctionType final : public sdk::ModelTypeBase<TraceFunctionType> {
 public:
  std::string summary() const override {
    return "minimise -tr(X^T R) on SO(3) as a damped rigid body (optimisation as integration; Sharma 2020 ch. 7)";
  }
  std::vector<SettingSpec> parameters() const override {
    return {{"X", "45,1,0,0,20,0,0,0,2", "", "the matrix X of f(R) = -tr(X^T R), 9 values row-major"},
            {"j", "0.3535533905932738", "", "inertia J = j I (> 0; SAGD's j = h = sqrt(0.125))"},
            {"eta", "0.7071067811865476", "", "potential scale eta (> 0; SAGD's 2h)"},
            {"gamma", "0.909", "", "damping gamma (>= 0)"},
            {"a", "1,2,3", "", "initial attitude R0 = exp(hat(a))"},
            {"omega0", "0,0,0", "", "initial body angular velocity"}};
  }
  std::string conventions() const override { return conventions_text; }
  std::unique_ptr<sdk::Model> make(const Settings& p) const {
    const auto x = p.numbers("X", {9});
    const Eigen::Matrix3d X = Eigen::Map<const RowMajor3>(x.data());
    const double j = p.positive("j"), eta = p.positive("eta"), gamma = p.number("gamma");
    if (!(gamma >= 0) || !std::isfinite(gamma)) throw Error(fmt::format("parameter 'gamma': damping {} must be finite and >= 0", gamma));
    const auto a = p.numbers("a", {3});
    const auto w = p.numbers("omega0", {3});
    Eigen::VectorXd y0(12);
    Eigen::Map<RowMajor3>(y0.data()) = lie::SO3::exp(Eigen::Vector3d(a[0], a[1], a[2]));
    y0.tail<3>() << w[0], w[1], w[2];
    return std::make_unique<TraceFunction>(X, j, eta, gamma, std::move(y0));
  }
};

}  // namespace

}  // namespace liesim::trace_function

LIESIM_PLUGIN(model, "trace_function", "0.1.0", "the trace function on SO(3) as a damped rigid body (Sharma 2020 ch. 7)",
              liesim::trace_function::TraceFunctionType)
