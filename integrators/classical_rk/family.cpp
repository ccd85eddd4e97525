// The classical_rk plugin: explicit Runge–Kutta methods on the embedded vector field.
#include "erk_stepper.hpp"

#include <liesim/sdk/plugin.hpp>
#include <liesim/sdk/tableau_file.hpp>

#include <fmt/format.h>

#include <array>

namespace liesim::classical_rk {

namespace {

struct Entry {
  const char* name;
  const char* summary;
  const char* table;  // nullptr: the table file of option `tableau`
  bool adaptive;
};

constexpr std::array<Entry, 12> entries{{
    {"rk", "explicit Runge–Kutta with a coefficient table read from a file (--tableau FILE; adaptive when it has an embedded pair)",
     nullptr, true},
    {"euler", "explicit Euler", "EULER_1_1", false},
    {"heun", "Heun's second-order method", "HEUN_EULER_2_2_1", false},
    {"rk3", "Kutta's third-order method", "KUTTA_3_3", false},
    {"rk4", "classical fourth-order Runge–Kutta", "CLASSICAL_RK_4_4", false},
    {"dopri5", "Dormand–Prince 5 main method, fixed step", "DORMAND_PRINCE_7_5_4", false},
    {"dopri45", "Dormand–Prince 5(4) pair, adaptive", "DORMAND_PRINCE_7_5_4", true},
    {"bs32", "Bogacki–Shampine 3(2) pair, adaptive", "BOGACKI_SHAMPINE_4_3_2", true},
    {"verner6", "Verner's 6(5) pair, order-6 method at a fixed step (8 of its 9 stages)", "VERNER_9_6_5", false},
    {"verner65", "Verner's most efficient 6(5) pair, adaptive (9 stages)", "VERNER_9_6_5", true},
    {"verner8", "Verner's 8(7) pair, order-8 method at a fixed step (12 of its 13 stages)", "VERNER_13_8_7", false},
    {"verner87", "Verner's most efficient 8(7) pair, adaptive (13 stages)", "VERNER_13_8_7", true},
}};

const Entry* find(const std::string& name) {
  for (const auto& e : entries)
    if (name == e.name) return &e;
  return nullptr;
}

/// The method entry of a table.
MethodInfo method_info(const Entry& e, const RungeKuttaTable& t) {
  const bool adaptive = e.adaptive && t.embedded_order > 0;
  MethodInfo m{e.name, fmt::format("{} [{}]", e.summary, t.name), t.order, adaptive ? t.embedded_order : 0, false, false, {}, false, ""};
  m.dense_order = t.dense != nullptr ? t.dense->order : t.order;  // else the step repeated with theta h
  return m;
}

class ClassicalRkFamily final : public sdk::IntegratorFamily {
 public:
  std::string summary() const override { return "classical explicit Runge–Kutta methods on the embedded vector field"; }

  std::vector<MethodInfo> methods() const override {
    std::vector<MethodInfo> out;
    for (const auto& e : entries) {
      if (e.table != nullptr) {
        out.push_back(method_info(e, runge_kutta_table(*find_butcher(e.table))));
        continue;
      }
      // Orders 0 until a table file completes the method (resolved_method).
      MethodInfo m{e.name, e.summary, 0, 0, false, false, {}, false, ""};
      out.push_back(std::move(m));
    }
    return out;
  }

  std::vector<SettingSpec> options(const std::string& method) const override {
    const Entry* e = find(method);
    if (e == nullptr) return {};
    std::vector<SettingSpec> o;
    if (e->table == nullptr)
      o.push_back({"tableau", "", "", "the coefficient table: a TOML file (docs/tableaux.md), checked at load for the orders it claims"});
    if (e->table == nullptr || find_butcher(e->table)->embedded_order > 0)
      o.push_back({"solution", "main", "", "advance with the main or the embedded solution: main|embedded"});
    return o;
  }

  MethodInfo resolved_method(const std::string& method, const Settings& options) const override {
    const Entry* e = find(method);
    if (!e) throw Error(fmt::format("classical_rk has no method '{}'", method));
    return method_info(*e, method_table(e->table, options, e->name));
  }

  sdk::Stepper* create_stepper(const std::string& method, const Settings& options, std::string& error) const noexcept override {
    try {
      const Entry* e = find(method);
      if (!e) throw Error(fmt::format("classical_rk has no method '{}'", method));
      const bool embedded = options.has("solution") && options.choice("solution", {"main", "embedded"}) == "embedded";
      RungeKuttaTable t = method_table(e->table, options, e->name);
      if (embedded && t.embedded_order == 0)
        throw Error(fmt::format("table '{}' has no embedded weights: solution=embedded needs b_embedded", t.name));
      const bool adaptive = e->adaptive && t.embedded_order > 0;
      return new ErkStepper(std::move(t), adaptive, embedded);
    } catch (const std::exception& ex) {
      error = ex.what();
      return nullptr;
    }
  }
};

}  // namespace

}  // namespace liesim::classical_rk

LIESIM_PLUGIN(integrator, "classical_rk", "0.1.0", "classical explicit Runge–Kutta methods",
              liesim::classical_rk::ClassicalRkFamily)
