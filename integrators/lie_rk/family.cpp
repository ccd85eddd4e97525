// The lie_rk plugin: explicit Lie group methods as data (RKMK, commutator-free, Crouch–Grossman).
#include "cf_stepper.hpp"
#include "rkmk_stepper.hpp"

#include <liesim/sdk/plugin.hpp>
#include <liesim/sdk/tableau_file.hpp>

#include <fmt/format.h>

#include <array>

namespace liesim::lie_rk {

namespace {

enum class Kind { rkmk, rkmk_commutators, commutator_free };

/// One shipped method: a name bound to a table.
struct Entry {
  const char* name;
  const char* summary;
  Kind kind;
  const char* table;  // nullptr: the table file of option `tableau` (methods rkmk and cf)
  bool adaptive;      // uses the table's embedded pair for step-size control (if it has one)
};

constexpr std::array<Entry, 18> entries{{
    {"rkmk", "RKMK with a coefficient table read from a file (--tableau FILE; adaptive when it has an embedded pair)", Kind::rkmk,
     nullptr, true},
    {"lie_euler", "Lie–Euler: y1 = exp(h f(y0)) . y0", Kind::rkmk, "EULER_1_1", false},
    {"lie_euler_heun", "RKMK with Heun's tableau (RKMK2)", Kind::rkmk, "HEUN_EULER_2_2_1", false},
    {"rkmk3", "RKMK with Kutta's third-order tableau", Kind::rkmk, "KUTTA_3_3", false},
    {"rkmk4", "RKMK with the classical RK4 tableau", Kind::rkmk, "CLASSICAL_RK_4_4", false},
    {"rkmk4_2c", "Casas–Owren RKMK4 with two commutators, no dexpinv", Kind::rkmk_commutators, "CLASSICAL_RK_4_4", false},
    {"rkmk5", "RKMK with the Dormand–Prince 5 main method, fixed step", Kind::rkmk, "DORMAND_PRINCE_7_5_4", false},
    {"rkmk45", "RKMK(5,4): Dormand–Prince pair in the Lie algebra, adaptive", Kind::rkmk, "DORMAND_PRINCE_7_5_4", true},
    {"rkmk6", "RKMK with Verner's 6(5) order-6 method, fixed step (8 stages; with dexpinv=series (not the default), 4 brackets per stage after the first)",
     Kind::rkmk, "VERNER_9_6_5", false},
    {"rkmk65", "RKMK(6,5): Verner's 6(5) pair in the Lie algebra, adaptive (9 stages; with dexpinv=series (not the default), 4 brackets per stage after the first)",
     Kind::rkmk, "VERNER_9_6_5", true},
    {"rkmk8", "RKMK with Verner's 8(7) order-8 method, fixed step (12 stages; with dexpinv=series (not the default), 6 brackets per stage after the first)",
     Kind::rkmk, "VERNER_13_8_7", false},
    {"rkmk87", "RKMK(8,7): Verner's 8(7) pair in the Lie algebra, adaptive (13 stages; with dexpinv=series (not the default), 6 brackets per stage after the first)",
     Kind::rkmk, "VERNER_13_8_7", true},
    {"cf4", "commutator-free RK4 of Celledoni–Marthinsen–Owren (5 exponentials)", Kind::commutator_free, "CF4_4_4", false},
    {"cf32a", "commutator-free 3(2) pair A of Curry–Owren, adaptive", Kind::commutator_free, "CF_A_3_3_2", true},
    {"cf32b", "commutator-free 3(2) pair B of Curry–Owren, adaptive", Kind::commutator_free, "CF_B_3_3_2", true},
    {"cf43", "CF4 with the third-order auxiliary scheme, adaptive", Kind::commutator_free, "CF4_AUX3_5_4_3", true},
    {"cg3", "Crouch–Grossman third order", Kind::commutator_free, "CROUCH_GROSSMAN_3_3", false},
    {"cf", "commutator-free or Crouch–Grossman scheme read from a file (--tableau FILE; adaptive when it has an embedded update)",
     Kind::commutator_free, nullptr, true},
}};

const Entry* find(const std::string& name) {
  for (const auto& e : entries)
    if (name == e.name) return &e;
  return nullptr;
}

/// The method entry: orders of its scheme or table; RKMK with dexpinv interpolates with the
/// table's continuous extension in the algebra, the others repeat the step with theta h.
MethodInfo method_info(const Entry& e, int order, int embedded_order, const std::string& table, const ContinuousExtension* dense) {
  MethodInfo m{e.name, fmt::format("{} [{}]", e.summary, table), order, e.adaptive ? embedded_order : 0, true, false, {}, false, ""};
  m.dense_order = e.kind == Kind::rkmk && dense != nullptr ? dense->order : order;
  return m;
}

MethodInfo method_info(const Entry& e, const Settings* options) {
  if (e.table == nullptr && options == nullptr) return {e.name, e.summary, 0, 0, true, false, {}, false, ""};  // orders from the file
  if (e.kind == Kind::commutator_free) {
    const CommutatorFreeTable s = e.table != nullptr ? commutator_free_table(*find_commutator_free(e.table)) : method_scheme(nullptr, *options, e.name);
    return method_info(e, s.order, s.embedded_order, s.name, nullptr);
  }
  const RungeKuttaTable t = options != nullptr ? method_table(e.table, *options, e.name) : runge_kutta_table(*find_butcher(e.table));
  return method_info(e, t.order, t.embedded_order, t.name, t.dense);
}

class LieRkFamily final : public sdk::IntegratorFamily {
 public:
  std::string summary() const override {
    return "explicit Lie group integrators from coefficient tables: RKMK, commutator-free, Crouch–Grossman";
  }

