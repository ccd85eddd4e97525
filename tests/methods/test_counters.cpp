// Work counters: evaluations and exponentials per step, as the method tables imply.
#include "common.hpp"

using namespace liesim;
using namespace liesim::test;
using namespace liesim::test::methods;

namespace {

/// Counters of 10 fixed steps (h = 0.01) on the N = 2 pendulum (thesis start).
Stats ten_steps(const std::string& method) {
  const Outcome out = run("pendulum_chain", planar_pendulum(), method, 0.1, 0.01);
  REQUIRE(out.stats.steps == 10);
  REQUIRE(out.stats.rejected_steps == 0);
  return out.stats;
}

}  // namespace

TEST_CASE("work counters of 10 fixed steps on the N=2 pendulum") {
  SUBCASE("lie_euler: 1 f and 1 exponential per step, no dexpinv") {
    const Counters c = ten_steps("lie_euler").counters;
    CHECK(c.f_evals == 10);
    CHECK(c.exps == 10);
    CHECK(c.dexpinv_calls == 0);
    CHECK(c.F_evals == 0);
  }
  SUBCASE("rkmk4 (exact dexpinv): 4 f, 3 stage exponentials + 1 update, 3 dexpinv per step") {
    const Counters c = ten_steps("rkmk4").counters;
    CHECK(c.f_evals == 40);
    CHECK(c.exps == 40);
    CHECK(c.dexpinv_calls == 30);
    CHECK(c.brackets == 0);
    CHECK(c.F_evals == 0);
  }
  SUBCASE("rkmk4 with dexpinv=series: brackets instead of dexpinv calls") {
    const Outcome out = run("pendulum_chain", planar_pendulum(), "rkmk4", 0.1, 0.01, 0, 0, {{"dexpinv", "series"}});
    const Counters& c = out.stats.counters;
    CHECK(c.f_evals == 40);
    CHECK(c.exps == 40);
    CHECK(c.dexpinv_calls == 0);
    CHECK(c.brackets > 0);
  }
  SUBCASE("rkmk4_2c: 4 f, 4 exponentials, 2 brackets, no dexpinv per step (Casas-Owren)") {
    const Counters c = ten_steps("rkmk4_2c").counters;
    CHECK(c.f_evals == 40);
    CHECK(c.exps == 40);
    CHECK(c.dexpinv_calls == 0);
    CHECK(c.brackets == 20);
  }
  SUBCASE("rkmk5 (Dormand-Prince main method, b_7 = 0): 6 f, 5 + 1 exponentials, 5 dexpinv") {
    // Without an error estimate the 7th stage (FSAL, weight 0 in the update) is not computed.
    const Counters c = ten_steps("rkmk5").counters;
    CHECK(c.f_evals == 60);
    CHECK(c.exps == 60);
    CHECK(c.dexpinv_calls == 50);
    // rkmk45, the adaptive pair, needs all 7 stages for its error estimate (also at a fixed step).
    const Counters p = ten_steps("rkmk45").counters;
    CHECK(p.f_evals == 70);
    CHECK(p.dexpinv_calls == 60);
  }
  SUBCASE("cf4: 4 f and 5 exponentials per step") {
    // Y2 = exp(h/2 f1) y, Y3 = exp(h/2 f2) y: one exponential each; Y4 = exp(h f3 - h/2 f1) exp(h/2 f1) y
    // starts from Y2, so only its second exponential is new; the update takes two. Without the
    // reuse it would be 6 per step; with it 1 + 1 + 1 + 2 = 5, i.e. 50 for 10 steps.
    const Counters c = ten_steps("cf4").counters;
    CHECK(c.f_evals == 40);
    CHECK(c.exps == 50);
    CHECK(c.dexpinv_calls == 0);
    CHECK(c.brackets == 0);
  }
  SUBCASE("cf43: 5 f and 8 exponentials per step (CF4 + extra stage + two-exponential auxiliary)") {
    // The embedded pair is evaluated in fixed-step runs too: CF4's 5, Y5 = exp(3/4 h f2) y (1), and
    // exp(h/9 (-f1 + 3 f2 + 4 f5)) exp(h/3 f1) y (2, nothing to reuse): 8 [thesis §2.4.2.2].
    const Counters c = ten_steps("cf43").counters;
    CHECK(c.f_evals == 50);
    CHECK(c.exps == 80);
  }
  SUBCASE("cf32a / cf32b: 3 f and 4 exponentials per step (the update reuses a stage)") {
    for (const char* m : {"cf32a", "cf32b"}) {
      INFO("method: " << m);
      const Counters c = ten_steps(m).counters;
      CHECK(c.f_evals == 30);
      // 2 stage exponentials + 1 new update exponential (on top of Y2 resp. Y3) + 1 embedded.
      CHECK(c.exps == 40);
    }
  }
  SUBCASE("cg3: 3 f and 1 + 2 + 3 = 6 exponentials per step") {
    const Counters c = ten_steps("cg3").counters;
    CHECK(c.f_evals == 30);
    CHECK(c.exps == 60);
  }
  SUBCASE("classical rk4 and dopri5 evaluate the embedded field F only") {
    const Counters c = ten_steps("rk4").counters;
    CHECK(c.F_evals == 40);
    CHECK(c.f_evals == 0);
    CHECK(c.exps == 0);
    const Counters d = ten_steps("dopri5").counters;
    CHECK(d.F_evals == 60);  // b_7 = 0: the 7th stage only serves the error estimate
    CHECK(d.f_evals == 0);
    CHECK(ten_steps("dopri45").counters.F_evals == 70);
  }
  SUBCASE("Verner's pairs: verner6 8 F, verner65 9, verner8 12, verner87 13 per step") {
    // b_9 = 0 in the 6(5) pair and b_13 = 0 in the 8(7) pair: the last stage serves the estimate only.
    CHECK(ten_steps("verner6").counters.F_evals == 80);
    CHECK(ten_steps("verner65").counters.F_evals == 90);
    CHECK(ten_steps("verner8").counters.F_evals == 120);
    CHECK(ten_steps("verner87").counters.F_evals == 130);
  }
  SUBCASE("rkmk6 / rkmk8: s f, s - 1 stage exponentials + 1 update, s - 1 dexpinv (s = 8, 12)") {
    const Counters c6 = ten_steps("rkmk6").counters;
    CHECK(c6.f_evals == 80);
    CHECK(c6.exps == 80);
    CHECK(c6.dexpinv_calls == 70);
    const Counters c8 = ten_steps("rkmk8").counters;
    CHECK(c8.f_evals == 120);
    CHECK(c8.exps == 120);
    CHECK(c8.dexpinv_calls == 110);
    CHECK(ten_steps("rkmk87").counters.f_evals == 130);
    CHECK(ten_steps("rkmk65").counters.f_evals == 90);
  }
  SUBCASE("dexpinv=series: 4 brackets per stage for rkmk6, 6 for rkmk8 (default series_order p - 1; B_5 = B_7 = 0)") {
    const Outcome o6 = run("pendulum_chain", planar_pendulum(), "rkmk6", 0.1, 0.01, 0, 0, {{"dexpinv", "series"}});
    CHECK(o6.stats.counters.dexpinv_calls == 0);
    CHECK(o6.stats.counters.brackets == 10 * 7 * 4);
    const Outcome o8 = run("pendulum_chain", planar_pendulum(), "rkmk8", 0.1, 0.01, 0, 0, {{"dexpinv", "series"}});
    CHECK(o8.stats.counters.brackets == 10 * 11 * 6);
    // rkmk4: series_order 3 keeps ad^2 (B_3 = 0): 2 brackets in each of 3 stages.
    const Outcome o4 = run("pendulum_chain", planar_pendulum(), "rkmk4", 0.1, 0.01, 0, 0, {{"dexpinv", "series"}});
    CHECK(o4.stats.counters.brackets == 10 * 3 * 2);
  }
}
