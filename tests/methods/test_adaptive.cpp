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
  const double tol = 1e-6, theta = 0.85;
  StepLog log;
  const Outcome out = run("pendulum_chain", planar_pendulum(), "rkmk45", T, 0, 0, tol,
                          {{"error_norm", "l2"}, {"theta", "0.85"}}, &log);
  const auto& a = log.attempts;
  REQUIRE(a.size() >= 2);
  long accepted = 0, rejected = 0;
  CHECK(a.front().t == 0.0);
  CHECK(a.front().h == doctest::Approx(T / 100).epsilon(1e-14));  // default h0 = (t_end - t0)/100
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
  CHECK(adaptive >= 6);  // rkmk45, cf32a, cf32b, cf43, dopri45, bs32
}
