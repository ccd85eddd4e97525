// Tests of the multibody model plugin: the generator against the embedded field, the
// articulated-body algorithm against CRBA + Cholesky on random states of every shipped
// description, the heavy top and the free rigid body as descriptions against the hand-written
// models, convergence orders, energy and momentum conservation, manifold residuals, observables,
// no allocation per step, and a corpus of malformed descriptions through the command line.
// Set LIESIM_TEST_VERBOSE=1 to print the measured numbers.
#include "support/command.hpp"
#include "support/plugins.hpp"
// The malloc-counting replacement of the kernel tests (counting is off outside the allocation test).
#include "kernel/allocation_counter.cpp"
#include <support/run_allocations.hpp>

#include <liesim/lie/so3.hpp>

#include <doctest/doctest.h>

#include <Eigen/Geometry>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

using namespace liesim;
using namespace liesim::test;

namespace {

using Params = std::map<std::string, std::string>;
using RowMajor3 = Eigen::Matrix<double, 3, 3, Eigen::RowMajor>;

const std::string examples = std::string(LIESIM_TEST_SOURCE_DIR) + "/models/multibody/examples/";
const std::vector<std::string> shipped = {"heavy_top.toml", "pendulum3_ball.toml", "double_pendulum.toml", "arm7.urdf",
                                          "satellite.toml", "gyroscope.toml",      "pendulum.toml"};

bool verbose() { return std::getenv("LIESIM_TEST_VERBOSE") != nullptr; }

Params description(const std::string& file, Params extra = {}) {
  extra["file"] = file.find('/') == std::string::npos ? examples + file : file;
  return extra;
}

/// A folder of its own under the build tree for files the tests write.
std::filesystem::path scratch_dir() {
  const auto dir = std::filesystem::path(LIESIM_TEST_BINARY_DIR) / "test_multibody_files";
  std::filesystem::create_directories(dir);
  return dir;
}

std::string write_file(const std::string& name, const std::string& text) {
  const auto path = scratch_dir() / name;
  std::ofstream(path) << text;
  return path.string();
}

std::string numbers_text(const Eigen::VectorXd& v) {
  std::string s;
  for (Eigen::Index i = 0; i < v.size(); ++i) s += (i ? "," : "") + fmt::format("{:.17g}", v[i]);
  return s;
}

/// psi(exp(xi), y0) with xi uniform in [-s, s]^d, velocities further shifted: a random point of M.
Eigen::VectorXd random_state(ModelView& m, std::mt19937& rng, double s) {
  std::uniform_real_distribution<double> u(-s, s);
  Eigen::VectorXd y0(m.size()), xi(m.space().algebra_dim()), y(m.size());
  m.initial_state(y0);
  for (Eigen::Index i = 0; i < xi.size(); ++i) xi[i] = u(rng);
  REQUIRE(m.space().act_exp(xi, y0, y) == Status::ok);
  return y;
}

/// The multibody model with either dynamics algorithm.
std::unique_ptr<ModelView> model(const std::string& file, const std::string& dynamics = "articulated_body", Params extra = {}) {
  extra["dynamics"] = dynamics;
  return make_model("multibody", description(file, extra));
}

}  // namespace

TEST_CASE("the shipped descriptions load, with their state names, invariants and observables") {
  for (const auto& f : shipped) {
    CAPTURE(f);
    auto m = model(f);
    CHECK(m->size() > 0);
    CHECK(m->state_names().size() == static_cast<std::size_t>(m->size()));
    Eigen::VectorXd y0(m->size());
    m->initial_state(y0);
    CHECK(m->check_state(y0).empty());
    const auto inv = m->invariants();
    REQUIRE(!inv.empty());
    CHECK(inv[0].name == "energy");
    CHECK(inv[0].doc.find("(conserved)") != std::string::npos);  // every shipped example is conservative
  }
  auto arm = model("arm7.urdf");
  const auto obs = arm->observables();
  const auto has = [&](const std::string& n) { return std::any_of(obs.begin(), obs.end(), [&](const ObservableInfo& o) { return o.name == n; }); };
  for (const char* n : {"a1.q", "a7.v", "base.x", "link7.z", "link4.R11", "link4.R33", "kinetic_energy", "potential_energy"}) {
    CAPTURE(n);
    CHECK(has(n));
  }
  const auto inv = arm->invariants();
  CHECK(std::any_of(inv.begin(), inv.end(), [](const InvariantInfo& i) { return i.name == "a1.angular_momentum"; }));
  auto sat = model("satellite.toml");
  const auto sinv = sat->invariants();
  for (const char* n : {"orbit.angular_momentum_x", "orbit.angular_momentum_z", "orbit.linear_momentum_y", "orbit.orthogonality"}) {
    CAPTURE(n);
    CHECK(std::any_of(sinv.begin(), sinv.end(), [&](const InvariantInfo& i) { return i.name == n; }));
  }
}

TEST_CASE("the embedded field equals psi_*(f) at random states of every description") {
  std::mt19937 rng(7);
  for (const auto& f : shipped) {
    CAPTURE(f);
    auto m = model(f);
    Eigen::VectorXd xi(m->space().algebra_dim()), F(m->size()), G(m->size());
    for (int k = 0; k < 10; ++k) {
      const Eigen::VectorXd y = random_state(*m, rng, 1.0);
      REQUIRE(m->generator(0.0, y, xi) == Status::ok);
      REQUIRE(m->vector_field(0.0, y, F) == Status::ok);
      REQUIRE(m->space().generator(xi, y, G) == Status::ok);
      CHECK((F - G).norm() <= 1e-12 * std::max(1.0, F.norm()));
    }
  }
}

TEST_CASE("articulated-body algorithm equals CRBA + Cholesky to 1e-12 on random states of every description") {
  std::mt19937 rng(11);
  for (const auto& f : shipped) {
    CAPTURE(f);
    auto aba = model(f, "articulated_body");
    auto crba = model(f, "composite_rigid_body");
    Eigen::VectorXd xa(aba->space().algebra_dim()), xc(xa.size());
    double worst = 0;
    for (int k = 0; k < 20; ++k) {
      const Eigen::VectorXd y = random_state(*aba, rng, k < 10 ? 1.0 : 3.0);
      REQUIRE(aba->generator(0.3, y, xa) == Status::ok);
      REQUIRE(crba->generator(0.3, y, xc) == Status::ok);
      const double rel = (xa - xc).norm() / std::max(1.0, xc.norm());
      worst = std::max(worst, rel);
      CHECK(rel <= 1e-12);
    }
    if (verbose()) std::printf("ABA vs CRBA %-22s max relative difference %.2e\n", f.c_str(), worst);
  }
}

TEST_CASE("forces: springs, dampers, PD, constant and tabulated torques, in ABA and CRBA alike") {
  const std::string file = write_file("forced.toml", R"(gravity = [0.0, 0.0, -9.81]
[[body]]
name = "a"
mass = 1.0
com = [0.0, 0.0, -0.5]
inertia = [0.02, 0.02, 0.001]
[[body]]
name = "b"
mass = 0.5
com = [0.1, 0.0, -0.3]
inertia = [0.01, 0.01, 0.005]
[[body]]
name = "c"
mass = 0.3
com = [0.0, 0.0, -0.1]
inertia = [0.002, 0.003, 0.004]
[[joint]]
name = "hinge"
type = "revolute"
parent = "world"
child = "a"
axis = [0.0, 1.0, 0.0]
stiffness = 4.0
rest = 0.2
damping = 0.1
q0 = 0.5
[[joint]]
name = "slide"
type = "prismatic"
parent = "a"
child = "b"
xyz = [0.0, 0.0, -1.0]
axis = [1.0, 0.0, 0.0]
pd = { kp = 20.0, kd = 2.0, setpoint = 0.3 }
torque_table = [[0.0, 0.0], [1.0, 2.0], [2.0, -1.0]]
[[joint]]
name = "ball"
type = "spherical"
parent = "b"
child = "c"
xyz = [0.0, 0.0, -0.2]
damping = 0.05
torque = [0.1, -0.2, 0.05]
stiffness = 2.0
rest = { axis_angle = [0.0, 0.0, 1.0, 0.3] }
pd = { kp = 1.0, kd = 0.2, setpoint = { quaternion = [0.5, 0.5, 0.5, 0.5] } }
torque_table = [[0.0, 0.0, 0.0, 0.0], [1.0, 0.3, -0.1, 0.2]]
omega0 = [1.0, 2.0, -1.0]
)");
  auto aba = model(file, "articulated_body");
  auto crba = model(file, "composite_rigid_body");
  const auto inv = aba->invariants();
  CHECK(inv[0].doc.find("NOT conserved") != std::string::npos);
  std::mt19937 rng(3);
  Eigen::VectorXd xa(aba->space().algebra_dim()), xc(xa.size());
  for (double t : {0.0, 0.5, 1.5, 3.0}) {
    const Eigen::VectorXd y = random_state(*aba, rng, 1.0);
    REQUIRE(aba->generator(t, y, xa) == Status::ok);
    REQUIRE(crba->generator(t, y, xc) == Status::ok);
    CHECK((xa - xc).norm() <= 1e-12 * std::max(1.0, xc.norm()));
  }
  // A single hinge with a spring at rest position and no gravity: q'' = -k/I (q - rest) exactly.
  const std::string spring = write_file("spring.toml", R"(gravity = [0.0, 0.0, 0.0]
[[body]]
name = "disc"
mass = 2.0
com = [0.0, 0.0, 0.0]
inertia = [0.5, 0.5, 1.0]
[[joint]]
name = "hinge"
type = "continuous"
parent = "world"
child = "disc"
axis = [0.0, 0.0, 1.0]
stiffness = 4.0
rest = 0.25
q0 = 1.25
)");
  // q(t) = rest + cos(omega t), omega = sqrt(k / I) = 2.
  const auto out = run("multibody", description(spring), "rk4", 1.0, 1e-3);
  CHECK(std::abs(out.y[0] - (0.25 + std::cos(2.0))) <= 1e-10);
  CHECK(std::abs(out.y[1] + 2.0 * std::sin(2.0)) <= 1e-10);
}

