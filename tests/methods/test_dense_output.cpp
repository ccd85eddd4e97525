// Dense output: the interpolant of every kernel-driven method converges with the order it states
// (MethodInfo::dense_order), Lie group interpolants stay on the manifold, and output at requested
// times equals a run stopped there.
#include "common.hpp"

#include <algorithm>
#include <cmath>

using namespace liesim;
using namespace liesim::test;
using namespace liesim::test::methods;

namespace {

/// The forced, damped oscillator of test_orders.cpp (exact solution, time-dependent field).
/// The contractive flow on S^2 from latitude 10 degrees, with isotropy c = 0.5.
const Params sphere{{"field", "contractive"}, {"c", "0.5"}, {"latitude", "10"}};

const Params forced{{"zeta", "0.05"}, {"F0", "0.5"}, {"omega", "1.3"}, {"q0", "1"}, {"v0", "0"}};

/// Error of the dense output at t0 + theta h inside one step of size h from the exact initial
/// state: the interpolant's local error, O(h^(q+1)).
double interpolation_error(const std::string& model, const Params& params, const std::string& method, double h, double theta) {
  RunRequest q = request(model, params, method, h, h, {});
  q.output_times = {theta * h};
  Recorded points;
  run(q, &points);
  REQUIRE(points.times.size() == 2);  // t0 and the requested time (not the step's end)
  CHECK(points.times[1] == theta * h);
  const auto m = make_model(model, params);
  Eigen::VectorXd exact(m->size());
  REQUIRE(m->exact_solution(theta * h, exact) == Status::ok);
  return (points.states[1] - exact).norm();
}

}  // namespace

TEST_CASE("the interpolant of every kernel-driven method converges with its stated order") {
  // One step of h from the exact state, the interpolant at theta = 0.5 (and 0.3): the error is the
  // interpolant's local error C h^(q+1). Step sizes keep every error above round-off (1e-12).
  int checked = 0;
  for (const MethodInfo& m : kernel_methods()) {
    const int q = m.dense_order;
    CAPTURE(m.name);
    CAPTURE(q);
    REQUIRE(q >= 1);
    REQUIRE(q <= m.order);
    // The interpolant keeps the method's global order: q >= p - 1 (a continuous extension) or q = p.
    CHECK(q >= m.order - 1);
    const double h0 = q + 1 >= 9 ? 1.2 : q + 1 >= 7 ? 1.6 : q + 1 >= 5 ? 0.8 : 0.4;
    const double ratio = q + 1 >= 9 ? 1.5 : 2.0;  // order 9: errors reach round-off quickly
    for (const double theta : {0.5, 0.3}) {
      CAPTURE(theta);
      std::vector<double> hs, errors;
      for (int k = 0; k < 3; ++k) {
        hs.push_back(h0 / std::pow(ratio, k));
        errors.push_back(interpolation_error("harmonic_oscillator", forced, m.name, hs.back(), theta));
      }
      CAPTURE(errors[0]);
      CAPTURE(errors[2]);
      CHECK(errors[2] > 1e-13);
      const double slope = fitted_slope(hs, errors);
      CAPTURE(slope);
      CHECK(slope > q + 1 - 0.3);  // at least the stated order
      // A continuous extension of order p - 1 is exactly that order (not the method's).
      if (q < m.order && m.order <= 5) CHECK(slope < q + 1 + 0.5);
    }
    ++checked;
  }
  CHECK(checked >= 20);
}

