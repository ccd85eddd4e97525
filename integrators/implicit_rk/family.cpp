// The implicit_rk plugin: Gauss collocation methods, classical and as implicit RKMK methods.
#include "implicit_stepper.hpp"

#include <liesim/sdk/jacobian_option.hpp>

#include <liesim/sdk/plugin.hpp>

#include <fmt/format.h>

#include <array>

namespace liesim::implicit_rk {

namespace {

struct Entry {
  const char* name;
  const char* summary;
  const char* table;
  bool lie_group;
};

constexpr std::array<Entry, 4> entries{{
    {"implicit_midpoint", "implicit midpoint rule in R^n (preserves quadratic invariants)", "GAUSS_1_2", false},
    {"gauss4", "two-stage Gauss collocation in R^n (order 4, symplectic)", "GAUSS_2_4", false},
    {"rkmk_implicit_midpoint", "implicit RKMK with the midpoint rule in the Lie algebra", "GAUSS_1_2", true},
    {"rkmk_gauss4", "implicit RKMK with two-stage Gauss collocation in the Lie algebra", "GAUSS_2_4", true},
}};

const Entry* find(const std::string& name) {
  for (const auto& e : entries)
    if (name == e.name) return &e;
  return nullptr;
}

class ImplicitRkFamily final : public sdk::IntegratorFamily {
 public:
  std::string summary() const override { return "implicit Runge–Kutta (Gauss) methods, classical and Lie group, solved by Newton"; }

  std::vector<MethodInfo> methods() const override {
    std::vector<MethodInfo> out;
    for (const auto& e : entries)
      out.push_back({e.name, fmt::format("{} [{}]", e.summary, e.table), find_butcher(e.table)->order, 0, e.lie_group, false, {}, false, ""});
    return out;
  }

  std::vector<SettingSpec> options(const std::string& method) const override {
    std::vector<SettingSpec> o{{"newton_tol", "1e-13", "", "Newton stops when |dK| <= newton_tol (1 + |K|)"},
                               {"newton_max_iters", "20", "", "Newton iterations per step before the step fails (recoverable)"}};
    const Entry* e = find(method);
    if (e && !e->lie_group)
      o.push_back(jacobian_option_spec("the stage equations (built from dF/dy)", "forward differences"));
    return o;
  }

  sdk::Stepper* create_stepper(const std::string& method, const Settings& options, std::string& error) const noexcept override {
    try {
      const Entry* e = find(method);
      if (!e) throw Error(fmt::format("implicit_rk has no method '{}'", method));
      return new ImplicitRkStepper(*find_butcher(e->table), e->lie_group, options.positive("newton_tol"),
                                   static_cast<int>(options.integer("newton_max_iters", 1, 1000)),
                                   e->lie_group ? JacobianSource::differences : jacobian_option(options));
    } catch (const std::exception& ex) {
      error = ex.what();
      return nullptr;
    }
  }
};

}  // namespace

}  // namespace liesim::implicit_rk

LIESIM_PLUGIN(integrator, "implicit_rk", "0.2.0", "implicit Gauss methods, classical and Lie group (implicit RKMK)",
              liesim::implicit_rk::ImplicitRkFamily)
