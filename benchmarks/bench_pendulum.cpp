// Benchmarks (not tests): cost of one f evaluation of pendulum_chain against N, of its exact
// Jacobian against difference quotients, and the overhead of the framework (plugins, virtual
// calls, driver, counters) over hand-written loops.
//   build/bin/bench_pendulum [--quick]
#include <liesim/lie/actions.hpp>
#include <liesim/run.hpp>

#include <models/pendulum_chain/chain_dynamics.hpp>

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

/// Initial state of the chain: a fixed non-planar configuration.
Eigen::VectorXd chain_state(int n) {
  Eigen::VectorXd y(6 * n);
  for (int i = 0; i < n; ++i) {
    const Eigen::Vector3d q = Eigen::Vector3d(std::sin(0.3 * i + 1), std::cos(0.7 * i), 0.5).normalized();
    y.segment<3>(6 * i) = q;
    y.segment<3>(6 * i + 3) = q.cross(Eigen::Vector3d(0.1, 0.2, 0.3));
  }
  return y;
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
    const Eigen::VectorXd y = chain_state(n);
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
    const Eigen::VectorXd y = chain_state(n);
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

/// Hand-written classical RK4 on the chain's vector field (no plugin, no virtual call).
double hand_rk4(const pendulum_chain::Chain& c, Eigen::VectorXd y, double h, int steps) {
  const int n = c.size();
  pendulum_chain::ChainWorkspace ws(n);
  Eigen::VectorXd k1(6 * n), k2(6 * n), k3(6 * n), k4(6 * n), Y(6 * n), wdot(3 * n);
  auto F = [&](const Eigen::VectorXd& x, Eigen::VectorXd& dx) {
    pendulum_chain::angular_accelerations(c, x.data(), wdot.data(), ws);
    for (int i = 0; i < n; ++i) {
      dx.segment<3>(6 * i) = Eigen::Vector3d(x.segment<3>(6 * i + 3)).cross(Eigen::Vector3d(x.segment<3>(6 * i)));
      dx.segment<3>(6 * i + 3) = wdot.segment<3>(3 * i);
    }
  };
  for (int s = 0; s < steps; ++s) {
    F(y, k1);
    Y = y + 0.5 * h * k1;
    F(Y, k2);
    Y = y + 0.5 * h * k2;
    F(Y, k3);
    Y = y + h * k3;
    F(Y, k4);
    y += (h / 6) * (k1 + 2 * k2 + 2 * k3 + k4);
  }
  return y[0];
}

/// Hand-written RKMK4 with exact dexpinv on (TS^2)^N under SE(3)^N, static types only.
double hand_rkmk4(const pendulum_chain::Chain& c, Eigen::VectorXd y, double h, int steps) {
  const int n = c.size();
  pendulum_chain::ChainWorkspace ws(n);
  Eigen::VectorXd wdot(3 * n), Y(6 * n), u(6 * n), sigma(6 * n);
  Eigen::MatrixXd K(6 * n, 4);
  using A = lie::SE3OnTS2;
  auto f = [&](const Eigen::VectorXd& x, Eigen::Ref<Eigen::VectorXd> xi) {
    pendulum_chain::angular_accelerations(c, x.data(), wdot.data(), ws);
    for (int i = 0; i < n; ++i) {
      xi.segment<3>(6 * i) = x.segment<3>(6 * i + 3);
      xi.segment<3>(6 * i + 3) = Eigen::Vector3d(x.segment<3>(6 * i)).cross(Eigen::Vector3d(wdot.segment<3>(3 * i)));
    }
  };
  auto act = [&](const Eigen::VectorXd& s, const Eigen::VectorXd& x, Eigen::VectorXd& out) {
    for (int i = 0; i < n; ++i) out.segment<6>(6 * i) = A::act_exp(s.segment<6>(6 * i), x.segment<6>(6 * i));
  };
  const double a[4] = {0, 0.5, 0.5, 1};
  for (int s = 0; s < steps; ++s) {
    f(y, K.col(0));
    for (int st = 1; st < 4; ++st) {
      u = (h * a[st]) * K.col(st - 1);
      act(u, y, Y);
      f(Y, K.col(st));
      for (int i = 0; i < n; ++i)
        K.col(st).segment<6>(6 * i) = lie::SE3::dexpinv(u.segment<6>(6 * i), K.col(st).segment<6>(6 * i));
    }
    sigma = (h / 6) * (K.col(0) + 2 * K.col(1) + 2 * K.col(2) + K.col(3));
    act(sigma, y, Y);
    y = Y;
  }
  return y[0];
}

void overhead(bool quick) {
  fmt::print("## Framework overhead: liesim run loop vs a hand-written loop (same model code, T = 1, h = 1e-3)\n\n");
  fmt::print("| N | method | hand-written [ms] | liesim [ms] | ratio liesim / hand |\n|---|---|---|---|---|\n");
  for (int n : {2, 8, 32}) {
    pendulum_chain::Chain c;
    c.m.assign(n, 1.0);
    c.L.assign(n, 1.0);
    const Eigen::VectorXd y0 = chain_state(n);
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
      const double hand = seconds_per_call(
          [&] { sink = std::strcmp(method, "rk4") == 0 ? hand_rk4(c, y0, 1e-3, steps) : hand_rkmk4(c, y0, 1e-3, steps); }, budget);
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
