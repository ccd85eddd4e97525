// A run that blows up ends as diverged with the time: its state norm (diverged_factor) or an
// invariant the model declares conserved or non-increasing (invariant_bound, checked every
// invariant_check_every accepted steps and at the end).
#include <framework/src/divergence.hpp>
#include <support/plugins.hpp>

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <cmath>
#include <map>
#include <string>
#include <vector>

using namespace liesim;

namespace {

/// The rotating ball of studies/rotating_ball_stability.toml (case "parallel", E0 = 5e-5).
RunRequest ball(double d, double h, std::map<std::string, std::string> options = {}) {
  RunRequest q;
  q.model = "rotating_ball";
  q.parameters = {{"m", "1"}, {"k", "1"}, {"alpha0", "0.01"}, {"v0", "0"}, {"d", fmt::format("{}", d)}};
  q.method = "rkmk4";
  q.t_end = 200;
  q.step = h;
  q.options = std::move(options);
  return q;
}

/// Every accepted state's invariants.
struct InvariantTrace final : Observer {
  const ModelView& model;
  std::vector<double> t;
  std::vector<Eigen::VectorXd> values;
  explicit InvariantTrace(const ModelView& m) : model(m) {}
  void on_output(double time, ConstVec y) override {
    Eigen::VectorXd v(model.invariant_count());
    model.evaluate_invariants(y, v);
    t.push_back(time);
    values.push_back(v);
  }
};

/// The failure message of a run ("" when it reached t_end).
std::string failure_of(RunRequest q) {
  PreparedRun p = prepare_run(test::registry(), q);
  NullObserver none;
  try {
    execute(p, none);
  } catch (const RunFailure& e) {
    return e.what();
  }
  return {};
}

/// The time in "diverged at t = T: ...".
double diverged_time(const std::string& message) { return std::stod(message.substr(std::string("diverged at t = ").size())); }

}  // namespace

TEST_CASE("the rotating ball declares its energy conserved (d = 0) or non-increasing (d > 0), its orthogonality conserved") {
  for (const double d : {0.0, 0.2}) {
    const auto model = test::make_model("rotating_ball", {{"d", fmt::format("{}", d)}});
    const auto inv = model->invariants();
    REQUIRE(inv.size() == 2);
    CHECK(inv[0].kind == (d == 0 ? InvariantKind::conserved : InvariantKind::nonincreasing));
    CHECK(inv[1].kind == InvariantKind::conserved);
    CHECK(inv[1].scale == 1.0);
  }
}

TEST_CASE("a run whose energy blows up ends as diverged at the first check past the bound; with the bound off it is ok") {
  // rkmk4 with h = 6 on the undamped ball: |R(6i)| > 1, E grows from 5e-5 to ~3e2 while |y| stays
  // far below 1e6 max(1, |y0|) (the state-norm check alone let this run end "ok" in the shipped
  // results of studies/rotating_ball_stability.toml).
  const double h = 6.0;
  RunRequest off = ball(0, h, {{"invariant_bound", "inf"}});
  PreparedRun p = prepare_run(test::registry(), off);
  InvariantTrace trace(*p.model);
  REQUIRE_NOTHROW(execute(p, trace));  // without the invariant check: "ok"
  const double e0 = trace.values.front()[0];
  CHECK(e0 == doctest::Approx(5e-5));
  // The expected time: the first check (every invariant_check_every accepted steps, and the end)
  // at which |E - E0| > 1e3 |E0|.
  double expected = -1;
  const std::size_t n = trace.t.size() - 1;  // accepted steps
  for (std::size_t k = 1; k <= n && expected < 0; ++k)
    if ((k % invariant_check_every == 0 || k == n) && std::abs(trace.values[k][0] - e0) > 1e3 * e0) expected = trace.t[k];
  REQUIRE(expected > 0);  // the run does blow up
  CHECK(expected < 200);

  const std::string why = failure_of(ball(0, h));
  INFO(why);
  REQUIRE(diverged(why));
  CHECK(diverged_time(why) == doctest::Approx(expected));
  CHECK(why.find("invariant 'energy' (conserved) went from 5e-05 at t0 to ") != std::string::npos);
  CHECK(why.find("a smaller step or tolerance") != std::string::npos);
}