TEST_CASE("RKMK's interpolant stays on the manifold; it is the table's continuous extension in the algebra") {
  // The contractive flow on the sphere (exact solution; generator with isotropy c = 0.5, so that no
  // Lie group method is exact): points inside large steps, by the continuous
  // extension (rkmk4, rkmk5, rkmk45) and by the repeated step (cf4, rkmk6, rkmk4_2c).
  for (const char* method : {"lie_euler_heun", "rkmk3", "rkmk4", "rkmk5", "rkmk45", "cf4", "rkmk6", "rkmk4_2c", "cg3"}) {
    CAPTURE(method);
    const bool adaptive = std::string(method) == "rkmk45";
    RunRequest q = request("sphere_flow", sphere, method, 10.0, adaptive ? 0.0 : 0.5, {});
    if (adaptive) q.rtol = q.atol = 1e-3;
    q.output_times = output_grid(0.0, 10.0, 0.0731);
    Recorded points;
    run(q, &points);
    REQUIRE(points.times.size() == q.output_times.size() + 1);
    for (std::size_t k = 1; k < points.times.size(); ++k) CHECK(points.times[k] == q.output_times[k - 1]);
    double worst = 0;
    for (const auto& y : points.states) worst = std::max(worst, std::abs(y.norm() - 1.0));
    CHECK(worst < 1e-14);
  }
  // rkmk4's dense output is of order 4 globally over a grid (its interpolant: order 3).
  std::vector<double> hs, errors;
  for (const double h : {0.4, 0.2, 0.1}) {
    RunRequest q = request("sphere_flow", sphere, "rkmk4", 4.0, h, {});
    q.output_times = output_grid(0.0, 4.0, 0.0317);
    Recorded points;
    run(q, &points);
    const auto m = make_model("sphere_flow", sphere);
    Eigen::VectorXd exact(m->size());
    double worst = 0;
    for (std::size_t k = 0; k < points.times.size(); ++k) {
      REQUIRE(m->exact_solution(points.times[k], exact) == Status::ok);
      worst = std::max(worst, (points.states[k] - exact).norm());
    }
    hs.push_back(h);
    errors.push_back(worst);
  }
  CAPTURE(errors[0]);
  CAPTURE(errors[2]);
  CHECK(fitted_slope(hs, errors) == doctest::Approx(4.0).epsilon(0.08));
}

TEST_CASE("output at requested times equals a run stopped there, to the interpolant's order") {
  // dopri45 at rtol = atol = 1e-10 on the forced oscillator: the output at t = 1.234 against a run
  // to t_end = 1.234 (which lands a step there) differ by the runs' own errors only.
  for (const char* method : {"dopri45", "rkmk45", "bs32", "verner65", "cf43"}) {
    CAPTURE(method);
    RunRequest q = request("harmonic_oscillator", forced, method, 3.0, 0.0, {});
    q.rtol = q.atol = 1e-10;
    q.output_times = {0.5, 1.234, 2.0, 3.0};
    Recorded points;
    const Outcome whole = run(q, &points);
    REQUIRE(points.times.size() == 5);
    CHECK(points.times == std::vector<double>{0.0, 0.5, 1.234, 2.0, 3.0});
    CHECK(points.states[4] == whole.y);  // the end is the last step's state, not interpolated
    const auto m = make_model("harmonic_oscillator", forced);
    Eigen::VectorXd exact(m->size());
    for (std::size_t k = 1; k < points.times.size(); ++k) {
      RunRequest stopped = request("harmonic_oscillator", forced, method, points.times[k], 0.0, {});
      stopped.rtol = stopped.atol = 1e-10;
      const Outcome s = run(stopped);
      CAPTURE(points.times[k]);
      CHECK((points.states[k] - s.y).norm() < 5e-9);
      REQUIRE(m->exact_solution(points.times[k], exact) == Status::ok);
      CHECK((points.states[k] - exact).norm() < 5e-9);
    }
    // The output costs no evaluations in the run's counters: the same counts with or without it.
    RunRequest bare = q;
    bare.output_times.clear();
    const Outcome without = run(bare);
    CHECK(without.stats.counters.F_evals + without.stats.counters.f_evals ==
          whole.stats.counters.F_evals + whole.stats.counters.f_evals);
    CHECK(without.y == whole.y);  // output does not change the integration
  }
}