TEST_CASE("spherical joints: a spring and a PD controller to attitudes, and tabulated moments, against closed forms") {
  // Rotation about a principal axis z of the body (J = 0.6) from R_rest exp(theta0 e_z), at rest:
  // log(R_rest^T R) = theta e_z stays on that axis, so theta'' = (-k theta - kp (theta - phi) - kd theta') / J,
  // the set-point being R_set = R_rest exp(phi e_z): a damped oscillator about kp phi / (k + kp).
  const double J = 0.6, k = 3.0, kp = 2.0, kd = 0.3, phi = 0.5, theta0 = 1.2;
  const Eigen::Vector3d rest_axis = Eigen::Vector3d(1, 2, 3).normalized();
  const Eigen::Matrix3d R_rest = lie::SO3::exp(0.4 * rest_axis);
  const Eigen::Matrix3d R_set = R_rest * lie::SO3::exp(phi * Eigen::Vector3d::UnitZ());
  const Eigen::Matrix3d R0 = R_rest * lie::SO3::exp(theta0 * Eigen::Vector3d::UnitZ());
  const auto matrix = [](const Eigen::Matrix3d& R) {
    std::string s;
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) s += fmt::format("{}{:.17g}", r + c ? ", " : "", R(r, c));
    return "{ matrix = [" + s + "] }";
  };
  const auto quaternion = [](const Eigen::Matrix3d& R) {
    const Eigen::Quaterniond q(R);
    return fmt::format("{{ quaternion = [{:.17g}, {:.17g}, {:.17g}, {:.17g}] }}", q.w(), q.x(), q.y(), q.z());
  };
  const std::string file = write_file("ball_spring.toml", fmt::format(R"(gravity = [0.0, 0.0, -9.81]
[[body]]
name = "b"
mass = 1.0
com = [0.0, 0.0, 0.0]
inertia = [0.5, 0.8, {}]
[[joint]]
name = "ball"
type = "spherical"
parent = "world"
child = "b"
stiffness = {}
rest = {{ axis_angle = [{:.17g}, {:.17g}, {:.17g}, 0.4] }}
pd = {{ kp = {}, kd = {}, setpoint = {} }}
attitude0 = {}
)", J, k, rest_axis[0], rest_axis[1], rest_axis[2], kp, kd, quaternion(R_set), matrix(R0)));
  const double T = 2.0, c = kd / J, w2 = (k + kp) / J, wd = std::sqrt(w2 - c * c / 4), eq = kp * phi / (k + kp);
  const double x0 = theta0 - eq, A = x0, B = c * x0 / 2 / wd, e = std::exp(-c * T / 2);
  const double theta = eq + e * (A * std::cos(wd * T) + B * std::sin(wd * T));
  const double rate = e * (-c / 2 * (A * std::cos(wd * T) + B * std::sin(wd * T)) + wd * (-A * std::sin(wd * T) + B * std::cos(wd * T)));
  const auto out = run("multibody", description(file), "rkmk4", T, 1e-3);
  const RowMajor3 R = Eigen::Map<const RowMajor3>(out.y.data());
  const double d_R = (Eigen::Matrix3d(R) - R_rest * lie::SO3::exp(theta * Eigen::Vector3d::UnitZ())).norm();
  const double d_w = (out.y.segment<3>(9) - rate * Eigen::Vector3d::UnitZ()).norm();
  if (verbose()) std::printf("spherical spring + PD at T = 2: |R - R_exact| %.2e, |omega - omega_exact| %.2e\n", d_R, d_w);
  CHECK(d_R <= 1e-10);
  CHECK(d_w <= 1e-10);

  // Tabulated moment on a spherical joint (isotropic body, about z): omega_z' = tau / J = 2 t, so
  // the angle is t^3 / 3; and a tabulated force on a floating body: x'' = 2 t / m, x = t^3 / 6
  // (polynomials RKMK4 integrates exactly on these commutative motions).
  const std::string tables = write_file("tables.toml", R"(gravity = [0.0, 0.0, 0.0]
[[body]]
name = "spinner"
mass = 1.0
com = [0.0, 0.0, 0.0]
inertia = [0.2, 0.2, 0.2]
[[body]]
name = "puck"
mass = 2.0
com = [0.0, 0.0, 0.0]
inertia = [0.1, 0.1, 0.1]
[[joint]]
name = "ball"
type = "spherical"
parent = "world"
child = "spinner"
torque_table = [[0.0, 0.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.4], [2.0, 0.0, 0.0, 0.4]]
[[joint]]
name = "free"
type = "floating"
parent = "world"
child = "puck"
torque_table = [[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0]]
)");
  auto m = make_model("multibody", description(tables));
  CHECK(m->invariants()[0].doc.find("NOT conserved") != std::string::npos);
  const auto tab = run("multibody", description(tables), "rkmk4", 1.0, 0.01);
  const RowMajor3 Rs = Eigen::Map<const RowMajor3>(tab.y.data());
  CHECK((Eigen::Matrix3d(Rs) - lie::SO3::exp(Eigen::Vector3d(0, 0, 1.0 / 3))).norm() <= 1e-13);
  CHECK(std::abs(tab.y[11] - 1.0) <= 1e-13);  // omega_z = t^2
  const Eigen::Index free_block = 12;          // floating block: R (9), p (3), omega (3), v (3)
  CHECK((tab.y.segment<3>(free_block + 9) - Eigen::Vector3d(1.0 / 6, 0, 0)).norm() <= 1e-13);
  CHECK((tab.y.segment<3>(free_block + 15) - Eigen::Vector3d(0.5, 0, 0)).norm() <= 1e-13);
}

TEST_CASE("a spherical spring and a PD spring with kd = 0 keep the energy: the moment is the potential's gradient") {
  const std::string file = write_file("ball_conservative.toml", R"(gravity = [0.0, 0.0, -9.81]
[[body]]
name = "b"
mass = 1.5
com = [0.1, -0.05, -0.4]
inertia = [0.05, 0.08, 0.03]
[[joint]]
name = "ball"
type = "spherical"
parent = "world"
child = "b"
rpy = [0.2, -0.1, 0.3]
stiffness = 4.0
rest = { axis_angle = [0.0, 1.0, 1.0, 0.7] }
pd = { kp = 1.5, kd = 0.0, setpoint = { axis_angle = [1.0, 0.0, 0.0, -0.4] } }
attitude0 = { axis_angle = [1.0, -2.0, 0.5, 1.1] }
omega0 = [1.5, -2.0, 3.0]
)");
  auto m = make_model("multibody", description(file));
  CHECK(m->invariants()[0].doc.find("(conserved)") != std::string::npos);
  Eigen::VectorXd y0(m->size()), i0(m->invariant_count()), i1(m->invariant_count());
  m->initial_state(y0);
  m->evaluate_invariants(y0, i0);
  const auto out = run("multibody", description(file), "rkmk4", 2.0, 5e-4);
  m->evaluate_invariants(out.y, i1);
  // The spring's potential at the start is far from 0 (||log|| ~ 1), so a wrong moment would move the energy by O(1).
  if (verbose()) std::printf("spherical springs: energy %.17g, drift %.2e\n", i0[0], std::abs(i1[0] - i0[0]));
  CHECK(std::abs(i1[0] - i0[0]) <= 1e-9 * std::max(1.0, std::abs(i0[0])));
}

