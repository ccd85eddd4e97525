// Reading a plugin's metadata document (the JSON of liesim_plugin::metadata_json) with errors that
// name the plugin and the field.
#pragma once
#include <liesim/sdk/settings.hpp>
#include <liesim/sdk/status.hpp>

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace liesim {

/// The parsed document; throws liesim::Error naming the plugin when it is not a JSON object.
nlohmann::json parse_metadata(const std::string& text, const std::string& plugin);
/// A string field ("" when absent); throws when present with another type.
std::string metadata_text(const nlohmann::json& j, const char* key, const std::string& plugin);
/// A list of settings declarations [{"name", "default", "unit", "doc"}].
std::vector<SettingSpec> metadata_specs(const nlohmann::json& j, const char* key, const std::string& plugin);

}  // namespace liesim
