// The B-stability chapter of the Cokaj thesis (seed 000 §4.3; notes §1.7, §5, tests 12–13):
// the round metric of S^2, the sphere_flow model against its exact solutions, the one-step
// distance ratios of GIE, GIMP and SPHMP against the notes' independent values (A13, A14), the
// number of roots of the GIE equation (4.3.13), implicit Lie–Euler's isotropy (4.3.16), and the
// orders of every method on the contractive field.
#include <liesim/sdk/fit.hpp>
#include <liesim/sdk/riemannian.hpp>
#include "support/plugins.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <vector>

using namespace liesim;
using Params = std::map<std::string, std::string>;

namespace {

/// One step of size h of `method` from the point at `latitude` (degrees, longitude 0).
Eigen::VectorXd one_step(const std::string& method, double latitude, double h, const Params& options = {}, const Params& params = {}) {
  Params p = params;
  p["latitude"] = fmt::format("{}", latitude);
  return test::run("sphere_flow", p, method, h, h, 0, 0, options).y;
}

/// d(phi_h(p), phi_h(q)) / d(p, q) for p, q at latitudes 25 and 30 degrees on one meridian.
double ratio(const std::string& method, double h, const Params& options = {}, const Params& params = {}) {
  const Eigen::VectorXd a = one_step(method, 25, h, options, params), b = one_step(method, 30, h, options, params);
  return riemannian::sphere_distance(a, b) / (5 * M_PI / 180);
}

/// Diagnostics after the last step.
class LastDiagnostics final : public Observer {
 public:
  void on_output(double, ConstVec) override {}
  void on_diagnostics(ConstVec d) override { last = d; }
  Eigen::VectorXd last;
};

}  // namespace

TEST_CASE("the round metric of S^2: exp and log are inverse, the distance is accurate near 0 and pi, log refuses antipodes") {
  std::mt19937 rng(7);
  std::normal_distribution<double> n(0, 1);
  for (int trial = 0; trial < 100; ++trial) {
    Eigen::Vector3d p(n(rng), n(rng), n(rng)), w(n(rng), n(rng), n(rng));
    p.normalize();
    w -= w.dot(p) * p;  // tangent at p
    w *= (trial % 4 == 0 ? 1e-9 : 3.0) / w.norm();
    Eigen::Vector3d q, v;
    riemannian::sphere_exp(p, w, q);
    CHECK(std::abs(q.norm() - 1) <= 1e-15);
    CHECK(riemannian::sphere_distance(p, q) == doctest::Approx(w.norm()).epsilon(1e-13));
    REQUIRE(riemannian::sphere_log(p, q, v));
    CHECK((v - w).norm() <= 1e-13 * (1 + w.norm()));
  }
  const Eigen::Vector3d e3 = Eigen::Vector3d::UnitZ();
  Eigen::Vector3d v;
  CHECK_FALSE(riemannian::sphere_log(e3, Eigen::Vector3d(-e3), v));
  const Eigen::Vector3d almost(std::sin(1e-10), 0, -std::cos(1e-10));
  CHECK(riemannian::sphere_distance(e3, almost) == doctest::Approx(M_PI - 1e-10).epsilon(1e-15));
}

TEST_CASE("sphere_flow: F = psi_*(f(y)) for every isotropy c; the exact solutions against rkmk4; invariants") {
  for (const std::string field : {"killing", "contractive"}) {
    for (const std::string c : {"1", "0", "-2", "2"}) {
      CAPTURE(field);
      CAPTURE(c);
      auto m = test::make_model("sphere_flow", {{"field", field}, {"c", c}, {"latitude", "40"}, {"longitude", "33"}});
      Eigen::VectorXd y(3), f(3), F(3), G(3);
      m->initial_state(y);
      REQUIRE(m->generator(0, y, f) == Status::ok);
      REQUIRE(m->vector_field(0, y, F) == Status::ok);
      REQUIRE(m->space().generator(f, y, G) == Status::ok);
      CHECK((F - G).norm() <= 1e-15);
    }
    const Params p{{"field", field}, {"latitude", "40"}, {"longitude", "33"}};
    const Eigen::VectorXd y = test::run("sphere_flow", p, "rkmk4", 3.0, 1e-3).y;
    auto m = test::make_model("sphere_flow", p);
    Eigen::VectorXd exact(3);
    REQUIRE(m->exact_solution(3.0, exact) == Status::ok);
    CHECK((y - exact).norm() <= 1e-12);
  }
}

