// liesim: simulate multibody systems on manifolds and compare the methods that integrate them.
#include "command_line.hpp"
#include "commands.hpp"

#include <liesim/plugin.h>
#include <liesim/version.hpp>

#include <fmt/format.h>

#include <iostream>
#include <string>
#include <vector>

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
  liesim CMD --help (or liesim help CMD)           every option of a command, with its meaning
)";

}  // namespace

int main(int argc, char** argv) {
  using liesim::cli::po::value;
  namespace po = liesim::cli::po;
  std::vector<std::string> plugin_paths, rest;
  // The global options, before or after the command; the command's words, in order, stay.
  po::options_description global;
  global.add_options()("plugin-path", value(&plugin_paths)->composing());
  try {
    const po::parsed_options parsed =
        po::command_line_parser(argc, argv).options(global).allow_unregistered().style(liesim::cli::long_options_only).run();
    po::variables_map vm;
    po::store(parsed, vm);
    po::notify(vm);
    rest = po::collect_unrecognized(parsed.options, po::include_positional);
  } catch (const po::error& e) {
    std::cerr << fmt::format("liesim: {} (--plugin-path DIR)\n", e.what());
    return 2;
  }
  if (!rest.empty() && (rest[0] == "--version" || rest[0] == "version")) {
    std::cout << fmt::format("liesim {} (plugin ABI {}.{}, loads plugins built for ABI {}.0 to {}.{}; build token {})\n", LIESIM_VERSION,
                             LIESIM_ABI_MAJOR, LIESIM_ABI_MINOR, LIESIM_ABI_MAJOR, LIESIM_ABI_MAJOR, LIESIM_ABI_MINOR, LIESIM_BUILD_TOKEN);
    return 0;
  }
  if (rest.empty() || rest[0] == "--help" || rest[0] == "-h" || (rest[0] == "help" && rest.size() == 1)) {
    std::cout << usage << liesim::cli::global_help;
    return rest.empty() ? 2 : 0;
  }
  // `liesim help CMD [SUB]` is `liesim CMD [SUB] --help`: the help the command's own table makes.
  if (rest[0] == "help") {
    rest.erase(rest.begin());
    rest.push_back("--help");
  }
  const std::string command = rest[0];
  const std::vector<std::string> sub(rest.begin() + 1, rest.end());
  try {
    if (command == "plot") return liesim::cli::plot(sub);
    if (command == "new") return liesim::cli::new_plugin(sub);
    if (command == "manifest") return liesim::cli::manifest(sub);
    // Finds plugin files and their manifests; a plugin's code runs only when a command needs it.
    liesim::Registry registry;
    registry.load_directories(liesim::Registry::search_path(plugin_paths));
    if (command == "list") return liesim::cli::list(registry, sub);
    if (command == "describe") return liesim::cli::describe(registry, sub);
    if (command == "run") return liesim::cli::run(registry, sub);
    if (command == "study") return liesim::cli::study(registry, sub);
    if (command == "view") return liesim::cli::view(registry, sub);
    if (command == "figure") return liesim::cli::figure(registry, sub);
    std::cerr << fmt::format("liesim: unknown command '{}'\n{}", command, usage);
    return 2;
  } catch (const liesim::cli::HelpRequested& help) {
    std::cout << help.what();
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "liesim: error: " << e.what() << "\n";
    return 1;
  }
}
