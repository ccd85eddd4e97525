// An integrator plugin as the host sees it: methods read from its JSON document, steppers and
// solvers through the C table.
#include <liesim/integrator.hpp>

#include "metadata.hpp"

#include <fmt/format.h>

namespace liesim {

IntegratorFamily::IntegratorFamily(const liesim_plugin* plugin, const std::string& metadata, std::shared_ptr<const void> library)
    : api_(plugin->integrator), library_(std::move(library)) {
  const std::string name = plugin->name;
  const auto j = parse_metadata(metadata, name);
  summary_ = metadata_text(j, "summary", name);
  if (!j.contains("methods") || !j["methods"].is_array())
    throw Error(fmt::format("plugin '{}': its metadata document lists no 'methods' array", name));
  for (const auto& m : j["methods"]) {
    MethodInfo info;
    try {
      info.name = m.at("name").get<std::string>();
      info.summary = metadata_text(m, "summary", name);
      info.order = m.value("order", 0);
      info.embedded_order = m.value("embedded_order", 0);
      info.dense_order = m.value("dense_order", 0);
      info.lie_group = m.value("lie_group", false);
      info.self_controlled = m.value("self_controlled", false);
      if (info.self_controlled) info.dense_order = 0;
      else if (info.dense_order <= 0) info.dense_order = info.order;  // the step repeated with theta h
      info.needs = m.value("needs", std::string());
      info.needs_mechanics = m.value("needs_mechanics", false) || !info.needs.empty();
      if (info.needs_mechanics && info.needs.empty()) info.needs = "mechanical";  // a plugin of ABI 2.2
      if (m.contains("diagnostics")) {
        if (!m["diagnostics"].is_array()) throw Error(fmt::format("plugin '{}': method '{}': 'diagnostics' is not an array", name, info.name));
        for (const auto& d : m["diagnostics"])
          info.diagnostics.push_back({d.at("name").get<std::string>(), d.value("doc", std::string()), d.value("conserved", false)});
      }
    } catch (const nlohmann::json::exception& e) {
      throw Error(fmt::format("plugin '{}': a method entry of its metadata is malformed ({})", name, e.what()));
    }
    methods_.push_back(info);
    options_.push_back(metadata_specs(m, "options", name));
  }
}

std::vector<SettingSpec> IntegratorFamily::options(const std::string& method) const {
  for (std::size_t i = 0; i < methods_.size(); ++i)
    if (methods_[i].name == method) return options_[i];
  return {};
}

int IntegratorFamily::diagnostic_count(const std::string& method) const {
  for (const auto& m : methods_)
    if (m.name == method) return static_cast<int>(m.diagnostics.size());
  return 0;
}

Stepper* IntegratorFamily::create_stepper(const std::string& method, const Settings& options, std::string& error) const {
  auto context = std::make_unique<PluginContext>(fmt::format("method '{}'", method));
  const GivenSettings given(options);
  liesim_stepper* s = nullptr;
  if (api_->create_stepper(context.get(), method.c_str(), static_cast<int32_t>(given.keys.size()), given.keys.data(),
                           given.values.data(), &s) != LIESIM_OK || s == nullptr) {
    error = context->take_error(fmt::format("method '{}' is not a kernel-driven stepper", method));
    return nullptr;
  }
  return new Stepper(api_, s, std::move(context), library_, diagnostic_count(method));
}

Solver* IntegratorFamily::create_solver(const std::string& method, const Settings& options, std::string& error) const {
  auto context = std::make_unique<PluginContext>(fmt::format("method '{}'", method));
  const GivenSettings given(options);
  liesim_solver* s = nullptr;
  if (api_->create_solver(context.get(), method.c_str(), static_cast<int32_t>(given.keys.size()), given.keys.data(),
                          given.values.data(), &s) != LIESIM_OK || s == nullptr) {
    error = context->take_error(fmt::format("method '{}' is not a self-controlled solver", method));
    return nullptr;
  }
  return new Solver(api_, s, std::move(context), library_, diagnostic_count(method));
}

}  // namespace liesim