TEST_CASE("the heavy top as a description equals the heavy_top model (rkmk4 and cvode_bdf to 1e-10, T = 5)") {
  // Same parameters for both: the benchmark top's mass, inertia and centre of mass, a slower spin
  // and a tilted start so that T = 5 is reached at 1e-10 with moderate steps.
  const Eigen::Vector3d omega0(0.4, 6.0, -0.3), rotvec(0.3, -0.2, 0.1);
  const Eigen::Matrix3d Q0 = lie::SO3::exp(rotvec);
  Eigen::Matrix<double, 9, 1> q0_rowmajor;
  Eigen::Map<RowMajor3>(q0_rowmajor.data()) = Q0;
  const Params top{{"formulation", "velocity"}, {"omega0", numbers_text(omega0)}, {"Q0", numbers_text(q0_rowmajor)}};
  const Params mb = description("heavy_top.toml", {{"q0", numbers_text(rotvec)}, {"v0", numbers_text(omega0)}});
  {
    // heavy_top's velocity formulation has the description's state (R, omega): same embedding.
    Eigen::VectorXd y0(12), z0(12);
    make_model("multibody", mb)->initial_state(y0);
    make_model("heavy_top", top)->initial_state(z0);
    CHECK((y0 - z0).norm() <= 1e-13);
  }
  const auto a = run("multibody", mb, "rkmk4", 5.0, 1.25e-4);
  const auto b = run("heavy_top", top, "rkmk4", 5.0, 1.25e-4);
  const double d_rkmk4 = (a.y - b.y).norm();
  const auto c1 = run("multibody", mb, "cvode_bdf", 5.0, 0, 1e-12, 1e-12);
  const auto c2 = run("heavy_top", top, "cvode_bdf", 5.0, 0, 1e-12, 1e-12);
  const double d_bdf = (c1.y - c2.y).norm();
  // And against the momentum formulation tso3 (Q, pi = R I_O omega), a different ODE: rkmk4 to
  // 1e-10; cvode_bdf only to its accuracy (BDF at rtol = atol = 1e-13 is accurate to ~5e-8 at
  // T = 5 on this top, and the two error controls choose different steps).
  Params tso3 = top;
  tso3["formulation"] = "tso3";
  const Eigen::Vector3d c(0, 1, 0);
  const double m = 15;
  const Eigen::Matrix3d I_O = Eigen::Vector3d(0.234375, 0.46875, 0.234375).asDiagonal().toDenseMatrix() +
                              m * (c.squaredNorm() * Eigen::Matrix3d::Identity() - c * c.transpose());
  const auto as_tso3 = [&](const Eigen::VectorXd& y) {
    Eigen::VectorXd z(12);
    z.head<9>() = y.head<9>();
    const RowMajor3 R = Eigen::Map<const RowMajor3>(y.data());
    z.tail<3>() = R * (I_O * y.segment<3>(9));
    return z;
  };
  const double d_tso3 = (as_tso3(a.y) - run("heavy_top", tso3, "rkmk4", 5.0, 1.25e-4).y).norm();
  if (verbose())
    std::printf("heavy top description vs heavy_top (velocity) at T = 5: rkmk4 %.2e, cvode_bdf %.2e; vs tso3 (rkmk4) %.2e; |y| = %.3g\n",
                d_rkmk4, d_bdf, d_tso3, b.y.norm());
  CHECK(d_rkmk4 <= 1e-10);
  CHECK(d_bdf <= 1e-10);
  CHECK(d_tso3 <= 1e-10);
  CHECK(c1.stats.steps > 100);  // a real adaptive run, not a trivial one
}

TEST_CASE("the heavy top's rigid-body description (ABI 2.2): lgvi on the description equals lgvi on heavy_top") {
  const Eigen::Vector3d omega0(0.4, 6.0, -0.3);
  const Params top{{"formulation", "tso3"}, {"omega0", numbers_text(omega0)}};
  const Params mb = description("heavy_top.toml", {{"v0", numbers_text(omega0)}});
  auto m = make_model("multibody", mb);
  REQUIRE(m->rigid_body() != nullptr);
  CHECK(make_model("multibody", description("double_pendulum.toml"))->rigid_body() == nullptr);
  const auto a = run("multibody", mb, "lgvi", 1.0, 1e-3);
  const auto b = run("heavy_top", top, "lgvi", 1.0, 1e-3);
  // Same attitude; heavy_top's pi = R I_O omega.
  const Eigen::Matrix3d I_O = Eigen::Vector3d(15.234375, 0.46875, 15.234375).asDiagonal();
  const RowMajor3 R = Eigen::Map<const RowMajor3>(a.y.data());
  const double d = (a.y.head<9>() - b.y.head<9>()).norm() + (R * (I_O * a.y.segment<3>(9)) - b.y.segment<3>(9)).norm();
  if (verbose()) std::printf("lgvi: heavy top description vs heavy_top at T = 1: %.2e\n", d);
  CHECK(d <= 1e-10);
}

