// The option `jacobian` of implicit methods (one definition for every integrator family): the
// model's exact dF/dy where it provides one (ABI 2.1), or differences.
#pragma once
#include <liesim/sdk/model_view.hpp>
#include <liesim/sdk/settings.hpp>

#include <string>

namespace liesim {

/// Where the Jacobian of F comes from.
enum class JacobianSource {
  automatic,   ///< the model's where it provides one, else differences (default)
  model,       ///< the model's; a model without one is refused
  differences  ///< difference quotients of F
};

/// The option's specification (default auto) for a family's options(); `differences` names how
/// the family approximates it otherwise ("SUNDIALS' difference quotients", "forward differences").
SettingSpec jacobian_option_spec(const std::string& what, const std::string& differences);
/// Option `jacobian`: auto | model | dq | fd (dq and fd both mean differences, so that one study
/// option serves every family). Throws liesim::Error for another value.
JacobianSource jacobian_option(const Settings& options);
/// Whether a run on `model` uses the model's Jacobian. Throws liesim::Error, naming the fix, for
/// JacobianSource::model on a model without one.
bool uses_model_jacobian(JacobianSource source, const ModelView& model);

}  // namespace liesim
