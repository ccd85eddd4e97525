// Plugin discovery and loading: every plugin that loads is registered, every failure is kept.
#pragma once
#include <liesim/integrator.hpp>
#include <liesim/model.hpp>
#include <liesim/plugin.hpp>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace liesim {

/// A plugin that loaded: its descriptor data and the object its factory made.
struct LoadedPlugin {
  PluginKind kind;
  std::string name;
  std::string version;
  std::string summary;
  std::string file;
  int abi_minor = 0;                              ///< ABI minor the plugin was built for
  std::shared_ptr<ModelType> model;               ///< set for model plugins
  std::shared_ptr<IntegratorFamily> integrator;   ///< set for integrator plugins
};

/// A plugin file that failed to load, with the reason (and its name where the descriptor was read).
struct LoadFailure {
  std::string file;
  std::string name;    ///< "" when the descriptor could not be read
  std::string reason;
};

/// The set of loaded plugins. Objects keep their shared library alive.
class Registry {
 public:
  /// Plugin folders in search order: `cli_paths`, then LIESIM_PLUGIN_PATH (colon-separated),
  /// then the folder installed beside the executable (../lib/liesim/plugins).
  static std::vector<std::filesystem::path> search_path(const std::vector<std::string>& cli_paths);

  /// Load every *.so file of each folder (missing folders are skipped).
  void load_directories(const std::vector<std::filesystem::path>& dirs);
  /// Load one file; a failure is recorded, never thrown.
  void load_file(const std::filesystem::path& file);

  const std::vector<LoadedPlugin>& plugins() const { return plugins_; }
  const std::vector<LoadFailure>& failures() const { return failures_; }

  /// The model plugin named `name`; throws liesim::Error listing known models and failures.
  const LoadedPlugin& model(const std::string& name) const;
  /// The integrator family providing method `method` and that method's info; throws liesim::Error.
  std::pair<const LoadedPlugin*, MethodInfo> method(const std::string& method) const;

 private:
  std::string unknown(const std::string& what, const std::string& name,
                      const std::vector<std::string>& known) const;
  std::vector<LoadedPlugin> plugins_;
  std::vector<LoadFailure> failures_;
};

}  // namespace liesim