TEST_CASE("the free rigid body as a floating-base description equals the rigid_body model (rkmk4 and cvode_bdf, T = 5)") {
  const Eigen::Vector3d I(2, 1.5, 1), y0(std::cos(0.8), 0, std::sin(0.8));  // rigid_body's defaults
  const Eigen::Vector3d omega0 = y0.cwiseQuotient(I);
  const std::string file = write_file("rigid_body.toml", fmt::format(R"(gravity = [0.0, 0.0, 0.0]
[[body]]
name = "body"
mass = 1.0
com = [0.0, 0.0, 0.0]
inertia = [2.0, 1.5, 1.0]
[[joint]]
name = "free"
type = "floating"
parent = "world"
child = "body"
omega0 = [{:.17g}, {:.17g}, {:.17g}]
velocity0 = [0.1, -0.2, 0.3]
)", omega0[0], omega0[1], omega0[2]));
  const auto momentum = [&](const Eigen::VectorXd& y) { return Eigen::Vector3d(I.cwiseProduct(y.segment<3>(12))); };
  for (const std::string method : {"rkmk4", "cvode_bdf"}) {
    CAPTURE(method);
    const bool fixed = method == "rkmk4";
    const double tol = fixed ? 0 : 1e-13;
    const auto a = run("multibody", description(file), method, 5.0, fixed ? 1e-3 : 0, tol, tol);
    const auto b = run("rigid_body", {}, method, 5.0, fixed ? 1e-3 : 0, tol, tol);
    const double d = (momentum(a.y) - b.y).norm();
    if (verbose()) std::printf("rigid body vs rigid_body at T = 5 (%s): %.2e\n", method.c_str(), d);
    CHECK(d <= 1e-10);
    // The free body moves uniformly: x(T) = x(0) + R-integrated v, |v_world| constant = |v|.
    const RowMajor3 R = Eigen::Map<const RowMajor3>(a.y.data());
    CHECK(std::abs((R * a.y.segment<3>(15)).norm() - std::sqrt(0.14)) <= 1e-9);
  }
}

TEST_CASE("observed orders on the arm (rkmk4, cf4, rk4, implicit midpoint) and on the satellite (rkmk4, cf4, rk4)") {
  const Params arm = description("arm7.urdf", {{"q0", "0.3,0.8,-0.4,1.2,0.5,-0.7,0.2"}, {"v0", "0.5,-0.3,0.4,0.2,-0.6,0.3,1.0"}});
  const Params sat = description("satellite.toml", {{"v0", "0.8,-0.5,0.6,0.1,0,-0.05,60,-40,25"}});
  struct Case {
    const Params* params;
    const char* name;
    std::string method;
    double order, h;
  };
  // The arm over T = 0.25 (released, the limp arm falls and its light wrist whips to ~90 rad/s by
  // t = 1: a fixed-step order needs the start); the satellite over T = 1.
  const std::vector<Case> cases = {{&arm, "arm", "rkmk4", 4, 0.01},    {&arm, "arm", "cf4", 4, 0.01},
                                   {&arm, "arm", "rk4", 4, 0.01},      {&arm, "arm", "implicit_midpoint", 2, 0.0025},
                                   {&arm, "arm", "rkmk_implicit_midpoint", 2, 0.0025},
                                   {&sat, "satellite", "rkmk4", 4, 0.02}, {&sat, "satellite", "cf4", 4, 0.02},
                                   {&sat, "satellite", "rk4", 4, 0.02}};
  const double T_arm = 0.25, T_sat = 1.0;
  const auto ref_arm = run("multibody", arm, "rk4", T_arm, T_arm / 6400).y;
  const auto ref_sat = run("multibody", sat, "rk4", T_sat, T_sat / 6400).y;
  for (const auto& c : cases) {
    CAPTURE(c.name);
    CAPTURE(c.method);
    const Eigen::VectorXd& ref = c.params == &arm ? ref_arm : ref_sat;
    const double T = c.params == &arm ? T_arm : T_sat;
    const double e1 = (run("multibody", *c.params, c.method, T, c.h).y - ref).norm();
    const double e2 = (run("multibody", *c.params, c.method, T, c.h / 2).y - ref).norm();
    const double p = std::log2(e1 / e2);
    if (verbose()) std::printf("%-9s %-24s errors %.3e %.3e observed order %.2f\n", c.name, c.method.c_str(), e1, e2, p);
    CHECK(std::abs(p - c.order) <= 0.3);
  }
}

TEST_CASE("conservative examples keep energy and momenta; Lie group methods keep SO(3) to round-off") {
  struct Case {
    std::string file;
    double h, T;
  };
  for (const Case& c : {Case{"heavy_top.toml", 2.5e-5, 0.2}, Case{"pendulum3_ball.toml", 1e-3, 2.0}, Case{"double_pendulum.toml", 1e-3, 2.0},
                        Case{"arm7.urdf", 1e-4, 1.0}, Case{"satellite.toml", 1e-3, 2.0}, Case{"gyroscope.toml", 2e-4, 1.0},
                        Case{"pendulum.toml", 1e-3, 2.0}}) {
    CAPTURE(c.file);
    const Params p = description(c.file, c.file == "arm7.urdf" ? Params{{"q0", "0.3,0.8,-0.4,1.2,0.5,-0.7,0.2"}} : Params{});
    auto m = make_model("multibody", p);
    const auto inv = m->invariants();
    Eigen::VectorXd y0(m->size()), i0(m->invariant_count()), i1(m->invariant_count());
    m->initial_state(y0);
    m->evaluate_invariants(y0, i0);
    const auto out = run("multibody", p, "rkmk4", c.T, c.h);
    m->evaluate_invariants(out.y, i1);
    for (std::size_t k = 0; k < inv.size(); ++k) {
      const auto i = static_cast<Eigen::Index>(k);
      CAPTURE(inv[k].name);
      const double drift = std::abs(i1[i] - i0[i]);
      if (verbose()) std::printf("%-22s %-32s %.17g drift %.2e\n", c.file.c_str(), inv[k].name.c_str(), i0[i], drift);
      if (inv[k].name.ends_with(".orthogonality")) CHECK(i1[i] <= 1e-13);
      else CHECK(drift <= 1e-7 * std::max(1.0, std::abs(i0[i])));
    }
  }
}

TEST_CASE("observables: link frames and energies") {
  // Double pendulum at q = (q1, q2): lower link's origin (the elbow) at (-sin q1, 0, -cos q1)...
  // a rotation q about y maps (0, 0, -1) to (-sin q, 0, -cos q).
  auto m = model("double_pendulum.toml");
  Eigen::VectorXd y(m->size());
  m->initial_state(y);
  const double q1 = y[0], q2 = y[2], v1 = y[1], v2 = y[3];
  const auto obs = m->observables();
  Eigen::VectorXd o(m->observable_count());
  REQUIRE(m->evaluate_observables(0.0, y, o) == Status::ok);
  const auto value = [&](const std::string& n) {
    for (std::size_t k = 0; k < obs.size(); ++k)
      if (obs[k].name == n) return o[static_cast<Eigen::Index>(k)];
    FAIL("no observable ", n);
    return 0.0;
  };
  CHECK(value("shoulder.q") == q1);
  CHECK(value("elbow.v") == v2);
  CHECK(std::abs(value("lower.x") + std::sin(q1)) <= 1e-15);
  CHECK(std::abs(value("lower.z") + std::cos(q1)) <= 1e-15);
  CHECK(std::abs(value("lower.R11") - std::cos(q1 + q2)) <= 1e-15);
  CHECK(std::abs(value("lower.R13") - std::sin(q1 + q2)) <= 1e-15);
  // Energies of two uniform rods (m = 1, L = 1), independently: T = 1/2 (1/3 + 1 + 1/12 + cos q2) v1^2 + ...
  const double I = 1.0 / 12;
  const double T = 0.5 * (0.25 + I + 1.0 + 0.25 + I + std::cos(q2)) * v1 * v1 + (0.25 + I + 0.5 * std::cos(q2)) * v1 * v2 +
                   0.5 * (0.25 + I) * v2 * v2;
  const double U = 9.81 * (-0.5 * std::cos(q1) - std::cos(q1) - 0.5 * std::cos(q1 + q2));  // m g z of the two centres
  CHECK(std::abs(value("kinetic_energy") - T) <= 1e-13);
  CHECK(std::abs(value("potential_energy") - U) <= 1e-13);
  // URDF: gravity 9.81 along -z unless given.
  auto arm = model("arm7.urdf");
  auto arm_g0 = model("arm7.urdf", "articulated_body", {{"gravity", "0,0,0"}});
  Eigen::VectorXd ya(arm->size()), oa(arm->observable_count()), ob(arm->observable_count());
  arm->initial_state(ya);
  CHECK(ya.norm() == 0.0);  // zero configuration at rest
  REQUIRE(arm->evaluate_observables(0.0, ya, oa) == Status::ok);
  REQUIRE(arm_g0->evaluate_observables(0.0, ya, ob) == Status::ok);
  // Moving mass 17.5 kg; its centre of mass height at q = 0 from the link table.
  const double mz = 4.0 * (0.06 + 0.15) + 4.0 * (0.36 + 0.10) + 3.0 * (0.56 + 0.10) + 2.7 * (0.76 + 0.10) + 1.7 * (0.96 + 0.10) +
                    1.8 * (1.16 + 0.04) + 0.3 * (1.24 + 0.025);
  CHECK(std::abs(oa[oa.size() - 1] - 9.81 * mz) <= 1e-11);
  CHECK(ob[ob.size() - 1] == 0.0);
}

TEST_CASE("no heap allocation per step (rkmk4, cf4, rk4, implicit midpoint) on the satellite and the arm") {
  MethodInfo found;
  for (const std::string file : {"satellite.toml", "arm7.urdf"}) {
    for (const std::string name : {"rkmk4", "cf4", "rk4", "lie_euler", "rkmk_implicit_midpoint", "dopri5"}) {
      CAPTURE(file);
      CAPTURE(name);
      found = MethodInfo{};
      for (const auto& plugin : registry().plugins())
        if (plugin.integrator)
          for (const auto& m : plugin.integrator->methods())
            if (m.name == name) found = m;
      REQUIRE(found.name == name);
      const Params p = description(file);
      const long short_run = allocations_of_run("multibody", p, found, 0.5, 0.01);
      const long long_run = allocations_of_run("multibody", p, found, 2.0, 0.01);
      CHECK(long_run == short_run);
    }
  }
}

namespace {

/// One malformed description: file name, text, a fragment the message must contain, and the line
/// it must name (0: the message names the file only).
struct Bad {
  std::string name, text, fragment;
  int line;
};

/// A valid one-body TOML description; each bad case changes one thing.
const std::string base_toml = R"(gravity = [0.0, 0.0, -9.81]
[[body]]
name = "b"
mass = 1.0
com = [0.0, 0.0, -1.0]
inertia = [0.1, 0.1, 0.1]
[[joint]]
name = "j"
type = "revolute"
parent = "world"
child = "b"
axis = [0.0, 1.0, 0.0]
)";

std::string with(const std::string& from, const std::string& to, const std::string& text = base_toml) {
  const auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.substr(0, at) + to + text.substr(at + from.size());
}

const std::string second_body = R"(
[[body]]
name = "c"
mass = 1.0
com = [0.0, 0.0, -1.0]
inertia = [0.1, 0.1, 0.1]
)";

