// `liesim manifest PLUGIN.so [--output FILE]`: load a plugin in a child process and write the
// manifest by which liesim finds it without loading it (liesim_NAME.json beside the library).
#include "commands.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;

namespace liesim::cli {

int manifest(const std::vector<std::string>& args) {
  std::string file, output;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--output" && i + 1 < args.size()) output = args[++i];
    else if (file.empty() && args[i].rfind("--", 0) != 0) file = args[i];
    else throw Error(fmt::format("manifest: unexpected argument '{}' (usage: liesim manifest PLUGIN.so [--output FILE])", args[i]));
  }
  if (file.empty()) throw Error("manifest needs a plugin file (usage: liesim manifest PLUGIN.so [--output FILE])");
  if (!fs::is_regular_file(file)) throw Error(fmt::format("manifest: no file '{}'", file));
  const ProbeResult r = probe_plugin(file);
  if (!r.manifest) throw Error(fmt::format("manifest: plugin {} failed to load: {}", file, r.failure));
  if (output.empty()) output = manifest_path(file).string();
  std::ofstream out(output);
  out << manifest_json(*r.manifest);
  out.close();
  if (!out) throw Error(fmt::format("manifest: writing '{}' failed", output));
  return 0;
}

}  // namespace liesim::cli
