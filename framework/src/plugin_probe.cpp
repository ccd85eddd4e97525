// Loading a plugin in a child process: what it provides, or how it failed, without its code ever
// running in this process (a crash in a constructor or entry point is reported, not suffered).
#include <liesim/host/child_process.hpp>
#include <liesim/host/registry.hpp>

#include <fmt/format.h>

#include <cstdlib>
#include <nlohmann/json.hpp>

namespace fs = std::filesystem;

namespace liesim {

namespace {
nlohmann::json to_json(const PluginManifest& m) {
  return {{"liesim_manifest", 1},
          {"kind", m.kind == PluginKind::model ? "model" : "integrator"},
          {"name", m.name},
          {"version", m.version},
          {"summary", m.summary},
          {"abi", {m.abi_major, m.abi_minor}},
          {"methods", m.methods},
          {"library_size", m.library_size}};
}

PluginManifest manifest_of(const LoadedPlugin& p) {
  PluginManifest m;
  m.kind = p.kind;
  m.name = p.name;
  m.version = p.version;
  m.summary = p.summary;
  m.abi_major = LIESIM_ABI_MAJOR;
  m.abi_minor = p.abi_minor;
  if (p.integrator)
    for (const auto& x : p.integrator->methods()) m.methods.push_back(x.name);
  return m;
}

}  // namespace

PluginManifest manifest_from_json(const nlohmann::json& j);

double probe_time_limit() {
  if (const char* env = std::getenv("LIESIM_PROBE_TIMEOUT")) {
    char* end = nullptr;
    const double s = std::strtod(env, &end);
    if (end != env && *end == '\0' && s >= 0.1 && s <= 600) return s;
  }
  return 5.0;
}

ProbeResult probe_plugin(const fs::path& file, double timeout_seconds) {
  ProbeResult r;
  // A FIFO or a device would block the loader's read: only regular files (or links to them) load.
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) {
    r.failure = "not a regular file (a FIFO, a device or a dangling link with a plugin's name): remove it from the plugin folder";
    return r;
  }
  // The plugin may print: the child's stdout goes to /dev/null.
  const ChildOutcome o = run_in_child(
      [&] {
        child_stage(fmt::format("loading {}", file.string()));
        const LoadedPlugin p = load_plugin(file);
        nlohmann::json j = {{"manifest", to_json(manifest_of(p))}, {"metadata", p.metadata}};
        return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
      },
      timeout_seconds, true);
  using End = ChildOutcome::End;
  switch (o.end) {
    case End::answered: break;
    case End::failed: r.failure = o.text; return r;
    case End::timed_out: r.failure = fmt::format("did not finish loading within {:g} s (killed)", timeout_seconds); return r;
    case End::signalled:
      r.failure = fmt::format("crashed with {} while loading (in a static constructor or its entry point)", signal_text(o.code));
      return r;
    case End::exited: r.failure = fmt::format("ended the process with exit status {} while loading", o.code); return r;
    case End::not_started: r.failure = fmt::format("could not probe it ({})", o.text); return r;
  }
  try {
    const auto j = nlohmann::json::parse(o.text);
    r.manifest = manifest_from_json(j.at("manifest"));
    std::error_code ec;
    r.manifest->library_size = fs::file_size(file, ec);
    r.metadata = j.value("metadata", std::string());
  } catch (const std::exception& e) {
    r.failure = fmt::format("its probe gave an unreadable answer ({})", e.what());
  }
  return r;
}

std::string manifest_json(const PluginManifest& m) { return to_json(m).dump(2) + "\n"; }

fs::path manifest_path(const fs::path& plugin) {
  fs::path p = plugin;
  p.replace_extension(".json");
  return p;
}

}  // namespace liesim
