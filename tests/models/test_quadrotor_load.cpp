// quadrotor_load: observed order of rkmk4 and cf4, manifold preservation, agreement with dopri45,
// the energy balance with the input power, the default hover thrust, parameter validation.
#include "support/plugins.hpp"
#include <liesim/sdk/fit.hpp>

#include <Eigen/Geometry>
#include <doctest/doctest.h>

#include <cmath>
#include <map>
#include <string>
#include <vector>

namespace {

using namespace liesim;
using Params = std::map<std::string, std::string>;

/// Records the model's invariants at every output point.
struct InvariantRecorder final : Observer {
  explicit InvariantRecorder(const ModelView& m) : model(m), v(m.invariants().size()) {}
  void on_output(double time, ConstVec y) override {
    model.evaluate_invariants(y, v);
    t.push_back(time);
    values.push_back(v);
  }
  const ModelView& model;
  Eigen::VectorXd v;
  std::vector<double> t;
  std::vector<Eigen::VectorXd> values;
};


const Params experiment{};  // the original experiment's data are the defaults

}  // namespace

TEST_CASE("quadrotor_load: rkmk4 and cf4 converge with order 4 (reference rkmk5, h = 1e-4)") {
  const double T = 1.0;
  const auto ref = test::run("quadrotor_load", experiment, "rkmk5", T, 1e-4);
  const std::vector<double> hs{0.02, 0.01, 0.005, 0.0025};
  for (const auto& method : {"rkmk4", "cf4"}) {
    std::vector<double> errs;
    for (double h : hs) errs.push_back((test::run("quadrotor_load", experiment, method, T, h).y - ref.y).norm());
    const double slope = liesim::loglog_slope(hs, errs);
    MESSAGE(std::string(method) << ": errors " << errs[0] << " " << errs[1] << " " << errs[2] << " " << errs[3] << ", slope " << slope);
    CHECK(std::abs(slope - 4.0) < 0.2);
  }
}

TEST_CASE("quadrotor_load: Lie group methods keep the manifold to round-off and agree with dopri45") {
  const double T = 2.0;
  const auto ref = test::run("quadrotor_load", experiment, "dopri45", T, 0, 1e-12, 1e-12);
  auto model = test::make_model("quadrotor_load", experiment);
  const auto names = model->invariants();
  for (const auto& method : {"rkmk4", "cf4"}) {
    CAPTURE(std::string(method));
    InvariantRecorder rec(*model);
    const auto out = test::run("quadrotor_load", experiment, method, T, 5e-4, 0, 0, {}, &rec);
    double geometry = 0, worst_w = 0;
    for (const auto& v : rec.values)
      for (int k = 2; k < 8; ++k) geometry = std::max(geometry, std::abs(v[k]));
    for (int i : {33, 39}) worst_w = std::max(worst_w, out.y.segment<3>(i).norm());
    const double diff = (out.y - ref.y).norm();
    MESSAGE(std::string(method) << " h = 5e-4, T = 2: max manifold residual " << geometry << " (|w_i| up to " << worst_w
                   << "), |y - dopri45(1e-12)| = " << diff << " (|y| = " << out.y.norm() << ")");
    CHECK(geometry < 1e-13);
    CHECK(diff < 1e-8);
    CHECK(model->check_state(out.y).empty());
  }
  // The classical method in R^42 drifts off the manifold (the contrast the Lie group methods remove).
  InvariantRecorder rec(*model);
  test::run("quadrotor_load", experiment, "rk4", T, 2e-3, 0, 0, {}, &rec);
  double drift = 0;
  for (const auto& v : rec.values)
    for (int k = 2; k < 8; ++k) drift = std::max(drift, std::abs(v[k]));
  MESSAGE("rk4 in R^42, h = 2e-3: max manifold residual " << drift);
  CHECK(drift > 1e-12);
}

