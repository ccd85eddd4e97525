// The viewer pages of a study's cases (liesim view STUDY, and liesim study after its runs).
#include <liesim/catalog.hpp>
#include <liesim/status.hpp>
#include <liesim/study/case_views.hpp>
#include <liesim/study/results_table.hpp>
#include <liesim/view.hpp>

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

CaseViewPages write_case_views(const Registry& registry, const CaseViews& what) {
  const fs::path folder(what.folder);
  const fs::path results = folder / "results.csv";
  std::ifstream in(results);
  std::string header;
  if (!in || !std::getline(in, header))
    throw Error(fmt::format("view: {} is not a study's output folder (no results.csv; give a folder `liesim study` wrote)", what.folder));
  const auto columns = columns_from_header(header);
  if (!columns) throw Error(fmt::format("view: {} is not a study's results table (its header)", results.string()));
  std::map<std::string, std::vector<RunRecord>> by_case;  // in results.csv order
  std::vector<std::string> cases;
  bool any_series = false;
  for (const auto& r : read_results(results.string(), *columns)) {
    if (!fs::exists(folder / "series" / fmt::format("{}.csv", r.index))) continue;
    any_series = true;
    if (!selected(r, what.runs)) continue;
    if (!by_case.count(r.case_name)) cases.push_back(r.case_name);
    by_case[r.case_name].push_back(r);
  }
  if (!any_series)
    throw Error(fmt::format("view: no run of {} wrote a time series (give a [[runs]] group series = \"coarsest\" or \"all\")", what.folder));
  if (cases.empty()) throw Error(fmt::format("view: --runs {} selects no run with a series in {}", fmt::join(what.runs, ","), what.folder));
  const fs::path out = what.out.empty() ? folder : fs::path(what.out);
  CaseViewPages written;
  for (const auto& c : cases) {
    auto& records = by_case[c];
    std::sort(records.begin(), records.end(), [](const RunRecord& a, const RunRecord& b) { return a.index < b.index; });
    if (records.size() > 8) records.resize(8);
    const RunRecord& first = records.front();
    std::string error;
    const auto model = model_instance(registry.model(first.model), error, first.parameters);
    if (!model) throw Error(fmt::format("view: case '{}': model '{}' refused its parameters: {}", c, first.model, error));
    if (model->scene().bodies.empty()) {
      written.unpictured.push_back(fmt::format("{} ({})", c, first.model));
      continue;
    }
    if (model->prepare() != Status::ok) throw Error(fmt::format("view: case '{}': model '{}' failed to prepare: {}", c, first.model, model->last_error()));
    std::vector<ViewRun> runs;
    // The reference first (the distances are to it), where it wrote its series.
    if (const fs::path ref = folder / "reference" / (file_safe(c) + ".csv"); fs::exists(ref)) runs.push_back({reference_label(folder, c), ref.string()});
    for (const auto& r : records)
      runs.push_back({run_label(r), (folder / "series" / fmt::format("{}.csv", r.index)).string()});
    ViewOptions options;
    options.title = fmt::format("{}: case {} ({})", folder.filename().string(), c, first.model);
    options.frame_budget = what.frame_budget;
    const std::string page = (out / view_page_name(c)).string();
    write_view_page(view_data(*model, runs, options), page);
    written.pages.push_back(page);
  }
  if (written.pages.empty())
    throw Error(fmt::format("view: no model of {} states a scene (ABI 2.8), so there is nothing to draw: {}", what.folder,
                            fmt::join(written.unpictured, ", ")));
  return written;
}

}  // namespace liesim::study
