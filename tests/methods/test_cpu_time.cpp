// A run's CPU time (Stats::cpu_time_s) beside its wall time: positive, never more than the wall
// time of a single-threaded run, large for a model that computes and small for one that waits.
#include "common.hpp"

#include <liesim/sdk/cpu_clock.hpp>
#include <liesim/host/in_process.hpp>
#include <liesim/lie/actions.hpp>
#include <liesim/sdk/lie_space.hpp>

#include <chrono>
#include <thread>

using namespace liesim;
using namespace liesim::test;

namespace {

/// Seconds each evaluation of the field spends, computing or waiting.
constexpr double per_evaluation_s = 2e-4;

/// The spherical pendulum (m = L = 1, g = 9.81) whose every evaluation spends per_evaluation_s
/// either on the CPU (a busy loop) or asleep.
class CostlyPendulum final : public sdk::Model {
 public:
  explicit CostlyPendulum(bool busy) : sdk::Model(std::make_unique<PowerSpace<lie::SE3OnTS2>>(1)), busy_(busy) {}
  void initial_state(Vec y) const override { y << std::sin(1.0), 0, std::cos(1.0), 0, 2.0, 0; }
  std::vector<std::string> state_names() const override { return {"qx", "qy", "qz", "wx", "wy", "wz"}; }

 private:
  Status do_generator(double, ConstVec y, Vec xi) noexcept override {
    if (busy_) {
      const double until = thread_cpu_seconds() + per_evaluation_s;
      while (thread_cpu_seconds() < until) {
      }
    } else {
      std::this_thread::sleep_for(std::chrono::duration<double>(per_evaluation_s));
    }
    xi << y.segment<3>(3), 0, 0, 9.81;  // (w, a): q' = w x q, w' = a x q = q x (0, 0, -g)
    return Status::ok;
  }
  bool busy_;
};

/// rk4 with h = 0.01 to T = 0.25: 25 steps, 100 evaluations, so at least 20 ms of the model's work.
Stats run(bool busy) {
  RunSpec spec;
  spec.t_end = 0.25;
  spec.step = 0.01;
  NullObserver none;
  const RunResult r = methods::integrate_adopted(std::make_unique<CostlyPendulum>(busy), "rk4", spec, none);
  REQUIRE(r.stats.steps == 25);
  return r.stats;
}

}  // namespace

TEST_CASE("a run records its own CPU time beside its wall time") {
  const double work = 100 * per_evaluation_s;
  const Stats busy = run(true), idle = run(false);
  // Clock granularity: a single-threaded run's CPU time never exceeds its wall time by more.
  constexpr double tolerance_s = 1e-3;
  for (const Stats* s : {&busy, &idle}) {
    CHECK(s->cpu_time_s > 0);
    CHECK(s->cpu_time_s <= s->wall_time_s + tolerance_s);
    CHECK(s->wall_time_s >= work);  // computing or waiting, the work took this long
  }
  // Computing costs the CPU time it takes; waiting costs (almost) none, however long it lasts.
  CHECK(busy.cpu_time_s >= work);
  CHECK(idle.cpu_time_s < 0.5 * work);
  CHECK(busy.cpu_time_s > 2 * idle.cpu_time_s);
}

TEST_CASE("the CPU time of one thread is not the process's: a busy thread beside a run is not counted") {
  // Another thread computes while this one sleeps: this thread's clock stays still.
  const double before = thread_cpu_seconds();
  std::thread other([] {
    const double until = thread_cpu_seconds() + 0.02;
    while (thread_cpu_seconds() < until) {
    }
  });
  other.join();
  CHECK(thread_cpu_seconds() - before < 0.01);
}
