// Tests of the example_integrator plugin, run by `ctest`: the family loads, its method converges
// with its order on a model with an exact solution, and it keeps what a Lie group method keeps.
// Usage: test_integrator PLUGIN_DIR SHIPPED_PLUGIN_DIR (CMakeLists.txt passes both).
#include <liesim/run.hpp>

#include <fmt/format.h>

#include <cmath>
#include <iostream>

namespace {

int failures = 0;

void check(bool ok, const std::string& what) {
  if (!ok) {
    ++failures;
    std::cerr << "FAILED: " << what << "\n";
  }
}

constexpr const char* method = "example_integrator_ssp3";

/// A fixed-step run: final state, initial state, exact solution (empty if none), invariants.
struct Outcome {
  Eigen::VectorXd y, y0;
  Eigen::VectorXd exact;  // empty if the model has none
  Eigen::VectorXd inv0, inv;
};

Outcome run(const liesim::Registry& registry, const std::string& model, const std::string& integrator, double t_end,
            double h, const std::map<std::string, std::string>& options = {}) {
  liesim::RunRequest q;
  q.model = model;
  q.method = integrator;
  q.options = options;
  q.t_end = t_end;
  q.step = h;
  liesim::PreparedRun p = liesim::prepare_run(registry, q);
  liesim::NullObserver observer;
  const liesim::RunResult r = liesim::execute(p, observer);
  Outcome o{r.y, p.y0, {}, {}, {}};
  if (p.model->has_exact_solution()) {
    o.exact.resize(r.y.size());
    if (p.model->exact_solution(t_end, o.exact) != liesim::Status::ok) o.exact.resize(0);
  }
  const auto k = static_cast<Eigen::Index>(p.model->invariants().size());
  o.inv0.resize(k);
  o.inv.resize(k);
  p.model->evaluate_invariants(p.y0, o.inv0);
  p.model->evaluate_invariants(r.y, o.inv);
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: test_integrator PLUGIN_DIR SHIPPED_PLUGIN_DIR\n";
    return 2;
  }
  liesim::Registry registry;
  registry.load_directories({argv[1], argv[2]});
  for (const auto& f : registry.failures()) check(false, fmt::format("load {}: {}", f.file, f.reason));
  const auto [family, info] = registry.method(method);
  check(family->name == "example_integrator", "the method belongs to example_integrator");
  check(info.order == 3 && info.lie_group && !info.self_controlled, "method info: order 3, Lie group, kernel-driven");

  // 1. Order 3 against the exact solution of the oscillator (abelian group: RKMK = RK there), for
  //    both dexpinv options: halving h divides the error by about 2^3 = 8.
  for (const char* dexpinv : {"exact", "commutator"}) {
    const auto a = run(registry, "oscillator", method, 2.0, 0.02, {{"dexpinv", dexpinv}});
    const auto b = run(registry, "oscillator", method, 2.0, 0.01, {{"dexpinv", dexpinv}});
    check(a.exact.size() == 2, "oscillator has an exact solution");
    if (a.exact.size() != 2) continue;
    const double ea = (a.y - a.exact).norm(), eb = (b.y - b.exact).norm();
    check(eb < 1e-6, fmt::format("oscillator error {:.3g} with h = 0.01 ({})", eb, dexpinv));
    check(ea / eb > 7.0 && ea / eb < 9.0, fmt::format("error ratio {:.3f} for h -> h/2, expected ~8 ({})", ea / eb, dexpinv));
  }

  // 2. On the rigid body (coadjoint orbits of SO(3)) the method stays on the sphere |y| = |y0|
  //    to round-off, and its energy error shrinks like h^3.
  {
    const auto a = run(registry, "rigid_body", method, 10.0, 0.02);
    const auto b = run(registry, "rigid_body", method, 10.0, 0.01);
    check(std::abs(b.inv[1] - b.inv0[1]) < 1e-13, fmt::format("rigid_body: |y| drift {:.3g}", b.inv[1] - b.inv0[1]));
    const double ea = std::abs(a.inv[0] - a.inv0[0]), eb = std::abs(b.inv[0] - b.inv0[0]);
    check(eb < 1e-5, fmt::format("rigid_body: energy error {:.3g}", eb));
    check(ea > eb, fmt::format("rigid_body: energy error decreases with h ({:.3g} -> {:.3g})", ea, eb));
    const auto ref = run(registry, "rigid_body", "rkmk4", 10.0, 0.001);
    check((b.y - ref.y).norm() < 1e-4, fmt::format("rigid_body: distance to an rkmk4 reference {:.3g}", (b.y - ref.y).norm()));
  }

  // 3. An invalid option value is refused with a message naming it.
  try {
    run(registry, "oscillator", method, 1.0, 0.1, {{"dexpinv", "series"}});
    check(false, "dexpinv=series must be refused");
  } catch (const std::exception& e) {
    check(std::string(e.what()).find("dexpinv") != std::string::npos, std::string("message names the option: ") + e.what());
  }

  if (failures) {
    std::cerr << failures << " check(s) failed\n";
    return 1;
  }
  std::cout << "example_integrator: all checks passed\n";
  return 0;
}
