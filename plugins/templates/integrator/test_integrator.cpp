// Tests of the example_integrator plugin, run by `ctest`: the family loads, and EVERY method it
// lists (whatever you name them, however many you add) converges with the order it declares on a
// model with an exact solution, meets its tolerance if it is adaptive, keeps what a Lie group
// method keeps if it is one, and refuses an unknown option. The tests read the methods from the
// family, so renaming or rewriting the methods keeps them about your methods.
// Usage: test_integrator PLUGIN_DIR SHIPPED_PLUGIN_DIR (CMakeLists.txt passes both).
#include <liesim/testing/plugin_testing.hpp>  // Checks, plugins, run, observed_order (installed with the SDK)

#include <fmt/format.h>

#include <cmath>
#include <string>
#include <vector>

namespace {
constexpr const char* family_name = "example_integrator";
}  // namespace

int main(int argc, char** argv) {
  using namespace liesim::testing;
  Checks checks(family_name);
  const liesim::Registry registry = plugins(argc, argv, checks);
  registry.load_all();
  std::vector<liesim::MethodInfo> methods;
  for (const auto& p : registry.plugins())
    if (p.integrator && p.name == family_name) methods = p.integrator->methods();
  checks.expect(!methods.empty(), fmt::format("the family {} loads and lists at least one method", family_name));

  for (const auto& m : methods) {
    const std::string& name = m.name;
    if (m.needs_mechanics) continue;  // a method for mechanical models: test it on your model class
    checks.expect(m.order >= 1, fmt::format("{}: declares its order ({})", name, m.order));

    // 1. Order against the exact solution of the oscillator (x0 = 0.5, v0 = 0), with fixed steps
    //    in the asymptotic range and above round-off (larger steps for higher orders).
    if (!m.self_controlled) {
      const double h0 = m.order <= 3 ? 0.04 : m.order <= 5 ? 0.2 : 0.5;
      const double p = observed_order(registry, "oscillator", name, 4.0, {h0, h0 / 2, h0 / 4});
      checks.expect(std::abs(p - m.order) < 0.3, fmt::format("{}: observed order {:.3f}, declared {}", name, p, m.order));
    }

    // 2. Adaptive (an embedded pair, or its own control): the error falls with the tolerance.
    if (m.embedded_order > 0 || m.self_controlled) {
      const auto loose = run(registry, "oscillator", name, 10.0, 0, {}, {}, 1e-5);
      const auto tight = run(registry, "oscillator", name, 10.0, 0, {}, {}, 1e-9);
      const double el = (loose.y - loose.exact).norm(), et = (tight.y - tight.exact).norm();
      checks.expect(et < 1e-6 && et < el / 100, fmt::format("{}: error {:.3g} at tol 1e-5, {:.3g} at tol 1e-9", name, el, et));
      checks.expect(tight.stats.steps > loose.stats.steps, fmt::format("{}: a tighter tolerance takes more steps", name));
    }

    // 3. On the rigid body (coadjoint orbits of SO(3)) a Lie group method keeps |y| to round-off;
    //    every method comes close to an rkmk4 reference, and its energy error shrinks with h.
    const auto ref = run(registry, "rigid_body", "rkmk4", 10.0, 0.001);
    const auto coarse = m.self_controlled ? run(registry, "rigid_body", name, 10.0, 0, {}, {}, 1e-6)
                                          : run(registry, "rigid_body", name, 10.0, 0.02);
    const auto fine = m.self_controlled ? run(registry, "rigid_body", name, 10.0, 0, {}, {}, 1e-9)
                                        : run(registry, "rigid_body", name, 10.0, 0.01);
    if (m.lie_group)
      checks.expect(std::abs(fine.inv[1] - fine.inv0[1]) < 1e-13,
                    fmt::format("{}: rigid_body |y| drift {:.3g} (round-off)", name, fine.inv[1] - fine.inv0[1]));
    const double ec = std::abs(coarse.inv[0] - coarse.inv0[0]), ef = std::abs(fine.inv[0] - fine.inv0[0]);
    checks.expect(ef <= ec || ef < 1e-12, fmt::format("{}: rigid_body energy error shrinks ({:.3g} -> {:.3g})", name, ec, ef));
    checks.expect((fine.y - ref.y).norm() < 1e-3, fmt::format("{}: distance to an rkmk4 reference {:.3g}", name, (fine.y - ref.y).norm()));

    // 4. An unknown option is refused with a message naming it.
    try {
      run(registry, "oscillator", name, 1.0, m.self_controlled ? 0 : 0.1, {{"no_such_option", "1"}}, {}, 1e-6);
      checks.expect(false, fmt::format("{}: the option no_such_option must be refused", name));
    } catch (const std::exception& e) {
      checks.expect(contains(e.what(), "no_such_option"), fmt::format("{}: the message names the option: {}", name, e.what()));
    }
  }
  return checks.finish();
}
