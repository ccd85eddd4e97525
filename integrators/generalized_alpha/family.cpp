// The generalized_alpha plugin: the Lie group generalized-alpha method for rigid bodies with a
// fixed point (models with a rigid-body description, ABI 2.2).
#include "lie_generalized_alpha.hpp"

#include <liesim/sdk/plugin.hpp>

#include <fmt/format.h>

namespace liesim::generalized_alpha {

namespace {

class GeneralizedAlphaFamily final : public sdk::IntegratorFamily {
 public:
  std::string summary() const override {
    return "Lie group generalized-alpha method (Bruls–Cardona–Arnold) for rigid bodies on TSO(3) (models with a rigid-body description)";
  }
  std::vector<MethodInfo> methods() const override {
    return {{"lie_generalized_alpha",
             "Lie group generalized-alpha (Bruls–Cardona–Arnold) on TSO(3): R1 = R0 exp(h dq), Newmark-type update of the body "
             "velocity, numerical damping set by rho_inf; implicit, order 2",
             2,
             0,
             true,
             false,
             {{"residual", "max-norm of the equations of motion at the accepted step", false},
              {"newton_iterations", "Newton iterations of the last step", false}},
             false,
             "mechanical"}};
  }
  std::vector<SettingSpec> options(const std::string&) const override {
    return {{"rho_inf", "0.9", "", "spectral radius at infinity in [0, 1]: 1 no numerical damping, 0 the strongest (asymptotic annihilation)"},
            {"newton_tol", "1e-13", "", "Newton's method stops when its correction is below newton_tol (1 + |x|) (then one polishing step)"},
            {"max_iters", "30", "", "Newton iterations per step before the step fails"}};
  }
  sdk::Stepper* create_stepper(const std::string& method, const Settings& o, std::string& error) const noexcept override {
    try {
      if (method != "lie_generalized_alpha") throw Error(fmt::format("method '{}' is not a method of the generalized_alpha family", method));
      const double rho = o.number("rho_inf");
      if (!(rho >= 0.0 && rho <= 1.0)) throw Error(fmt::format("option 'rho_inf': {} is not in [0, 1]", rho));
      return new LieGeneralizedAlpha(rho, o.positive("newton_tol"), static_cast<int>(o.integer("max_iters", 1, 1000)));
    } catch (const std::exception& e) {
      error = e.what();
    }
    return nullptr;
  }
};

}  // namespace

}  // namespace liesim::generalized_alpha

LIESIM_PLUGIN(integrator, "generalized_alpha", "0.1.0", "Lie group generalized-alpha method for rigid bodies on TSO(3)",
              liesim::generalized_alpha::GeneralizedAlphaFamily)
