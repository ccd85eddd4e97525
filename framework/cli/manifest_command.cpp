// `liesim manifest PLUGIN.so [--output FILE]`: load a plugin in a child process and write the
// manifest by which liesim finds it without loading it (liesim_NAME.json beside the library).
#include "command_line.hpp"
#include "commands.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;

namespace liesim::cli {

int manifest(const std::vector<std::string>& args) {
  std::vector<std::string> files;
  std::string output;
  CommandLine cl("manifest", "PLUGIN.so [--output FILE]",
                 "Load a plugin in a child process and write the manifest by which liesim finds it without loading it\n"
                 "(liesim_NAME.json beside the library; build systems run this).");
  cl.add()("output", po::value(&output)->value_name("FILE"), "write the manifest here instead");
  cl.operands(&files, "a plugin file PLUGIN.so", 1, 1);
  cl.parse(args);
  const std::string& file = files.front();
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
