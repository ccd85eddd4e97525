// pendulum_chain: the O(N) tension solve against the thesis's dense R(q) system, the spherical
// pendulum's conserved vertical angular momentum, parameters and the embedded field.
#include <liesim/lie/so3.hpp>
#include <support/plugins.hpp>

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <Eigen/Dense>
#include <random>

using namespace liesim;

namespace {

/// A random point of (TS^2)^N.
Eigen::VectorXd random_state(int n, std::mt19937& rng) {
  std::normal_distribution<double> g;
  Eigen::VectorXd y(6 * n);
  for (int i = 0; i < n; ++i) {
    const Eigen::Vector3d q = Eigen::Vector3d(g(rng), g(rng), g(rng)).normalized();
    const Eigen::Vector3d w = q.cross(Eigen::Vector3d(g(rng), g(rng), g(rng)));
    y.segment<3>(6 * i) = q;
    y.segment<3>(6 * i + 3) = w;
  }
  return y;
}

/// w' from the thesis's dense system R(q) w' = r, (3.4.1)-(3.4.2), solved with a dense LU.
Eigen::VectorXd dense_angular_accelerations(const std::vector<double>& m, const std::vector<double>& L, double g,
                                            const Eigen::VectorXd& y) {
  const int n = static_cast<int>(m.size());
  auto tail_mass = [&](int i) {
    double s = 0;
    for (int k = i; k < n; ++k) s += m[k];
    return s;
  };
  auto q = [&](int i) { return Eigen::Vector3d(y.segment<3>(6 * i)); };
  auto w = [&](int i) { return Eigen::Vector3d(y.segment<3>(6 * i + 3)); };
  Eigen::MatrixXd R = Eigen::MatrixXd::Zero(3 * n, 3 * n);
  Eigen::VectorXd r = Eigen::VectorXd::Zero(3 * n);
  const Eigen::Vector3d e3(0, 0, 1);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      const double Mij = tail_mass(std::max(i, j)) * L[i] * L[j];
      if (i == j) R.block<3, 3>(3 * i, 3 * i) = Mij * Eigen::Matrix3d::Identity();
      else {
        R.block<3, 3>(3 * i, 3 * j) = Mij * lie::SO3::hat(q(i)).transpose() * lie::SO3::hat(q(j));
        r.segment<3>(3 * i) += Mij * w(j).squaredNorm() * q(i).cross(q(j));
      }
    }
    r.segment<3>(3 * i) -= tail_mass(i) * g * L[i] * q(i).cross(e3);
  }
  return R.lu().solve(r);
}

}  // namespace

TEST_CASE("the O(N) evaluation equals the dense R(q) solve of the thesis") {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> pos(0.3, 3.0);
  for (int n : {1, 2, 3, 5, 8, 13}) {
    for (int trial = 0; trial < 5; ++trial) {
      std::vector<double> m(n), L(n);
      std::string ms, ls;
      for (int i = 0; i < n; ++i) {
        m[i] = pos(rng);
        L[i] = pos(rng);
        ms += fmt::format("{}{:.17g}", i ? "," : "", m[i]);
        ls += fmt::format("{}{:.17g}", i ? "," : "", L[i]);
      }
      auto model = test::make_model("pendulum_chain", {{"N", std::to_string(n)}, {"m", ms}, {"L", ls}, {"g", "9.81"}});
      model->prepare();
      const Eigen::VectorXd y = random_state(n, rng);
      Eigen::VectorXd dy(6 * n), xi(6 * n), via_action(6 * n);
      REQUIRE(model->vector_field(0.0, y, dy) == Status::ok);
      const Eigen::VectorXd dense = dense_angular_accelerations(m, L, 9.81, y);
      CAPTURE(n);
      for (int i = 0; i < n; ++i) {
        CHECK((dy.segment<3>(6 * i + 3) - dense.segment<3>(3 * i)).norm() <= 1e-11 * (1 + dense.norm()));
        CHECK((dy.segment<3>(6 * i) - Eigen::Vector3d(y.segment<3>(6 * i + 3)).cross(Eigen::Vector3d(y.segment<3>(6 * i)))).norm() < 1e-15);
      }
      // F equals psi_*(f(y))|_y: the Lie group and classical methods integrate the same field.
      REQUIRE(model->generator(0.0, y, xi) == Status::ok);
      REQUIRE(model->space().generator(xi, y, via_action) == Status::ok);
      CHECK((via_action - dy).norm() <= 1e-12 * (1 + dy.norm()));
    }
  }
}

