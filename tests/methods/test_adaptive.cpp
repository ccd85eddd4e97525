// Adaptive step control of the kernel (framework/src/driver.cpp) on the N = 2 pendulum.
#include "common.hpp"

#include <cstdio>
#include <cstdlib>
#include <limits>
#include <sstream>

using namespace liesim;
using namespace liesim::test;
using namespace liesim::test::methods;

namespace {

bool verbose() { return std::getenv("LIESIM_TEST_VERBOSE") != nullptr; }

constexpr double T = 3.0;

/// Every step attempt and every output point of a run.
class StepLog final : public Observer {
 public:
  struct Attempt {
    double t, h, err;
    bool accepted;
  };
  void on_output(double t, ConstVec y) override {
    outputs.push_back(t);
    last_y = y;
  }
  void on_step(double t, double h, double err, bool accepted) override { attempts.push_back({t, h, err, accepted}); }
  std::vector<Attempt> attempts;
  std::vector<double> outputs;
  Eigen::VectorXd last_y;
};

/// Reference state at T = 3 for the thesis start: rkmk5 with h = 2e-4 (error ~1e-12).
const Eigen::VectorXd& reference() {
  static const Eigen::VectorXd y = final_state("pendulum_chain", planar_pendulum(), "rkmk5", T, 2e-4);
  return y;
}

}  // namespace

TEST_CASE("reference of the adaptive tests is accurate") {
  const Eigen::VectorXd coarse = final_state("pendulum_chain", planar_pendulum(), "rkmk5", T, 4e-4);
  CHECK((coarse - reference()).norm() < 1e-9);  // so the reference itself is within ~3e-11
}

TEST_CASE("rkmk45 (tol 1e-6, l2) beats constant-step rkmk5 with the same number of steps (thesis Fig. 2.8)") {
  StepLog log;
  const Outcome var = run("pendulum_chain", planar_pendulum(), "rkmk45", T, 0, 0, 1e-6, {{"error_norm", "l2"}}, &log);
  const long steps = var.stats.steps;
  REQUIRE(steps > 10);
  const Eigen::VectorXd y_const = final_state("pendulum_chain", planar_pendulum(), "rkmk5", T, T / steps);
  const double err_var = (var.y - reference()).norm();
  const double err_const = (y_const - reference()).norm();
  if (verbose())
    std::printf("rkmk45 tol 1e-6: %ld accepted, %ld rejected, error %.2e; rkmk5 with %ld steps: %.2e\n", steps,
                static_cast<long>(var.stats.rejected_steps), err_var, steps, err_const);
  CAPTURE(steps);
  CAPTURE(err_var);
  CAPTURE(err_const);
  CHECK(10 * err_var <= err_const);

  // The step is restricted around the peak of the angular velocities at t ~ 2.2-2.3.
  double h_min = std::numeric_limits<double>::infinity(), t_at = -1;
  for (const auto& a : log.attempts)
    if (a.accepted && a.h < h_min && a.t + a.h < T * (1 - 1e-12)) {  // the clipped last step does not count
      h_min = a.h;
      t_at = a.t;
    }
  CAPTURE(h_min);
  CAPTURE(t_at);
  CHECK(t_at >= 2.2);
  CHECK(t_at <= 2.35);
  CHECK(var.stats.h_min_used <= h_min);
}

TEST_CASE("l2 controller: h_new = min(theta (tol/err)^(1/5) h, T - t), accept iff err < tol") {
  // The papers' first step h0 = T/100, given explicitly (the default is the starting step estimate).
  const double tol = 1e-6, theta = 0.85;
  StepLog log;
  const Outcome out = run("pendulum_chain", planar_pendulum(), "rkmk45", T, 0, 0, tol,
                          {{"error_norm", "l2"}, {"theta", "0.85"}, {"h0", "0.03"}}, &log);
  const auto& a = log.attempts;
  REQUIRE(a.size() >= 2);
  long accepted = 0, rejected = 0;
  CHECK(a.front().t == 0.0);
  CHECK(a.front().h == 0.03);
  // Every attempt is checked; the first violation of each rule is reported (not thousands).
  long bad_accept = 0, bad_time = 0, bad_step = 0;
  std::string first;
  auto report = [&](long& counter, std::size_t k, const char* rule, double got, double want) {
    if (counter++ == 0 && first.empty()) {
      std::ostringstream o;
      o.precision(17);
      o << "attempt " << k << " (t = " << a[k].t << ", h = " << a[k].h << ", err = " << a[k].err << "): " << rule
        << " got " << got << " want " << want;
      first = o.str();
    }
  };
  for (std::size_t k = 0; k < a.size(); ++k) {
    if (a[k].accepted != (a[k].err < tol)) report(bad_accept, k, "accepted == (err < tol)", a[k].accepted, a[k].err < tol);
    a[k].accepted ? ++accepted : ++rejected;
    if (k + 1 == a.size()) break;
    const double t_next = a[k].accepted ? a[k].t + a[k].h : a[k].t;
    if (std::abs(a[k + 1].t - t_next) > 1e-14 * std::max(1.0, t_next)) report(bad_time, k + 1, "t", a[k + 1].t, t_next);
    const double h_formula = std::min(theta * std::pow(tol / a[k].err, 1.0 / 5) * a[k].h, T - a[k + 1].t);
    if (std::abs(a[k + 1].h - h_formula) > 1e-12 * h_formula) report(bad_step, k + 1, "h_new", a[k + 1].h, h_formula);
  }
  CAPTURE(first);
  CAPTURE(a.size());
  CHECK(bad_accept == 0);
  CHECK(bad_time == 0);
  CHECK(bad_step == 0);
  CHECK(a.back().accepted);
  CHECK(a.back().t + a.back().h == doctest::Approx(T).epsilon(1e-14));
  CHECK(rejected > 0);  // both branches of the controller are exercised
  CHECK(out.stats.steps == accepted);
  CHECK(out.stats.rejected_steps == rejected);
  CHECK(static_cast<long>(log.outputs.size()) == accepted + 1);
  CHECK(log.outputs.back() == T);
}

