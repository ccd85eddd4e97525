// The host's logger: messages from plugins land in the context of the object they are about.
#include <liesim/host/plugin_context.hpp>

#include <iostream>

namespace liesim {

namespace {
thread_local PluginContext* loading = nullptr;

extern "C" void host_log(void* context, liesim_log_level level, const char* message) {
  const char* text = message ? message : "(no message)";
  if (context != nullptr) {
    static_cast<PluginContext*>(context)->receive(level, text);
    return;
  }
  if (loading != nullptr) {
    loading->receive(level, text);
    return;
  }
  // About a plugin as a whole and outside a loading (which always has a context): tell the user.
  std::cerr << "liesim: plugin " << (level == LIESIM_LOG_ERROR ? "error" : level == LIESIM_LOG_WARNING ? "warning" : "note")
            << ": " << text << "\n";
}

const liesim_host host{sizeof(liesim_host), LIESIM_ABI_MAJOR, LIESIM_ABI_MINOR, 0, &host_log};
}  // namespace

LoadingScope::LoadingScope(PluginContext& context) noexcept : previous_(loading) { loading = &context; }
LoadingScope::~LoadingScope() { loading = previous_; }

const liesim_host* host_table() noexcept { return &host; }

const char* plugin_context_last_error(void* context) noexcept {
  return context ? static_cast<PluginContext*>(context)->last_error().c_str() : "";
}

void PluginContext::receive(liesim_log_level level, const char* message) {
  try {
    if (level == LIESIM_LOG_ERROR) {
      last_error_ = message;
      if (messages_.size() < 100) messages_.emplace_back(message);
    } else {
      std::cerr << "liesim: " << (who_.empty() ? std::string("plugin") : who_)
                << (level == LIESIM_LOG_WARNING ? " warning: " : ": ") << message << "\n";
    }
  } catch (...) {
  }
}

std::string PluginContext::take_error(const std::string& fallback) {
  std::string e = last_error_.empty() ? fallback : last_error_;
  last_error_.clear();
  return e;
}

GivenSettings::GivenSettings(const Settings& settings) {
  for (const auto& [k, v] : settings.values())
    if (settings.given(k)) {
      keys.push_back(k.c_str());
      values.push_back(v.c_str());
    }
}

}  // namespace liesim
