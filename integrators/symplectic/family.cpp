// The symplectic plugin: symplectic Lie group integrators on cotangent bundles T*G, for models
// with a Hamiltonian description (ABI 2.3).
#include "slgi.hpp"

#include <liesim/sdk/plugin.hpp>

#include <fmt/format.h>

#include <cmath>

namespace liesim::symplectic {

namespace {

class SymplecticFamily final : public sdk::IntegratorFamily {
 public:
  std::string summary() const override {
    return "symplectic Lie group integrators on T*G = G x g* (models with a Hamiltonian description): SLGI(theta)";
  }

  std::vector<MethodInfo> methods() const override {
    MethodInfo slgi{"slgi",
                    "symplectic Lie group integrator SLGI(theta) on T*G, right-trivialised (Cokaj thesis (2.3.6)-(2.3.8)): implicit, "
                    "Newton's method; order 2 for theta = 1/2 (the default), order 1 otherwise",
                    2, 0, true, false, {}, false, "hamiltonian"};
    slgi.diagnostics = {{"residual", "max-norm of the step equations (2.3.7) at the accepted (xi, nbar)", false},
                        {"newton_iterations", "Newton iterations of the last step", false}};
    return {slgi};
  }

  std::vector<SettingSpec> options(const std::string&) const override {
    return {{"theta", "0.5", "", "theta in [0, 1]: where the Hamiltonian's gradient is evaluated, exp(theta xi) g0 (1/2: order 2, "
                                 "symmetric; 0 and 1: order 1)"},
            {"newton_tol", "1e-13", "", "Newton's method stops when its correction is below newton_tol (1 + |x|) (then one polishing step)"},
            {"max_iters", "30", "", "Newton iterations per step before the step fails"}};
  }

  sdk::Stepper* create_stepper(const std::string& method, const Settings& o, std::string& error) const noexcept override {
    try {
      if (method != "slgi") {
        error = fmt::format("method '{}' is not a method of the symplectic family", method);
        return nullptr;
      }
      const double theta = o.number("theta");
      if (!(theta >= 0.0 && theta <= 1.0))
        throw Error(fmt::format("option 'theta': {} is not in [0, 1] (0.5: order 2; 0 or 1: order 1)", theta));
      return new SlgiStepper(theta, o.positive("newton_tol"), static_cast<int>(o.integer("max_iters", 1, 1000)));
    } catch (const std::exception& e) {
      error = e.what();
    }
    return nullptr;
  }
};

}  // namespace

}  // namespace liesim::symplectic

LIESIM_PLUGIN(integrator, "symplectic", "0.1.0", "symplectic Lie group integrators on T*G: SLGI(theta)",
              liesim::symplectic::SymplecticFamily)