TEST_CASE("quadrotor_load: energy balance E(t) - E(0) = integral of the input power") {
  // Simpson's rule over the fixed-step outputs of rkmk4: the balance defect is discretisation error,
  // O(h^4), so halving h must shrink it about 16-fold (down to round-off).
  for (const auto& [label, params] : std::vector<std::pair<std::string, Params>>{
           {"experiment", experiment},
           {"spinning", {{"thrust1", "12"}, {"thrust2", "6"}, {"moment1", "0.3,-0.2,0.5"}, {"Omega2_0", "1,2,-1"}, {"w1_0", "0,1.5,0"}}},
           {"no inputs", {{"thrust1", "0"}, {"thrust2", "0"}, {"moment1", "0,0,0"}, {"moment2", "0,0,0"}, {"w2_0", "0,-2,0"}, {"Omega1_0", "3,0,1"}}}}) {
    const std::string& case_label = label;  // clang 14 cannot capture a structured binding
    CAPTURE(case_label);
    auto model = test::make_model("quadrotor_load", params);
    std::vector<double> defect;
    double scale = 0;
    for (const double h : {1e-3, 5e-4}) {
      InvariantRecorder rec(*model);
      test::run("quadrotor_load", params, "rkmk4", 1.0, h, 0, 0, {}, &rec);
      REQUIRE(rec.values.size() % 2 == 1);
      double work = 0, worst = 0;
      for (std::size_t i = 2; i < rec.values.size(); i += 2) {
        work += h / 3.0 * (rec.values[i - 2][1] + 4.0 * rec.values[i - 1][1] + rec.values[i][1]);
        worst = std::max(worst, std::abs(rec.values[i][0] - rec.values[0][0] - work));
        scale = std::max({scale, std::abs(rec.values[i][0] - rec.values[0][0]), std::abs(work)});
      }
      defect.push_back(worst);
    }
    MESSAGE(label << ": max |E(t) - E(0) - int P| = " << defect[0] << " (h = 1e-3), " << defect[1]
                  << " (h = 5e-4); energy change up to " << scale);
    CHECK(defect[1] < 1e-9 * std::max(1.0, scale));
    CHECK(defect[1] < std::max(defect[0] / 10.0, 1e-11));
  }
}

TEST_CASE("quadrotor_load: the default thrusts are the hover share (total external force zero at t = 0)") {
  auto model = test::make_model("quadrotor_load", experiment);
  model->prepare();
  Eigen::VectorXd y(42), dy(42);
  model->initial_state(y);
  REQUIRE(model->vector_field(0.0, y, dy) == Status::ok);
  // Total momentum rate m_y y'' + sum_i m_i x_i'' with x_i = y - L_i q_i; with all velocities zero,
  // q_i'' = w_i' x q_i. Thrusts are vertical (R_i = I) and carry (m_y + m1 + m2) g.
  const double my = 0.4, m = 0.755, L[2] = {0.6, 0.8};
  Eigen::Vector3d total = my * dy.segment<3>(3);
  for (int i = 0; i < 2; ++i) {
    const Eigen::Vector3d q = y.segment<3>(30 + 6 * i), wdot = dy.segment<3>(33 + 6 * i);
    total += m * (dy.segment<3>(3) - L[i] * wdot.cross(q));
  }
  MESSAGE("total external force at t = 0: " << total.transpose());
  CHECK(total.norm() < 1e-12);
  // T_i = m_i g + m_y g / 2 for the symmetric default links: explicit values give the same field.
  auto explicit_thrust = test::make_model("quadrotor_load", {{"thrust1", "9.368550000000000"}, {"thrust2", "9.36855"}});
  explicit_thrust->prepare();
  Eigen::VectorXd dy2(42);
  REQUIRE(explicit_thrust->vector_field(0.0, y, dy2) == Status::ok);
  CHECK((dy - dy2).norm() < 1e-12);
}

