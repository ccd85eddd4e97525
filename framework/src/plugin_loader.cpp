// Loading one plugin library into this process: the entry point, the checks of its table (ABI
// version, data layout, kind, name) and the host-side objects over it.
#include <liesim/host/plugin_context.hpp>
#include <liesim/host/registry.hpp>

#include "table_checks.hpp"

#include <boost/dll/runtime_symbol_info.hpp>
#include <boost/dll/shared_library.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

namespace fs = std::filesystem;

namespace liesim {

namespace {
/// liesim_NAME.so -> NAME.
std::string name_of_file(const fs::path& file) {
  const std::string stem = file.stem().string();
  return stem.rfind("liesim_", 0) == 0 ? stem.substr(7) : stem;
}

/// A plugin in C that uses liesim/lie.h depends on the kernel library by soname. The command has
/// the kernel linked in and does not load that library, so a plugin whose RUNPATH does not name its
/// folder (one built by hand) would fail to load: this loads it from beside the command, once, and
/// says whether it is loaded (false where it is not there: then a retry cannot help). In a process
/// that has it loaded already (the Python module) nothing changes.
bool load_kernel_library_beside_program() {
#ifdef LIESIM_KERNEL_FROM_PROGRAM
  static const bool loaded = [] {
    boost::dll::fs::error_code ec;
    const fs::path program = boost::dll::program_location(ec);
    if (ec) return false;
    static boost::dll::shared_library kernel;  // stays loaded for the plugins that use it
    kernel.load((program.parent_path() / LIESIM_KERNEL_FROM_PROGRAM).lexically_normal(), ec,
                boost::dll::load_mode::rtld_lazy | boost::dll::load_mode::rtld_global);
    return !ec;
  }();
  return loaded;
#else
  return false;
#endif
}

std::string abi_range() { return fmt::format("{}.0 to {}.{}", LIESIM_ABI_MAJOR, LIESIM_ABI_MAJOR, LIESIM_ABI_MINOR); }
}  // namespace

LoadedPlugin load_plugin(const fs::path& file) {
  auto lib = std::make_shared<boost::dll::shared_library>();
  boost::dll::fs::error_code ec;
  const auto mode = boost::dll::load_mode::rtld_lazy | boost::dll::load_mode::rtld_local;
  lib->load(file, ec, mode);
  // Boost.DLL does not keep dlerror's reason: a failure is retried once with the kernel library loaded.
  if (ec && load_kernel_library_beside_program()) {
    ec.clear();
    lib->load(file, ec, mode);
  }
  if (ec) throw Error(fmt::format("not a loadable shared library ({})", ec.message()));
  if (!lib->has(LIESIM_PLUGIN_ENTRY_NAME)) {
    if (lib->has("liesim_plugin"))
      throw Error("built for liesim's old C++ plugin boundary (ABI 1), which this liesim no longer loads: rebuild it "
                  "against this liesim's SDK (docs/plugin-guide.md)");
    throw Error(fmt::format("no entry point '{}' (not a liesim plugin: export it with LIESIM_PLUGIN, or by hand as in "
                            "docs/plugin-guide.md)", LIESIM_PLUGIN_ENTRY_NAME));
  }
  const auto entry = lib->get<const liesim_plugin*(const liesim_host*)>(LIESIM_PLUGIN_ENTRY_NAME);
  PluginContext loading;
  const liesim_plugin* t = nullptr;
  {
    LoadingScope scope(loading);
    t = entry(host_table());
  }
  const std::string said = loading.messages().empty() ? std::string() : fmt::format(": {}", fmt::join(loading.messages(), "; "));
  if (t == nullptr) throw Error(fmt::format("its entry point returned no plugin table{}", said.empty() ? " (and said nothing)" : said));
  // The fields every ABI has, up to the major: read them before anything else.
  if (t->size < offsetof(liesim_plugin, kind) + sizeof t->kind) throw Error("its plugin table is too small to be a liesim plugin table");
  if (t->abi_major != LIESIM_ABI_MAJOR)
    throw Error(fmt::format("built for liesim plugin ABI {}.{}, but this liesim has ABI {}.{} and loads plugins built for ABI {}: "
                            "{}", t->abi_major, t->abi_minor, LIESIM_ABI_MAJOR, LIESIM_ABI_MINOR, abi_range(),
                            t->abi_major > LIESIM_ABI_MAJOR ? "use a liesim with that ABI, or rebuild the plugin against this liesim's SDK"
                                                            : "rebuild the plugin against this liesim's SDK"));
  if (t->abi_minor > LIESIM_ABI_MINOR)
    throw Error(fmt::format("built for liesim plugin ABI {}.{}, newer than this liesim's ABI {}.{}: upgrade liesim, or rebuild the "
                            "plugin against the SDK of this liesim", t->abi_major, t->abi_minor, LIESIM_ABI_MAJOR, LIESIM_ABI_MINOR));
  if (t->size < offsetof(liesim_plugin, integrator) + sizeof t->integrator)
    throw Error(fmt::format("its plugin table has {} bytes, fewer than ABI {}.0 requires", t->size, LIESIM_ABI_MAJOR));
  const std::string token = tables::checked_text(t->build_token, "build token");
  if (token != LIESIM_BUILD_TOKEN)
    throw Error(fmt::format("its data layout '{}' is not this liesim's '{}' (build it for this platform)", token, LIESIM_BUILD_TOKEN));
  const std::string name = tables::checked_text(t->name, "name");
  if (name != name_of_file(file))
    throw Error(fmt::format("the plugin calls itself '{}', but its file says '{}': name the file liesim_{}.so", name, name_of_file(file), name));
  LoadedPlugin p;
  p.name = name;
  p.version = tables::checked_text(t->version, "version");
  p.summary = tables::checked_text(t->summary, "summary");
  p.file = file.string();
  p.abi_minor = static_cast<int>(t->abi_minor);
  const std::string metadata = t->metadata_json ? tables::checked_text(t->metadata_json, "metadata document") : "{}";
  p.metadata = metadata;
  std::shared_ptr<const void> keep = lib;
  if (t->kind == LIESIM_KIND_MODEL) {
    const liesim_model_api* api = t->model;
    if (api == nullptr || api->size < offsetof(liesim_model_api, exact_solution) + sizeof api->exact_solution)
      throw Error("a model plugin without a complete model table");
    tables::check_model_table(api);
    p.kind = PluginKind::model;
    p.model = std::make_shared<ModelTypeView>(t, metadata, keep, p.file);
  } else if (t->kind == LIESIM_KIND_INTEGRATOR) {
    const liesim_integrator_api* api = t->integrator;
    if (api == nullptr || api->size < offsetof(liesim_integrator_api, solver_stats) + sizeof api->solver_stats)
      throw Error("an integrator plugin without a complete integrator table");
    p.kind = PluginKind::integrator;
    p.integrator = std::make_shared<IntegratorFamilyView>(t, metadata, keep);
    tables::check_integrator_table(api, p.integrator->methods());
  } else {
    throw Error(fmt::format("unknown plugin kind {}", t->kind));
  }
  return p;
}

}  // namespace liesim
