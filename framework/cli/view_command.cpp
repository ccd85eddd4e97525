// `liesim view`: the viewer page of runs (their summaries) or of a study's cases.
#include "command_line.hpp"
#include "commands.hpp"
#include "contained.hpp"

#include <liesim/host/catalog.hpp>
#include <liesim/host/child_process.hpp>
#include <liesim/sdk/status.hpp>
#include <liesim/study/case_views.hpp>
#include <liesim/host/view.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>

namespace fs = std::filesystem;
using nlohmann::json;

namespace liesim::cli {

namespace {

/// A run as its summary tells it (liesim run --summary S.json --output X.csv).
struct SummaryRun {
  std::string file, model;
  std::map<std::string, std::string> parameters;
  ViewRun run;
};

SummaryRun read_summary(const fs::path& file) {
  std::ifstream in(file);
  json j;
  try {
    j = json::parse(in);
  } catch (const json::exception& e) {
    throw Error(fmt::format("view: {} is not a run summary (JSON: {})", file.string(), e.what()));
  }
  if (!j.is_object() || !j.contains("model") || !j.contains("parameters"))
    throw Error(fmt::format("view: {} is not a run summary (`liesim run --summary FILE.json` writes one)", file.string()));
  if (!j.contains("series"))
    throw Error(fmt::format("view: the run of {} wrote no time series: run it again with --output FILE.csv (or --view)", file.string()));
  SummaryRun s;
  s.file = file.string();
  s.model = j["model"].get<std::string>();
  for (const auto& [k, v] : j["parameters"].items()) s.parameters[k] = v.get<std::string>();
  const std::string setting = j.contains("step") ? fmt::format("h = {:g}", j["step"].get<double>())
                                                 : fmt::format("tol = {:g}", j.value("rtol", 0.0));
  s.run.label = fmt::format("{} {}", j.value("integrator", std::string("?")), setting);
  s.run.series = (file.parent_path() / j["series"].get<std::string>()).string();
  return s;
}

/// Summaries given, or found in the folders given (*.json with a series).
std::vector<SummaryRun> summaries(const std::vector<std::string>& paths) {
  std::vector<SummaryRun> out;
  for (const auto& p : paths) {
    if (!fs::is_directory(p)) {
      out.push_back(read_summary(p));
      continue;
    }
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(p))
      if (e.path().extension() == ".json") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    for (const auto& f : files) {
      std::ifstream in(f);
      const json j = json::parse(in, nullptr, false);
      if (j.is_object() && j.contains("model") && j.contains("series")) out.push_back(read_summary(f));
    }
  }
  return out;
}

}  // namespace

int view(const Registry& registry, const std::vector<std::string>& args) {
  std::vector<std::string> paths;
  std::string runs_text, out, title;
  std::size_t frames = 2000;
  CommandLine cl("view", "(STUDY_DIR | SUMMARY.json... | DIR) [--runs A,B] [--out FILE] [--frames N] [--title T]",
                 "The motion in the browser: a self-contained page (three.js embedded) of runs of one model (`liesim run\n"
                 "--summary S.json --output X.csv` writes what it needs), or one per case of a study (STUDY_DIR/view_CASE.html,\n"
                 "its runs that wrote a series).");
  cl.add()("runs", po::value(&runs_text)->value_name("A,B,..."),
           "only these runs: integrator names (of a study: also run indices, results.csv's index)")(
      "out", po::value(&out)->value_name("FILE"),
      "the page (runs) or the folder of the pages (a study); default view.html beside the first summary, or the study folder")(
      "frames", po::value(&frames)->value_name("N"), "at most this many frames (default 2000)")(
      "title", po::value(&title)->value_name("T"), "the page's title");
  cl.operands(&paths, "a study folder, run summaries, or folders of summaries", 1, -1);
  cl.parse(args);
  if (paths.empty()) throw Error("view needs a study folder or run summaries (see `liesim view --help`)");
  if (frames < 2 || frames > 1'000'000) throw Error(fmt::format("view: --frames must be in [2, 1000000] (got {})", frames));
  std::vector<std::string> selection;
  for (std::size_t a = 0; !runs_text.empty() && a != std::string::npos;) {
    const std::size_t b = runs_text.find(',', a);
    selection.push_back(runs_text.substr(a, b == std::string::npos ? b : b - a));
    a = b == std::string::npos ? b : b + 1;
  }
  for (const auto& p : paths)
    if (!fs::exists(p)) throw Error(fmt::format("view: '{}' does not exist (give a study folder, or run summaries)", p));

  // The models' code (scenes, observables) runs in a child process.
  if (paths.size() == 1 && fs::exists(fs::path(paths[0]) / "results.csv")) {
    return contained("view", [&] {
      const auto written = study::write_case_views(registry, {paths[0], selection, frames, out, title});
      for (const auto& p : written.pages) fmt::print("written: {}\n", p);
      if (!written.unpictured.empty())
        fmt::print("no page for {}: the model states no scene\n", fmt::join(written.unpictured, ", "));
      return 0;
    });
  }
  auto found = summaries(paths);
  if (!selection.empty())
    found.erase(std::remove_if(found.begin(), found.end(), [&](const SummaryRun& s) {
      const std::string method = s.run.label.substr(0, s.run.label.find(' '));
      return std::find(selection.begin(), selection.end(), method) == selection.end();
    }), found.end());
  if (found.empty()) throw Error(fmt::format("view: no run summary with a time series in {}", fmt::join(paths, ", ")));
  for (const auto& s : found)
    if (s.model != found[0].model || s.parameters != found[0].parameters)
      throw Error(fmt::format("view: {} and {} are runs of different models or parameters: one page shows runs of one model with "
                              "the same parameters", found[0].file, s.file));
  if (out.empty()) out = (fs::path(found[0].file).parent_path() / "view.html").string();
  return contained("view", [&] {
    std::string error;
    const auto model = model_instance(registry.model(found[0].model), error, found[0].parameters);
    if (!model) throw Error(fmt::format("view: model '{}' refused the summary's parameters: {}", found[0].model, error));
    if (model->prepare() != Status::ok) throw Error(fmt::format("view: model '{}' failed to prepare: {}", found[0].model, model->last_error()));
    std::vector<ViewRun> runs;
    for (const auto& s : found) runs.push_back(s.run);
    ViewOptions options;
    options.title = title.empty() ? fmt::format("{}: {}", found[0].model, runs[0].label) : title;
    options.frame_budget = frames;
    write_view_page(view_data(*model, runs, options), out);
    fmt::print("written: {} ({} run{})\n", out, runs.size(), runs.size() == 1 ? "" : "s");
    return 0;
  });
}

}  // namespace liesim::cli