TEST_CASE("quadrotor_load: parameter validation names the parameter and the constraint") {
  const std::vector<std::pair<Params, std::string>> bad{
      {{{"m1", "0"}}, "'m1'"},
      {{{"m_y", "-1"}}, "'m_y'"},
      {{{"L2", "0"}}, "'L2'"},
      {{{"J1", "0.1,0,0.1"}}, "'J1'"},
      {{{"g", "-9.81"}}, "'g'"},
      {{{"thrust2", "-1"}}, "'thrust2'"},
      {{{"q1_0", "1,0,1"}}, "|q1|"},
      {{{"w2_0", "1,0,0"}}, "q2 . w2"},
      {{{"moment1", "1,1"}}, "moment1"},
  };
  for (const auto& [params, needle] : bad) {
    const std::string& needle_text = needle;  // clang 14 cannot capture a structured binding
    CAPTURE(needle_text);
    try {
      test::make_model("quadrotor_load", params);
      FAIL("expected a validation error");
    } catch (const Error& e) {
      CAPTURE(e.what());
      CHECK(std::string(e.what()).find(needle) != std::string::npos);
      CHECK(std::string(e.what()).find("<i>") == std::string::npos);  // no placeholder left in a message
    }
  }
}

TEST_CASE("quadrotor_load: state layout and conventions block") {
  auto model = test::make_model("quadrotor_load");
  CHECK(model->size() == 42);
  CHECK(model->space().algebra_dim() == 30);
  const auto names = model->state_names();
  REQUIRE(names.size() == 42);
  CHECK(names[0] == "y_x");
  CHECK(names[6] == "R1_11");
  CHECK(names[30] == "q1_x");
  CHECK(names[41] == "w2_z");
  const std::string c = test::registry().model("quadrotor_load").model->conventions();
  for (const auto& key : {"SPACE", "GROUP", "ACTION", "GENERATOR", "EMBEDDING", "INVARIANTS", "PARAMETERS", "SOURCE"})
    CHECK_MESSAGE(c.find(key) != std::string::npos, key);
  // The generator reproduces the embedded field through the action: psi_*(f(y))|_y = F(y).
  model->prepare();
  Eigen::VectorXd y(42), xi(30), F(42), G(42);
  model->initial_state(y);
  y.segment<3>(3) << 0.3, -0.2, 0.1;
  y.segment<3>(15) << 1, -2, 0.5;
  y.segment<3>(33) = Eigen::Vector3d(0.2, 1.0, -0.4).cross(Eigen::Vector3d(y.segment<3>(30)));
  REQUIRE(model->generator(0.0, y, xi) == Status::ok);
  REQUIRE(model->vector_field(0.0, y, F) == Status::ok);
  REQUIRE(model->space().generator(xi, y, G) == Status::ok);
  CHECK((F - G).norm() < 1e-12 * F.norm());
}

