// `liesim figure strobe`: a multi-exposure picture of a run's motion for papers (the model's scene
// at several times in one matplotlib 3-D figure, drawn by share/liesim/strobe.py).
#include "command_line.hpp"
#include "commands.hpp"
#include "contained.hpp"

#include <liesim/host/catalog.hpp>
#include <liesim/sdk/settings.hpp>
#include <liesim/host/share_scripts.hpp>
#include <liesim/sdk/status.hpp>
#include <liesim/host/view.hpp>

#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>

namespace fs = std::filesystem;

namespace liesim::cli {

int figure(const Registry& registry, const std::vector<std::string>& args) {
  std::vector<std::string> positional_args, params;
  std::string model, out, times_text, title;
  int exposures = 8;
  CommandLine cl("figure", "strobe SERIES.csv --model M [--param KEY=VALUE]... --out FILE.(png|pdf) [--times T1,T2,...]\n"
                           "                       [--exposures N] [--title T]",
                 "The motion as one multi-exposure picture (papers): the model's scene at several times of a run's series.");
  cl.add()("model", po::value(&model)->value_name("M"), "the model of the series")(
      "param", po::value(&params)->composing()->value_name("KEY=VALUE"), "model parameter (repeatable), as the run had them")(
      "out", po::value(&out)->value_name("FILE"), "the figure: FILE.png or FILE.pdf")(
      "times", po::value(&times_text)->value_name("T1,T2,..."), "the exposures' times")(
      "exposures", po::value(&exposures)->value_name("N"), "this many exposures evenly over the run (default 8; without --times)")(
      "title", po::value(&title)->value_name("T"), "the figure's title");
  cl.operands(&positional_args, "a kind and a series: strobe SERIES.csv", 1, 2);
  const po::variables_map vm = cl.parse(args);
  if (positional_args.empty()) throw Error("figure needs a kind: `liesim figure strobe SERIES.csv --model M --out FILE.png`");
  if (positional_args[0] != "strobe") throw Error(fmt::format("figure: unknown kind '{}' (kinds: strobe)", positional_args[0]));
  if (positional_args.size() != 2) throw Error("figure strobe needs exactly one SERIES.csv (`liesim run --output` writes one)");
  const std::string series = positional_args[1];
  if (model.empty()) throw Error("figure strobe needs --model NAME (the model the series is of)");
  if (out.empty()) throw Error("figure strobe needs --out FILE.png or FILE.pdf");
  const std::string extension = fs::path(out).extension().string();
  if (extension != ".png" && extension != ".pdf")
    throw Error(fmt::format("figure: --out '{}' must end in .png or .pdf (the figure's format)", out));
  if (!fs::exists(series)) throw Error(fmt::format("figure: the series '{}' does not exist", series));
  std::map<std::string, std::string> parameters;
  for (const auto& p : params) parameters.insert(parse_assignment(p, "--param"));
  ViewOptions options;
  if (vm.count("times") && vm.count("exposures"))
    throw Error("figure: give --times T1,T2,... or --exposures N, not both (both choose the exposures)");
  if (vm.count("times")) options.times = Settings({{"times", "", "", ""}}, {{"times", times_text}}, "figure").numbers("times", {});
  else if (exposures < 2 || exposures > 100) throw Error(fmt::format("figure: --exposures must be in [2, 100] (got {})", exposures));
  options.exposures = exposures;
  options.title = title;
  const fs::path script = share_folder() / "strobe.py";
  if (!fs::exists(script)) throw Error(fmt::format("figure: the drawing script {} is missing (reinstall liesim)", script.string()));
  const std::string python = python_with_matplotlib();
  if (python.empty()) throw Error("figure: python3 with matplotlib is not installed (sudo apt-get install python3-matplotlib)");
  const std::string data = out + ".view.json";
  // The model's code (scene, observables) runs in a child process.
  const int status = contained("figure", [&] {
    std::string error;
    const auto m = model_instance(registry.model(model), error, parameters);
    if (!m) throw Error(fmt::format("figure: model '{}': {}", model, error));
    if (m->prepare() != Status::ok) throw Error(fmt::format("figure: model '{}' failed to prepare: {}", model, m->last_error()));
    const auto doc = view_data(*m, {{fs::path(series).stem().string(), series}}, options);
    std::ofstream o(data);
    o << doc.dump();
    if (!o.flush()) throw Error(fmt::format("figure: writing '{}' failed", data));
    return 0;
  });
  if (status != 0) return status;
  const std::string log = out + ".log";
  std::vector<std::string> argv = {python, "-I", script.string(), data, "--out", out};
  if (!title.empty()) argv.insert(argv.end(), {"--title", title});
  const int drawn = wait_program(start_program(argv, log));
  std::remove(data.c_str());
  if (drawn != 0) {
    std::ifstream l(log);
    std::cerr << l.rdbuf();
    throw Error(fmt::format("figure: drawing failed (strobe.py exit {}; its output above, kept in {})", drawn, log));
  }
  std::remove(log.c_str());
  fmt::print("written: {}\n", out);
  return 0;
}

}  // namespace liesim::cli