const std::string base_urdf = R"(<?xml version="1.0"?>
<robot name="r">
  <link name="base"/>
  <link name="arm">
    <inertial>
      <origin xyz="0 0 -0.5" rpy="0 0 0"/>
      <mass value="1.0"/>
      <inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.01"/>
    </inertial>
  </link>
  <joint name="j" type="revolute">
    <parent link="base"/>
    <child link="arm"/>
    <origin xyz="0 0 0" rpy="0 0 0"/>
    <axis xyz="0 1 0"/>
  </joint>
</robot>
)";

std::vector<Bad> corpus() {
  const std::string ball = with("type = \"revolute\"", "type = \"spherical\"", with("axis = [0.0, 1.0, 0.0]\n", ""));
  return {
      {"syntax.toml", with("gravity = [0.0, 0.0, -9.81]", "gravity = [0.0, 0.0"), "not valid TOML", 0},
      {"unknown_top_key.toml", base_toml + "colour = \"red\"\n", "unknown key 'colour'", 13},
      {"unknown_body_key.toml", with("mass = 1.0", "mass = 1.0\ndensity = 3.0"), "unknown key 'density'", 5},
      {"unknown_joint_key.toml", base_toml + "limit = 1.0\n", "unknown key 'limit' for a revolute joint", 13},
      {"missing_gravity.toml", with("gravity = [0.0, 0.0, -9.81]\n", ""), "missing key 'gravity'", 0},
      {"missing_mass.toml", with("mass = 1.0\n", ""), "missing key 'mass'", 0},
      {"mass_with_units.toml", with("mass = 1.0", "mass = \"1 kg\""), "'mass' must be a number in kg", 4},
      {"negative_mass.toml", with("mass = 1.0", "mass = -1.0"), "is negative", 0},
      {"zero_mass_leaf.toml", with("inertia = [0.1, 0.1, 0.1]", "inertia = [0.0, 0.0, 0.0]", with("mass = 1.0", "mass = 0.0")),
       "no inertia along its motion", 7},
      {"mass_zero_inertia_not.toml", with("mass = 1.0", "mass = 0.0"), "mass is 0 but the inertia is not", 0},
      {"inertia_negative.toml", with("inertia = [0.1, 0.1, 0.1]", "inertia = [0.1, -0.1, 0.1]"), "not positive semi-definite", 0},
      {"inertia_triangle.toml", with("inertia = [0.1, 0.1, 0.1]", "inertia = [0.1, 0.1, 0.5]"), "triangle inequality", 0},
      {"inertia_asymmetric.toml", with("inertia = [0.1, 0.1, 0.1]", "inertia = [0.1, 0.01, 0, 0, 0.1, 0, 0, 0, 0.1]"), "not symmetric", 0},
      {"inertia_count.toml", with("inertia = [0.1, 0.1, 0.1]", "inertia = [0.1, 0.1, 0.1, 0.1]"), "has 4 numbers, needs 3 or 9", 6},
      {"com_not_array.toml", with("com = [0.0, 0.0, -1.0]", "com = 1.0"), "'com' must be an array", 5},
      {"unknown_joint_type.toml", with("type = \"revolute\"", "type = \"hinge\""), "unknown joint type 'hinge'", 9},
      {"missing_parent.toml", with("parent = \"world\"", "parent = \"ghost\""), "parent 'ghost' is not a body", 0},
      {"missing_child.toml", with("child = \"b\"", "child = \"ghost\""), "child 'ghost' is not a body", 0},
      {"child_is_world.toml", with("child = \"b\"", "child = \"world\""), "cannot be a child", 0},
      {"same_parent_child.toml", with("parent = \"world\"", "parent = \"b\""), "parent and child are the same body", 0},
      {"two_parents.toml",
       base_toml + second_body + "[[joint]]\nname = \"k\"\ntype = \"fixed\"\nparent = \"world\"\nchild = \"c\"\n" +
           "[[joint]]\nname = \"l\"\ntype = \"fixed\"\nparent = \"world\"\nchild = \"b\"\n",
       "closes a kinematic loop", 0},
      {"cycle.toml",
       base_toml + second_body + "[[body]]\nname = \"d\"\nmass = 1.0\ncom = [0.0, 0.0, 0.0]\ninertia = [0.1, 0.1, 0.1]\n" +
           "[[joint]]\nname = \"k\"\ntype = \"fixed\"\nparent = \"d\"\nchild = \"c\"\n" +
           "[[joint]]\nname = \"l\"\ntype = \"fixed\"\nparent = \"c\"\nchild = \"d\"\n",
       "closed loop", 0},
      {"detached_body.toml", base_toml + second_body, "no joint holds it", 0},
      {"zero_axis.toml", with("axis = [0.0, 1.0, 0.0]", "axis = [0.0, 0.0, 0.0]"), "the axis is zero", 12},
      {"missing_axis.toml", with("axis = [0.0, 1.0, 0.0]\n", ""), "missing key 'axis'", 0},
      {"duplicate_body.toml", base_toml + with("name = \"c\"", "name = \"b\"", second_body), "used twice", 0},
      {"duplicate_joint.toml", base_toml + second_body + "[[joint]]\nname = \"j\"\ntype = \"fixed\"\nparent = \"b\"\nchild = \"c\"\n",
       "used twice", 0},
      {"point_mass_on_ball.toml", with("inertia = [0.1, 0.1, 0.1]", "inertia = [0.0, 0.0, 0.0]", ball),
       "a point mass on a spherical joint needs a small inertia about the rod", 7},
      {"spring_on_free_body.toml", with("type = \"spherical\"", "type = \"floating\"", ball) + "stiffness = 1.0\n",
       "unknown key 'stiffness' for a floating joint", 0},
      {"ball_rest_number.toml", ball + "stiffness = 1.0\nrest = 0.5\n", "'rest' must be a table with exactly one of", 0},
      {"ball_setpoint_number.toml", ball + "pd = { kp = 1.0, kd = 0.1, setpoint = 0.0 }\n", "'pd.setpoint' must be a table", 0},
      {"ball_table_row.toml", ball + "torque_table = [[0.0, 1.0], [1.0, 2.0]]\n", "'torque_table' has 2 numbers, needs 4", 0},
      {"bad_quaternion.toml", ball + "attitude0 = { quaternion = [2.0, 0.0, 0.0, 0.0] }\n", "unit quaternion", 0},
      {"bad_matrix.toml", ball + "attitude0 = { matrix = [1.0, 0.1, 0, 0, 1, 0, 0, 0, 1] }\n", "not a rotation", 0},
      {"zero_rotation_axis.toml", ball + "attitude0 = { axis_angle = [0.0, 0.0, 0.0, 1.0] }\n", "zero axis", 0},
      {"two_attitudes.toml", ball + "attitude0 = { axis_angle = [0.0, 0.0, 1.0, 1.0], quaternion = [1.0, 0.0, 0.0, 0.0] }\n",
       "exactly one of", 0},
      {"table_order.toml", base_toml + "torque_table = [[0.0, 1.0], [2.0, 0.0], [1.0, 1.0]]\n", "times must increase", 0},
      {"negative_damping.toml", base_toml + "damping = -0.5\n", "is negative", 13},
      {"pd_missing_kd.toml", base_toml + "pd = { kp = 1.0, setpoint = 0.0 }\n", "missing key 'kd'", 0},
      {"rest_without_spring.toml", base_toml + "rest = 0.5\n", "'rest' without 'stiffness'", 13},
      {"nothing_moves.toml", with("type = \"revolute\"", "type = \"fixed\"", with("axis = [0.0, 1.0, 0.0]\n", "")), "no joint moves", 0},
      {"no_bodies.toml", "gravity = [0.0, 0.0, -9.81]\n", "no [[body]]", 0},
      {"visual_shape.toml", with("inertia = [0.1, 0.1, 0.1]", "inertia = [0.1, 0.1, 0.1]\nvisual = { shape = \"cone\", size = [0.1] }"),
       "unknown shape 'cone' (known: box, cylinder, sphere, capsule)", 7},
      {"visual_size_count.toml", with("inertia = [0.1, 0.1, 0.1]", "inertia = [0.1, 0.1, 0.1]\nvisual = { shape = \"box\", size = [0.1, 0.2] }"),
       "'size' has 2 numbers, needs 3", 7},
      {"visual_size_zero.toml", with("inertia = [0.1, 0.1, 0.1]", "inertia = [0.1, 0.1, 0.1]\nvisual = { shape = \"sphere\", size = [0.0] }"),
       "'size' = 0 is not positive", 7},
      {"visual_colour.toml",
       with("inertia = [0.1, 0.1, 0.1]", "inertia = [0.1, 0.1, 0.1]\nvisual = { shape = \"sphere\", size = [0.1], color = \"red\" }"),
       "is not a colour \"#rrggbb\"", 7},
      {"visual_key.toml",
       with("inertia = [0.1, 0.1, 0.1]", "inertia = [0.1, 0.1, 0.1]\nvisual = { shape = \"sphere\", size = [0.1], mesh = \"a.stl\" }"),
       "unknown key 'mesh' (known keys: color, rpy, shape, size, xyz)", 7},
      {"visual_not_table.toml", with("inertia = [0.1, 0.1, 0.1]", "inertia = [0.1, 0.1, 0.1]\nvisual = \"box\""), "'visual' must be a table", 7},
      {"visual_no_geometry.urdf", with("</inertial>", "</inertial>\n    <visual><origin xyz=\"0 0 -0.5\"/></visual>", base_urdf),
       "<visual> has no <geometry>", 10},
      {"visual_cone.urdf", with("</inertial>", "</inertial>\n    <visual><geometry><cone radius=\"0.1\"/></geometry></visual>", base_urdf),
       "unknown visual geometry <cone>", 10},
      {"visual_radius.urdf",
       with("</inertial>", "</inertial>\n    <visual><geometry><cylinder radius=\"-0.1\" length=\"1\"/></geometry></visual>", base_urdf),
       "sizes must be positive", 10},
      {"visual_rgba.urdf",
       with("</inertial>",
            "</inertial>\n    <visual><geometry><sphere radius=\"0.1\"/></geometry>\n"
            "      <material name=\"m\"><color rgba=\"0 2 0 1\"/></material></visual>",
            base_urdf),
       "outside [0, 1]", 11},
      {"bad_xml.urdf", with("</robot>", "</robt>", base_urdf), "not well-formed XML", 0},
      {"not_robot.urdf", with("</robot>", "</model>", with("<robot name=\"r\">", "<model name=\"r\">", base_urdf)), "has <robot", 0},
      {"unknown_type.urdf", with("type=\"revolute\"", "type=\"hinge\"", base_urdf), "unknown joint type 'hinge'", 11},
      {"planar.urdf", with("type=\"revolute\"", "type=\"planar\"", base_urdf), "'planar' is not supported", 11},
      {"mass_units.urdf", with("<mass value=\"1.0\"/>", "<mass value=\"1kg\"/>", base_urdf), "'1kg' is not a finite number", 7},
      {"missing_inertia.urdf", with("<inertia ixx=\"0.1\" ixy=\"0\" ixz=\"0\" iyy=\"0.1\" iyz=\"0\" izz=\"0.01\"/>", "", base_urdf),
       "has no <inertia", 5},
      {"two_roots.urdf", with("<link name=\"base\"/>", "<link name=\"base\"/>\n  <link name=\"extra\"/>", base_urdf), "second root", 4},
      {"loop.urdf", with("</robot>", "  <joint name=\"k\" type=\"fixed\"><parent link=\"arm\"/><child link=\"base\"/></joint>\n</robot>", base_urdf),
       "closed loop", 0},
      {"missing_parent.urdf", with("<parent link=\"base\"/>", "<parent link=\"ghost\"/>", base_urdf), "parent 'ghost' is not a link", 11},
      {"zero_axis.urdf", with("<axis xyz=\"0 1 0\"/>", "<axis xyz=\"0 0 0\"/>", base_urdf), "the axis is zero", 15},
      {"massless_moving.urdf",
       with("  <link name=\"arm\">\n    <inertial>\n      <origin xyz=\"0 0 -0.5\" rpy=\"0 0 0\"/>\n      <mass value=\"1.0\"/>\n"
            "      <inertia ixx=\"0.1\" ixy=\"0\" ixz=\"0\" iyy=\"0.1\" iyz=\"0\" izz=\"0.01\"/>\n    </inertial>\n  </link>",
            "  <link name=\"arm\"/>", base_urdf),
       "no inertia along its motion", 0},
      {"mimic.urdf", with("<axis xyz=\"0 1 0\"/>", "<axis xyz=\"0 1 0\"/>\n    <mimic joint=\"j\"/>", base_urdf), "<mimic> joints are not supported", 0},
      {"short_origin.urdf", with("<origin xyz=\"0 0 0\" rpy=\"0 0 0\"/>", "<origin xyz=\"0 0\"/>", base_urdf), "has 2 numbers, needs 3", 0},
      {"negative_inertia.urdf", with("izz=\"0.01\"", "izz=\"-0.01\"", base_urdf), "not positive semi-definite", 0},
      {"empty.urdf", "", "not well-formed XML", 0},
  };
}

