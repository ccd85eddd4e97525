// The host's logger behind liesim_host::log: every object a plugin makes gets a context, and the
// messages written with it are kept for the error that follows.
#pragma once
#include <liesim/plugin.h>
#include <liesim/sdk/settings.hpp>

#include <string>
#include <vector>

namespace liesim {

/// What the host keeps for one plugin object (model instance, stepper, solver, or a loading).
class PluginContext {
 public:
  /// `who` names the object in forwarded warnings ("model 'pendulum_chain'").
  explicit PluginContext(std::string who = {}) : who_(std::move(who)) {}
  /// The last error message the plugin wrote ("" if none).
  const std::string& last_error() const noexcept { return last_error_; }
  /// The last error message, or `fallback` when the plugin wrote none; clears it.
  std::string take_error(const std::string& fallback);
  /// Every message written (for loading failures).
  const std::vector<std::string>& messages() const noexcept { return messages_; }
  /// Receive a message (the host's log callback calls this).
  void receive(liesim_log_level level, const char* message);

 private:
  std::string who_;
  std::string last_error_;
  std::vector<std::string> messages_;
};

/// While it lives, messages a plugin writes without a context on this thread (from its entry
/// point) go to `context`.
class LoadingScope {
 public:
  explicit LoadingScope(PluginContext& context) noexcept;
  ~LoadingScope();
  LoadingScope(const LoadingScope&) = delete;
  LoadingScope& operator=(const LoadingScope&) = delete;

 private:
  PluginContext* previous_;
};

/// The host table handed to every plugin's entry point.
const liesim_host* host_table() noexcept;
/// Its last_error callback for liesim_model_ref (context: a PluginContext).
const char* plugin_context_last_error(void* context) noexcept;

/// The parameters or options the user gave (not the defaults), as parallel KEY and VALUE arrays
/// of C strings valid while `settings` lives.
struct GivenSettings {
  explicit GivenSettings(const Settings& settings);
  std::vector<const char*> keys, values;
};

}  // namespace liesim
