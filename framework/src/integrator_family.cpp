// An integrator plugin as the host sees it: methods read from its JSON document, steppers and
// solvers through the C table.
#include <liesim/host/integrator.hpp>

#include "metadata.hpp"

#include <liesim/host/plugin_context.hpp>

#include <fmt/format.h>

#include <cstddef>

namespace liesim {

namespace {

/// A method entry of a metadata document (or of a method_resolved answer).
MethodInfo method_entry(const nlohmann::json& m, const std::string& name) {
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
  return info;
}

}  // namespace

IntegratorFamilyView::IntegratorFamilyView(const liesim_plugin* plugin, const std::string& metadata, std::shared_ptr<const void> library)
    : api_(plugin->integrator), library_(std::move(library)), name_(plugin->name) {
  const auto j = parse_metadata(metadata, name_);
  summary_ = metadata_text(j, "summary", name_);
  if (!j.contains("methods") || !j["methods"].is_array())
    throw Error(fmt::format("plugin '{}': its metadata document lists no 'methods' array", name_));
  for (const auto& m : j["methods"]) {
    methods_.push_back(method_entry(m, name_));
    options_.push_back(metadata_specs(m, "options", name_));
  }
}

MethodInfo IntegratorFamilyView::resolved(const MethodInfo& listed, const Settings& options) const {
#if LIESIM_ABI_MINOR >= 9
  if (api_->size >= offsetof(liesim_integrator_api, method_resolved) + sizeof api_->method_resolved && api_->method_resolved != nullptr) {
    PluginContext context(fmt::format("method '{}'", listed.name));
    const GivenSettings given(options);
    std::string json;
    auto write = [](void* sink, const char* text) { *static_cast<std::string*>(sink) = text != nullptr ? text : ""; };
    if (api_->method_resolved(&context, listed.name.c_str(), static_cast<int32_t>(given.keys.size()), given.keys.data(),
                              given.values.data(), write, &json) != LIESIM_OK)
      throw Error(context.take_error(fmt::format("method '{}' refused its options", listed.name)));
    MethodInfo info;
    try {
      info = method_entry(nlohmann::json::parse(json), name_);
    } catch (const nlohmann::json::exception& e) {
      throw Error(fmt::format("plugin '{}': method '{}' described itself with malformed JSON ({})", name_, listed.name, e.what()));
    }
    if (info.name != listed.name || info.self_controlled != listed.self_controlled || info.lie_group != listed.lie_group)
      throw Error(fmt::format("plugin '{}': method '{}' changed its name or kind with its options", name_, listed.name));
    info.diagnostics = listed.diagnostics;  // the listed ones size the diagnostics buffers
    return info;
  }
#endif
  (void)options;
  return listed;
}

std::vector<SettingSpec> IntegratorFamilyView::options(const std::string& method) const {
  for (std::size_t i = 0; i < methods_.size(); ++i)
    if (methods_[i].name == method) return options_[i];
  return {};
}

int IntegratorFamilyView::diagnostic_count(const std::string& method) const {
  for (const auto& m : methods_)
    if (m.name == method) return static_cast<int>(m.diagnostics.size());
  return 0;
}

StepperView* IntegratorFamilyView::create_stepper(const std::string& method, const Settings& options, std::string& error) const {
  auto context = std::make_unique<PluginContext>(fmt::format("method '{}'", method));
  const GivenSettings given(options);
  liesim_stepper* s = nullptr;
  if (api_->create_stepper(context.get(), method.c_str(), static_cast<int32_t>(given.keys.size()), given.keys.data(),
                           given.values.data(), &s) != LIESIM_OK || s == nullptr) {
    error = context->take_error(fmt::format("method '{}' is not a kernel-driven stepper", method));
    return nullptr;
  }
  return new StepperView(api_, s, std::move(context), library_, diagnostic_count(method));
}

SolverView* IntegratorFamilyView::create_solver(const std::string& method, const Settings& options, std::string& error) const {
  auto context = std::make_unique<PluginContext>(fmt::format("method '{}'", method));
  const GivenSettings given(options);
  liesim_solver* s = nullptr;
  if (api_->create_solver(context.get(), method.c_str(), static_cast<int32_t>(given.keys.size()), given.keys.data(),
                          given.values.data(), &s) != LIESIM_OK || s == nullptr) {
    error = context->take_error(fmt::format("method '{}' is not a self-controlled solver", method));
    return nullptr;
  }
  return new SolverView(api_, s, std::move(context), library_, diagnostic_count(method));
}

}  // namespace liesim
