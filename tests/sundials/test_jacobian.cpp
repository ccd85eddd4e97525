// Models that provide the Jacobian of their vector field (ABI 2.1): the Jacobian against finite
// differences, and the Newton iterations using it: SUNDIALS' (option jacobian = auto | model | dq)
// and implicit_rk's classical Gauss methods (option jacobian = auto | model | fd).
#include <support/fixtures.hpp>
#include <support/plugins.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <random>

using namespace liesim;
using test::Params;

namespace {

/// Central differences of F, column by column.
Eigen::MatrixXd fd_jacobian(ModelView& m, const Eigen::VectorXd& y) {
  const Eigen::Index n = y.size();
  Eigen::MatrixXd J(n, n);
  Eigen::VectorXd yp = y, ym = y, fp(n), fm(n);
  for (Eigen::Index c = 0; c < n; ++c) {
    const double delta = 1e-6 * std::max(1.0, std::abs(y[c]));
    yp[c] = y[c] + delta;
    ym[c] = y[c] - delta;
    REQUIRE(m.vector_field(0.0, yp, fp) == Status::ok);
    REQUIRE(m.vector_field(0.0, ym, fm) == Status::ok);
    J.col(c) = (fp - fm) / (2 * delta);
    yp[c] = ym[c] = y[c];
  }
  return J;
}

}  // namespace

TEST_CASE("the models' Jacobians equal finite differences of F, also off the manifold") {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-2.0, 2.0);
  for (const auto& [name, params] : std::vector<std::pair<std::string, Params>>{
           {"oscillator", {{"m", "2"}, {"d", "0.3"}, {"k", "50"}}},
           {"rigid_body", {{"I", "2,1.5,1"}}},
           {"heavy_top", {{"formulation", "tso3"}}},
           {"heavy_top", {{"formulation", "lie_poisson"}}},
           {"heavy_top", {{"formulation", "quadratic"}}},
           {"heavy_top", {{"formulation", "velocity"}}},
           {"pendulum_chain", {{"N", "1"}}},
           {"pendulum_chain", {{"N", "2"}}},
           {"pendulum_chain", {{"N", "5"}, {"m", "1,2,0.5,3,1"}, {"L", "0.5,1,2,1,0.7"}, {"g", "3.7"}}}}) {
    const std::string& model_name = name;  // clang 14 cannot capture a structured binding
    const std::string& first_param_value = params.begin()->second;
    CAPTURE(model_name);
    CAPTURE(first_param_value);
    auto m = test::make_model(name, params);
    REQUIRE(m->has_vector_field_jacobian());
    for (int trial = 0; trial < 5; ++trial) {
      Eigen::VectorXd y(m->size());
      for (auto& v : y) v = u(rng);
      Eigen::MatrixXd J(m->size(), m->size());
      REQUIRE(m->vector_field_jacobian(0.0, y, J) == Status::ok);
      const Eigen::MatrixXd fd = fd_jacobian(*m, y);
      CAPTURE(J);
      CAPTURE(fd);
      CHECK((J - fd).lpNorm<Eigen::Infinity>() < 1e-8 * std::max(1.0, fd.lpNorm<Eigen::Infinity>()));
    }
  }
  // A model without one says so, and the call is refused.
  auto ball = test::make_model("rotating_ball");
  CHECK_FALSE(ball->has_vector_field_jacobian());
  Eigen::MatrixXd J(ball->size(), ball->size());
  const Eigen::VectorXd y = Eigen::VectorXd::Zero(ball->size());
  CHECK(ball->vector_field_jacobian(0.0, y, J) == Status::fatal);
}

TEST_CASE("CVODE and ARKODE use the model's Jacobian: no difference-quotient F evaluations, same accuracy") {
  // A stiff damped oscillator (eigenvalues -1 and -1e4) against its exact solution at T = 2.
  const Params stiff{{"m", "1"}, {"d", "10001"}, {"k", "10000"}, {"x0", "1"}, {"v0", "0"}};
  auto model = test::make_model("oscillator", stiff);
  Eigen::VectorXd exact(2);
  REQUIRE(model->exact_solution(2.0, exact) == Status::ok);
  for (const std::string method : {"cvode_bdf", "cvode_adams", "arkode_dirk"}) {
    CAPTURE(method);
    const auto own = test::run("oscillator", stiff, method, 2.0, 0, 1e-8, 1e-10, {{"jacobian", "auto"}});
    const auto forced = test::run("oscillator", stiff, method, 2.0, 0, 1e-8, 1e-10, {{"jacobian", "model"}});
    const auto dq = test::run("oscillator", stiff, method, 2.0, 0, 1e-8, 1e-10, {{"jacobian", "dq"}});
    CHECK(own.y == forced.y);  // auto takes the model's Jacobian when there is one
    CHECK(own.stats.jac_evals > 0);
    CHECK(own.stats.rhs_evals_jac == 0);  // no F evaluations spent on difference quotients
    CHECK(dq.stats.jac_evals > 0);
    CHECK(dq.stats.rhs_evals_jac == 2 * dq.stats.jac_evals);  // n = 2 F evaluations per DQ Jacobian
    CHECK(test::max_diff(own.y, exact) < 1e-7);
    // Difference quotients of this stiff F are less accurate: ARKODE's DIRK stages then stop
    // their Newton iterations early (measured 5.3e-6 against 4.9e-12 with the exact Jacobian).
    CHECK(test::max_diff(dq.y, exact) < (method == "arkode_dirk" ? 1e-4 : 1e-7));
    if (method == "arkode_dirk") CHECK(test::max_diff(own.y, exact) < 1e-3 * test::max_diff(dq.y, exact));
    MESSAGE(method << ": error with the model's Jacobian " << test::max_diff(own.y, exact) << " (" << own.stats.steps
                   << " steps), with difference quotients " << test::max_diff(dq.y, exact) << " (" << dq.stats.steps << " steps)");
  }
  // The rigid body (a nonlinear Jacobian) under CVODE BDF against a tight rkmk5 reference.
  const auto ref = test::run("rigid_body", {}, "rkmk5", 10.0, 1e-3);
  const auto bdf = test::run("rigid_body", {}, "cvode_bdf", 10.0, 0, 1e-10, 1e-10);
  CHECK(bdf.stats.rhs_evals_jac == 0);
  CHECK(test::max_diff(bdf.y, ref.y) < 1e-7);
}