TEST_CASE("quadrotor_load: the scene follows the state (quadrotor i at y - L_i q_i with attitude R_i, links to the load; e3 down)") {
  using RowMajor3 = Eigen::Matrix<double, 3, 3, Eigen::RowMajor>;
  const Params p{{"theta1_0", "0.3,-0.2,0.5"}, {"theta2_0", "-0.4,0.1,0.2"}, {"L2", "0.7"}};
  const auto model = test::make_model("quadrotor_load", p);
  const Scene scene = model->scene();
  REQUIRE(scene.bodies.size() == 17);  // per quadrotor: axes, two arms, four rotors; two links; the load
  CHECK(scene.up == std::array<double, 3>{0, 0, -1});
  CHECK(std::isnan(scene.ground));
  CHECK(scene.paths.empty());  // open loop: no desired trajectory
  CHECK(scene.extent == doctest::Approx(1.3));
  for (int i = 0; i < 2; ++i) {
    CHECK(scene.bodies[7 * i].shape == Shape::axes);
    CHECK(scene.bodies[7 * i + 1].shape == Shape::box);
    CHECK(scene.bodies[7 * i + 2].shape == Shape::box);
    for (int k = 3; k < 7; ++k) CHECK(scene.bodies[static_cast<std::size_t>(7 * i + k)].shape == Shape::cylinder);
    CHECK(scene.bodies[static_cast<std::size_t>(14 + i)].shape == Shape::segment);
  }
  CHECK(scene.bodies[16].name == "load");
  CHECK(scene.bodies[16].shape == Shape::sphere);
  const double d = scene.bodies[1].size[0] / 2;  // the arm: centre to rotor
  const double L[] = {0.6, 0.7};
  Eigen::VectorXd y0(42);
  model->initial_state(y0);
  const Eigen::VectorXd y1 = test::run("quadrotor_load", p, "rkmk4", 0.5, 1e-3).y;
  std::vector<Eigen::Vector3d> rotor_offsets;  // body frame, at y0
  for (const bool initial : {true, false}) {
    const Eigen::VectorXd& y = initial ? y0 : y1;
    Eigen::VectorXd P = Eigen::VectorXd::Constant(17 * pose_size, std::nan(""));
    REQUIRE(model->scene_poses(0.0, y, P) == Status::ok);
    REQUIRE(P.allFinite());
    const Eigen::Vector3d load = y.head<3>();
    for (int i = 0; i < 2; ++i) {
      CAPTURE(i);
      const Eigen::Matrix3d R = Eigen::Map<const RowMajor3>(y.data() + (i == 0 ? 6 : 18));
      const Eigen::Vector3d x = load - L[i] * y.segment<3>(i == 0 ? 30 : 36);
      for (int k = 0; k < 7; ++k) {
        const auto q = P.segment<4>(pose_size * (7 * i + k) + 3);
        CHECK(std::abs(q.norm() - 1) < 1e-12);
        CHECK((Eigen::Quaterniond(q[3], q[0], q[1], q[2]).toRotationMatrix() - R).cwiseAbs().maxCoeff() < 1e-12);
        const Eigen::Vector3d centre = P.segment<3>(pose_size * (7 * i + k));
        if (k < 3) {
          CHECK((centre - x).norm() < 1e-14);
        } else {
          // Rotor k - 3 at a fixed place in the body frame: an arm tip, above the arms (-e3 is up).
          const Eigen::Vector3d body = R.transpose() * (centre - x);
          if (initial) rotor_offsets.push_back(body);
          else CHECK((body - rotor_offsets[static_cast<std::size_t>(4 * i + k - 3)]).norm() < 1e-12);
          CHECK(std::hypot(body[0], body[1]) == doctest::Approx(d).epsilon(1e-12));
          CHECK(std::min(std::abs(body[0]), std::abs(body[1])) < 1e-12);
          CHECK(body[2] < 0);
        }
      }
      // Link i from the quadrotor to the load.
      CHECK((P.segment<3>(pose_size * (14 + i)) - x).norm() < 1e-14);
      CHECK((P.segment<3>(pose_size * (14 + i) + 3) - load).norm() == 0);
    }
    CHECK((P.segment<3>(pose_size * 16) - load).norm() == 0);
  }
  // The four rotors sit at the four arm tips.
  REQUIRE(rotor_offsets.size() == 8);
  for (int i = 0; i < 2; ++i) {
    Eigen::Vector3d sum = Eigen::Vector3d::Zero();
    for (int k = 0; k < 4; ++k) sum += rotor_offsets[static_cast<std::size_t>(4 * i + k)];
    CHECK(std::hypot(sum[0], sum[1]) < 1e-12);
  }

  // Under tracking the desired load trajectory is drawn from the observables y_d.
  const auto tracked = test::make_model("quadrotor_load", {{"control", "tracking"}});
  const Scene t = tracked->scene();
  REQUIRE(t.paths.size() == 1);
  CHECK(t.paths[0].x == "yd_x");
  CHECK(t.paths[0].y == "yd_y");
  CHECK(t.paths[0].z == "yd_z");
  std::vector<std::string> observables;
  for (const auto& o : tracked->observables()) observables.push_back(o.name);
  for (const std::string* name : {&t.paths[0].x, &t.paths[0].y, &t.paths[0].z})
    CHECK(std::find(observables.begin(), observables.end(), *name) != observables.end());
}
