// The framework's cost over a hand-fused loop (issue 13), with Google Benchmark: rk4 and rkmk4 on
// the N-fold pendulum (non-planar start, h = 1e-3), liesim's ordinary run (plugins through the C
// boundary, the kernel's driver, counters) against the same method as one fused loop
// (fused_loops.hpp), N = 2, 32, 256, 1024. CPU time per step; benchmarks/run.sh prints the ratios.
//   build/bin/bench_overhead --benchmark_repetitions=5 --benchmark_enable_random_interleaving=true
#include "fused_loops.hpp"

#include <liesim/host/run.hpp>

#include <benchmark/benchmark.h>

#include <string>

namespace {

liesim::Registry& registry() {
  static liesim::Registry r = [] {
    liesim::Registry reg;
    reg.load_directories({LIESIM_BENCH_PLUGIN_DIR});
    return reg;
  }();
  return r;
}

constexpr double h = 1e-3;

/// Steps per benchmark iteration: about 1e5 link-steps, at least 10 steps.
int steps_for(int n) { return std::max(10, 100000 / (n * 10)); }

/// One of fused_loops.hpp's loops: fused::rk4, fused::rk4_lean or fused::rkmk4.
void fused_loop(benchmark::State& state, void (*loop)(const liesim::pendulum_chain::Chain&, Eigen::VectorXd&, double, int)) {
  const int n = static_cast<int>(state.range(0)), steps = steps_for(n);
  const auto chain = fused::unit_chain(n);
  const Eigen::VectorXd y0 = fused::chain_state(n);
  Eigen::VectorXd y(y0.size());
  for (auto _ : state) {
    y = y0;
    loop(chain, y, h, steps);
    benchmark::DoNotOptimize(y[0]);
  }
  state.counters["steps"] = benchmark::Counter(static_cast<double>(steps) * static_cast<double>(state.iterations()),
                                               benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void framework(benchmark::State& state, const char* method) {
  const int n = static_cast<int>(state.range(0)), steps = steps_for(n);
  liesim::RunRequest q;
  q.model = "pendulum_chain";
  q.parameters = {{"N", std::to_string(n)}};
  q.method = method;
  q.t_end = h * steps;
  q.step = h;
  liesim::PreparedRun p = liesim::prepare_run(registry(), q);
  p.y0 = fused::chain_state(n);
  liesim::NullObserver observer;
  for (auto _ : state) benchmark::DoNotOptimize(liesim::execute(p, observer).y[0]);
  state.counters["steps"] = benchmark::Counter(static_cast<double>(steps) * static_cast<double>(state.iterations()),
                                               benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void sizes(benchmark::internal::Benchmark* b) {
  for (int n : {2, 32, 256, 1024}) b->Arg(n);
  b->Unit(benchmark::kMicrosecond);
}

}  // namespace

BENCHMARK_CAPTURE(fused_loop, rk4, &fused::rk4)->Apply(sizes);
BENCHMARK_CAPTURE(fused_loop, rk4_lean, &fused::rk4_lean)->Apply(sizes);
BENCHMARK_CAPTURE(framework, rk4, "rk4")->Apply(sizes);
BENCHMARK_CAPTURE(fused_loop, rkmk4, &fused::rkmk4)->Apply(sizes);
BENCHMARK_CAPTURE(framework, rkmk4, "rkmk4")->Apply(sizes);

BENCHMARK_MAIN();