TEST_CASE("jacobian=model on a model without a Jacobian is refused before the run; a bad value is refused") {
  const std::string what = test::error_of([] { test::run("rotating_ball", {}, "cvode_bdf", 1.0, 0, 1e-6, 1e-6, {{"jacobian", "model"}}); });
  CHECK(what.find("option jacobian=model: this model provides no Jacobian") != std::string::npos);
  const std::string bad = test::error_of([] { test::run("oscillator", {}, "cvode_bdf", 1.0, 0, 1e-6, 1e-6, {{"jacobian", "exact"}}); });
  CHECK(bad.find("'exact' is not one of: auto, model, dq, fd") != std::string::npos);
  // Both families take both spellings of "differences", so one study-wide option serves both.
  CHECK(test::run("oscillator", {}, "cvode_bdf", 1.0, 0, 1e-6, 1e-6, {{"jacobian", "fd"}}).stats.rhs_evals_jac > 0);
  const auto gauss_dq = test::run("rigid_body", {}, "gauss4", 1.0, 0.1, 0, 0, {{"jacobian", "dq"}});
  const auto gauss_fd = test::run("rigid_body", {}, "gauss4", 1.0, 0.1, 0, 0, {{"jacobian", "fd"}});
  CHECK(gauss_dq.y == gauss_fd.y);
  CHECK(gauss_dq.stats.counters.F_evals == gauss_fd.stats.counters.F_evals);
  // Methods without a Newton iteration have no such option.
  const std::string none = test::error_of([] { test::run("oscillator", {}, "arkode_erk", 1.0, 0, 1e-6, 1e-6, {{"jacobian", "dq"}}); });
  CHECK(none.find("unknown option 'jacobian'") != std::string::npos);
}

TEST_CASE("implicit_rk builds its stage Jacobian from the model's dF/dy: the same steps with fewer F evaluations") {
  for (const std::string method : {"implicit_midpoint", "gauss4"}) {
    CAPTURE(method);
    const auto own = test::run("rigid_body", {}, method, 10.0, 0.1, 0, 0, {{"jacobian", "model"}});
    const auto fd = test::run("rigid_body", {}, method, 10.0, 0.1, 0, 0, {{"jacobian", "fd"}});
    const auto automatic = test::run("rigid_body", {}, method, 10.0, 0.1);
    CHECK(automatic.y == own.y);                  // auto takes the model's Jacobian
    CHECK(test::max_diff(own.y, fd.y) < 1e-12);   // both converge to the same stage solution
    const int s = method == "gauss4" ? 2 : 1;
    // Per step: one F for the initial guess; per Newton iteration: s for the residual, plus
    // s * (s n) more for forward differences (n = 3); none with the model's Jacobian.
    CHECK(own.stats.counters.F_evals == own.stats.counters.newton_iters * s + own.stats.steps);
    CHECK(fd.stats.counters.F_evals == fd.stats.counters.newton_iters * s * (1 + 3 * s) + fd.stats.steps);
    MESSAGE(method << ": Newton iterations " << own.stats.counters.newton_iters << " (model Jacobian) and "
                   << fd.stats.counters.newton_iters << " (differences); F evaluations " << own.stats.counters.F_evals
                   << " and " << fd.stats.counters.F_evals);
  }
  // On the stiff oscillator, gauss4 with the exact Jacobian against the exact solution (order 4, A-stable).
  const Params stiff{{"m", "1"}, {"d", "10001"}, {"k", "10000"}, {"x0", "1"}, {"v0", "0"}};
  Eigen::VectorXd exact(2);
  REQUIRE(test::make_model("oscillator", stiff)->exact_solution(2.0, exact) == Status::ok);
  const auto g = test::run("oscillator", stiff, "gauss4", 2.0, 0.01);
  CHECK(test::max_diff(g.y, exact) < 1e-8);
  // jacobian=model needs a model with one; Lie group methods have no such option.
  CHECK(test::error_of([] { test::run("rotating_ball", {}, "gauss4", 1.0, 0.1, 0, 0, {{"jacobian", "model"}}); })
            .find("option jacobian=model: this model provides no Jacobian") != std::string::npos);
  CHECK(test::error_of([] { test::run("rigid_body", {}, "rkmk_gauss4", 1.0, 0.1, 0, 0, {{"jacobian", "fd"}}); })
            .find("unknown option 'jacobian'") != std::string::npos);
}