liesim::test::Result liesim_run(const std::string& params) {
  return sh(std::string("env LIESIM_PLUGIN_PATH= ") + LIESIM_TEST_BINARY_DIR + "/bin/liesim run --model multibody " + params +
            " --integrator rk4 --t-end 0.01 --step 0.01");
}

}  // namespace

TEST_CASE("every malformed description gets a clear error naming the file and line, exit code 1, never a crash") {
  const auto bad = corpus();
  CHECK(bad.size() >= 30);
  for (const Bad& b : bad) {
    CAPTURE(b.name);
    const std::string path = write_file(b.name, b.text);
    const auto r = liesim_run("--param file=" + path);
    CAPTURE(r.out);
    CHECK(r.code == 1);  // liesim's exit code for bad input (2: a usage error; -1 here: killed by a signal)
    CHECK(r.out.find("liesim: error: ") != std::string::npos);
    CHECK(r.out.find(path) != std::string::npos);
    CHECK(r.out.find(b.fragment) != std::string::npos);
    if (b.line > 0) CHECK(r.out.find(fmt::format("{}:{}:", path, b.line)) != std::string::npos);
  }
  // Parameters.
  struct Param {
    std::string args, fragment;
  };
  for (const Param& p : {Param{"--param file=" + scratch_dir().string() + "/does_not_exist.toml", "cannot read the description file"},
                         Param{"--param file=" + write_file("description.txt", base_toml), "unknown format"},
                         Param{"", "parameter 'file' of model 'multibody' is required"},
                         Param{"--param file=" + examples + "arm7.urdf --param q0=1,2", "parameter 'q0'"},
                         Param{"--param file=" + examples + "arm7.urdf --param v0=1,2,3,4,5,6,7,8", "parameter 'v0'"},
                         Param{"--param file=" + examples + "arm7.urdf --param gravity=0,0", "gravity"},
                         Param{"--param file=" + examples + "arm7.urdf --param dynamics=fast", "dynamics"}}) {
    CAPTURE(p.args);
    const auto r = liesim_run(p.args);
    CAPTURE(r.out);
    CHECK(r.code == 1);
    CHECK(r.out.find(p.fragment) != std::string::npos);
  }
}

TEST_CASE("liesim run and describe on a shipped description") {
  const auto r = sh(std::string("env LIESIM_PLUGIN_PATH= ") + LIESIM_TEST_BINARY_DIR + "/bin/liesim run --model multibody --param file=" +
                    examples + "double_pendulum.toml --integrator rkmk4 --t-end 0.1 --step 0.01");
  CAPTURE(r.out);
  CHECK(r.code == 0);
  CHECK(r.out.find("shoulder.q") != std::string::npos);
  const auto d = sh(std::string("env LIESIM_PLUGIN_PATH= ") + LIESIM_TEST_BINARY_DIR + "/bin/liesim describe multibody");
  CHECK(d.code == 0);
  CHECK(d.out.find("articulated-body algorithm") != std::string::npos);
}

// ---- The scene (ABI 2.8): visuals and inertia solids posed by the model's kinematics ----------

