// The 3D pendulum (rigid_pendulum): one model under every kind of method — orders of rkmk4 and
// cf4, the attitude on SO(3), energy against a tight reference, the parameters.
#include <liesim/fit.hpp>
#include "support/plugins.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <map>
#include <string>

using namespace liesim;

TEST_CASE("rigid_pendulum: rkmk4 and cf4 converge at order 4 and stay on SO(3); cvode_bdf and lgvi agree with the reference") {
  const std::map<std::string, std::string> p{{"start", "inverted"}};
  const Eigen::VectorXd ref = test::run("rigid_pendulum", p, "rkmk5", 1.0, 1e-4).y;
  for (const std::string m : {"rkmk4", "cf4"}) {
    std::vector<double> hs{0.02, 0.01, 0.005}, err;
    for (double h : hs) err.push_back((test::run("rigid_pendulum", p, m, 1.0, h).y - ref).norm());
    CAPTURE(m);
    CHECK(loglog_slope(hs, err) == doctest::Approx(4.0).epsilon(0.05));
  }
  const auto model = test::make_model("rigid_pendulum", p);
  Eigen::VectorXd inv(3), inv0(3), y0(12);
  model->initial_state(y0);
  model->evaluate_invariants(y0, inv0);
  CHECK(inv0[0] == doctest::Approx(10.445).epsilon(1e-12));  // 1/2 w0^T J w0 + m g
  const Eigen::VectorXd y = test::run("rigid_pendulum", p, "rkmk4", 3.0, 1e-3).y;
  model->evaluate_invariants(y, inv);
  CHECK(inv[2] < 1e-13);  // ||R^T R - I||
  CHECK(std::abs(inv[1] - inv0[1]) < 1e-12);
  CHECK((test::run("rigid_pendulum", p, "cvode_bdf", 1.0, 0, 1e-10, 1e-10).y - ref).norm() < 1e-6);
  CHECK((test::run("rigid_pendulum", p, "lgvi", 1.0, 1e-4).y - ref).norm() < 1e-4);
  CHECK_THROWS_WITH_AS(test::make_model("rigid_pendulum", {{"J", "1,-2,3"}}), doctest::Contains("parameter 'J'"), Error);
  CHECK_THROWS_WITH_AS(test::make_model("rigid_pendulum", {{"start", "sideways"}}), doctest::Contains("start"), Error);
}

TEST_CASE("underwater_vehicle: rkmk4 and cf4 converge at order 4 and stay on SO(3); energy 28.5839 J (case 1); momenta conserved") {
  const Eigen::VectorXd ref = test::run("underwater_vehicle", {}, "rkmk5", 2.0, 1e-4).y;
  for (const std::string m : {"rkmk4", "cf4"}) {
    std::vector<double> hs{0.04, 0.02, 0.01}, err;
    for (double h : hs) err.push_back((test::run("underwater_vehicle", {}, m, 2.0, h).y - ref).norm());
    CAPTURE(m);
    CHECK(loglog_slope(hs, err) == doctest::Approx(4.0).epsilon(0.05));
  }
  const auto model = test::make_model("underwater_vehicle");
  Eigen::VectorXd y0(18), inv0(5), inv(5);
  model->initial_state(y0);
  model->evaluate_invariants(y0, inv0);
  CHECK(inv0[0] == doctest::Approx(28.5839).epsilon(1e-5));  // the notes' E0 for case 1, g = 9.81
  const Eigen::VectorXd y = test::run("underwater_vehicle", {}, "dopri45", 10.0, 0, 1e-11, 1e-11).y;
  model->evaluate_invariants(y, inv);
  CHECK(std::abs(inv[0] - inv0[0]) < 1e-8);
  for (int c : {1, 2, 3}) CHECK(std::abs(inv[c] - inv0[c]) < 1e-8);
  CHECK(inv[4] < 1e-8);  // dopri45 in the embedding: close to SO(3), not on it
  CHECK((test::run("underwater_vehicle", {}, "lgvi", 2.0, 1e-4).y - ref).norm() < 1e-3);
  CHECK_THROWS_WITH_AS(test::make_model("underwater_vehicle", {{"M", "1,2"}}), doctest::Contains("M"), Error);
}