TEST_CASE("one-step distance ratios on S^2 with the Killing field, p at latitude 25, q at 30 degrees (thesis Figs 4.3–4.4, notes A13–A14)") {
  // GIE is expansive, most at moderate h (notes: 1.00285, 1.0607, 1.0997, 1.0744, 0.9965).
  CHECK(ratio("geodesic_implicit_euler", 0.1) == doctest::Approx(1.00285).epsilon(1e-5));
  CHECK(ratio("geodesic_implicit_euler", 0.5) == doctest::Approx(1.0607).epsilon(1e-3));
  CHECK(ratio("geodesic_implicit_euler", 0.8) == doctest::Approx(1.0997).epsilon(1e-3));
  CHECK(ratio("geodesic_implicit_euler", 1.0) == doctest::Approx(1.0744).epsilon(1e-3));
  CHECK(ratio("geodesic_implicit_euler", 1.2) == doctest::Approx(0.9965).epsilon(1e-3));
  // GIMP and SPHMP expand a little, growing with h (notes: GIMP 1.000029, 1.0019, 1.0204, 1.0805;
  // SPHMP 1.00007, 1.0057, 1.0755).
  CHECK(ratio("geodesic_implicit_midpoint", 0.5) == doctest::Approx(1.000029).epsilon(1e-5));
  CHECK(ratio("geodesic_implicit_midpoint", 1.0) == doctest::Approx(1.0019).epsilon(1e-3));
  CHECK(ratio("geodesic_implicit_midpoint", 1.5) == doctest::Approx(1.0204).epsilon(1e-3));
  CHECK(ratio("geodesic_implicit_midpoint", 2.0) == doctest::Approx(1.0805).epsilon(1e-3));
  CHECK(ratio("spherical_midpoint", 0.5) == doctest::Approx(1.00007).epsilon(1e-5));
  CHECK(ratio("spherical_midpoint", 1.0) == doctest::Approx(1.0057).epsilon(1e-3));
  CHECK(ratio("spherical_midpoint", 1.5) == doctest::Approx(1.0755).epsilon(1e-3));
  // GIMP and SPHMP keep each point on its latitude circle (a reparametrisation of the flow).
  for (const char* m : {"geodesic_implicit_midpoint", "spherical_midpoint"})
    CHECK(one_step(m, 25, 1.3)[2] == doctest::Approx(std::sin(25 * M_PI / 180)).epsilon(1e-14));
}

TEST_CASE("the GIE equation's roots (4.3.13) as z0 -> 0: 1 for h <= pi/2, 2m + 1 for h in ((2m - 1) pi/2, (2m + 1) pi/2]") {
  const Params tiny{{"latitude", "1e-4"}};
  for (const auto& [h, expected] : std::vector<std::pair<double, double>>{{0.5, 1}, {1.5, 1}, {1.7, 3}, {3.0, 3}, {4.6, 3}, {4.8, 5}, {7.5, 5}}) {
    const double step = h;  // a copy: clang 14 cannot capture a structured binding
    CAPTURE(step);
    RunRequest q;
    q.model = "sphere_flow";
    q.parameters = tiny;
    q.method = "geodesic_implicit_euler";
    q.options = {{"survey", "9"}, {"substeps", "50"}};
    q.t_end = h;
    q.step = h;
    LastDiagnostics d;
    test::run(q, &d);
    REQUIRE(d.last.size() == 3);
    CHECK(d.last[2] == expected);
    CHECK(d.last[0] <= 1e-14);
  }
}

TEST_CASE("implicit Lie–Euler on the isotropy family (4.3.16): c = 1 is the exact rotation, c = 0 is GIE; the arrival point depends on c") {
  for (const double h : {0.3, 1.0, 2.0}) {
    CAPTURE(h);
    const Eigen::VectorXd exact = [&] {
      auto m = test::make_model("sphere_flow", {{"latitude", "25"}});
      Eigen::VectorXd y(3);
      m->exact_solution(h, y);
      return y;
    }();
    CHECK((one_step("implicit_lie_euler", 25, h, {}, {{"c", "1"}}) - exact).norm() <= 1e-14);
    if (h < 1.5)
      CHECK((one_step("implicit_lie_euler", 25, h, {}, {{"c", "0"}}) - one_step("geodesic_implicit_euler", 25, h)).norm() <= 1e-12);
    CHECK((one_step("implicit_lie_euler", 25, h, {}, {{"c", "2"}}) - exact).norm() > 1e-3 * h);
  }
}

