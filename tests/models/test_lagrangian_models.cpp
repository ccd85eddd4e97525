// The Lagrangian models (double_well, duffing, harmonic_oscillator): the exact solution against a
// tight run of another method, the mechanical description against the vector field, the
// invariants, and the parameter errors.
#include "support/plugins.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <map>
#include <random>
#include <string>

using namespace liesim;
using Params = std::map<std::string, std::string>;

TEST_CASE("harmonic_oscillator: exact solution equals a tight dopri45 run (forced, damped, negative damping, resonance)") {
  for (const Params& p : std::vector<Params>{{{"F0", "1"}, {"omega", "0.2"}},
                                             {{"F0", "1"}, {"omega", "10"}},
                                             {{"zeta", "0.05"}, {"F0", "0.7"}, {"omega", "1.3"}, {"v0", "0.4"}},
                                             {{"zeta", "-0.05"}, {"q0", "0.3"}},
                                             {{"zeta", "1.5"}, {"F0", "2"}, {"omega", "3"}},
                                             {{"F0", "0.5"}, {"omega", "2"}}}) {  // undamped resonance (w_n = 2)
    const auto model = test::make_model("harmonic_oscillator", p);
    Eigen::VectorXd y0(2), exact(2);
    model->initial_state(y0);
    REQUIRE(model->exact_solution(0.0, exact) == Status::ok);
    CHECK((exact - y0).norm() < 1e-15);
    REQUIRE(model->exact_solution(7.0, exact) == Status::ok);
    const Eigen::VectorXd y = test::run("harmonic_oscillator", p, "dopri45", 7.0, 0, 1e-12, 1e-12).y;
    CAPTURE(p.begin()->first);
    CHECK((y - exact).norm() < 1e-9);
  }
}

TEST_CASE("the mechanical description is the model's vector field: F = [v, M^-1 (-dU/dq + f)], dU/dq = dU/dq by differences") {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1.5, 1.5);
  for (const auto& [name, p] : std::vector<std::pair<std::string, Params>>{
           {"double_well", {{"m", "2.5"}}},
           {"duffing", {{"alpha", "-1"}, {"beta", "2"}, {"delta", "0.1"}}},
           {"harmonic_oscillator", {{"m", "1.5"}, {"k", "3"}, {"zeta", "0.2"}, {"F0", "0.8"}, {"omega", "2.5"}}}}) {
    CAPTURE(name);
    auto model = test::make_model(name, p);
    REQUIRE(model->prepare() == Status::ok);
    const Mechanics* mech = model->mechanics();
    REQUIRE(mech != nullptr);
    REQUIRE(mech->dof() == 1);
    Eigen::MatrixXd M(1, 1);
    mech->mass_matrix(M);
    for (int k = 0; k < 20; ++k) {
      const double t = 3 * std::abs(u(rng));
      Eigen::VectorXd y(2), F(2), g(1), gp(1), gm(1), f(1);
      y << u(rng), u(rng);
      REQUIRE(model->vector_field(t, y, F) == Status::ok);
      double U = 0, dt = 0, Up = 0, Um = 0;
      REQUIRE(mech->potential(t, y.head(1), U, g, dt) == Status::ok);
      REQUIRE(mech->force(t, y.head(1), y.tail(1), f) == Status::ok);
      CHECK(std::abs(F[0] - y[1]) < 1e-15);
      CHECK(std::abs(F[1] - (f[0] - g[0]) / M(0, 0)) < 1e-14 * (1 + std::abs(F[1])));
      const double e = 1e-6;
      Eigen::VectorXd q = y.head(1);
      q[0] += e;
      REQUIRE(mech->potential(t, q, Up, gp, dt) == Status::ok);
      q[0] -= 2 * e;
      REQUIRE(mech->potential(t, q, Um, gm, dt) == Status::ok);
      CHECK(std::abs((Up - Um) / (2 * e) - g[0]) < 1e-7 * (1 + std::abs(g[0])));
    }
  }
}

TEST_CASE("energy: conserved by a tight run without forces, lost with damping; double_well is duffing(alpha -1, beta 2, delta 0)") {
  const auto energy_drift = [](const std::string& model, const Params& p) {
    auto m = test::make_model(model, p);
    Eigen::VectorXd y0(2), e0(1), e1(1);
    m->initial_state(y0);
    m->evaluate_invariants(y0, e0);
    const Eigen::VectorXd y = test::run(model, p, "dopri45", 20.0, 0, 1e-12, 1e-12).y;
    m->evaluate_invariants(y, e1);
    return e1[0] - e0[0];
  };
  CHECK(std::abs(energy_drift("double_well", {{"q0", "0.5"}})) < 1e-10);
  CHECK(std::abs(energy_drift("duffing", {{"delta", "0"}})) < 1e-10);
  CHECK(energy_drift("duffing", {{"delta", "0.1"}}) < -1e-3);
  CHECK(energy_drift("harmonic_oscillator", {{"zeta", "0.1"}}) < -1e-3);
  CHECK(energy_drift("harmonic_oscillator", {{"zeta", "-0.05"}}) > 1e-3);
  const Eigen::VectorXd a = test::run("double_well", {{"q0", "0.5"}, {"v0", "0.1"}}, "rk4", 10.0, 1e-3).y;
  const Eigen::VectorXd b = test::run("duffing", {{"alpha", "-1"}, {"beta", "2"}, {"delta", "0"}, {"q0", "0.5"}, {"v0", "0.1"}}, "rk4", 10.0, 1e-3).y;
  CHECK((a - b).norm() < 1e-14);
}

TEST_CASE("Lagrangian models: bad parameters are refused with the parameter named") {
  CHECK_THROWS_WITH_AS(test::make_model("double_well", {{"m", "0"}}), doctest::Contains("parameter 'm'"), Error);
  CHECK_THROWS_WITH_AS(test::make_model("harmonic_oscillator", {{"k", "-1"}}), doctest::Contains("parameter 'k'"), Error);
  CHECK_THROWS_WITH_AS(test::make_model("harmonic_oscillator", {{"zeta", "-1"}}), doctest::Contains("parameter 'zeta'"), Error);
  CHECK_THROWS_WITH_AS(test::make_model("harmonic_oscillator", {{"omega", "-2"}}), doctest::Contains("parameter 'omega'"), Error);
  CHECK_THROWS_WITH_AS(test::make_model("duffing", {{"delta", "nan"}}), doctest::Contains("delta"), Error);
}
