// Pictures of a study's motion from its models' scenes: the viewer page of each case (liesim view
// STUDY, and liesim study after its runs) and the strobe [[figure]]s.
#include <liesim/host/catalog.hpp>
#include <liesim/host/share_scripts.hpp>
#include <liesim/sdk/status.hpp>
#include <liesim/study/case_views.hpp>
#include <liesim/study/results_table.hpp>
#include <liesim/host/view.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>

namespace liesim::study {

namespace fs = std::filesystem;

namespace {

std::string run_label(const RunRecord& r) {
  const std::string setting = r.step > 0 ? fmt::format("h = {:g}", r.step) : fmt::format("tol = {:g}", r.tolerance);
  return fmt::format("{} {}{}", r.integrator, setting, r.status == "ok" ? "" : " (failed)");
}

/// "reference (rkmk5 h = 0.0001)", from the reference's cached settings.
std::string reference_label(const fs::path& folder, const std::string& case_name) {
  std::ifstream in(folder / "reference" / (file_safe(case_name) + ".json"));
  const nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
  if (!j.is_object() || !j.contains("settings")) return "reference";
  const nlohmann::json k = nlohmann::json::parse(j["settings"].get<std::string>(), nullptr, false);
  if (!k.is_object()) return "reference";
  const double step = k.value("step", 0.0);
  return fmt::format("reference ({} {})", k.value("integrator", std::string("?")),
                     step > 0 ? fmt::format("h = {:g}", step) : fmt::format("tol = {:g}", k.value("rtol", 0.0)));
}

bool selected(const RunRecord& r, const std::vector<std::string>& runs) {
  return runs.empty() || std::find(runs.begin(), runs.end(), r.integrator) != runs.end() ||
         std::find(runs.begin(), runs.end(), std::to_string(r.index)) != runs.end();
}

}  // namespace

std::string file_safe(const std::string& case_name) {
  std::string safe;
  for (char ch : case_name) safe += std::isalnum(static_cast<unsigned char>(ch)) || ch == '-' || ch == '_' ? ch : '_';
  return safe;
}

namespace {

/// The runs of a study folder by case, in results.csv order.
struct StudyCases {
  std::vector<std::string> names;
  std::map<std::string, std::vector<RunRecord>> runs;
};

StudyCases read_cases(const fs::path& folder) {
  const fs::path results = folder / "results.csv";
  std::ifstream in(results);
  std::string header;
  if (!in || !std::getline(in, header))
    throw Error(fmt::format("view: {} is not a study's output folder (no results.csv; give a folder `liesim study` wrote)", folder.string()));
  const auto columns = columns_from_header(header);
  if (!columns) throw Error(fmt::format("view: {} is not a study's results table (its header)", results.string()));
  StudyCases cases;
  for (const auto& r : read_results(results.string(), *columns)) {
    if (!cases.runs.count(r.case_name)) cases.names.push_back(r.case_name);
    cases.runs[r.case_name].push_back(r);
  }
  for (auto& [name, runs] : cases.runs)
    std::sort(runs.begin(), runs.end(), [](const RunRecord& a, const RunRecord& b) { return a.index < b.index; });
  return cases;
}

fs::path series_of(const fs::path& folder, const RunRecord& r) { return folder / "series" / fmt::format("{}.csv", r.index); }

/// The model of a case (with the parameters its runs had), prepared; nullptr when it states no scene.
std::unique_ptr<ModelView> case_model(const Registry& registry, const std::string& c, const RunRecord& r) {
  std::string error;
  auto model = model_instance(registry.model(r.model), error, r.parameters);
  if (!model) throw Error(fmt::format("view: case '{}': model '{}' refused its parameters: {}", c, r.model, error));
  if (model->scene().bodies.empty()) return nullptr;
  if (model->prepare() != Status::ok) throw Error(fmt::format("view: case '{}': model '{}' failed to prepare: {}", c, r.model, model->last_error()));
  return model;
}

}  // namespace

CaseViewPages write_case_views(const Registry& registry, const CaseViews& what) {
  const fs::path folder(what.folder);
  const StudyCases all = read_cases(folder);
  bool any_series = false, any_selected = false;
  const fs::path out = what.out.empty() ? folder : fs::path(what.out);
  CaseViewPages written;
  for (const auto& c : all.names) {
    std::vector<RunRecord> records;
    for (const auto& r : all.runs.at(c)) {
      if (!fs::exists(series_of(folder, r))) continue;
      any_series = true;
      if (selected(r, what.runs)) records.push_back(r);
    }
    if (records.empty()) continue;
    any_selected = true;
    if (records.size() > 8) records.resize(8);
    const auto model = case_model(registry, c, records.front());
    if (!model) {
      written.unpictured.push_back(fmt::format("{} ({})", c, records.front().model));
      continue;
    }
    std::vector<ViewRun> runs;
    // The reference first (the distances are to it), where it wrote its series.
    if (const fs::path ref = folder / "reference" / (file_safe(c) + ".csv"); fs::exists(ref)) runs.push_back({reference_label(folder, c), ref.string()});
    for (const auto& r : records) runs.push_back({run_label(r), series_of(folder, r).string()});
    ViewOptions options;
    options.title = fmt::format("{}: case {} ({})", what.title.empty() ? folder.filename().string() : what.title, c, records.front().model);
    options.frame_budget = what.frame_budget;
    const std::string page = (out / view_page_name(c)).string();
    write_view_page(view_data(*model, runs, options), page);
    written.pages.push_back(page);
  }
  if (!any_series)
    throw Error(fmt::format("view: no run of {} wrote a time series (give a [[runs]] group series = \"coarsest\" or \"all\")", what.folder));
  if (!any_selected) throw Error(fmt::format("view: --runs {} selects no run with a series in {}", fmt::join(what.runs, ","), what.folder));
  if (written.pages.empty())
    throw Error(fmt::format("view: no model of {} states a scene (ABI 2.8), so there is nothing to draw: {}", what.folder,
                            fmt::join(written.unpictured, ", ")));
  return written;
}

std::vector<std::string> draw_strobe_figures(const Registry& registry, const StudySpec& spec, const std::string& out) {
  const fs::path folder(out);
  const StudyCases all = read_cases(folder);
  const fs::path script = share_folder() / "strobe.py";
  const std::string python = python_with_matplotlib();
  std::vector<std::string> written;
  for (const FigureSpec& f : spec.figures) {
    if (f.kind != "strobe") continue;
    if (!fs::exists(script)) throw Error(fmt::format("strobe figures: the drawing script {} is missing (reinstall liesim)", script.string()));
    if (python.empty()) throw Error("strobe figures: python3 with matplotlib is not installed (sudo apt-get install python3-matplotlib)");
    for (const auto& c : all.names) {
      if (!selects(f.cases, c)) continue;
      const auto& runs = all.runs.at(c);
      ViewRun shown{reference_label(folder, c), (folder / "reference" / (file_safe(c) + ".csv")).string()};
      if (!f.run.empty()) {
        const auto it = std::find_if(runs.begin(), runs.end(), [&](const RunRecord& r) { return r.integrator == f.run && fs::exists(series_of(folder, r)); });
        if (it == runs.end())
          throw Error(fmt::format("{}:{}: [[figure]] '{}': no run of '{}' in case '{}' wrote a series (give its [[runs]] group series = \"all\")",
                                  spec.file, f.line, f.name, f.run, c));
        shown = {run_label(*it), series_of(folder, *it).string()};
      } else if (!fs::exists(shown.series)) {
        throw Error(fmt::format("{}:{}: [[figure]] '{}': case '{}' has no reference series ({}): rerun the study", spec.file, f.line, f.name, c,
                                shown.series));
      }
      const auto model = case_model(registry, c, runs.front());
      if (!model) throw Error(fmt::format("{}:{}: [[figure]] '{}': model '{}' of case '{}' states no scene to draw", spec.file, f.line, f.name,
                                          runs.front().model, c));
      ViewOptions options;
      options.times = f.times;
      options.exposures = f.exposures;
      options.title = fmt::format("{}: {}", f.title.empty() ? f.name : f.title, c);
      const fs::path base = folder / "plots" / fmt::format("figure_{}_{}", f.name, file_safe(c));
      fs::create_directories(base.parent_path());
      const std::string data = base.string() + ".view.json", log = base.string() + ".log";
      {
        std::ofstream o(data);
        o << view_data(*model, {shown}, options).dump();
        if (!o.flush()) throw Error(fmt::format("strobe figures: writing '{}' failed", data));
      }
      for (const char* ext : {".png", ".pdf"}) {
        const std::string file = base.string() + ext;
        if (wait_program(start_program({python, "-I", script.string(), data, "--out", file}, log)) != 0)
          throw Error(fmt::format("{}:{}: [[figure]] '{}' of case '{}': strobe.py failed (its output: {})", spec.file, f.line, f.name, c, log));
        written.push_back(file);
      }
      fs::remove(data);
      fs::remove(log);
    }
  }
  return written;
}

}  // namespace liesim::study
