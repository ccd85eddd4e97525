// What the model and integrator adapters share: the host table the entry point received, the
// logger, settings from KEY/VALUE text, and exception barriers. Plugin-side and header-only.
#pragma once
#include <liesim/plugin.h>
#include <liesim/sdk/settings.hpp>
#include <liesim/sdk/status.hpp>
#include <liesim/sdk/types.hpp>

#include <nlohmann/json.hpp>

#include <cstring>
#include <exception>
#include <map>
#include <string>
#include <vector>

namespace liesim::sdk::detail {

/// The host table given to this plugin's entry point (one per loaded plugin library).
inline const liesim_host*& host() noexcept {
  static const liesim_host* h = nullptr;
  return h;
}

/// On the per-evaluation entry points of the adapters: inline everything below them (the Eigen
/// views over the buffers), so that crossing the boundary costs one indirect call and little else.
#if defined(__GNUC__)
#define LIESIM_SDK_HOT __attribute__((flatten))
#else
#define LIESIM_SDK_HOT
#endif

/// A C buffer of n doubles as the Eigen vectors of the C++ interfaces (no copy).
inline Eigen::Map<const Eigen::VectorXd> in(const double* p, int n) noexcept { return {p, n}; }
inline Eigen::Map<Eigen::VectorXd> out(double* p, int n) noexcept { return {p, n}; }

/// Write a message through the host's logger (`context`: the object it is about, or nullptr).
inline void log(void* context, liesim_log_level level, const char* message) noexcept {
  const liesim_host* h = host();
  if (h != nullptr && h->log != nullptr) h->log(context, level, message);
}
inline void log_error(void* context, const std::string& message) noexcept { log(context, LIESIM_LOG_ERROR, message.c_str()); }

/// Run `f` (returning liesim_status); an exception becomes LIESIM_FATAL with its message logged.
template <class F>
liesim_status guarded(void* context, F&& f) noexcept {
  try {
    return f();
  } catch (const std::exception& e) {
    log_error(context, e.what());
  } catch (...) {
    log_error(context, "unknown C++ exception inside the plugin");
  }
  return LIESIM_FATAL;
}

/// The KEY/VALUE text the user gave, as Settings over `specs` (defaults applied here, in the
/// plugin; an unknown key throws naming it). `what` names the owner in messages.
inline Settings settings_of(const std::vector<SettingSpec>& specs, int count, const char* const* keys,
                            const char* const* values, const std::string& what) {
  std::map<std::string, std::string> given;
  for (int i = 0; i < count; ++i) given[keys[i] ? keys[i] : ""] = values[i] ? values[i] : "";
  return Settings(specs, given, what);
}

/// Settings declarations as the metadata document lists them.
inline nlohmann::json specs_json(const std::vector<SettingSpec>& specs) {
  nlohmann::json a = nlohmann::json::array();
  for (const auto& s : specs) a.push_back({{"name", s.name}, {"default", s.default_value}, {"unit", s.unit}, {"doc", s.doc}});
  return a;
}

/// Whether the host can take a plugin of this ABI (logs why not).
inline bool accept_host(const liesim_host* h, const char* name) noexcept {
  host() = h;
  if (h == nullptr) return false;
  if (h->abi_major != LIESIM_ABI_MAJOR) {
    try {
      log_error(nullptr, std::string("plugin '") + name + "' is built for liesim ABI " + std::to_string(LIESIM_ABI_MAJOR) + "." +
                             std::to_string(LIESIM_ABI_MINOR) + ", the host has ABI " + std::to_string(h->abi_major) + "." +
                             std::to_string(h->abi_minor));
    } catch (...) {
    }
    return false;
  }
  return true;
}

}  // namespace liesim::sdk::detail
