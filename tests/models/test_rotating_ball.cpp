// rotating_ball and oscillator: exact solutions, RKMK = classical RK on the test equation
// (seed 003 §3), the off-axis case, energy behaviour, parameter validation.
#include "support/plugins.hpp"

#include <liesim/lie/so3.hpp>

#include <doctest/doctest.h>

#include <Eigen/Geometry>

#include <cmath>
#include <map>
#include <numbers>
#include <string>
#include <vector>

namespace {

using namespace liesim;
using Params = std::map<std::string, std::string>;
using RowMajor3 = Eigen::Matrix<double, 3, 3, Eigen::RowMajor>;

/// Records every output point.
struct Recorder final : Observer {
  std::vector<double> t;
  std::vector<Eigen::VectorXd> y;
  void on_output(double time, ConstVec state) override {
    t.push_back(time);
    y.emplace_back(state);
  }
};

/// Records the model's invariants at every output point.
struct InvariantRecorder final : Observer {
  explicit InvariantRecorder(const ModelView& m) : model(m), v(m.invariants().size()) {}
  void on_output(double, ConstVec y) override {
    model.evaluate_invariants(y, v);
    values.push_back(v);
  }
  const ModelView& model;
  Eigen::VectorXd v;
  std::vector<Eigen::VectorXd> values;
};

/// The table name a method summary ends with: "... [CLASSICAL_RK_4_4]" -> "CLASSICAL_RK_4_4".
std::string table_of(const MethodInfo& m) {
  const auto a = m.summary.rfind('['), b = m.summary.rfind(']');
  return a == std::string::npos || b == std::string::npos ? std::string() : m.summary.substr(a + 1, b - a - 1);
}

/// Parameters shared by the ball and the oscillator: axis n = (1, 2, 2)/3 (normalised by the model).
const Params ball_common{{"m", "1.5"}, {"d", "0.3"}, {"k", "2"}, {"axis", "1,2,2"}, {"alpha0", "0.7"}, {"v0", "-0.4"}};
const Eigen::Vector3d axis_n = Eigen::Vector3d(1, 2, 2) / 3.0;

Params with(Params p, const Params& extra) {
  for (const auto& [k, v] : extra) p[k] = v;
  return p;
}

Eigen::Matrix3d rotation(const Eigen::VectorXd& y) { return Eigen::Map<const RowMajor3>(y.data()); }

}  // namespace

TEST_CASE("oscillator: exact solution in the three regimes matches rk4 at h = 1e-3") {
  for (const auto& [d, k, regime] : std::vector<std::tuple<std::string, std::string, std::string>>{
           {"0.3", "2", "underdamped"}, {"2", "0.5", "critical"}, {"3", "0.5", "overdamped"}, {"0", "1", "undamped"},
           {"0.7", "0", "no spring"}}) {
    const std::string& regime_name = regime;  // clang 14 cannot capture a structured binding
    CAPTURE(regime_name);
    const Params p{{"m", "2"}, {"d", d}, {"k", k}, {"x0", "0.8"}, {"v0", "-0.3"}};
    auto model = test::make_model("oscillator", p);
    REQUIRE(model->has_exact_solution());
    Eigen::VectorXd exact(2);
    REQUIRE(model->exact_solution(3.0, exact) == Status::ok);
    const auto out = test::run("oscillator", p, "rk4", 3.0, 1e-3);
    CHECK((out.y - exact).norm() < 1e-11);
    Eigen::VectorXd y0(2), e0(2);
    model->initial_state(y0);
    REQUIRE(model->exact_solution(0.0, e0) == Status::ok);
    CHECK((y0 - e0).norm() < 1e-15);
  }
}

TEST_CASE("rotating_ball: w0 parallel to the axis follows the exact solution (rkmk4, h = 1e-3)") {
  for (const auto& [d, k, regime] : std::vector<std::tuple<std::string, std::string, std::string>>{
           {"0.3", "2", "underdamped"}, {"2", "0.5", "critical"}, {"3", "0.5", "overdamped"}, {"0", "2", "undamped"}}) {
    const std::string& regime_name = regime;  // clang 14 cannot capture a structured binding
    CAPTURE(regime_name);
    const Params p = with(ball_common, {{"m", "2"}, {"d", d}, {"k", k}});
    auto model = test::make_model("rotating_ball", p);
    REQUIRE(model->has_exact_solution());
    Eigen::VectorXd exact(12);
    REQUIRE(model->exact_solution(2.0, exact) == Status::ok);
    const auto out = test::run("rotating_ball", p, "rkmk4", 2.0, 1e-3);
    const double err = (out.y - exact).norm();
    MESSAGE(regime << ": |y - exact| = " << err);
    CHECK(err < 1e-11);
    CHECK(model->check_state(exact).empty());
  }
}

