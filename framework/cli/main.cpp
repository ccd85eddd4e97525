// liesim: simulate multibody systems on manifolds and compare the methods that integrate them.
#include "commands.hpp"
#include "contained.hpp"

#include <liesim/plugin.h>
#include <liesim/version.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <iostream>
#include <sstream>

namespace {

constexpr const char* usage = R"(usage:
  liesim list [--json]
  liesim describe NAME [--json] [--param KEY=VALUE]...   NAME: a model or an integrator method; a model
                                         with parameters: the layout, invariants and observables of that instance
  liesim run --model NAME --integrator NAME [--param KEY=VALUE]... [--option KEY=VALUE]...
             [--t-end T] (--step H | --rtol R --atol A) [--output FILE.csv] [--summary FILE.json]
             [--steps FILE.csv] [--outputs N | --output-times T1,T2,... | --output-grid DT | --output-every N]
             [--stop-when NAME<VALUE]... [--event NAME>VALUE]... [--events FILE.csv]
             [--invariants-every K] [--run-timeout SECONDS] [--view FILE.html]
  liesim study FILE.toml [--jobs N] [--out DIR] [--resume [--retry-failed]] [--run-timeout SECONDS] [--no-plots] [--no-views]
                         [--shard I/N]   only the I-th of N shares of the runs (job arrays)
  mpirun -np K liesim study FILE.toml ...  rank 0 hands the runs out to K - 1 worker ranks (docs/cluster.md)
                                         every run in a process of its own: a crash or a time limit
                                         fails that run, not the study; Ctrl-C stops and keeps results
  liesim study merge SHARD_DIR... --out DIR [--no-plots]   join the shards' folders into one study
  liesim plot DIR                        redraw the plots of a study
  liesim view (STUDY_DIR | SUMMARY.json... | DIR) [--runs A,B] [--out FILE] [--frames N] [--title T]
                                         the motion in the browser: a self-contained page (three.js
                                         embedded) of runs of one model (`liesim run --summary S.json
                                         --output X.csv` writes what it needs), or one per case of a study
                                         (STUDY_DIR/view_CASE.html, its runs that wrote a series)
  liesim figure strobe SERIES.csv --model M [--param KEY=VALUE]... --out FILE.(png|pdf) [--times T1,T2,...]
                       [--exposures N] [--title T]   the motion as one multi-exposure picture (papers)
  liesim --version                       liesim's version and plugin ABI
  liesim new (model|integrator) NAME [--dir DIR]   a ready-to-build plugin folder from the templates
  liesim manifest PLUGIN.so [--output FILE]        write the manifest beside a plugin (build systems do)
global options (before or after the command):
  --plugin-path DIR    also load plugins from DIR (repeatable; LIESIM_PLUGIN_PATH is colon-separated)
  --help               this text
exit status: 0 success; 1 error, bad options included (the message says what and how to fix it);
  2 no command or an unknown command;
  3 a study finished, but some of its runs failed (all results and outputs are written);
  4 run, describe, view or figure: a plugin crashed, called exit(), or ran past --run-timeout (it ran in a process of
    its own; the message says which plugin and what it was doing);
  130 (143) a study stopped by Ctrl-C (SIGTERM): what is done is written; --resume finishes it
)";

/// The usage lines of one command (its line and the continuation lines under it), the global
/// options and the exit statuses; empty if `command` is not one.
std::string command_usage(const std::string& command) {
  std::istringstream in(usage);
  std::string line, section, tail;
  bool inside = false, global = false;
  while (std::getline(in, line)) {
    if (line.rfind("global options", 0) == 0) global = true;
    if (global) {
      tail += line + "\n";
      continue;
    }
    if (line.rfind("  liesim ", 0) == 0) {
      const std::string rest = line.substr(9);
      inside = rest.rfind(command + " ", 0) == 0 || rest == command;
    } else if (line.rfind("    ", 0) != 0) {
      inside = false;
    }
    if (inside) section += line + "\n";
  }
  return section.empty() ? "" : "usage:\n" + section + tail;
}

