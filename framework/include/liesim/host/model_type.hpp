// The host's view of a model plugin: its documentation, parameters and instance creation, over
// the C model table of liesim/plugin.h. (Plugin authors implement liesim::sdk::ModelType instead.)
#pragma once
#include <liesim/sdk/model_view.hpp>
#include <liesim/sdk/settings.hpp>

#include <memory>
#include <string>
#include <vector>

namespace liesim {

class ModelTypeView {
 public:
  /// `metadata`: the plugin's JSON document; throws liesim::Error when it is malformed. `file`:
  /// the plugin's library, named in the messages about what its instances state.
  ModelTypeView(const liesim_plugin* plugin, const std::string& metadata, std::shared_ptr<const void> library,
            std::string file = {});
  /// One-line summary.
  const std::string& summary() const { return summary_; }
  /// Declared parameters with defaults, units and meaning.
  const std::vector<SettingSpec>& parameters() const { return parameters_; }
  /// The convention block: SPACE / GROUP / ACTION / GENERATOR / EMBEDDING / INVARIANTS / PARAMETERS / SOURCE.
  const std::string& conventions() const { return conventions_; }
  /// Create an instance (the caller owns it); nullptr and `error` set when the plugin refuses.
  /// Throws PluginFault when the instance's info states sizes, names or capabilities the host
  /// cannot use (the plugin file and the member named).
  ModelView* create(const Settings& parameters, std::string& error) const;

 private:
  const liesim_model_api* api_;
  std::string name_;
  std::string file_;
  std::shared_ptr<const void> library_;
  std::string summary_;
  std::string conventions_;
  std::vector<SettingSpec> parameters_;
};

}  // namespace liesim