namespace {

Eigen::VectorXd scene_poses_at(const ModelView& m, const Eigen::VectorXd& y) {
  Eigen::VectorXd out = Eigen::VectorXd::Constant(pose_size * static_cast<Eigen::Index>(m.scene().bodies.size()), std::nan(""));
  REQUIRE(m.scene_poses(0.0, y, out) == Status::ok);
  REQUIRE(out.allFinite());
  return out;
}
Eigen::Vector3d pose_position(const Eigen::VectorXd& P, int k) { return P.segment<3>(pose_size * k); }
Eigen::Vector3d pose_end(const Eigen::VectorXd& P, int k) { return P.segment<3>(pose_size * k + 3); }
/// The rotation (body -> world) of pose k's quaternion [qx, qy, qz, qw], which must be unit.
Eigen::Matrix3d pose_rotation(const Eigen::VectorXd& P, int k) {
  const auto q = P.segment<4>(pose_size * k + 3);
  CHECK(std::abs(q.norm() - 1) < 1e-12);
  return Eigen::Quaterniond(q[3], q[0], q[1], q[2]).toRotationMatrix();
}
int body_index(const Scene& s, const std::string& name) {
  for (std::size_t k = 0; k < s.bodies.size(); ++k)
    if (s.bodies[k].name == name) return static_cast<int>(k);
  FAIL("the scene has no body '" << name << "'");
  return -1;
}
double max_abs(const Eigen::MatrixXd& a) { return a.cwiseAbs().maxCoeff(); }

}  // namespace

TEST_CASE("scene of arm7.urdf: each link's visual cylinder at its world pose (forward kinematics written here), stick figure, base") {
  const Params p = description("arm7.urdf", {{"q0", "0.3,0.8,-0.4,1.2,0.5,-0.7,0.2"}, {"v0", "0.5,-0.3,0.4,0.2,-0.6,0.3,1.0"}});
  const auto arm = make_model("multibody", p);
  const Scene scene = arm->scene();
  // The base (root link, its inertia solid), 7 visuals, 8 sticks, the pivot of a1.
  REQUIRE(scene.bodies.size() == 17);
  CHECK(scene.bodies[0].name == "base");
  CHECK(scene.up == std::array<double, 3>{0, 0, 1});
  CHECK(scene.extent > 0.8);
  CHECK(scene.extent < 2.0);
  // The file's table: joint offsets along the parent's z, link lengths h and radii r.
  const double offset[] = {0.06, 0.3, 0.2, 0.2, 0.2, 0.2, 0.08}, h[] = {0.3, 0.2, 0.2, 0.2, 0.2, 0.08, 0.05};
  const double r[] = {0.07, 0.07, 0.06, 0.06, 0.05, 0.05, 0.04};
  const Eigen::Vector3d axis[] = {Eigen::Vector3d::UnitZ(), Eigen::Vector3d::UnitY(), Eigen::Vector3d::UnitZ(), -Eigen::Vector3d::UnitY(),
                                  Eigen::Vector3d::UnitZ(), Eigen::Vector3d::UnitY(), Eigen::Vector3d::UnitZ()};
  for (int k = 0; k < 7; ++k) {
    const SceneBody& b = scene.bodies[static_cast<std::size_t>(1 + k)];
    CHECK(b.name == fmt::format("link{}", k + 1));
    CHECK(b.shape == Shape::cylinder);
    CHECK(b.size[0] == r[k]);
    CHECK(b.size[1] == h[k]);
  }
  Eigen::VectorXd y0(arm->size());
  arm->initial_state(y0);
  const Eigen::VectorXd y1 = run("multibody", p, "rkmk4", 0.2, 1e-3).y;
  for (const bool initial : {true, false}) {
    const Eigen::VectorXd& y = initial ? y0 : y1;
    const Eigen::VectorXd P = scene_poses_at(*arm, y);
    Eigen::Matrix3d R = Eigen::Matrix3d::Identity();
    Eigen::Vector3d x = Eigen::Vector3d::Zero();
    for (int k = 0; k < 7; ++k) {
      CAPTURE(k);
      const Eigen::Vector3d parent = x;
      x += R * Eigen::Vector3d(0, 0, offset[k]);  // joint k + 1 on the parent's z axis
      R = R * Eigen::AngleAxisd(y[2 * k], axis[k]).toRotationMatrix();
      CHECK(max_abs(pose_rotation(P, 1 + k) - R) < 1e-12);
      CHECK(max_abs(pose_position(P, 1 + k) - (x + R * Eigen::Vector3d(0, 0, h[k] / 2))) < 1e-12);  // <visual><origin xyz="0 0 h/2"/>
      // The stick from the parent's origin to this joint.
      const int stick = body_index(scene, fmt::format("{}.to_a{}", k == 0 ? "base" : fmt::format("link{}", k), k + 1));
      CHECK(scene.bodies[static_cast<std::size_t>(stick)].shape == Shape::segment);
      CHECK(max_abs(pose_position(P, stick) - parent) < 1e-12);
      CHECK(max_abs(pose_end(P, stick) - x) < 1e-12);
    }
    // The last link has no child: a stick to its centre of mass (0, 0, 0.025).
    CHECK(max_abs(pose_end(P, body_index(scene, "link7.to_com")) - (x + R * Eigen::Vector3d(0, 0, 0.025))) < 1e-12);
    // The base stays put: its inertia solid (I = diag(0.02, 0.02, 0.03), 5 kg: a cylinder about z) at its centre of mass.
    CHECK(scene.bodies[0].shape == Shape::cylinder);
    CHECK(max_abs(pose_position(P, 0) - Eigen::Vector3d(0, 0, 0.03)) < 1e-15);
    CHECK(max_abs(pose_position(P, body_index(scene, "a1.pivot")) - Eigen::Vector3d(0, 0, 0.06)) < 1e-15);
  }
}

TEST_CASE("scene without visuals: the inertia solids at the centres of mass, along the principal axes (double pendulum, heavy top)") {
  {
    const auto dp = model("double_pendulum.toml");
    const Scene scene = dp->scene();
    REQUIRE(scene.bodies.size() == 5);  // two rods, two sticks, the pivot
    // A thin uniform rod of 1 kg and 1 m (I = m L^2/12 across, 1e-4 along): a cylinder about z, L^2 = (12 I_across - 6 I_along) / m.
    CHECK(scene.bodies[0].shape == Shape::cylinder);
    CHECK(scene.bodies[0].size[1] == doctest::Approx(std::sqrt(12 * 0.08333333333333333 - 6e-4)).epsilon(1e-12));
    Eigen::VectorXd y0(dp->size());
    dp->initial_state(y0);
    const Eigen::VectorXd y1 = run("multibody", description("double_pendulum.toml"), "rkmk4", 0.5, 1e-3).y;
    for (const bool initial : {true, false}) {
      const Eigen::VectorXd& y = initial ? y0 : y1;
      const Eigen::VectorXd P = scene_poses_at(*dp, y);
      // Joints about y: R = Ry(q), the upper rod from the origin, the lower from the elbow at Ry(q1) (0, 0, -1).
      const Eigen::Matrix3d R1 = Eigen::AngleAxisd(y[0], Eigen::Vector3d::UnitY()).toRotationMatrix();
      const Eigen::Matrix3d R2 = R1 * Eigen::AngleAxisd(y[2], Eigen::Vector3d::UnitY()).toRotationMatrix();
      const Eigen::Vector3d elbow = R1 * Eigen::Vector3d(0, 0, -1), down(0, 0, -0.5);
      CHECK(max_abs(pose_position(P, 0) - R1 * down) < 1e-14);
      CHECK(max_abs(pose_position(P, 1) - (elbow + R2 * down)) < 1e-14);
      CHECK(max_abs(pose_rotation(P, 0) - R1) < 1e-12);  // the cylinder's axis (its z) along the rod
      CHECK(max_abs(pose_rotation(P, 1) - R2) < 1e-12);
      CHECK(max_abs(pose_end(P, 2) - elbow) < 1e-14);                   // upper.to_elbow
      CHECK(max_abs(pose_position(P, 3) - elbow) < 1e-14);              // lower.to_com
      CHECK(max_abs(pose_end(P, 3) - (elbow + R2 * down)) < 1e-14);
      CHECK(max_abs(pose_position(P, 4)) == 0);                         // the shoulder's pivot
    }
  }
  {
    // The heavy top on a spherical joint: the disc about the body's y axis at R c, as the heavy_top model draws it.
    const auto top = model("heavy_top.toml");
    const Scene scene = top->scene();
    REQUIRE(scene.bodies.size() == 3);  // the disc, the stick to the centre of mass, the pivot
    CHECK(scene.bodies[0].shape == Shape::cylinder);
    CHECK(scene.bodies[0].size[0] == doctest::Approx(0.25).epsilon(1e-14));
    const Eigen::VectorXd y = run("multibody", description("heavy_top.toml"), "rkmk4", 0.02, 1e-4).y;
    const Eigen::VectorXd P = scene_poses_at(*top, y);
    const Eigen::Matrix3d R = Eigen::Map<const RowMajor3>(y.data());
    CHECK(max_abs(R - R.transpose()) > 0.1);
    CHECK(max_abs(pose_position(P, 0) - R.col(1)) < 1e-14);
    CHECK(max_abs(pose_rotation(P, 0).col(2) - R.col(1)) < 1e-12);
    CHECK(max_abs(pose_end(P, 1) - R.col(1)) < 1e-14);
  }
}

