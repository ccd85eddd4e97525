// Benchmarks (not tests): cost of one f evaluation of pendulum_chain against N, of its exact
// Jacobian against difference quotients, and the overhead of the framework (plugins, virtual
// calls, driver, counters) over hand-written loops.
//   build/bin/bench_pendulum [--quick]
#include <liesim/lie/actions.hpp>
#include <liesim/host/run.hpp>

#include "fused_loops.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cstring>

using namespace liesim;
using Clock = std::chrono::steady_clock;

namespace {

Registry& registry() {
  static Registry r = [] {
    Registry reg;
    reg.load_directories({LIESIM_BENCH_PLUGIN_DIR});
    return reg;
  }();
  return r;
}

template <class F>
double seconds_per_call(F&& f, double budget) {
  long reps = 1;
  while (true) {
    const auto t0 = Clock::now();
    for (long i = 0; i < reps; ++i) f();
    const double s = std::chrono::duration<double>(Clock::now() - t0).count();
    if (s > budget) return s / static_cast<double>(reps);
    reps *= 2;
  }
}

void cost_of_f(bool quick) {
  fmt::print("## pendulum_chain: cost of one evaluation of f against N\n\n| N | ns per f | ns per f / N |\n|---|---|---|\n");
  for (int n = 2; n <= 512; n *= 2) {
    PreparedRun p = prepare_run(registry(), [&] {
      RunRequest q;
      q.model = "pendulum_chain";
      q.parameters = {{"N", std::to_string(n)}};
      q.method = "rk4";
      q.step = 0.1;
      return q;
    }());
    p.model->prepare();
    const Eigen::VectorXd y = fused::chain_state(n);
    Eigen::VectorXd xi(6 * n);
    const double s = seconds_per_call([&] { p.model->generator(0.0, y, xi); }, quick ? 0.01 : 0.2);
    fmt::print("| {} | {:.0f} | {:.1f} |\n", n, s * 1e9, s * 1e9 / n);
  }
  fmt::print("\n");
}

/// The exact Jacobian of F against what difference quotients cost (6N evaluations of F), side by side.
void cost_of_jacobian(bool quick) {
  fmt::print("## pendulum_chain: exact Jacobian of F against difference quotients (6N evaluations of F)\n\n"
             "| N | us per exact Jacobian | us per 6N F evaluations | ratio DQ / exact |\n|---|---|---|---|\n");
  for (int n = 2; n <= 128; n *= 2) {
    RunRequest q;
    q.model = "pendulum_chain";
    q.parameters = {{"N", std::to_string(n)}};
    q.method = "rk4";
    q.step = 0.1;
    PreparedRun p = prepare_run(registry(), q);
    p.model->prepare();
    const Eigen::VectorXd y = fused::chain_state(n);
    Eigen::MatrixXd J(6 * n, 6 * n);
    Eigen::VectorXd dy(6 * n);
    const double budget = quick ? 0.01 : 0.2;
    const double exact = seconds_per_call([&] { p.model->vector_field_jacobian(0.0, y, J); }, budget);
    const double dq = seconds_per_call([&] {
      for (int c = 0; c < 6 * n; ++c) p.model->vector_field(0.0, y, dy);
    }, budget);
    fmt::print("| {} | {:.2f} | {:.2f} | {:.2f} |\n", n, exact * 1e6, dq * 1e6, dq / exact);
  }
  fmt::print("\n");
}

void overhead(bool quick) {
  fmt::print("## Framework overhead: liesim run loop vs a hand-written loop (same model code, T = 1, h = 1e-3)\n\n");
  fmt::print("| N | method | hand-written [ms] | liesim [ms] | ratio liesim / hand |\n|---|---|---|---|---|\n");
  for (int n : {2, 8, 32}) {
    const pendulum_chain::Chain c = fused::unit_chain(n);
    const Eigen::VectorXd y0 = fused::chain_state(n);
    const int steps = 1000;
    for (const char* method : {"rk4", "rkmk4"}) {
      RunRequest q;
      q.model = "pendulum_chain";
      q.parameters = {{"N", std::to_string(n)}};
      q.method = method;
      q.t_end = 1.0;
      q.step = 1e-3;
      PreparedRun p = prepare_run(registry(), q);
      p.y0 = y0;
      NullObserver obs;
      volatile double sink = 0;
      const double budget = quick ? 0.05 : 0.5;
      Eigen::VectorXd y(y0.size());
      const double hand = seconds_per_call(
          [&] {
            y = y0;
            if (std::strcmp(method, "rk4") == 0) fused::rk4_lean(c, y, 1e-3, steps);
            else fused::rkmk4(c, y, 1e-3, steps);
            sink = y[0];
          },
          budget);
      const double fw = seconds_per_call([&] { sink = execute(p, obs).y[0]; }, budget);
      (void)sink;
      fmt::print("| {} | {} | {:.3f} | {:.3f} | {:.2f} |\n", n, method, hand * 1e3, fw * 1e3, fw / hand);
    }
  }
  fmt::print("\n");
}

}  // namespace

int main(int argc, char** argv) {
  const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
  cost_of_f(quick);
  cost_of_jacobian(quick);
  overhead(quick);
}