TEST_CASE("N = 1: the spherical pendulum conserves its vertical angular momentum and energy") {
  const std::map<std::string, std::string> p{{"N", "1"}, {"q0", "0.6,0.0,-0.8"}, {"w0", "0.8,1.5,0.6"}, {"L", "1.3"}, {"m", "2"}};
  struct Monitor final : Observer {
    double lz0 = 0, e0 = 0, max_lz = 0, max_e = 0;
    bool first = true;
    ModelView* model = nullptr;
    void on_output(double, ConstVec y) override {
      const Eigen::Vector3d q = y.segment<3>(0), w = y.segment<3>(3);
      const Eigen::Vector3d v = w.cross(q);  // velocity of the mass / L
      const double lz = q.cross(v).z();      // vertical angular momentum / (m L^2)
      Eigen::VectorXd inv(3);
      model->evaluate_invariants(y, inv);
      if (first) {
        lz0 = lz;
        e0 = inv[0];
        first = false;
      }
      max_lz = std::max(max_lz, std::abs(lz - lz0));
      max_e = std::max(max_e, std::abs(inv[0] - e0));
    }
  } monitor;
  auto model = test::make_model("pendulum_chain", p);
  monitor.model = model.get();
  RunRequest q;
  q.model = "pendulum_chain";
  q.parameters = p;
  q.method = "rkmk5";
  q.t_end = 5.0;
  q.step = 1e-3;
  test::run(q, &monitor);
  CHECK(std::abs(monitor.lz0) > 0.1);
  CHECK(monitor.max_lz < 1e-12);
  CHECK(monitor.max_e < 1e-9);
}

TEST_CASE("chain_length sets L_i = chain_length / N") {
  auto a = test::make_model("pendulum_chain", {{"N", "4"}, {"chain_length", "5"}});
  auto b = test::make_model("pendulum_chain", {{"N", "4"}, {"L", "1.25"}});
  a->prepare();
  b->prepare();
  Eigen::VectorXd y(24), fa(24), fb(24);
  a->initial_state(y);
  REQUIRE(a->vector_field(0, y, fa) == Status::ok);
  REQUIRE(b->vector_field(0, y, fb) == Status::ok);
  CHECK((fa - fb).norm() == 0.0);
  Eigen::VectorXd ia(9), ib(9);
  a->evaluate_invariants(y, ia);
  b->evaluate_invariants(y, ib);
  CHECK(ia[0] == ib[0]);
}

TEST_CASE("per-link values and validation") {
  CHECK_NOTHROW(test::make_model("pendulum_chain", {{"N", "3"}, {"m", "1,2,3"}, {"L", "0.5"}, {"q0", "0,0,-1"}, {"w0", "1,0,0,0,1,0,1,1,0"}}));
  CHECK_THROWS_WITH_AS(test::make_model("pendulum_chain", {{"N", "2"}, {"m", "1,-1"}}), doctest::Contains("'m': value -1 for link 2 must be positive"), Error);
  CHECK_THROWS_WITH_AS(test::make_model("pendulum_chain", {{"N", "2"}, {"q0", "1,0,0,0,0,2"}}), doctest::Contains("|q2|"), Error);
  CHECK_THROWS_WITH_AS(test::make_model("pendulum_chain", {{"N", "2"}, {"w0", "1,2"}}), doctest::Contains("expected 3 or 6 value(s), got 2"), Error);
  CHECK_THROWS_WITH_AS(test::make_model("pendulum_chain", {{"g", "nan"}}), doctest::Contains("not finite"), Error);
}
