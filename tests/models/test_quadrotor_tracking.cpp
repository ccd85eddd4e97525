// quadrotor_load with control = tracking (thesis §2.6, Figs 2.13-2.18; spec quadrotor-tracking.md):
// the closed-loop vector field against an independent implementation written from the spec (the
// desired force and formation without derivatives, the derivative terms by finite differences along
// the closed loop), the closed-loop identities, the observed orders of the four RKMK methods, the
// manifold at round-off and the experiment's tracking behaviour; validation of the new parameters.
#include "support/plugins.hpp"
#include <liesim/sdk/fit.hpp>

#include <Eigen/Geometry>
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <fstream>
#include <iterator>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace {

using namespace liesim;
using Params = std::map<std::string, std::string>;
using V3 = Eigen::Vector3d;

const Params tracking{{"control", "tracking"}};

// The spec's data (§3), written out here rather than read from the model.
constexpr double m_y = 0.4, g = 9.81, k_y = 12, k_v = 5, k_q = 16, k_w = 5;
constexpr std::array<double, 2> m{0.755, 0.755}, L{0.6, 0.8};
constexpr int Y = 0, V = 3, Q[2] = {30, 36}, W[2] = {33, 39};
const double deg30 = M_PI / 6;

V3 desired_position(double t) { return {t - 2.5, 0, (t - 2.5) * (t - 2.5) - 7}; }
V3 desired_velocity(double t) { return {1, 0, 2 * (t - 2.5)}; }

/// Spec §4 steps 1-2: F = m_y(-k_y e_y - k_v e_v + y_d'' - g e3).
V3 desired_force(double t, const Eigen::VectorXd& s) {
  const V3 e_y = s.segment<3>(Y) - desired_position(t), e_v = s.segment<3>(V) - desired_velocity(t);
  return m_y * (-k_y * e_y - k_v * e_v + V3(0, 0, 2) - g * V3::UnitZ());
}

/// Spec §4 steps 6-7 without derivatives: q_id = Q_d r_id, Q_d = [b1 | b2 | b3] with b3 = -F/|F|,
/// b2 = s_d x F / |.|, b1 = b2 x b3 (the spec's equivalent form of the projection of s_d).
V3 desired_direction(int i, const V3& F) {
  const V3 s_d(0, -1, 0);
  const V3 b3 = -F.normalized(), b2 = s_d.cross(F).normalized(), b1 = b2.cross(b3);
  const V3 r = i == 0 ? V3(std::sin(deg30), 0, std::cos(deg30)) : V3(-std::sin(deg30), 0, std::cos(deg30));
  return r[0] * b1 + r[1] * b2 + r[2] * b3;
}

/// A generic state: load anywhere near the arch, links in random unit directions below the
/// vehicles with random tangent angular velocities, random attitudes and body rates.
Eigen::VectorXd generic_state(std::mt19937& rng, bool unit_links) {
  std::uniform_real_distribution<double> u(-1, 1);
  auto rnd = [&] { return V3(u(rng), u(rng), u(rng)); };
  Eigen::VectorXd s(42);
  s.segment<3>(Y) = rnd() * 2 + V3(0, 0, -3);
  s.segment<3>(V) = rnd() * 3;
  for (int i = 0; i < 2; ++i) {
    const Eigen::Matrix3d R = Eigen::AngleAxisd(3 * u(rng), rnd().normalized()).toRotationMatrix();
    Eigen::Map<Eigen::Matrix<double, 3, 3, Eigen::RowMajor>>(s.data() + 6 + 12 * i) = R;
    s.segment<3>(15 + 12 * i) = rnd() * 2;
    V3 q = (rnd() + V3(0, 0, 1.5)).normalized();
    const V3 w = q.cross(rnd());  // tangent
    if (!unit_links) q *= 1 + 0.1 * u(rng);
    s.segment<3>(Q[i]) = q;
    s.segment<3>(W[i]) = w;
  }
  return s;
}

/// The model's field F(t, y).
Eigen::VectorXd field(ModelView& model, double t, const Eigen::VectorXd& y) {
  Eigen::VectorXd dy(42);
  REQUIRE(model.vector_field(t, y, dy) == Status::ok);
  return dy;
}

/// Classical RK4 on R^42 with the model's field (the test's own integrator), from (t0, y0) by n steps of h.
Eigen::VectorXd rk4(ModelView& model, double t0, Eigen::VectorXd y, double h, int n) {
  for (int k = 0; k < n; ++k) {
    const double t = t0 + k * h;
    const Eigen::VectorXd k1 = field(model, t, y), k2 = field(model, t + h / 2, y + h / 2 * k1),
                          k3 = field(model, t + h / 2, y + h / 2 * k2), k4 = field(model, t + h, y + h * k3);
    y += h / 6 * (k1 + 2 * k2 + 2 * k3 + k4);
  }
  return y;
}