TEST_CASE("healthy runs of the same model are not flagged") {
  for (const double d : {0.0, 0.2, 1.0})
    for (const double h : {0.1, 1.0, 2.5}) {
      CAPTURE(d);
      CAPTURE(h);
      CHECK(failure_of(ball(d, h)) == "");
    }
}

TEST_CASE("a dissipated energy may fall: only its growth counts") {
  // With d = 0.2 the energy decays from 5e-5 to ~0: a change of ~|E0|. A bound of 0.5 |E0| would
  // flag it as a conserved invariant; as non-increasing it is not flagged.
  CHECK(failure_of(ball(0.2, 0.1, {{"invariant_bound", "0.5"}})) == "");
  // The same bound on the undamped ball, whose energy rkmk4 with h = 2.5 changes by ~|E0|, is passed.
  CHECK(diverged(failure_of(ball(0, 2.5, {{"invariant_bound", "0.5"}}))));
}

TEST_CASE("the state-norm check still ends a blown-up run, with its factor as an option") {
  // Explicit Euler on the undamped oscillator with h = 1: |y| grows by sqrt(2) per step.
  RunRequest q;
  q.model = "oscillator";
  q.method = "euler";
  q.t_end = 100;
  q.step = 1;
  q.options = {{"invariant_bound", "inf"}};
  std::string why = failure_of(q);
  INFO(why);
  REQUIRE(diverged(why));
  CHECK(why.find("|y| = ") != std::string::npos);
  CHECK(diverged_time(why) == 42);  // |y_k| = 0.5 2^(k/2) > 1e6 max(1, |y0|) = 1e6: k = 42
  q.options["diverged_factor"] = "10";
  why = failure_of(q);
  CHECK(diverged_time(why) == 9);  // 0.5 2^(k/2) > 10: k = 9
  CHECK(why.find("passed 10 max(1, |y0|)") != std::string::npos);
  // With the invariants checked too, the energy (2^k E0, past 1e3 |E0| from k = 10 on) is caught
  // first, at the check after 32 steps.
  q.options.clear();
  why = failure_of(q);
  CHECK(diverged_time(why) == 32);
  CHECK(why.find("invariant 'energy'") != std::string::npos);
}

TEST_CASE("the heavy top and the pendulum chain declare their energy conserved, with the potential's range as its scale") {
  const auto top = test::make_model("heavy_top", {});
  const auto top_inv = top->invariants();
  REQUIRE(!top_inv.empty());
  CHECK(top_inv[0].name == "energy");
  CHECK(top_inv[0].kind == InvariantKind::conserved);
  CHECK(top_inv[0].scale > 0);
  for (std::size_t k = 1; k < top_inv.size(); ++k) CHECK(top_inv[k].kind == InvariantKind::monitored);
  // N = 2, unit masses and lengths, g = 9.81: g (m1 L1 + m2 (L1 + L2)) = 3 g.
  const auto chain = test::make_model("pendulum_chain", {{"N", "2"}});
  const auto chain_inv = chain->invariants();
  CHECK(chain_inv[0].kind == InvariantKind::conserved);
  CHECK(chain_inv[0].scale == doctest::Approx(3 * 9.81));
}

TEST_CASE("explicit Euler on the pendulum chain: its energy growth ends the run as diverged; rkmk4 at the same step does not") {
  RunRequest q;
  q.model = "pendulum_chain";
  q.parameters = {{"N", "2"}};
  q.method = "lie_euler";
  q.t_end = 200;
  q.step = 0.2;  // Lie-Euler's energy grows from 23 to ~7e8 by t = 12.8 (h = 0.1: it stays bounded to T)
  const std::string euler = failure_of(q);
  INFO(euler);
  CHECK(diverged(euler));
  CHECK(euler.find("invariant 'energy'") != std::string::npos);
  q.method = "rkmk4";
  q.step = 0.01;  // (at h = 0.2 rkmk4 blows up too: the energy reaches 4.5e4 by T = 200)
  CHECK(failure_of(q).empty());
}