TEST_CASE("orders on the contractive field against its exact solution: GEE, GIE, implicit Lie–Euler 1; GIMP, SPHMP 2") {
  const Params p{{"field", "contractive"}, {"latitude", "10"}, {"longitude", "20"}, {"c", "0.5"}};
  auto m = test::make_model("sphere_flow", p);
  const double T = 2.0;
  Eigen::VectorXd exact(3);
  m->exact_solution(T, exact);
  for (const auto& [method, order] : std::vector<std::pair<std::string, double>>{{"geodesic_euler", 1},
                                                                                 {"geodesic_implicit_euler", 1},
                                                                                 {"implicit_lie_euler", 1},
                                                                                 {"geodesic_implicit_midpoint", 2},
                                                                                 {"spherical_midpoint", 2}}) {
    const std::string& method_name = method;  // clang 14 cannot capture a structured binding
    CAPTURE(method_name);
    std::vector<double> hs, err;
    for (int n : {40, 80, 160, 320}) {
      const Eigen::VectorXd y = test::run("sphere_flow", p, method, T, T / n).y;
      CHECK(std::abs(y.norm() - 1) <= 1e-14);
      hs.push_back(T / n);
      err.push_back((y - exact).norm());
    }
    CHECK(loglog_slope(hs, err) == doctest::Approx(order).epsilon(0.05));
  }
}