/// Records the model's observables at every output point.
struct ObservableRecorder final : Observer {
  explicit ObservableRecorder(const ModelView& model) : model(model), names(model.observables()) {}
  void on_output(double time, ConstVec y) override {
    Eigen::VectorXd v(model.observable_count());
    REQUIRE(model.evaluate_observables(time, y, v) == Status::ok);
    t.push_back(time);
    values.push_back(v);
    Eigen::VectorXd inv(model.invariant_count());
    model.evaluate_invariants(y, inv);
    invariants.push_back(inv);
  }
  /// Value of the observable `name` at the output time closest to `time`.
  double at(const std::string& name, double time) const {
    std::size_t k = 0, best = 0;
    for (; k < names.size() && names[k].name != name; ++k) {}
    REQUIRE(k < names.size());
    for (std::size_t j = 0; j < t.size(); ++j)
      if (std::abs(t[j] - time) < std::abs(t[best] - time)) best = j;
    return values[best][static_cast<Eigen::Index>(k)];
  }
  const ModelView& model;
  std::vector<ObservableInfo> names;
  std::vector<double> t;
  std::vector<Eigen::VectorXd> values, invariants;
};

}  // namespace

TEST_CASE("quadrotor tracking: at the initial state F = (-0.4, 0, -16.724) and the load accelerates by g e3 + (mu_1 + mu_2)/m_y") {
  auto model = test::make_model("quadrotor_load", tracking);
  Eigen::VectorXd y0(42);
  model->initial_state(y0);
  const V3 F(-0.4, 0, -16.724);  // spec §7, by hand
  CHECK((desired_force(0, y0) - F).norm() < 1e-13);
  V3 mu_sum = V3::Zero();
  for (int i = 0; i < 2; ++i) mu_sum += 2.0 / 3.0 * F.dot(y0.segment<3>(Q[i])) * V3(y0.segment<3>(Q[i]));
  const Eigen::VectorXd dy = field(*model, 0, y0);
  CHECK((dy.segment<3>(V) - (g * V3::UnitZ() + mu_sum / m_y)).norm() < 1e-12);
}

TEST_CASE("quadrotor tracking: closed-loop identities at generic states (load for any q_i; links on the spheres)") {
  auto model = test::make_model("quadrotor_load", tracking);
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> time(0, 5);
  double worst_load = 0, worst_obs = 0;
  for (int trial = 0; trial < 20; ++trial) {
    const double t = time(rng);
    // Load: v' = g e3 + (mu_1 + mu_2)/m_y with mu_i = c_i (F . q_i) q_i, c_i = 2/3, also off the spheres.
    const Eigen::VectorXd s = generic_state(rng, false);
    const V3 F = desired_force(t, s);
    V3 mu_sum = V3::Zero();
    for (int i = 0; i < 2; ++i) mu_sum += 2.0 / 3.0 * F.dot(s.segment<3>(Q[i])) * V3(s.segment<3>(Q[i]));
    const Eigen::VectorXd dy = field(*model, t, s);
    worst_load = std::max(worst_load, (dy.segment<3>(V) - (g * V3::UnitZ() + mu_sum / m_y)).norm() / (1 + dy.segment<3>(V).norm()));
    // Observables against the independent formulas.
    Eigen::VectorXd o(model->observable_count());
    REQUIRE(model->evaluate_observables(t, s, o) == Status::ok);
    const std::vector<double> expected{(s.segment<3>(Y) - desired_position(t)).norm(),
                                       desired_direction(0, F).cross(V3(s.segment<3>(Q[0]))).norm(),
                                       desired_direction(1, F).cross(V3(s.segment<3>(Q[1]))).norm(),
                                       desired_position(t)[0], desired_position(t)[1], desired_position(t)[2]};
    for (std::size_t k = 0; k < expected.size(); ++k) worst_obs = std::max(worst_obs, std::abs(o[static_cast<Eigen::Index>(k)] - expected[k]));
  }
  MESSAGE("load identity: worst relative defect " << worst_load << "; observables: worst defect " << worst_obs);
  CHECK(worst_load < 1e-13);
  CHECK(worst_obs < 1e-13);
}

