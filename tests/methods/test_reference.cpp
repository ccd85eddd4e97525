// Reference values of the thesis notes (shared/spec/thesis-cokaj-notes.md §3.2, §3.4).
#include "common.hpp"

using namespace liesim;
using namespace liesim::test;
using namespace liesim::test::methods;

TEST_CASE("free rigid body, h = 0.1, 100 steps: explicit Euler and Lie-Euler reproduce the thesis (Fig. 1.2)") {
  const Params params = thesis_rigid_body();
  const auto model = make_model("rigid_body", params);
  Eigen::VectorXd y0(3), inv(2);
  model->initial_state(y0);
  CHECK(y0[0] == doctest::Approx(std::cos(0.8)).epsilon(1e-15));
  CHECK(y0[1] == 0.0);
  CHECK(y0[2] == doctest::Approx(std::sin(0.8)).epsilon(1e-15));
  model->evaluate_invariants(y0, inv);
  const double H0 = inv[0];
  CHECK(std::abs(H0 - 0.378650) <= 1e-6);
  CHECK(std::abs(inv[1] - 1.0) <= 1e-15);

  SUBCASE("explicit Euler leaves the sphere: |y_100| = 1.018714, H - H0 = 1.14e-2") {
    const Outcome out = run("rigid_body", params, "euler", 10.0, 0.1);
    REQUIRE(out.stats.steps == 100);
    model->evaluate_invariants(out.y, inv);
    CHECK(std::abs(out.y.norm() - 1.018714) <= 1e-6);
    CHECK(std::abs(inv[1] - 1.018714) <= 1e-6);
    CHECK(std::abs((inv[0] - H0) - 1.14e-2) <= 5e-4);
  }
  SUBCASE("Lie-Euler stays on the sphere but drifts in energy: max|H - H0| = 1.17e-2") {
    InvariantMonitor monitor(*model);
    const Outcome out = run("rigid_body", params, "lie_euler", 10.0, 0.1, 0, 0, {}, &monitor);
    REQUIRE(out.stats.steps == 100);
    REQUIRE(monitor.outputs() == 101);
    CHECK(std::abs(monitor.max_drift()[0] - 1.17e-2) <= 5e-4);
    CHECK(monitor.max_drift()[1] <= 1e-14);  // | |y| - 1 | along the run (|y0| = 1 to 1e-16)
  }
}

TEST_CASE("N=2 pendulum (thesis start, planar): rkmk5 with h = 5e-4 to T = 3 matches the reference state") {
  const Params params = planar_pendulum();
  const auto model = make_model("pendulum_chain", params);
  Eigen::VectorXd y0(12), inv(5);
  model->initial_state(y0);
  model->evaluate_invariants(y0, inv);
  const double E0 = 23.3101525703;
  CHECK(std::abs(inv[0] - E0) <= 1e-9);

  const Outcome out = run("pendulum_chain", params, "rkmk5", 3.0, 5e-4);
  REQUIRE(out.stats.steps == 6000);
  // Layout [q1, w1, q2, w2]; values of §3.4 (rkmk5 h = 5e-5 reference, 10 decimals).
  Eigen::VectorXd expected(12);
  expected << 0.7139974591, 0, 0.7001482903, 0, -0.9658818133, 0,  //
      -0.5777064140, 0, 0.8162446320, 0, 1.2891476897, 0;
  CAPTURE((out.y - expected).lpNorm<Eigen::Infinity>());
  CHECK((out.y - expected).lpNorm<Eigen::Infinity>() <= 1e-9);
  model->evaluate_invariants(out.y, inv);
  CAPTURE(inv[0] - E0);
  CHECK(std::abs(inv[0] - E0) <= 1e-9);
}