TEST_CASE("rotating_ball: the exact solution for k = 0 (free damped spin, any w0) matches rkmk4") {
  const Params p = with(ball_common, {{"k", "0"}, {"w0_perp", "0.6,-0.3,0"}});
  auto model = test::make_model("rotating_ball", p);
  REQUIRE(model->has_exact_solution());
  Eigen::VectorXd exact(12);
  REQUIRE(model->exact_solution(2.0, exact) == Status::ok);
  const auto out = test::run("rotating_ball", p, "rkmk4", 2.0, 1e-3);
  MESSAGE("k = 0: |y - exact| = " << (out.y - exact).norm());
  CHECK((out.y - exact).norm() < 1e-11);
  CHECK_FALSE(test::make_model("rotating_ball", with(ball_common, {{"w0_perp", "0.6,-0.3,0"}}))->has_exact_solution());
}

TEST_CASE("rotating_ball: every RKMK method reproduces its classical RK method on the oscillator (seed 003)") {
  // Pair each lie_rk method named rkmk* / lie_euler* with the classical_rk method of the same table.
  std::vector<std::pair<MethodInfo, MethodInfo>> pairs;
  std::vector<MethodInfo> classical;
  for (const auto& p : test::registry().plugins())
    if (p.integrator && p.name == "classical_rk")
      for (const auto& m : p.integrator->methods()) classical.push_back(m);
  for (const auto& p : test::registry().plugins()) {
    if (!p.integrator || p.name != "lie_rk") continue;
    for (const auto& m : p.integrator->methods()) {
      if (!m.lie_group || !(m.name.rfind("rkmk", 0) == 0 || m.name.rfind("lie_euler", 0) == 0)) continue;
      const MethodInfo* match = nullptr;
      for (const auto& c : classical)
        if (table_of(c) == table_of(m) && (c.embedded_order > 0) == (m.embedded_order > 0)) match = &c;
      CAPTURE(m.name);
      REQUIRE_MESSAGE(match != nullptr, "no classical method with table " << table_of(m));
      pairs.emplace_back(m, *match);
    }
  }
  REQUIRE(pairs.size() >= 5);
  for (const auto& expected : {"lie_euler", "lie_euler_heun", "rkmk3", "rkmk4", "rkmk5"}) {
    bool found = false;
    for (const auto& [lie, cl] : pairs) found = found || lie.name == expected;
    CHECK_MESSAGE(found, expected);
  }

  for (const auto& regime : std::vector<Params>{{{"d", "0.3"}, {"k", "2"}}, {{"d", "4"}, {"k", "0.5"}}}) {
    const Params ball = with(ball_common, regime);
    const Params osc{{"m", ball.at("m")}, {"d", ball.at("d")}, {"k", ball.at("k")}, {"x0", ball.at("alpha0")}, {"v0", ball.at("v0")}};
    for (const auto& [lie, cl] : pairs) {
      const std::string& lie_name = lie.name;  // clang 14 cannot capture a structured binding
      const std::string& classical_name = cl.name;
      CAPTURE(lie_name);
      CAPTURE(classical_name);
      CAPTURE(ball.at("d"));
      Recorder rb, ro;
      // rkmk and rk (tables from a file, listed without one: they pair by their empty table name) run the user's table.
      const std::map<std::string, std::string> lie_options = test::takes_table(lie.name) ? std::map<std::string, std::string>{{"tableau", test::user_table(lie.name)}}
                                                                                      : std::map<std::string, std::string>{};
      const std::map<std::string, std::string> cl_options = test::takes_table(cl.name) ? lie_options : std::map<std::string, std::string>{};
      test::run("rotating_ball", ball, lie.name, 2.0, 0.01, 0, 0, lie_options, &rb);
      test::run("oscillator", osc, cl.name, 2.0, 0.01, 0, 0, cl_options, &ro);
      REQUIRE(rb.y.size() == ro.y.size());
      REQUIRE(rb.y.size() == 201);
      double worst = 0, worst_perp = 0;
      for (std::size_t i = 0; i < rb.y.size(); ++i) {
        const Eigen::Vector3d theta = lie::SO3::log(rotation(rb.y[i]));
        const Eigen::Vector3d w = rb.y[i].segment<3>(9);
        const double alpha = theta.dot(axis_n), v = w.dot(axis_n);
        worst = std::max({worst, std::abs(alpha - ro.y[i][0]), std::abs(v - ro.y[i][1])});
        worst_perp = std::max({worst_perp, (theta - alpha * axis_n).norm(), (w - v * axis_n).norm()});
      }
      MESSAGE(lie.name << " vs " << cl.name << " (d = " << ball.at("d") << "): max |(alpha, v) - classical| = " << worst
                       << ", off-axis part " << worst_perp);
      CHECK(worst < 1e-13);
      CHECK(worst_perp < 1e-13);
    }
  }
}