TEST_CASE("quadrotor tracking: the link dynamics w_i' = X_i - (q_i . X_i) q_i with q_id', q_id'' by finite differences along the closed loop") {
  // X_i = -k_q e_qi - k_w e_wi - (q_i . w_id) q_i' - q_i x (q_i x w_id') (spec §4 steps 8-9) needs the
  // first two time derivatives of q_id(t) = Q_d(F(t, y(t))) r_id along the closed loop; here they
  // come from a fourth-order central difference of the test's own q_id on a trajectory of the
  // test's own RK4, not from the model's derivative chain.
  auto model = test::make_model("quadrotor_load", tracking);
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> time(0.2, 4.8);
  const double d = 2e-3;     // difference step
  const int sub = 40;        // RK4 steps per difference step
  double worst = 0, scale = 0;
  for (int trial = 0; trial < 6; ++trial) {
    const double t0 = time(rng);
    const Eigen::VectorXd s0 = generic_state(rng, true);
    std::array<Eigen::VectorXd, 5> traj;  // at t0 + k d, k = 0..4; the test point is k = 2
    traj[0] = s0;
    for (int k = 1; k < 5; ++k) traj[k] = rk4(*model, t0 + (k - 1) * d, traj[k - 1], d / sub, sub);
    const double tc = t0 + 2 * d;
    const Eigen::VectorXd& s = traj[2];
    const Eigen::VectorXd dy = field(*model, tc, s);
    for (int i = 0; i < 2; ++i) {
      std::array<V3, 5> qd;
      for (int k = 0; k < 5; ++k) qd[k] = desired_direction(i, desired_force(t0 + k * d, traj[k]));
      const V3 dq_d = (qd[0] - 8 * qd[1] + 8 * qd[3] - qd[4]) / (12 * d);
      const V3 ddq_d = (-qd[0] + 16 * qd[1] - 30 * qd[2] + 16 * qd[3] - qd[4]) / (12 * d * d);
      const V3 q = s.segment<3>(Q[i]), w = s.segment<3>(W[i]);
      const V3 w_d = qd[2].cross(dq_d), dw_d = qd[2].cross(ddq_d);
      const V3 e_q = qd[2].cross(q), e_w = w + q.cross(q.cross(w_d));
      const V3 X = -k_q * e_q - k_w * e_w - q.dot(w_d) * w.cross(q) - q.cross(q.cross(dw_d));
      const V3 expected = X - q.dot(X) * q;
      worst = std::max(worst, (V3(dy.segment<3>(W[i])) - expected).norm());
      scale = std::max(scale, expected.norm());
    }
  }
  MESSAGE("link identity: worst defect " << worst << " for |w'| up to " << scale);
  CHECK(scale > 1);
  CHECK(worst < 1e-5 * scale);
}

TEST_CASE("quadrotor tracking: lie_euler, lie_euler_heun, rkmk3, rkmk4 converge with orders 1, 2, 3, 4 on the closed loop (T = 5)") {
  const double T = 5;
  const auto ref = test::run("quadrotor_load", tracking, "rkmk5", T, T / 40000);
  const std::map<std::string, std::pair<int, std::vector<int>>> sweeps{
      {"lie_euler", {1, {16000, 32000, 64000}}},
      {"lie_euler_heun", {2, {2000, 4000, 8000}}},
      {"rkmk3", {3, {1000, 2000, 4000}}},
      {"rkmk4", {4, {500, 1000, 2000}}},
  };
  for (const auto& [method, sweep] : sweeps) {
    std::vector<double> hs, errs;
    for (int n : sweep.second) {
      hs.push_back(T / n);
      errs.push_back((test::run("quadrotor_load", tracking, method, T, T / n).y - ref.y).norm());
    }
    const double slope = liesim::loglog_slope(hs, errs);
    MESSAGE(method << ": errors " << errs[0] << " " << errs[1] << " " << errs[2] << ", slope " << slope);
    const std::string& method_name = method;  // clang 14 cannot capture a structured binding
    CAPTURE(method_name);
    CHECK(errs.back() > 1e-10);  // well above the reference's error
    CHECK(std::abs(slope - sweep.first) < 0.2);
  }
}

TEST_CASE("quadrotor tracking: rkmk4 with 1999 steps over T = 5 tracks the arch; links and attitudes stay on their manifolds") {
  const double T = 5;
  auto model = test::make_model("quadrotor_load", tracking);
  for (const char* method : {"rkmk4", "lie_euler", "lie_euler_heun", "rkmk3", "cf4"}) {
    CAPTURE(std::string(method));
    ObservableRecorder rec(*model);
    test::run("quadrotor_load", tracking, method, T, T / 1999, 0, 0, {}, &rec);
    REQUIRE(rec.t.size() == 2000);
    double constraints = 0;  // |q_i| - 1, q_i . w_i, ||R_i^T R_i - I||_F: invariants 1..6 under tracking
    for (const auto& inv : rec.invariants) constraints = std::max(constraints, inv.segment(1, 6).cwiseAbs().maxCoeff());
    MESSAGE(std::string(method) << ": max constraint residual " << constraints << "; tracking error at t = 1: " << rec.at("tracking_error", 1.0)
                   << ", at t = 5: " << rec.at("tracking_error", 5.0) << "; link direction errors at t = 5: "
                   << rec.at("link1_direction_error", 5.0) << ", " << rec.at("link2_direction_error", 5.0));
    CHECK(constraints < 1e-12);
    if (std::string(method) == "rkmk4") {
      // The spec's behaviour: a transient (the load starts at rest, the target climbs at 5 m/s), then decay.
      CHECK(rec.at("tracking_error", 1.0) > 1.0);
      CHECK(rec.at("tracking_error", 1.0) < 1.4);
      CHECK(rec.at("tracking_error", 5.0) < 1e-3);
      CHECK(rec.at("link1_direction_error", 5.0) < 1e-4);
      CHECK(rec.at("link2_direction_error", 5.0) < 1e-4);
    }
  }
  // A classical method in R^42 leaves the spheres (the contrast the thesis draws).
  ObservableRecorder rec(*model);
  test::run("quadrotor_load", tracking, "rk4", T, T / 1999, 0, 0, {}, &rec);
  double drift = 0;
  for (const auto& inv : rec.invariants) drift = std::max(drift, inv.segment(1, 4).cwiseAbs().maxCoeff());
  MESSAGE("rk4: max |q_i| - 1, q_i . w_i " << drift);
  CHECK(drift > 1e-9);
}