TEST_CASE("scene from the descriptions' visuals: TOML visual tables and URDF visual, material and mesh") {
  const std::string toml = write_file("visuals.toml", R"(gravity = [0.0, 0.0, -9.81]
[[body]]
name = "b"
mass = 2.0
com = [0.0, 0.0, -1.0]
inertia = [0.1, 0.2, 0.25]
visual = { shape = "box", size = [0.1, 0.2, 0.3], xyz = [0.0, 0.0, -1.0], rpy = [0.3, 0.0, 0.5], color = "#AA3377" }
[[body]]
name = "c"
mass = 1.0
com = [0.0, 0.0, 0.0]
inertia = [0.1, 0.1, 0.1]
[[body.visual]]
shape = "capsule"
size = [0.05, 0.4]
[[body.visual]]
shape = "sphere"
size = [0.08]
xyz = [0.0, 0.0, 0.2]
[[joint]]
name = "j"
type = "spherical"
parent = "world"
child = "b"
attitude0 = { axis_angle = [1.0, 2.0, 0.5, 0.7] }
omega0 = [0.3, -0.5, 0.2]
[[joint]]
name = "k"
type = "prismatic"
parent = "b"
child = "c"
xyz = [0.2, 0.0, -1.0]
axis = [1.0, 0.0, 0.0]
q0 = 0.1
v0 = 0.4
)");
  const auto m = make_model("multibody", description(toml));
  const Scene scene = m->scene();
  REQUIRE(scene.bodies.size() == 5);  // b's box, c's capsule and sphere, the stick from b to joint k (c's centre of mass is its origin), the pivot
  CHECK(scene.bodies[0].name == "b");
  CHECK(scene.bodies[0].shape == Shape::box);
  CHECK(scene.bodies[0].size == std::array<double, 3>{0.1, 0.2, 0.3});
  CHECK(scene.bodies[0].color == 0xaa3377u);
  CHECK(scene.bodies[1].name == "c.visual1");
  CHECK(scene.bodies[1].shape == Shape::capsule);
  CHECK(scene.bodies[2].name == "c.visual2");
  CHECK(scene.bodies[2].shape == Shape::sphere);
  CHECK(scene.bodies[3].name == "b.to_k");
  CHECK(scene.bodies[4].name == "j.pivot");
  const Eigen::Matrix3d V = (Eigen::AngleAxisd(0.5, Eigen::Vector3d::UnitZ()) * Eigen::AngleAxisd(0.3, Eigen::Vector3d::UnitX())).toRotationMatrix();
  Eigen::VectorXd y0(m->size());
  m->initial_state(y0);
  const Eigen::VectorXd y1 = run("multibody", description(toml), "rkmk4", 0.3, 1e-3).y;
  for (const bool initial : {true, false}) {
    const Eigen::VectorXd& y = initial ? y0 : y1;
    const Eigen::VectorXd P = scene_poses_at(*m, y);
    const Eigen::Matrix3d R = Eigen::Map<const RowMajor3>(y.data());  // b: the spherical joint's R (world frame)
    const Eigen::Vector3d c = R * Eigen::Vector3d(0.2 + y[12], 0, -1);  // c: slides along b's x axis by q
    CHECK(max_abs(pose_position(P, 0) - R * Eigen::Vector3d(0, 0, -1)) < 1e-14);
    CHECK(max_abs(pose_rotation(P, 0) - R * V) < 1e-12);
    CHECK(max_abs(pose_position(P, 1) - c) < 1e-14);
    CHECK(max_abs(pose_rotation(P, 1) - R) < 1e-12);
    CHECK(max_abs(pose_position(P, 2) - (c + R * Eigen::Vector3d(0, 0, 0.2))) < 1e-14);
    CHECK(max_abs(pose_end(P, 3) - R * Eigen::Vector3d(0.2, 0, -1)) < 1e-14);
  }

  const std::string urdf = write_file("visuals.urdf", R"(<?xml version="1.0"?>
<robot name="r">
  <material name="teal"><color rgba="0 0.5 0.5 1"/></material>
  <link name="base"><visual><geometry><box size="0.4 0.4 0.1"/></geometry><material name="teal"/></visual></link>
  <link name="arm">
    <inertial>
      <origin xyz="0 0 -0.5" rpy="0 0 0"/>
      <mass value="1.0"/>
      <inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.01"/>
    </inertial>
    <visual><origin xyz="0 0 -0.5" rpy="0 0 0"/><geometry><mesh filename="package://r/arm.stl"/></geometry></visual>
    <visual><origin xyz="0 0 -1" rpy="0 0 0"/><geometry><sphere radius="0.1"/></geometry>
      <material name="tip"><color rgba="1 0 0 1"/></material></visual>
  </link>
  <joint name="j" type="revolute">
    <parent link="base"/>
    <child link="arm"/>
    <origin xyz="0 0 0" rpy="0 0 0"/>
    <axis xyz="0 1 0"/>
  </joint>
</robot>
)");
  const auto u = make_model("multibody", description(urdf, {{"q0", "0.4"}}));
  const Scene us = u->scene();
  REQUIRE(us.bodies.size() == 5);  // the base's box, the arm's mesh (as its inertia solid) and sphere, the stick to the com, the pivot
  CHECK(us.bodies[0].name == "base");
  CHECK(us.bodies[0].shape == Shape::box);
  CHECK(us.bodies[0].color == 0x008080u);
  CHECK(us.bodies[1].name == "arm.visual1");
  CHECK(us.bodies[1].shape == Shape::cylinder);  // I = diag(0.1, 0.1, 0.01): a rod about z
  CHECK(us.bodies[2].shape == Shape::sphere);
  CHECK(us.bodies[2].color == 0xff0000u);
  Eigen::VectorXd uy(u->size());
  u->initial_state(uy);
  const Eigen::VectorXd P = scene_poses_at(*u, uy);
  const Eigen::Matrix3d R = Eigen::AngleAxisd(0.4, Eigen::Vector3d::UnitY()).toRotationMatrix();
  CHECK(max_abs(pose_position(P, 0)) == 0);
  CHECK(max_abs(pose_position(P, 1) - R * Eigen::Vector3d(0, 0, -0.5)) < 1e-15);  // the inertia solid at the centre of mass
  CHECK(max_abs(pose_position(P, 2) - R * Eigen::Vector3d(0, 0, -1)) < 1e-15);
}

TEST_CASE("pendulum.toml is the mathematical pendulum: H = p^2/2 - cos q, period 4 K(sin(q0/2)) (seed 000 Fig. 1.1)") {
  auto m = model("pendulum.toml");
  REQUIRE(m->size() == 2);
  Eigen::VectorXd y(2), inv(m->invariant_count());
  y << 0.7, -0.4;
  m->evaluate_invariants(y, inv);
  CHECK(inv[0] == doctest::Approx(0.5 * 0.16 - std::cos(0.7)).epsilon(1e-14));
  // From rest at q0 = pi/2 the period is 4 K(k), k = sin(pi/4), K(1/sqrt 2) = 1.8540746773013719
  // (Abramowitz & Stegun 17.3; the lemniscate case): after one period the state is back at the start.
  const double period = 4 * 1.8540746773013719;
  const Eigen::VectorXd back = run("multibody", description("pendulum.toml"), "rkmk5", period, period / 4000).y;
  CHECK(std::abs(back[0] - 1.5707963267948966) < 1e-10);
  CHECK(std::abs(back[1]) < 1e-10);
  // Half a period: at rest at -pi/2.
  const Eigen::VectorXd half = run("multibody", description("pendulum.toml"), "rkmk5", period / 2, period / 4000).y;
  CHECK(std::abs(half[0] + 1.5707963267948966) < 1e-10);
}