TEST_CASE("rotating_ball: Lie group methods on the oscillator are the classical methods") {
  const Params osc{{"m", "1.5"}, {"d", "0.3"}, {"k", "2"}, {"x0", "0.7"}, {"v0", "-0.4"}};
  for (const auto& [lie, cl] : std::vector<std::pair<std::string, std::string>>{{"rkmk4", "rk4"}, {"cf4", "rk4"}, {"lie_euler", "euler"}}) {
    const std::string& lie_method = lie;  // clang 14 cannot capture a structured binding
    CAPTURE(lie_method);
    const auto a = test::run("oscillator", osc, lie, 2.0, 0.01), b = test::run("oscillator", osc, cl, 2.0, 0.01);
    CHECK((a.y - b.y).norm() < 1e-14);
  }
}

TEST_CASE("rotating_ball: the off-axis case agrees across rkmk4, cf4 and dopri45") {
  const Params p = with(ball_common, {{"w0_perp", "0.8,-0.4,0"}});
  auto model = test::make_model("rotating_ball", p);
  CHECK_FALSE(model->has_exact_solution());
  const auto ref = test::run("rotating_ball", p, "dopri45", 2.0, 0, 1e-12, 1e-12);
  for (const auto& method : {"rkmk4", "cf4"}) {
    CAPTURE(std::string(method));
    const auto out = test::run("rotating_ball", p, method, 2.0, 1e-3);
    const double err = (out.y - ref.y).norm();
    MESSAGE(std::string(method) << " h = 1e-3 vs dopri45 (tol 1e-12): " << err);
    CHECK(err < 1e-9);
    // The motion really leaves the axis: the off-axis part of w stays of order one.
    const Eigen::Vector3d w = out.y.segment<3>(9);
    CHECK((w - w.dot(axis_n) * axis_n).norm() > 0.05);
    Eigen::VectorXd inv(2);
    model->evaluate_invariants(out.y, inv);
    CHECK(inv[1] < 1e-13);
  }
}

TEST_CASE("rotating_ball: energy decays monotonically for d > 0 and is conserved for d = 0") {
  const Params damped = with(ball_common, {{"w0_perp", "0.8,-0.4,0"}});
  {
    auto model = test::make_model("rotating_ball", damped);
    InvariantRecorder rec(*model);
    test::run("rotating_ball", damped, "rkmk4", 4.0, 1e-3, 0, 0, {}, &rec);
    const double E0 = rec.values.front()[0];
    double worst_increase = -1e300;
    for (std::size_t i = 1; i < rec.values.size(); ++i)
      worst_increase = std::max(worst_increase, rec.values[i][0] - rec.values[i - 1][0]);
    MESSAGE("d > 0: E0 = " << E0 << ", E(4) = " << rec.values.back()[0] << ", largest step change " << worst_increase);
    CHECK(worst_increase <= 1e-15 * E0);
    CHECK(rec.values.back()[0] < 0.8 * E0);
  }
  const Params conservative = with(damped, {{"d", "0"}});
  for (const auto& [method, h, tol] : std::vector<std::tuple<std::string, double, double>>{{"rkmk4", 1e-3, 0}, {"cf4", 1e-3, 0}, {"dopri45", 0, 1e-12}}) {
    const std::string& method_name = method;  // clang 14 cannot capture a structured binding
    CAPTURE(method_name);
    auto model = test::make_model("rotating_ball", conservative);
    InvariantRecorder rec(*model);
    test::run("rotating_ball", conservative, method, 4.0, h, tol, tol, {}, &rec);
    const double E0 = rec.values.front()[0];
    double drift = 0;
    for (const auto& v : rec.values) drift = std::max(drift, std::abs(v[0] - E0) / E0);
    MESSAGE("d = 0, " << method << ": max relative energy drift " << drift);
    CHECK(drift < 1e-9);
  }
}

TEST_CASE("rotating_ball: the hooks fail clearly when the rotation angle reaches pi") {
  // E0 = 1/2 * 1 * 4^2 > 1/2 k pi^2 with k = 1: the ball winds past pi.
  const Params p{{"k", "1"}, {"alpha0", "0"}, {"v0", "4"}};
  try {
    test::run("rotating_ball", p, "rkmk4", 3.0, 1e-3);  // h |w| < 2 pi_margin: the guard band is seen
    FAIL("the run should fail");
  } catch (const Error& e) {
    const std::string what = e.what();
    CAPTURE(what);
    CHECK(what.find("reached pi") != std::string::npos);
  }
  CHECK_FALSE(test::make_model("rotating_ball", p)->has_exact_solution());
}

