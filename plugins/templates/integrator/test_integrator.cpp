// Tests of the example_integrator plugin, run by `ctest`: the family loads, its methods converge
// with their orders on a model with an exact solution, the adaptive one meets its tolerance, and
// both keep what a Lie group method keeps.
// Usage: test_integrator PLUGIN_DIR SHIPPED_PLUGIN_DIR (CMakeLists.txt passes both).
#include <liesim/plugin_testing.hpp>  // Checks, plugins, run, observed_order (installed with the SDK)

#include <fmt/format.h>

#include <cmath>

namespace {
constexpr const char* fixed = "example_integrator_ssp3";
constexpr const char* adaptive = "example_integrator_bs32";
}  // namespace

int main(int argc, char** argv) {
  using namespace liesim::testing;
  Checks checks("example_integrator");
  const liesim::Registry registry = plugins(argc, argv, checks);
  {
    const auto [family, info] = registry.method(fixed);
    checks.expect(family->name == "example_integrator", "the method belongs to example_integrator");
    checks.expect(info.order == 3 && info.embedded_order == 0 && info.lie_group && !info.self_controlled,
                  "ssp3: order 3, fixed step, Lie group, kernel-driven");
    checks.expect(registry.method(adaptive).second.embedded_order == 2, "bs32: embedded order 2 (adaptive)");
  }

  // 1. Orders against the exact solution of the oscillator (abelian group: RKMK = RK there): 3 for
  //    ssp3 with both dexpinv options and for bs32's main solution.
  for (const char* dexpinv : {"exact", "commutator"}) {
    const double p = observed_order(registry, "oscillator", fixed, 2.0, {0.04, 0.02, 0.01}, {{"dexpinv", dexpinv}});
    checks.expect(std::abs(p - 3) < 0.2, fmt::format("ssp3 ({}): observed order {:.3f}, expected 3", dexpinv, p));
  }
  const double p_bs = observed_order(registry, "oscillator", adaptive, 2.0, {0.04, 0.02, 0.01});
  checks.expect(std::abs(p_bs - 3) < 0.2, fmt::format("bs32: observed order {:.3f}, expected 3", p_bs));

  // 2. Adaptive: the error falls with the tolerance, and rejected steps are possible but bounded.
  {
    const auto loose = run(registry, "oscillator", adaptive, 10.0, 0, {}, {}, 1e-5);
    const auto tight = run(registry, "oscillator", adaptive, 10.0, 0, {}, {}, 1e-9);
    const double el = (loose.y - loose.exact).norm(), et = (tight.y - tight.exact).norm();
    checks.expect(et < 1e-6 && et < el / 100, fmt::format("bs32: error {:.3g} at tol 1e-5, {:.3g} at tol 1e-9", el, et));
    checks.expect(tight.stats.steps > loose.stats.steps, "bs32: a tighter tolerance takes more steps");
  }

  // 3. On the rigid body (coadjoint orbits of SO(3)) both stay on the sphere |y| = |y0| to
  //    round-off, and ssp3's energy error shrinks with h.
  {
    const auto a = run(registry, "rigid_body", fixed, 10.0, 0.02);
    const auto b = run(registry, "rigid_body", fixed, 10.0, 0.01);
    checks.expect(std::abs(b.inv[1] - b.inv0[1]) < 1e-13, fmt::format("rigid_body: |y| drift {:.3g}", b.inv[1] - b.inv0[1]));
    const double ea = std::abs(a.inv[0] - a.inv0[0]), eb = std::abs(b.inv[0] - b.inv0[0]);
    checks.expect(eb < 1e-5, fmt::format("rigid_body: energy error {:.3g}", eb));
    checks.expect(ea > eb, fmt::format("rigid_body: energy error decreases with h ({:.3g} -> {:.3g})", ea, eb));
    const auto ref = run(registry, "rigid_body", "rkmk4", 10.0, 0.001);
    checks.expect((b.y - ref.y).norm() < 1e-4, fmt::format("rigid_body: distance to an rkmk4 reference {:.3g}", (b.y - ref.y).norm()));
    const auto c = run(registry, "rigid_body", adaptive, 10.0, 0, {}, {}, 1e-8);
    checks.expect(std::abs(c.inv[1] - c.inv0[1]) < 1e-13, fmt::format("bs32 rigid_body: |y| drift {:.3g}", c.inv[1] - c.inv0[1]));
    checks.expect((c.y - ref.y).norm() < 1e-5, fmt::format("bs32 rigid_body: distance to the reference {:.3g}", (c.y - ref.y).norm()));
  }

  // 4. An invalid option value is refused with a message naming it.
  try {
    run(registry, "oscillator", fixed, 1.0, 0.1, {{"dexpinv", "series"}});
    checks.expect(false, "dexpinv=series must be refused");
  } catch (const std::exception& e) {
    checks.expect(contains(e.what(), "dexpinv"), std::string("message names the option: ") + e.what());
  }
  return checks.finish();
}
