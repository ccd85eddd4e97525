// Reading plugin metadata documents.
#include "metadata.hpp"

#include <fmt/format.h>

namespace liesim {

nlohmann::json parse_metadata(const std::string& text, const std::string& plugin) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const std::exception& e) {
    throw Error(fmt::format("plugin '{}': its metadata document is not valid JSON ({})", plugin, e.what()));
  }
  if (!j.is_object()) throw Error(fmt::format("plugin '{}': its metadata document is not a JSON object", plugin));
  return j;
}

std::string metadata_text(const nlohmann::json& j, const char* key, const std::string& plugin) {
  if (!j.contains(key) || j[key].is_null()) return {};
  if (!j[key].is_string()) throw Error(fmt::format("plugin '{}': metadata field '{}' must be a string", plugin, key));
  return j[key].get<std::string>();
}

std::vector<SettingSpec> metadata_specs(const nlohmann::json& j, const char* key, const std::string& plugin) {
  std::vector<SettingSpec> out;
  if (!j.contains(key)) return out;
  if (!j[key].is_array()) throw Error(fmt::format("plugin '{}': metadata field '{}' must be an array", plugin, key));
  for (const auto& s : j[key]) {
    if (!s.is_object() || !s.contains("name") || !s["name"].is_string())
      throw Error(fmt::format("plugin '{}': every entry of '{}' needs a string 'name'", plugin, key));
    out.push_back({s["name"].get<std::string>(), metadata_text(s, "default", plugin), metadata_text(s, "unit", plugin),
                   metadata_text(s, "doc", plugin)});
  }
  return out;
}

}  // namespace liesim
