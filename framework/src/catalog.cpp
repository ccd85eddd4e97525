// The JSON documents of `liesim list --json` and `liesim describe --json` (liesim/host/catalog.hpp).
#include <liesim/host/catalog.hpp>
#include <liesim/host/view.hpp>
#include <liesim/host/run.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include <algorithm>

namespace liesim {

using nlohmann::json;

namespace {
json settings_json(const std::vector<SettingSpec>& specs) {
  json a = json::array();
  for (const auto& s : specs) a.push_back({{"name", s.name}, {"default", s.default_value}, {"unit", s.unit}, {"doc", s.doc}});
  return a;
}
}  // namespace

std::unique_ptr<ModelView> model_instance(const LoadedPlugin& p, std::string& error, const std::map<std::string, std::string>& params) {
  try {
    Settings s(p.model->parameters(), params, fmt::format("parameter of model '{}'", p.name));
    return std::unique_ptr<ModelView>(p.model->create(s, error));
  } catch (const std::exception& e) {
    error = e.what();
    return nullptr;
  }
}

std::unique_ptr<ModelView> described_instance(const LoadedPlugin& p, const std::map<std::string, std::string>& params, std::string& error) {
  auto m = model_instance(p, error, params);
  if (!m && !params.empty()) throw Error(fmt::format("describe {}: {}", p.name, error));
  return m;
}

std::pair<const LoadedPlugin*, MethodInfo> described_method(const Registry& registry, const std::string& name,
                                                           const std::map<std::string, std::string>& params) {
  std::pair<const LoadedPlugin*, MethodInfo> found;
  try {
    found = registry.method(name);
  } catch (const Error& e) {
    throw Error(fmt::format("'{}' is neither a model nor an integrator method; models: {}; {}", name, fmt::join(registry.model_names(), ", "),
                            e.what()));
  }
  if (!params.empty())
    throw Error(fmt::format("describe: --param sets a model's parameters; '{}' is an integrator method (its options are listed "
                            "without values)", name));
  return found;
}

std::string list_json(const Registry& registry) {
  json j;
  j["models"] = json::array();
  j["integrators"] = json::array();
  j["failures"] = json::array();
  j["duplicates"] = json::array();
  std::map<std::string, std::vector<std::string>> offered;  // name -> files (run and study refuse names offered twice)
  for (const auto& c : registry.candidates()) {
    const std::string file = c.file.string();
    // Each file probed once: a candidate without a current manifest was probed on discovery; one
    // with a manifest is probed here (a manifest never stands in for loading the library safely).
    ProbeResult probe;
    if (c.probed) {
      probe.manifest = c.manifest;
      probe.metadata = c.metadata;
      probe.failure = c.failure;
    } else {
      probe = probe_plugin(c.file);
    }
    json metadata = json::object();
    if (probe.manifest) {
      try {
        metadata = json::parse(probe.metadata);
      } catch (const std::exception&) {
        probe.failure = "its metadata document is not valid JSON";
        probe.manifest.reset();
      }
    }
    if (!probe.manifest) {
      j["failures"].push_back({{"file", file}, {"name", c.name}, {"reason", probe.failure}});
      continue;
    }
    const auto& m = *probe.manifest;
    json x = {{"name", m.name}, {"version", m.version}, {"summary", m.summary}, {"file", file},
              {"abi", fmt::format("{}.{}", m.abi_major, m.abi_minor)}};
    if (m.kind == PluginKind::model) {
      offered["model " + m.name].push_back(file);
      j["models"].push_back(x);
      continue;
    }
    for (const auto& name : m.methods) offered["method " + name].push_back(file);
    x["methods"] = json::array();
    for (const auto& meth : metadata.value("methods", json::array())) {
      json y = meth;
      y.erase("options");
      x["methods"].push_back(y);
    }
    j["integrators"].push_back(x);
  }
  for (const auto& [name, files] : offered)
    if (files.size() > 1) j["duplicates"].push_back({{"name", name}, {"files", files}});
  return j.dump(2, ' ', false, json::error_handler_t::replace);
}

std::string describe_json(const Registry& registry, const std::string& name, const std::map<std::string, std::string>& params) {
  const auto models = registry.model_names();
  if (std::find(models.begin(), models.end(), name) != models.end()) {
    const LoadedPlugin& p = registry.model(name);
    std::string error;
    const auto m = described_instance(p, params, error);
    json j = {{"kind", "model"}, {"name", p.name}, {"version", p.version}, {"summary", p.model->summary()},
              {"file", p.file}, {"abi", fmt::format("{}.{}", LIESIM_ABI_MAJOR, p.abi_minor)},
              {"parameters", settings_json(p.model->parameters())}, {"conventions", p.model->conventions()}};
    if (!m) {
      j["default_parameters_rejected"] = error;
      return j.dump(2, ' ', false, json::error_handler_t::replace);
    }
    j["state_layout"] = m->state_names();
    j["algebra_dim"] = m->space().algebra_dim();
    json inv = json::array();
    for (const auto& i : m->invariants()) inv.push_back({{"name", i.name}, {"doc", i.doc}, {"kind", kind_name(i.kind)}, {"scale", i.scale}});
    j["invariants"] = inv;
    json obs = json::array();
    for (const auto& o : m->observables()) obs.push_back({{"name", o.name}, {"unit", o.unit}, {"doc", o.doc}});
    j["observables"] = obs;
    j["scene"] = scene_json(m->scene());
    j["capabilities"] = {{"exact_solution", m->has_exact_solution()}, {"jacobian", m->has_vector_field_jacobian()},
                         {"dae", m->dae() != nullptr}, {"projection", m->space().can_project()},
                         {"mechanical", m->mechanics() != nullptr}, {"rigid_body", m->rigid_body() != nullptr},
                         {"hamiltonian", m->hamiltonian() != nullptr}, {"riemannian", m->riemannian() != nullptr}};
    return j.dump(2, ' ', false, json::error_handler_t::replace);
  }
  const auto [family, info] = described_method(registry, name, params);
  const auto options = family->integrator->options(name);
  const auto control = info.self_controlled || info.embedded_order == 0 ? std::vector<SettingSpec>{} : step_control_options(options);
  json j = {{"kind", "integrator"}, {"name", info.name}, {"family", family->name}, {"version", family->version},
            {"summary", info.summary}, {"order", info.order}, {"embedded_order", info.embedded_order},
            {"dense_order", info.dense_order}, {"lie_group", info.lie_group}, {"self_controlled", info.self_controlled},
            {"options", settings_json(options)}, {"step_control_options", settings_json(control)},
            {"needs_mechanics", info.needs_mechanics}, {"needs", info.needs}};
  json diagnostics = json::array();
  for (const auto& d : info.diagnostics) diagnostics.push_back({{"name", d.name}, {"doc", d.doc}, {"conserved", d.conserved}});
  j["diagnostics"] = diagnostics;
  return j.dump(2, ' ', false, json::error_handler_t::replace);
}

}  // namespace liesim