TEST_CASE("adaptive runs fail cleanly: h_min and max_steps") {
  SUBCASE("h_min = 0.1 ends with RunFailure naming h_min and keeping the last good time") {
    // A loose tolerance and h0 = 0.1 let the run start (the first steps are accepted); the
    // controller then proposes a step below 0.1 (at t ~ 0.53).
    StepLog log;
    bool failed = false;
    try {
      run("pendulum_chain", planar_pendulum(), "rkmk45", T, 0, 0, 1e-3,
          {{"error_norm", "l2"}, {"h0", "0.1"}, {"h_min", "0.1"}}, &log);
    } catch (const RunFailure& e) {
      failed = true;
      const std::string what = e.what();
      CAPTURE(what);
      CHECK(what.find("h_min") != std::string::npos);
      CHECK(e.partial.t > 0);
      CHECK(e.partial.t < T);
      REQUIRE_FALSE(log.outputs.empty());
      CHECK(e.partial.t == log.outputs.back());  // the last accepted time
      CHECK(e.partial.stats.steps == static_cast<long>(log.outputs.size()) - 1);
      REQUIRE(e.partial.y.size() == 12);
      CHECK(e.partial.y == log.last_y);  // the last good state
    }
    CHECK(failed);
  }
  SUBCASE("max_steps = 5 ends with RunFailure naming max_steps") {
    bool failed = false;
    try {
      run("pendulum_chain", planar_pendulum(), "rkmk45", T, 0, 0, 1e-6, {{"error_norm", "l2"}, {"max_steps", "5"}});
    } catch (const RunFailure& e) {
      failed = true;
      const std::string what = e.what();
      CAPTURE(what);
      CHECK(what.find("max_steps") != std::string::npos);
      CHECK(e.partial.stats.steps + e.partial.stats.rejected_steps == 5);
      CHECK(e.partial.t > 0);
    }
    CHECK(failed);
  }
}

TEST_CASE("every adaptive kernel-driven method with wrms at rtol = atol = 1e-8 ends within 1e-5 of the reference") {
  int adaptive = 0;
  for (const MethodInfo& m : kernel_methods()) {
    if (m.embedded_order == 0) continue;
    ++adaptive;
    INFO("method: " << m.name);
    const Outcome out = run("pendulum_chain", planar_pendulum(), m.name, T, 0, 1e-8, 1e-8);
    const double err = (out.y - reference()).norm();
    if (verbose())
      std::printf("wrms 1e-8 %-10s steps %6ld rejected %4ld error %.2e\n", m.name.c_str(), static_cast<long>(out.stats.steps),
                  static_cast<long>(out.stats.rejected_steps), err);
    CAPTURE(err);
    CHECK(err <= 1e-5);
  }
  CHECK(adaptive >= 10);  // rkmk45, rkmk65, rkmk87, cf32a, cf32b, cf43, dopri45, bs32, verner65, verner87
}

TEST_CASE("Verner's pairs reach tight tolerances with fewer steps than Dormand-Prince (l2, atol 1e-10 and 1e-12)") {
  // Against a reference from rkmk8 at h = 1e-3 (order 8: error ~1e-14, checked against h = 2e-3).
  const Eigen::VectorXd ref = final_state("pendulum_chain", planar_pendulum(), "rkmk8", T, 1e-3);
  const Eigen::VectorXd coarse = final_state("pendulum_chain", planar_pendulum(), "rkmk8", T, 2e-3);
  REQUIRE((ref - coarse).norm() < 1e-12);
  for (const double tol : {1e-10, 1e-12}) {
    long dp_steps[2] = {0, 0};
    int k = 0;
    for (const char* m : {"rkmk45", "dopri45"}) dp_steps[k++] = run("pendulum_chain", planar_pendulum(), m, T, 0, 0, tol, {{"error_norm", "l2"}}).stats.steps;
    for (const char* m : {"rkmk65", "rkmk87", "verner65", "verner87"}) {
      const Outcome out = run("pendulum_chain", planar_pendulum(), m, T, 0, 0, tol, {{"error_norm", "l2"}});
      const double err = (out.y - ref).norm();
      const long steps = out.stats.steps;
      const long dp = m[0] == 'r' ? dp_steps[0] : dp_steps[1];
      if (verbose())
        std::printf("l2 atol %.0e %-9s steps %5ld rejected %3ld error %.2e (Dormand-Prince pair: %ld steps)\n", tol, m, steps,
                    static_cast<long>(out.stats.rejected_steps), err, dp);
      INFO("method: " << m);
      CAPTURE(tol);
      CAPTURE(err);
      CAPTURE(steps);
      CAPTURE(dp);
      CHECK(err <= 100 * tol);  // a global error within a modest factor of the local tolerance over T = 3
      CHECK(steps < dp);
    }
  }
}