TEST_CASE("geodesic methods: clear errors for a model without a metric, spherical midpoint off spheres, and Newton failures") {
  const auto failure = [](const std::string& model, const std::string& method, double h, const Params& options = {}) {
    try {
      test::run(model, {}, method, h, h, 0, 0, options);
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  const auto has = [](const std::string& s, const char* what) { return s.find(what) != std::string::npos; };
  CHECK(has(failure("pendulum_chain", "geodesic_implicit_euler", 0.1), "needs a model with a Riemannian metric"));
  CHECK(has(failure("pendulum_chain", "geodesic_euler", 0.1), "sphere_flow has one"));
  // GIE at h = 2 from latitude 25: the step continues its root from small steps (Newton from the
  // explicit guess at the full step alone does not converge) and arrives where K = 100 equal
  // substeps do.
  CHECK((one_step("geodesic_implicit_euler", 25, 2.0) - one_step("geodesic_implicit_euler", 25, 2.0, {{"substeps", "100"}})).norm() <= 1e-12);
  const std::string why = failure("sphere_flow", "geodesic_implicit_euler", 2.0, {{"max_iters", "1"}});
  CHECK(has(why, "did not converge in Newton's method"));
  CHECK(has(why, "reduce the step size"));
}

namespace {
using Mat3 = Eigen::Matrix3d;
using RowMajor3 = Eigen::Matrix<double, 3, 3, Eigen::RowMajor>;

Mat3 random_spd(std::mt19937& rng) {
  std::normal_distribution<double> n(0, 1);
  Mat3 B;
  for (int i = 0; i < 9; ++i) B(i / 3, i % 3) = n(rng);
  return B * B.transpose() + 0.3 * Mat3::Identity();
}

std::string text_of(const Mat3& X) {
  std::string s;
  for (int i = 0; i < 9; ++i) s += fmt::format("{}{:.17g}", i ? "," : "", X(i / 3, i % 3));
  return s;
}

Mat3 matrix_of(const Eigen::VectorXd& y) { return Eigen::Map<const RowMajor3>(y.data()); }
}  // namespace

TEST_CASE("the affine-invariant metric of SPD(3): exp and log inverse, |V|_A = d(A, exp_A V), invariance under congruence") {
  std::mt19937 rng(13);
  for (int trial = 0; trial < 50; ++trial) {
    const Mat3 A = random_spd(rng), B = random_spd(rng), g = random_spd(rng) + Mat3::Identity();
    const Mat3 V = riemannian::spd_log<3>(A, B);
    CHECK((V - V.transpose()).norm() <= 1e-12 * V.norm());
    CHECK((riemannian::spd_exp<3>(A, V) - B).norm() <= 1e-11 * B.norm());
    const Mat3 Ai = A.inverse();
    const double norm_A = std::sqrt((Ai * V * Ai * V).trace());
    CHECK(riemannian::spd_distance<3>(A, B) == doctest::Approx(norm_A).epsilon(1e-10));
    CHECK(riemannian::spd_distance<3>(g * A * g.transpose(), g * B * g.transpose()) ==
          doctest::Approx(riemannian::spd_distance<3>(A, B)).epsilon(1e-10));
    CHECK(riemannian::spd_distance<3>(A, B) == doctest::Approx(riemannian::spd_distance<3>(B, A)).epsilon(1e-12));
  }
}

TEST_CASE("spd_karcher: F = psi_*(f(X)); the flow reaches the Karcher mean (F = 0) and every method agrees on it") {
  auto m = test::make_model("spd_karcher");
  Eigen::VectorXd y(9), f(9), F(9), G(9);
  m->initial_state(y);
  REQUIRE(m->generator(0, y, f) == Status::ok);
  REQUIRE(m->vector_field(0, y, F) == Status::ok);
  REQUIRE(m->space().generator(f, y, G) == Status::ok);
  CHECK((F - G).norm() <= 1e-13 * F.norm());
  const Eigen::VectorXd ref = test::run("spd_karcher", {}, "rkmk4", 30.0, 0.01).y;
  REQUIRE(m->vector_field(0, ref, F) == Status::ok);
  CHECK(F.norm() <= 1e-10);  // the gradient vanishes at the mean
  for (const char* method : {"geodesic_euler", "geodesic_implicit_euler", "geodesic_implicit_midpoint", "implicit_lie_euler", "cvode_bdf"}) {
    CAPTURE(method);
    const Eigen::VectorXd y_end = std::string(method) == "cvode_bdf" ? test::run("spd_karcher", {}, method, 30.0, 0, 1e-10, 1e-10).y
                                                                     : test::run("spd_karcher", {}, method, 30.0, 0.05).y;
    CHECK(m->space().distance(y_end, ref) <= 1e-7);
  }
}

TEST_CASE("SPD(3), Karcher flow (thesis Fig. 4.2): GIE and GIMP are non-expansive for every h in 0.01 ... 10, GEE expands") {
  std::mt19937 rng(21);
  double gee_max = 0.0;
  for (int pair = 0; pair < 3; ++pair) {
    const Mat3 X0 = random_spd(rng), Z0 = random_spd(rng);
    const double d0 = riemannian::spd_distance<3>(X0, Z0);
    for (const double h : {0.01, 0.1, 0.3, 0.6, 1.0, 3.0, 10.0}) {
      CAPTURE(pair);
      CAPTURE(h);
      for (const char* method : {"geodesic_implicit_euler", "geodesic_implicit_midpoint"}) {
        CAPTURE(method);
        const Params options{};
        const Mat3 X1 = matrix_of(test::run("spd_karcher", {{"X0", text_of(X0)}}, method, h, h, 0, 0, options).y);
        const Mat3 Z1 = matrix_of(test::run("spd_karcher", {{"X0", text_of(Z0)}}, method, h, h, 0, 0, options).y);
        CHECK(riemannian::spd_distance<3>(X1, Z1) <= d0 * (1 + 1e-12));
      }
      if (h <= 1.0) {
        const Mat3 X1 = matrix_of(test::run("spd_karcher", {{"X0", text_of(X0)}}, "geodesic_euler", h, h).y);
        const Mat3 Z1 = matrix_of(test::run("spd_karcher", {{"X0", text_of(Z0)}}, "geodesic_euler", h, h).y);
        gee_max = std::max(gee_max, riemannian::spd_distance<3>(X1, Z1) / d0);
      }
    }
  }
  MESSAGE("largest GEE one-step distance ratio for h <= 1: " << gee_max);
  CHECK(gee_max > 1.0);
}

TEST_CASE("orders on SPD(3) against a fine RKMK4 run: GEE, GIE, implicit Lie–Euler 1; GIMP 2") {
  const double T = 1.0;
  auto m = test::make_model("spd_karcher");
  const Eigen::VectorXd ref = test::run("spd_karcher", {}, "rkmk4", T, T / 4000).y;
  for (const auto& [method, order] : std::vector<std::pair<std::string, double>>{
           {"geodesic_euler", 1}, {"geodesic_implicit_euler", 1}, {"implicit_lie_euler", 1}, {"geodesic_implicit_midpoint", 2}}) {
    const std::string& method_name = method;  // clang 14 cannot capture a structured binding
    CAPTURE(method_name);
    std::vector<double> hs, err;
    for (int n : {40, 80, 160, 320}) {
      hs.push_back(T / n);
      err.push_back(m->space().distance(test::run("spd_karcher", {}, method, T, T / n).y, ref));
    }
    CHECK(loglog_slope(hs, err) == doctest::Approx(order).epsilon(0.05));
  }
}