TEST_CASE("rotating_ball and oscillator: parameter validation names the parameter") {
  const std::vector<std::tuple<std::string, Params, std::string>> bad{
      {"rotating_ball", {{"m", "0"}}, "'m'"},
      {"rotating_ball", {{"d", "-1"}}, "'d'"},
      {"rotating_ball", {{"k", "-1"}}, "'k'"},
      {"rotating_ball", {{"axis", "0,0,0"}}, "'axis'"},
      {"rotating_ball", {{"alpha0", "3.2"}}, "'alpha0'"},
      {"rotating_ball", {{"w0_perp", "0,0.1,0.1"}}, "'w0_perp'"},
      {"rotating_ball", {{"pi_margin", "0"}}, "'pi_margin'"},
      {"oscillator", {{"m", "-2"}}, "'m'"},
      {"oscillator", {{"d", "-0.1"}}, "'d'"},
      {"oscillator", {{"k", "-3"}}, "'k'"},
  };
  for (const auto& [model, params, name] : bad) {
    const std::string& model_name = model;  // clang 14 cannot capture a structured binding
    const std::string& expected_name = name;
    CAPTURE(model_name);
    CAPTURE(expected_name);
    try {
      test::make_model(model, params);
      FAIL("expected a validation error");
    } catch (const Error& e) {
      CHECK(std::string(e.what()).find(name) != std::string::npos);
    }
  }
  // alpha0 beyond pi is fine without a spring; the axis is normalised.
  CHECK_NOTHROW(test::make_model("rotating_ball", {{"k", "0"}, {"alpha0", "4"}}));
  auto m = test::make_model("rotating_ball", {{"axis", "0,0,5"}, {"alpha0", "0.3"}, {"v0", "2"}});
  Eigen::VectorXd y(12);
  m->initial_state(y);
  CHECK(std::abs(y[11] - 2.0) < 1e-15);
  CHECK(std::abs(std::atan2(y[3], y[0]) - 0.3) < 1e-15);
}

TEST_CASE("rotating_ball and oscillator: the conventions block") {
  for (const auto& name : {"rotating_ball", "oscillator"}) {
    const std::string c = test::registry().model(name).model->conventions();
    for (const auto& key : {"SPACE", "GROUP", "ACTION", "GENERATOR", "EMBEDDING", "INVARIANTS", "PARAMETERS", "SOURCE"})
      CHECK_MESSAGE(c.find(key) != std::string::npos, name << " lacks " << key);
  }
}

TEST_CASE("rotating_ball: the scene follows the state (ball and body axes with attitude R, spatial angular velocity R w)") {
  // Off-axis spin: R w differs from R^T w and from w, and R from R^T.
  const Params p = with(ball_common, {{"w0_perp", "0.8,-0.4,0"}});
  const auto model = test::make_model("rotating_ball", p);
  const Scene scene = model->scene();
  REQUIRE(scene.bodies.size() == 3);
  CHECK(scene.bodies[0].shape == Shape::sphere);
  CHECK(scene.bodies[1].shape == Shape::axes);
  CHECK(scene.bodies[1].size[0] > scene.bodies[0].size[0]);  // the axes stand out of the ball
  CHECK(scene.bodies[2].name == "angular_velocity");
  CHECK(scene.bodies[2].shape == Shape::arrow);
  Eigen::VectorXd y0(12);
  model->initial_state(y0);
  const double w0 = y0.tail<3>().norm();
  const Eigen::VectorXd y1 = test::run("rotating_ball", p, "rkmk4", 1.0, 1e-2).y;
  for (const Eigen::VectorXd& y : {y0, y1}) {
    Eigen::VectorXd P(3 * pose_size);
    REQUIRE(model->scene_poses(0.0, y, P) == Status::ok);
    const Eigen::Matrix3d R = rotation(y);
    for (int k : {0, 1}) {
      const auto q = P.segment<4>(pose_size * k + 3);
      CHECK(std::abs(q.norm() - 1) < 1e-12);
      CHECK((Eigen::Quaterniond(q[3], q[0], q[1], q[2]).toRotationMatrix() - R).cwiseAbs().maxCoeff() < 1e-12);
      CHECK(P.segment<3>(pose_size * k).norm() == 0);  // the centre is fixed
    }
    CHECK(P.segment<3>(2 * pose_size).norm() == 0);
    CHECK((P.segment<3>(2 * pose_size + 3) - 0.9 / w0 * (R * y.tail<3>())).cwiseAbs().maxCoeff() < 1e-14);
  }
  CHECK((rotation(y1) - rotation(y1).transpose()).cwiseAbs().maxCoeff() > 0.1);
}