TEST_CASE("default first step: the starting step size algorithm of Hairer, Norsett & Wanner (I, II.4)") {
  SUBCASE("classical method, wrms: the formula evaluated by hand on the oscillator q'' = -4q, y0 = (1, 0)") {
    // sc = atol + rtol |y0| = (2e-6, 1e-6); F0 = (0, -4); d0 = ||y0||, d1 = ||F0||, h = 0.01 d0/d1;
    // y1 = y0 + h F0, F1 = (y1_2, -4 y1_1); d2 = ||F1 - F0|| / h; h1 = (0.01/max(d1, d2))^(1/6) (dopri45: p = 5).
    const double rtol = 1e-6, atol = 1e-6;
    const double s1 = atol + rtol, s2 = atol;
    const auto norm = [&](double a, double b) { return std::sqrt(((a / s1) * (a / s1) + (b / s2) * (b / s2)) / 2); };
    const double d0 = norm(1, 0), d1 = norm(0, -4);
    const double h = 0.01 * d0 / d1;
    const double d2 = norm(-4 * h - 0, -4 - (-4)) / h;
    const double want = std::min(100 * h, std::pow(0.01 / std::max(d1, d2), 1.0 / 6));
    StepLog log;
    const Outcome out = run("harmonic_oscillator", {}, "dopri45", 1.0, 0, rtol, atol, {}, &log);
    REQUIRE_FALSE(log.attempts.empty());
    CAPTURE(want);
    CHECK(want > 0.03);  // not the old default T/100 = 0.01
    CHECK(log.attempts.front().h == doctest::Approx(want).epsilon(1e-14));
    CHECK(out.stats.counters.F_evals > 0);
  }
  SUBCASE("Lie group method, l2: the estimate starts where the controller would be, on M") {
    // rkmk45 on the N = 2 pendulum with tol 1e-6: the first attempt is accepted and within a factor
    // of 3 of the step the controller chooses next.
    StepLog log;
    run("pendulum_chain", planar_pendulum(), "rkmk45", T, 0, 0, 1e-6, {{"error_norm", "l2"}}, &log);
    const auto& a = log.attempts;
    REQUIRE(a.size() >= 3);
    CAPTURE(a[0].h);
    CAPTURE(a[1].h);
    CHECK(a[0].accepted);
    CHECK(a[1].h / a[0].h < 3);
    CHECK(a[1].h / a[0].h > 1.0 / 3);
  }
  SUBCASE("an explicit h0 still wins, and h_max caps the estimate") {
    StepLog log;
    run("harmonic_oscillator", {}, "dopri45", 1.0, 0, 1e-6, 1e-6, {{"h0", "0.2"}}, &log);
    CHECK(log.attempts.front().h == 0.2);
    StepLog capped;
    run("harmonic_oscillator", {}, "dopri45", 1.0, 0, 1e-6, 1e-6, {{"h_max", "0.001"}}, &capped);
    CHECK(capped.attempts.front().h == 0.001);
  }
}

TEST_CASE("the first step does not depend on the time span (issue: N = 5, rkmk45, tol 1e-8, T = 1000)") {
  // With the old default h0 = T/100 the first attempt of a T = 1000 run was h = 10 (reported to end
  // at t = 0 with "step size 4.6e-29 fell below round-off"). The estimate depends on the field at
  // the start only; the whole run completes (0.8 s).
  StepLog shorter, longer;
  run("pendulum_chain", {{"N", "5"}}, "rkmk45", 3, 0, 1e-8, 1e-8, {}, &shorter);
  const Outcome out = run("pendulum_chain", {{"N", "5"}}, "rkmk45", 1000, 0, 1e-8, 1e-8, {}, &longer);
  REQUIRE_FALSE(longer.attempts.empty());
  CHECK(longer.attempts.front().h == shorter.attempts.front().h);
  CHECK(longer.attempts.front().h > 1e-4);
  CHECK(longer.attempts.front().h < 0.1);
  CHECK(longer.attempts.front().accepted);
  CHECK(longer.outputs.back() == 1000.0);
  CHECK(out.stats.steps > 100000);
}
