// Plugin discovery and loading with Boost.DLL; checks ABI version and build token first.
#include <liesim/registry.hpp>

#include <boost/dll/runtime_symbol_info.hpp>
#include <boost/dll/shared_library.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdlib>
#include <set>

namespace fs = std::filesystem;

namespace liesim {

std::vector<fs::path> Registry::search_path(const std::vector<std::string>& cli_paths) {
  std::vector<fs::path> dirs(cli_paths.begin(), cli_paths.end());
  if (const char* env = std::getenv("LIESIM_PLUGIN_PATH")) {
    std::string s(env);
    std::size_t start = 0;
    while (start <= s.size()) {
      const auto colon = s.find(':', start);
      const std::string item = s.substr(start, colon == std::string::npos ? std::string::npos : colon - start);
      if (!item.empty()) dirs.emplace_back(item);
      if (colon == std::string::npos) break;
      start = colon + 1;
    }
  }
  std::error_code ec;
  const fs::path exe = boost::dll::program_location(ec);
  if (!ec) dirs.push_back(exe.parent_path().parent_path() / "lib" / "liesim" / "plugins");
  return dirs;
}

void Registry::load_directories(const std::vector<fs::path>& dirs) {
  std::set<fs::path> seen;
  for (const auto& dir : dirs) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) continue;
    const fs::path canon = fs::weakly_canonical(dir, ec);
    if (!seen.insert(canon).second) continue;
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(dir, ec))
      if (entry.path().extension() == ".so") files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    for (const auto& f : files) load_file(f);
  }
}

void Registry::load_file(const fs::path& file) {
  auto lib = std::make_shared<boost::dll::shared_library>();
  std::error_code ec;
  lib->load(file, ec, boost::dll::load_mode::rtld_lazy | boost::dll::load_mode::rtld_local);
  if (ec) {
    failures_.push_back({file.string(), "", fmt::format("not a loadable shared library ({})", ec.message())});
    return;
  }
  if (!lib->has(plugin_entry_name)) {
    failures_.push_back({file.string(), "", fmt::format("no entry point '{}' (not a liesim plugin; build it with LIESIM_PLUGIN)", plugin_entry_name)});
    return;
  }
  const PluginDescriptor* d = nullptr;
  try {
    d = lib->get_alias<PluginEntry>(plugin_entry_name)();
  } catch (const std::exception& e) {
    failures_.push_back({file.string(), "", fmt::format("entry point failed: {}", e.what())});
    return;
  }
  if (d == nullptr) {
    failures_.push_back({file.string(), "", "entry point returned no descriptor"});
    return;
  }
  const std::string name = d->name ? d->name : "";
  auto fail = [&](std::string reason) { failures_.push_back({file.string(), name, std::move(reason)}); };
  if (d->abi_major != LIESIM_ABI_MAJOR || d->abi_minor > LIESIM_ABI_MINOR) {
    fail(fmt::format("ABI mismatch: plugin built for ABI {}.{}, this liesim has ABI {}.{} (rebuild the plugin against this liesim)",
                     d->abi_major, d->abi_minor, LIESIM_ABI_MAJOR, LIESIM_ABI_MINOR));
    return;
  }
  const std::string token = d->build_token ? d->build_token : "";
  if (token != LIESIM_BUILD_TOKEN) {
    fail(fmt::format("build token mismatch: plugin '{}', this liesim '{}' (rebuild the plugin with the same compiler, Eigen and liesim)",
                     token, LIESIM_BUILD_TOKEN));
    return;
  }
  if (d->kind != PluginKind::model && d->kind != PluginKind::integrator) {
    fail(fmt::format("unknown plugin kind {}", static_cast<int>(d->kind)));
    return;
  }
  for (const auto& p : plugins_)
    if (p.kind == d->kind && p.name == name) {
      fail(fmt::format("duplicate: a plugin named '{}' was already loaded from {}", name, p.file));
      return;
    }
  char error[1024] = {0};
  void* object = d->factory ? d->factory(error, sizeof error) : nullptr;
  if (object == nullptr) {
    fail(fmt::format("factory failed: {}", error[0] ? error : "no object returned"));
    return;
  }
  LoadedPlugin p{d->kind, name, d->version ? d->version : "", d->summary ? d->summary : "", file.string(), d->abi_minor, nullptr, nullptr};
  // The deleter holds the library, so the code of the object outlives the object.
  if (d->kind == PluginKind::model)
    p.model = std::shared_ptr<ModelType>(static_cast<ModelType*>(object), [lib](ModelType* m) { delete m; });
  else
    p.integrator = std::shared_ptr<IntegratorFamily>(static_cast<IntegratorFamily*>(object),
                                                     [lib](IntegratorFamily* f) { delete f; });
  if (p.integrator) {
    // A method name must be unique across families.
    for (const auto& m : p.integrator->methods())
      for (const auto& q : plugins_)
        if (q.integrator)
          for (const auto& other : q.integrator->methods())
            if (other.name == m.name) {
              fail(fmt::format("method '{}' is already provided by family '{}' ({})", m.name, q.name, q.file));
              return;
            }
  }
  plugins_.push_back(std::move(p));
}

std::string Registry::unknown(const std::string& what, const std::string& name,
                              const std::vector<std::string>& known) const {
  std::string msg = fmt::format("unknown {} '{}'; available: {}", what, name,
                                known.empty() ? std::string("(none)") : fmt::format("{}", fmt::join(known, ", ")));
  for (const auto& f : failures_) {
    if (f.name == name)
      return fmt::format("{} '{}' could not be loaded from {}: {}", what, name, f.file, f.reason);
  }
  if (!failures_.empty()) {
    msg += fmt::format("; {} plugin file(s) failed to load:", failures_.size());
    for (const auto& f : failures_) msg += fmt::format("\n  {}: {}", f.file, f.reason);
  }
  msg += "\n(run `liesim list` to see what is available; add folders with --plugin-path or LIESIM_PLUGIN_PATH)";
  return msg;
}

const LoadedPlugin& Registry::model(const std::string& name) const {
  std::vector<std::string> known;
  for (const auto& p : plugins_)
    if (p.model) {
      if (p.name == name) return p;
      known.push_back(p.name);
    }
  throw Error(unknown("model", name, known));
}

std::pair<const LoadedPlugin*, MethodInfo> Registry::method(const std::string& method) const {
  std::vector<std::string> known;
  for (const auto& p : plugins_)
    if (p.integrator)
      for (const auto& m : p.integrator->methods()) {
        if (m.name == method) return {&p, m};
        known.push_back(m.name);
      }
  for (const auto& f : failures_)
    if (!f.name.empty() && f.name == method)
      throw Error(fmt::format("integrator family '{}' could not be loaded from {}: {}", f.name, f.file, f.reason));
  throw Error(unknown("integrator", method, known));
}

}  // namespace liesim
