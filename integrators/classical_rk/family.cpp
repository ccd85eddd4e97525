// The classical_rk plugin: explicit Runge–Kutta methods on the embedded vector field.
#include "erk_stepper.hpp"

#include <liesim/plugin.hpp>

#include <fmt/format.h>

#include <array>

namespace liesim::classical_rk {

namespace {

struct Entry {
  const char* name;
  const char* summary;
  const char* table;
  bool adaptive;
};

constexpr std::array<Entry, 11> entries{{
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

class ClassicalRkFamily final : public sdk::IntegratorFamily {
 public:
  std::string summary() const override { return "classical explicit Runge–Kutta methods on the embedded vector field"; }

  std::vector<MethodInfo> methods() const override {
    std::vector<MethodInfo> out;
    for (const auto& e : entries) {
      const ButcherTableau* t = find_butcher(e.table);
      MethodInfo m{e.name, fmt::format("{} [{}]", e.summary, e.table), t->order, e.adaptive ? t->embedded_order : 0, false, false, {}, false, ""};
      const ContinuousExtension* dense = continuous_extension(*t);
      m.dense_order = dense != nullptr ? dense->order : t->order;  // else the step repeated with theta h
      out.push_back(std::move(m));
    }
    return out;
  }

  std::vector<SettingSpec> options(const std::string& method) const override {
    const Entry* e = find(method);
    if (e && find_butcher(e->table)->embedded_order > 0)
      return {{"solution", "main", "", "advance with the main or the embedded solution: main|embedded"}};
    return {};
  }

  sdk::Stepper* create_stepper(const std::string& method, const Settings& options, std::string& error) const noexcept override {
    try {
      const Entry* e = find(method);
      if (!e) throw Error(fmt::format("classical_rk has no method '{}'", method));
      const bool embedded = options.has("solution") && options.choice("solution", {"main", "embedded"}) == "embedded";
      return new ErkStepper(*find_butcher(e->table), e->adaptive, embedded);
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
