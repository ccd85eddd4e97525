// The option `jacobian` shared by the integrator families with Newton iterations.
#include <liesim/sdk/jacobian_option.hpp>
#include <liesim/sdk/status.hpp>

#include <fmt/format.h>

namespace liesim {

SettingSpec jacobian_option_spec(const std::string& what, const std::string& differences) {
  return {"jacobian", "auto", "",
          fmt::format("Jacobian of {}: auto (the model's exact dF/dy where it provides one, else {}), model (the "
                      "model's; refused if it has none), dq or fd ({}): auto|model|dq|fd",
                      what, differences, differences)};
}

JacobianSource jacobian_option(const Settings& options) {
  const std::string j = options.choice("jacobian", {"auto", "model", "dq", "fd"});
  return j == "auto" ? JacobianSource::automatic : j == "model" ? JacobianSource::model : JacobianSource::differences;
}

bool uses_model_jacobian(JacobianSource source, const ModelView& model) {
  if (source == JacobianSource::differences) return false;
  const bool has = model.has_vector_field_jacobian();
  if (source == JacobianSource::model && !has)
    throw Error("option jacobian=model: this model provides no Jacobian of its vector field (LIESIM_MODEL_JACOBIAN, "
                "ABI 2.1); use jacobian=auto, or jacobian=dq (or fd) for differences");
  return has;
}

}  // namespace liesim