  std::vector<MethodInfo> methods() const override {
    std::vector<MethodInfo> out;
    for (const auto& e : entries) out.push_back(method_info(e, nullptr));
    return out;
  }

  MethodInfo resolved_method(const std::string& method, const Settings& options) const override {
    const Entry* e = find(method);
    if (!e) throw Error(fmt::format("lie_rk has no method '{}'", method));
    return method_info(*e, &options);
  }

  std::vector<SettingSpec> options(const std::string& method) const override {
    const Entry* e = find(method);
    std::vector<SettingSpec> o;
    if (!e) return o;
    const MethodInfo m = method_info(*e, nullptr);
    const int p = m.order;
    if (e->table == nullptr)
      o.push_back({"tableau", "", "", "the coefficient table: a TOML file (docs/tableaux.md), checked at load for the orders it claims"});
    if (e->kind == Kind::rkmk) {
      o.push_back({"dexpinv", "exact", "", "dexpinv evaluation: exact (closed form of the algebra) or series (truncated Bernoulli series)"});
      if (e->table == nullptr)
        o.push_back({"series_order", "auto", "", "highest power of ad_u kept by dexpinv=series: auto = the table's order - 1 (order p needs "
                                                 "terms up to ad^(p-2)), or an integer 0..20"});
      else
        o.push_back({"series_order", std::to_string(std::max(p - 1, 0)), "",
                     fmt::format("highest power of ad_u kept by dexpinv=series (order {} needs terms up to ad^{})", p, std::max(p - 2, 0))});
    }
    const bool embedded = e->table == nullptr || (e->kind == Kind::commutator_free ? find_commutator_free(e->table)->embedded_order
                                                                                   : find_butcher(e->table)->embedded_order) > 0;
    if (embedded)
      o.push_back({"solution", "main", "", "advance with the main (order p) or the embedded (auxiliary) solution: main|embedded"});
    return o;
  }

  sdk::Stepper* create_stepper(const std::string& method, const Settings& options, std::string& error) const noexcept override {
    try {
      const Entry* e = find(method);
      if (!e) throw Error(fmt::format("lie_rk has no method '{}'", method));
      const bool embedded = options.has("solution") && options.choice("solution", {"main", "embedded"}) == "embedded";
      if (e->kind == Kind::commutator_free) {
        CommutatorFreeTable scheme = method_scheme(e->table, options, e->name);
        if (embedded && scheme.embedded_order == 0)
          throw Error(fmt::format("scheme '{}' has no embedded update: solution=embedded needs update_embedded", scheme.name));
        const bool adaptive = e->adaptive && scheme.embedded_order > 0;
        return new CommutatorFreeStepper(std::move(scheme), adaptive, embedded);
      }
      RungeKuttaTable tab = method_table(e->table, options, e->name);
      if (embedded && tab.embedded_order == 0)
        throw Error(fmt::format("table '{}' has no embedded weights: solution=embedded needs b_embedded", tab.name));
      const bool adaptive = e->adaptive && tab.embedded_order > 0;
      if (e->kind == Kind::rkmk_commutators)
        return new RkmkStepper(std::move(tab), casas_owren_rkmk4_commutators(), DexpinvMode::none, 0, adaptive, embedded);
      const bool series = options.choice("dexpinv", {"exact", "series"}) == "series";
      const int order = options.text("series_order") == "auto" ? std::max(tab.order - 1, 0)
                                                               : static_cast<int>(options.integer("series_order", 0, 20));
      return new RkmkStepper(std::move(tab), {}, series ? DexpinvMode::series : DexpinvMode::exact, order, adaptive, embedded);
    } catch (const std::exception& ex) {
      error = ex.what();
      return nullptr;
    }
  }
};

}  // namespace

}  // namespace liesim::lie_rk

LIESIM_PLUGIN(integrator, "lie_rk", "0.1.0", "explicit Lie group methods from tables (RKMK, CF, CG)",
              liesim::lie_rk::LieRkFamily)