bool wants_help(const std::vector<std::string>& args) {
  return std::any_of(args.begin() + 1, args.end(), [](const std::string& a) { return a == "--help" || a == "-h"; });
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  std::vector<std::string> plugin_paths, rest;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--plugin-path") {
      if (i + 1 >= args.size()) {
        std::cerr << "liesim: --plugin-path needs a folder\n";
        return 2;
      }
      plugin_paths.push_back(args[++i]);
    } else if (args[i].rfind("--plugin-path=", 0) == 0) {
      plugin_paths.push_back(args[i].substr(std::strlen("--plugin-path=")));
    } else {
      rest.push_back(args[i]);
    }
  }
  if (!rest.empty() && (rest[0] == "--version" || rest[0] == "version")) {
    std::cout << fmt::format("liesim {} (plugin ABI {}.{}, loads plugins built for ABI {}.0 to {}.{}; build token {})\n", LIESIM_VERSION,
                             LIESIM_ABI_MAJOR, LIESIM_ABI_MINOR, LIESIM_ABI_MAJOR, LIESIM_ABI_MAJOR, LIESIM_ABI_MINOR, LIESIM_BUILD_TOKEN);
    return 0;
  }
  if (rest.empty() || rest[0] == "--help" || rest[0] == "-h" || (rest[0] == "help" && rest.size() == 1)) {
    std::cout << usage;
    return rest.empty() ? 2 : 0;
  }
  // `liesim help CMD` and `liesim CMD --help`: that command's usage.
  if (rest[0] == "help" || wants_help(rest)) {
    const std::string& command = rest[0] == "help" ? rest[1] : rest[0];
    const std::string text = command_usage(command);
    if (text.empty()) {
      std::cerr << fmt::format("liesim: unknown command '{}'\n{}", command, usage);
      return 2;
    }
    std::cout << text;
    return 0;
  }
  try {
    const std::string command = rest[0];
    const std::vector<std::string> sub(rest.begin() + 1, rest.end());
    if (command == "plot") return liesim::cli::plot(sub);
    if (command == "new") return liesim::cli::new_plugin(sub);
    if (command == "manifest") return liesim::cli::manifest(sub);
    // Finds plugin files and their manifests; a plugin's code runs only when a command needs it.
    liesim::Registry registry;
    registry.load_directories(liesim::Registry::search_path(plugin_paths));
    const bool json = std::find(sub.begin(), sub.end(), "--json") != sub.end();
    if (command == "list") {
      for (const auto& a : sub)
        if (a != "--json") throw liesim::Error(fmt::format("list: unknown argument '{}'", a));
      return liesim::cli::list(registry, json);
    }
    if (command == "describe") {
      std::vector<std::string> names;
      std::map<std::string, std::string> params;
      for (std::size_t i = 0; i < sub.size(); ++i) {
        if (sub[i] == "--json") continue;
        if (sub[i] == "--param" || sub[i].rfind("--param=", 0) == 0) {
          const bool inline_value = sub[i] != "--param";
          if (!inline_value && i + 1 >= sub.size()) throw liesim::Error("describe: --param needs KEY=VALUE");
          params.insert(liesim::parse_assignment(inline_value ? sub[i].substr(8) : sub[++i], "--param"));
        } else if (sub[i].rfind("--", 0) == 0) {
          throw liesim::Error(fmt::format("describe: unknown option '{}' (describe takes NAME, --json and --param KEY=VALUE)", sub[i]));
        } else {
          names.push_back(sub[i]);
        }
      }
      if (names.size() != 1) throw liesim::Error("describe needs exactly one NAME (a model or a method; see `liesim list`)");
      // Describing a model makes an instance: the plugin's code runs in a child process.
      return liesim::cli::contained("describe", [&] { return liesim::cli::describe(registry, names[0], json, params); },
                                    liesim::probe_time_limit());
    }
    if (command == "run") return liesim::cli::run(registry, sub);
    if (command == "study") return liesim::cli::study(registry, sub);
    if (command == "view") return liesim::cli::view(registry, sub);
    if (command == "figure") return liesim::cli::figure(registry, sub);
    std::cerr << fmt::format("liesim: unknown command '{}'\n{}", command, usage);
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "liesim: error: " << e.what() << "\n";
    return 1;
  }
}
