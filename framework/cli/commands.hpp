// The subcommands of `liesim`.
#pragma once
#include <liesim/host/registry.hpp>

#include <map>
#include <string>
#include <vector>

namespace liesim::cli {

/// `liesim list [--json]` with its arguments; exit code.
int list(const Registry& registry, const std::vector<std::string>& args);
/// `liesim describe NAME [--json] [--param KEY=VALUE]...` with its arguments (in a child process); exit code.
int describe(const Registry& registry, const std::vector<std::string>& args);
/// The list: every plugin on the search path, each loaded in a child process, then
/// the failures (crashes included) and names offered twice; exit code 0.
int list(const Registry& registry, bool json);
/// The description: a model's parameters and conventions, and
/// the layout, invariants and observables of its instance with `params` (defaults for the rest);
/// or a method's options (no parameters).
int describe(const Registry& registry, const std::string& name, bool json, const std::map<std::string, std::string>& params = {});
/// `liesim run ...` with the remaining arguments; exit code.
int run(const Registry& registry, const std::vector<std::string>& args);

/// `liesim study FILE [--jobs N] [--out DIR] [--resume] ...` and `liesim study merge DIR...
/// --out DIR`; exit code.
int study(const Registry& registry, const std::vector<std::string>& args);
/// `liesim view PATH... [--runs A,B] [--out FILE] [--frames N] [--title T]`: the viewer page of runs
/// (their summaries, or folders of them) or one per case of a study folder; exit code.
int view(const Registry& registry, const std::vector<std::string>& args);
/// `liesim figure strobe SERIES.csv --model M [--param K=V]... --out FILE.(png|pdf) [--times T,...]
/// [--exposures N] [--title T]`: a multi-exposure picture of the motion; exit code.
int figure(const Registry& registry, const std::vector<std::string>& args);
/// `liesim plot DIR`: redraw the plots of a study from its results.
int plot(const std::vector<std::string>& args);
/// `liesim manifest PLUGIN.so [--output FILE]`: write the plugin's manifest.
int manifest(const std::vector<std::string>& args);
/// `liesim new (model|integrator) NAME [--dir DIR]`: a plugin folder from the installed templates.
int new_plugin(const std::vector<std::string>& args);

}  // namespace liesim::cli
