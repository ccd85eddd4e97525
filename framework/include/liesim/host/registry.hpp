// Plugin discovery and loading. Plugins are found by file name (liesim_NAME.so) and the manifest
// beside them (liesim_NAME.json: kind, version, methods), without running their code; a command
// loads only the plugins it needs. Files without a manifest are probed in a child process.
#pragma once
#include <liesim/host/integrator.hpp>
#include <liesim/host/model_type.hpp>

#include <deque>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace liesim {

/// What a plugin provides.
enum class PluginKind : int { model = LIESIM_KIND_MODEL, integrator = LIESIM_KIND_INTEGRATOR };

/// What is known of a plugin file without loading it into this process: its manifest (from the
/// file beside it, or from a probe in a child process).
struct PluginManifest {
  PluginKind kind = PluginKind::model;
  std::string name;
  std::string version;
  std::string summary;
  int abi_major = 0;
  int abi_minor = 0;
  std::vector<std::string> methods;  ///< integrator methods
  std::uintmax_t library_size = 0;   ///< size of the library the manifest was made from
};

/// A plugin file on the search path.
struct PluginCandidate {
  std::filesystem::path file;
  std::string name;                        ///< from the file name liesim_NAME.so
  std::optional<PluginManifest> manifest;  ///< unset when its probe failed
  std::string failure;                     ///< why the probe failed
  bool probed = false;                     ///< a probe ran (no current manifest): `metadata` is its answer
  std::string metadata;                    ///< the metadata document the probe read
};

/// A plugin that loaded into this process: its table's data and the host-side objects.
struct LoadedPlugin {
  PluginKind kind = PluginKind::model;
  std::string name;
  std::string version;
  std::string summary;
  std::string file;
  int abi_minor = 0;                              ///< ABI minor the plugin was built for
  std::string metadata;                           ///< its metadata document (JSON)
  std::shared_ptr<ModelTypeView> model;               ///< set for model plugins
  std::shared_ptr<IntegratorFamilyView> integrator;   ///< set for integrator plugins
};

/// A plugin file that failed to load, with the reason (and its name where it is known).
struct LoadFailure {
  std::string file;
  std::string name;
  std::string reason;
};

/// The outcome of probing a plugin file in a child process.
struct ProbeResult {
  std::optional<PluginManifest> manifest;  ///< set when the plugin loaded
  std::string metadata;                    ///< its metadata document
  std::string failure;                     ///< why not ("crashed with SIGSEGV while loading", ...)
};

/// Load `file` into this process and check its table; throws liesim::Error with the reason.
/// (The library stays loaded while any object made from it lives.)
LoadedPlugin load_plugin(const std::filesystem::path& file);
/// Time limit of a plugin probe: 5 s, or LIESIM_PROBE_TIMEOUT seconds (0.1 to 600) when set.
double probe_time_limit();
/// Load `file` in a child process and report what it provides, or how it failed (crash, exit,
/// refused table, timeout after probe_time_limit(), a FIFO): the plugin's code never runs in
/// this process.
ProbeResult probe_plugin(const std::filesystem::path& file, double timeout_seconds = probe_time_limit());
/// The manifest document written beside a plugin (`liesim manifest`).
std::string manifest_json(const PluginManifest& m);
/// The file of the manifest beside `plugin` (liesim_NAME.json).
std::filesystem::path manifest_path(const std::filesystem::path& plugin);

/// "FILE.so:METHOD" -> (FILE.so, METHOD); a bare method name -> ("", METHOD).
std::pair<std::string, std::string> split_method(const std::string& method);

/// The plugins on a search path. Thread-safe: studies resolve names from several threads.
class Registry {
 public:
  Registry() = default;
  Registry(Registry&& other) noexcept;

  /// Plugin folders in search order: `cli_paths`, then LIESIM_PLUGIN_PATH (colon-separated),
  /// then the folder installed beside the executable (../lib/liesim/plugins).
  static std::vector<std::filesystem::path> search_path(const std::vector<std::string>& cli_paths);

  /// Find the plugin files of each folder (missing folders are skipped); no plugin code runs in
  /// this process (files without an up-to-date manifest are probed in a child process).
  void load_directories(const std::vector<std::filesystem::path>& dirs);

  /// The plugin files found, in search order.
  const std::vector<PluginCandidate>& candidates() const { return candidates_; }
  /// The plugins loaded into this process so far.
  std::vector<LoadedPlugin> plugins() const;
  /// Load every candidate whose probe succeeded (tests and tools that enumerate all plugins;
  /// commands load only what they need). Failures are recorded, not thrown.
  void load_all() const;
  /// Loading failures met so far.
  std::vector<LoadFailure> failures() const;

  /// The model plugin named `name` (or the file `name` when it is a path to a .so), loaded on
  /// first use; throws liesim::Error for an unknown name, a name two files provide, or a failure.
  const LoadedPlugin& model(const std::string& name) const;
  /// The integrator family providing method `method` and that method's info; throws liesim::Error.
  std::pair<const LoadedPlugin*, MethodInfo> method(const std::string& method) const;
  /// The file that provides model `name`, from the manifests alone (no plugin code runs); null
  /// when `name` is itself a file. Throws liesim::Error for an unknown or duplicated name, and
  /// PluginFault for a file whose probe failed.
  const PluginCandidate* find_model(const std::string& name) const;
  /// The file that provides method `method`, from the manifests alone; throws liesim::Error.
  /// `FILE.so:METHOD` chooses the file when two offer the name.
  const PluginCandidate* find_method(const std::string& method) const;
  /// Every model name, and every method name, the manifests offer.
  std::vector<std::string> model_names() const;
  std::vector<std::string> method_names() const;

 private:
  const LoadedPlugin& load(const std::filesystem::path& file) const;
  std::string unknown(const std::string& what, const std::string& name, const std::vector<std::string>& known) const;

  std::vector<PluginCandidate> candidates_;
  mutable std::mutex mutex_;
  mutable std::map<std::string, LoadedPlugin> loaded_;  // by file
  mutable std::vector<LoadFailure> failures_;
};

}  // namespace liesim