TEST_CASE("output times: bad times are refused with the fix; one step's interpolation evaluations are counted apart") {
  RunRequest q = request("harmonic_oscillator", {}, "rk4", 1.0, 0.1, {});
  q.output_times = {0.5, 0.2};
  CHECK_THROWS_WITH_AS(run(q), doctest::Contains("output times must increase"), Error);
  q.output_times = {0.5, 1.5};
  CHECK_THROWS_WITH_AS(run(q), doctest::Contains("outside the run's time span [0, 1]"), Error);
  q.output_times = {std::nan("")};
  CHECK_THROWS_WITH_AS(run(q), doctest::Contains("outside the run's time span"), Error);
  // dopri5 at a fixed step skips its FSAL stage; its interpolant needs it: one evaluation per step
  // with an output inside, counted in output_evals.
  RunRequest d = request("harmonic_oscillator", {}, "dopri5", 1.0, 0.1, {});
  d.output_times = {0.05, 0.07, 0.55};
  const Outcome o = run(d);
  CHECK(o.stats.output_evals == 2);
  CHECK(o.stats.counters.F_evals == 60);
  // A method without a continuous extension repeats the step with theta h: verner6 (8 stages).
  RunRequest v = request("harmonic_oscillator", {}, "verner6", 1.0, 0.1, {});
  v.output_times = {0.05, 0.07, 0.55};
  CHECK(run(v).stats.output_evals == 24);
  // The grid helper: t0 + k dt up to t_end, the last snapped to t_end.
  CHECK(output_grid(0.0, 1.0, 0.25) == std::vector<double>{0.25, 0.5, 0.75, 1.0});
  CHECK(output_grid(0.0, 1.0, 0.3).size() == 3);
  CHECK(equal_output_times(0.0, 3.0, 3) == std::vector<double>{1.0, 2.0, 3.0});
  CHECK_THROWS_AS(output_grid(0.0, 1.0, 0.0), Error);
}

TEST_CASE("methods for models with a mechanical, Hamiltonian or Riemannian description: dense output leaves the run unchanged") {
  // The repeated step (or the method's own interpolant) inside each step: output at requested
  // times must not change what the method computes (a method that carried memory from step to
  // step and were interpolated by repeating the step would), the outputs land on the requested
  // times, and the point inside a step approaches the step's start and end (theta -> 0, 1).
  const std::vector<std::pair<std::string, Params>> models{
      {"heavy_top", {}}, {"double_well", {}}, {"sphere_flow", {{"field", "contractive"}, {"latitude", "10"}}}, {"rigid_pendulum", {}}, {"trace_function", {}}};
  int checked = 0;
  for (const auto& p : registry().plugins()) {
    if (!p.integrator) continue;
    for (const auto& m : p.integrator->methods()) {
      if (m.self_controlled || !m.needs_mechanics) continue;
      CAPTURE(m.name);
      bool ran = false;
      for (const auto& entry : models) {
        const std::string& model = entry.first;  // (named: clang 14 cannot capture structured bindings in doctest's macros)
        const Params& params = entry.second;
        RunRequest q = request(model, params, m.name, 1.0, 0.05, {});
        try {
          run(q);
        } catch (const Error&) {
          continue;  // this method does not run this model
        }
        CAPTURE(model);
        q.output_times = output_grid(0.0, 1.0, 0.0173);
        Recorded points;
        const Outcome with = run(q, &points);
        q.output_times.clear();
        const Outcome without = run(q);
        CHECK(with.y == without.y);
        CHECK(with.stats.counters.f_evals + with.stats.counters.F_evals ==
              without.stats.counters.f_evals + without.stats.counters.F_evals);
        REQUIRE(points.times.size() == output_grid(0.0, 1.0, 0.0173).size() + 1);
        // Near a step's end the interpolated point is near the step's state.
        RunRequest near = request(model, params, m.name, 0.05, 0.05, {});
        near.output_times = {0.05 * (1 - 1e-7)};
        Recorded end;
        const Outcome step = run(near, &end);
        CHECK((end.states[1] - step.y).norm() < 1e-5 * std::max(1.0, step.y.norm()));
        ran = true;
        break;
      }
      CHECK_MESSAGE(ran, "no test model runs this method");
      ++checked;
    }
  }
  CHECK(checked >= 12);
}