TEST_CASE("quadrotor tracking: the generator reproduces the field through the action, psi_*(f(t, y))|_y = F(t, y); README holds the conventions") {
  auto model = test::make_model("quadrotor_load", tracking);
  model->prepare();
  std::mt19937 rng(3);
  for (int trial = 0; trial < 5; ++trial) {
    const Eigen::VectorXd y = generic_state(rng, true);
    Eigen::VectorXd xi(30), G(42);
    const double t = 0.7 * trial;
    REQUIRE(model->generator(t, y, xi) == Status::ok);
    REQUIRE(model->space().generator(xi, y, G) == Status::ok);
    const Eigen::VectorXd F = field(*model, t, y);
    CHECK((F - G).norm() < 1e-12 * F.norm());
  }
  std::ifstream readme(std::string(LIESIM_TEST_SOURCE_DIR) + "/models/quadrotor_load/README.md");
  const std::string text((std::istreambuf_iterator<char>(readme)), std::istreambuf_iterator<char>());
  CHECK_MESSAGE(text.find(test::registry().model("quadrotor_load").model->conventions()) != std::string::npos,
                "models/quadrotor_load/README.md must contain conventions() verbatim");
}

TEST_CASE("quadrotor tracking: the open loop is unchanged by the controller's parameters being present") {
  // control = open_loop (the default) has no observables and keeps input_power among its invariants.
  auto open = test::make_model("quadrotor_load");
  CHECK(open->observable_count() == 0);
  CHECK(open->invariants()[1].name == "input_power");
  auto closed = test::make_model("quadrotor_load", tracking);
  CHECK(closed->observable_count() == 7);
  CHECK(closed->observables()[0].name == "tracking_error");
  CHECK(closed->observables()[0].unit == "m");
  CHECK(closed->invariants().size() == 7);
}

TEST_CASE("quadrotor tracking: parameter validation names the parameter and the fix") {
  const auto error_of = [](const Params& p) {
    try {
      test::make_model("quadrotor_load", p);
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK(error_of({{"k_y", "3"}}).find("control=tracking") != std::string::npos);
  CHECK(error_of({{"control", "tracking"}, {"thrust1", "9"}}).find("'thrust1'") != std::string::npos);
  CHECK(error_of({{"control", "closed"}}).find("control") != std::string::npos);
  CHECK(error_of({{"control", "tracking"}, {"k_q", "-1"}}).find("'k_q'") != std::string::npos);
  CHECK(error_of({{"control", "tracking"}, {"r1d", "1,0,1"}}).find("unit") != std::string::npos);
  CHECK(error_of({{"control", "tracking"}, {"r1d", "0,0.5,0.86602540378443865"}}).find("parallel to e3") != std::string::npos);
  CHECK(error_of({{"control", "tracking"}, {"s_d", "0,0,0"}}).find("'s_d'") != std::string::npos);
  CHECK(error_of({{"control", "tracking"}, {"yd_p0", "1,2"}}).find("yd_p0") != std::string::npos);
  // A formation frame that is undefined during the run (s_d along the desired force) ends it with the reason.
  try {
    test::run("quadrotor_load", {{"control", "tracking"}, {"s_d", "0,0,1"}, {"yd_p1", "0,0,0"}, {"y0", "0,0,-7"}, {"q1_0", "0,0,1"},
                                 {"q2_0", "0,0,1"}, {"yd_tc", "0"}, {"yd_p2", "0,0,0"}}, "rkmk4", 0.1, 0.01);
    FAIL("expected the run to fail");
  } catch (const std::exception& e) {
    CHECK(std::string(e.what()).find("formation frame") != std::string::npos);
  }
}
