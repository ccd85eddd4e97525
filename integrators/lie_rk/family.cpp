// The lie_rk plugin: explicit Lie group methods as data (RKMK, commutator-free, Crouch–Grossman).
#include "cf_stepper.hpp"
#include "rkmk_stepper.hpp"

#include <liesim/plugin.hpp>

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
  const char* table;
  bool adaptive;  // uses the table's embedded pair for step-size control
};

constexpr std::array<Entry, 16> entries{{
    {"lie_euler", "Lie–Euler: y1 = exp(h f(y0)) . y0", Kind::rkmk, "EULER_1_1", false},
    {"lie_euler_heun", "RKMK with Heun's tableau (RKMK2)", Kind::rkmk, "HEUN_EULER_2_2_1", false},
    {"rkmk3", "RKMK with Kutta's third-order tableau", Kind::rkmk, "KUTTA_3_3", false},
    {"rkmk4", "RKMK with the classical RK4 tableau", Kind::rkmk, "CLASSICAL_RK_4_4", false},
    {"rkmk4_2c", "Casas–Owren RKMK4 with two commutators, no dexpinv", Kind::rkmk_commutators, "CLASSICAL_RK_4_4", false},
    {"rkmk5", "RKMK with the Dormand–Prince 5 main method, fixed step", Kind::rkmk, "DORMAND_PRINCE_7_5_4", false},
    {"rkmk45", "RKMK(5,4): Dormand–Prince pair in the Lie algebra, adaptive", Kind::rkmk, "DORMAND_PRINCE_7_5_4", true},
    {"rkmk6", "RKMK with Verner's 6(5) order-6 method, fixed step (8 stages; dexpinv=series: 4 brackets per stage after the first)",
     Kind::rkmk, "VERNER_9_6_5", false},
    {"rkmk65", "RKMK(6,5): Verner's 6(5) pair in the Lie algebra, adaptive (9 stages; dexpinv=series: 4 brackets per stage after the first)",
     Kind::rkmk, "VERNER_9_6_5", true},
    {"rkmk8", "RKMK with Verner's 8(7) order-8 method, fixed step (12 stages; dexpinv=series: 6 brackets per stage after the first)",
     Kind::rkmk, "VERNER_13_8_7", false},
    {"rkmk87", "RKMK(8,7): Verner's 8(7) pair in the Lie algebra, adaptive (13 stages; dexpinv=series: 6 brackets per stage after the first)",
     Kind::rkmk, "VERNER_13_8_7", true},
    {"cf4", "commutator-free RK4 of Celledoni–Marthinsen–Owren (5 exponentials)", Kind::commutator_free, "CF4_4_4", false},
    {"cf32a", "commutator-free 3(2) pair A of Curry–Owren, adaptive", Kind::commutator_free, "CF_A_3_3_2", true},
    {"cf32b", "commutator-free 3(2) pair B of Curry–Owren, adaptive", Kind::commutator_free, "CF_B_3_3_2", true},
    {"cf43", "CF4 with the third-order auxiliary scheme, adaptive", Kind::commutator_free, "CF4_AUX3_5_4_3", true},
    {"cg3", "Crouch–Grossman third order", Kind::commutator_free, "CROUCH_GROSSMAN_3_3", false},
}};

const Entry* find(const std::string& name) {
  for (const auto& e : entries)
    if (name == e.name) return &e;
  return nullptr;
}

std::pair<int, int> orders(const Entry& e) {
  if (e.kind == Kind::commutator_free) {
    const auto* s = find_commutator_free(e.table);
    return {s->order, s->embedded_order};
  }
  const auto* t = find_butcher(e.table);
  return {t->order, t->embedded_order};
}

class LieRkFamily final : public sdk::IntegratorFamily {
 public:
  std::string summary() const override {
    return "explicit Lie group integrators from coefficient tables: RKMK, commutator-free, Crouch–Grossman";
  }

  std::vector<MethodInfo> methods() const override {
    std::vector<MethodInfo> out;
    for (const auto& e : entries) {
      const auto [p, q] = orders(e);
      MethodInfo m{e.name, fmt::format("{} [{}]", e.summary, e.table), p, e.adaptive ? q : 0, true, false, {}, false, ""};
      // RKMK with dexpinv: the table's continuous extension in the algebra; else the step repeated with theta h.
      const ContinuousExtension* dense = e.kind == Kind::rkmk ? continuous_extension(*find_butcher(e.table)) : nullptr;
      m.dense_order = dense != nullptr ? dense->order : p;
      out.push_back(std::move(m));
    }
    return out;
  }

  std::vector<SettingSpec> options(const std::string& method) const override {
    const Entry* e = find(method);
    std::vector<SettingSpec> o;
    if (!e) return o;
    const auto [p, q] = orders(*e);
    if (e->kind == Kind::rkmk) {
      o.push_back({"dexpinv", "exact", "", "dexpinv evaluation: exact (closed form of the algebra) or series (truncated Bernoulli series)"});
      o.push_back({"series_order", std::to_string(std::max(p - 1, 0)), "",
                   fmt::format("highest power of ad_u kept by dexpinv=series (order {} needs terms up to ad^{})", p, std::max(p - 2, 0))});
    }
    if (q > 0)
      o.push_back({"solution", "main", "", "advance with the main (order p) or the embedded (auxiliary) solution: main|embedded"});
    return o;
  }

  sdk::Stepper* create_stepper(const std::string& method, const Settings& options, std::string& error) const noexcept override {
    try {
      const Entry* e = find(method);
      if (!e) throw Error(fmt::format("lie_rk has no method '{}'", method));
      const bool embedded = options.has("solution") && options.choice("solution", {"main", "embedded"}) == "embedded";
      if (e->kind == Kind::commutator_free)
        return new CommutatorFreeStepper(*find_commutator_free(e->table), e->adaptive, embedded);
      const ButcherTableau* tab = find_butcher(e->table);
      if (e->kind == Kind::rkmk_commutators)
        return new RkmkStepper({tab, casas_owren_rkmk4_commutators()}, DexpinvMode::none, 0, e->adaptive, embedded);
      const bool series = options.choice("dexpinv", {"exact", "series"}) == "series";
      const int order = static_cast<int>(options.integer("series_order", 0, 20));
      return new RkmkStepper({tab, {}}, series ? DexpinvMode::series : DexpinvMode::exact, order, e->adaptive, embedded);
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
