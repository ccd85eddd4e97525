// Running a study: its stages (execution.hpp) one after the other: the plan validated, the output
// folder, the references, the runs (each appended to results.csv as it ends; --resume skips what
// is there), the final table and the observed orders.
#include "execution.hpp"

#include <liesim/sdk/fit.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <optional>

namespace fs = std::filesystem;

namespace liesim::study {

namespace {

/// The record of a run that was not made, or whose process gave no record: why.
RunRecord failed_record(const Execution& ex, const RunItem& item, const std::string& why, double seconds) {
  // A run matching an adaptive run's error has no step until its search ends in its own process.
  const bool searched = item.matched >= 0 && item.group->match == "error";
  RunRecord rec = base_record(ex, item, searched ? std::numeric_limits<double>::quiet_NaN() : ex.matched_step[item.index]);
  rec.status = "failed";
  rec.error = why;
  rec.wall_time_s = seconds;
  rec.cpu_time_s = std::numeric_limits<double>::quiet_NaN();  // its process's CPU time is not measured
  return rec;
}

/// The matched runs' steps and errors, from the adaptive runs they match.
void match_steps(Execution& ex) {
  for (const auto& item : ex.plan.items) {
    if (item.matched < 0) continue;
    for (const auto& r : ex.result.records)
      if (r.index == item.matched && r.status == "ok" && r.stats.steps > 0) {
        ex.matched_step[item.index] = r.t_end / static_cast<double>(r.stats.steps);
        ex.matched_error[item.index] = r.error_final;
      }
  }
}

/// The runs of one phase (those with a known step or tolerance, or the matched ones), each
/// measured by the engine and recorded by `record` as it ends. False when stopped on request.
bool run_phase(Execution& ex, Engine& engine, bool matched_phase, const std::function<void(RunRecord)>& record) {
  const auto& items = ex.plan.items;
  std::vector<int> todo;
  for (const auto& item : items) {
    if (engine.worker() || !ex.plan.mine(item) || ex.done.count(item.id) || (item.matched >= 0) != matched_phase) continue;
    if (const RunPlan& plan = ex.plan.plans[item.index]; plan.state != RunPlan::State::ok)
      record(failed_record(ex, item, plan.message, 0.0));
    else if (const auto f = ex.plan.reference_failure.find(item.case_spec->name); f != ex.plan.reference_failure.end())
      record(failed_record(ex, item, f->second, 0.0));
    else
      todo.push_back(item.index);
  }
  Phase phase;
  phase.limit = [&](int index) { return ex.plan.limit_of(items[static_cast<std::size_t>(index)]); };
  phase.job = [&](int index) { return csv_row(measure_run(ex, index), ex.plan.columns); };
  // What a run needs of the coordinator: its case's reference and, for a matched run, the step
  // (and error) of the run it matches.
  phase.context = [&](int index) {
    const RunItem& item = items[static_cast<std::size_t>(index)];
    nlohmann::json j{{"matched_step", ex.matched_step[item.index]}, {"matched_error", ex.matched_error[item.index]}};
    if (const auto r = ex.result.references.find(item.case_spec->name); r != ex.result.references.end())
      j["reference"] = reference_json(r->second);
    return j.dump();
  };
  phase.apply = [&](int index, const std::string& text) {
    const RunItem& item = items[static_cast<std::size_t>(index)];
    const auto j = nlohmann::json::parse(text);
    ex.matched_step[item.index] = j.at("matched_step").get<double>();
    ex.matched_error[item.index] = j.at("matched_error").get<double>();
    if (j.contains("reference")) ex.result.references[item.case_spec->name] = reference_from_json(j["reference"]);
  };
  phase.done = [&](int index, const ChildOutcome& o) {
    const RunItem& item = items[static_cast<std::size_t>(index)];
    std::optional<RunRecord> rec;
    if (o.answered()) {
      std::string row = o.text;
      if (!row.empty() && row.back() == '\n') row.pop_back();
      rec = parse_row(row, ex.plan.columns);
      if (!rec) rec = failed_record(ex, item, "its process gave an unreadable result row", o.seconds);
    } else {
      rec = failed_record(ex, item, o.reason(), o.seconds);
    }
    record(std::move(*rec));
  };
  return engine.run(todo, ex.opt, phase);
}

/// The final table, sorted by plan order, so that it is the same whatever the number of jobs.
void write_final_table(Execution& ex) {
  auto& records = ex.result.records;
  std::sort(records.begin(), records.end(), [](const RunRecord& a, const RunRecord& b) { return a.index < b.index; });
  std::ofstream table(ex.out / "results.csv", std::ios::trunc);
  table << csv_header(ex.plan.columns);
  for (const auto& r : records) table << csv_row(r, ex.plan.columns);
}

}  // namespace

StudyResult run_study(const Registry& registry, const StudySpec& study, const RunOptions& opt) {
  Execution ex(registry, study, opt, plan_study(registry, study, opt));
  LocalEngine local;
  Engine& engine = opt.engine ? *opt.engine : local;
  // The coordinator writes every output; a worker rank only runs the jobs it is handed, writing the
  // series and step files of its runs into the same folder.
  const bool worker = engine.worker();
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> results(nullptr, &std::fclose);
  if (ex.out.empty()) throw Error("the study's output folder is empty: set 'output' in the study file or give --out DIR");
  if (!worker) results = open_results(ex);
  if (!compute_references(ex, engine)) {
    ex.result.interrupted = true;
    ex.result.not_run = ex.plan.runs_of_shard - static_cast<int>(ex.result.records.size());
    return std::move(ex.result);
  }
  int finished = ex.result.skipped;
  auto record = [&](RunRecord rec) {  // the coordinator's
    const std::string row = csv_row(rec, ex.plan.columns);
    std::fwrite(row.data(), 1, row.size(), results.get());
    std::fflush(results.get());
    ++finished;
    if (opt.progress) opt.progress(finished, ex.plan.runs_of_shard, rec);
    ex.result.records.push_back(std::move(rec));
  };
  // First the runs with a known step or tolerance, then the matched constant-step runs.
  for (const bool matched_phase : {false, true}) {
    if (matched_phase) match_steps(ex);
    if (!run_phase(ex, engine, matched_phase, record)) {
      ex.result.interrupted = true;
      break;
    }
  }
  ex.result.not_run = ex.plan.runs_of_shard - static_cast<int>(ex.result.records.size());
  if (worker) return std::move(ex.result);
  results.reset();
  write_final_table(ex);
  ex.result.orders = observed_orders(ex.result.records, ex.result.references, study.error);
  return std::move(ex.result);
}

double measured_error(const RunRecord& r, const std::string& error) {
  return error == "max" ? r.error_max : error == "rms" ? r.error_rms : r.error_final;
}

std::vector<OrderFit> observed_orders(const std::vector<RunRecord>& records, const std::map<std::string, Reference>& refs,
                                      const std::string& error) {
  std::map<std::tuple<std::string, std::string, std::string>, std::vector<const RunRecord*>> groups;
  for (const auto& r : records)
    if (r.step > 0 && !(r.status == "ok" && std::isnan(r.error_final)))  // a run that measured no error (one step) is no sweep point
      groups[{r.case_name, r.integrator, r.group}].push_back(&r);
  std::vector<OrderFit> out;
  for (const auto& [key, runs] : groups) {
    if (runs.size() < 3) continue;  // not a convergence sweep
    OrderFit fit;
    std::tie(fit.case_name, fit.integrator, fit.group) = key;
    fit.nominal = runs.front()->order;
    const auto found = refs.find(fit.case_name);
    if (found == refs.end()) {
      fit.note = "no reference for this case (it failed)";
      out.push_back(fit);
      continue;
    }
    const Reference& ref = found->second;
    double scale = 0;
    for (double v : ref.y) scale = std::max(scale, std::abs(v));
    // Asymptotic range: errors well above the reference's own accuracy and below 10% of the
    // solution's size.
    const double floor = std::max(10.0 * (error == "final" ? ref.accuracy : ref.trajectory_accuracy), 1e-13 * std::max(1.0, scale));
    const double ceiling = 0.1 * std::max(1.0, scale);
    std::vector<std::pair<double, double>> pts;
    for (const auto* r : runs)
      if (r->status == "ok" && measured_error(*r, error) > floor && measured_error(*r, error) < ceiling)
        pts.emplace_back(std::log(r->step), std::log(measured_error(*r, error)));
    // Pre-asymptotic coarse steps bend the curve: starting from the finest pair, keep coarser
    // points while their local slope stays within 0.3 of the finest local slope.
    std::sort(pts.begin(), pts.end());
    if (pts.size() >= 3) {
      auto local = [&](std::size_t k) { return (pts[k + 1].second - pts[k].second) / (pts[k + 1].first - pts[k].first); };
      const double finest = local(0);
      std::size_t keep = 2;
      while (keep < pts.size() && std::abs(local(keep - 1) - finest) <= 0.3) ++keep;
      pts.resize(keep);
    }
    fit.points = static_cast<int>(pts.size());
    if (pts.size() < 3) {
      fit.note = fmt::format("{} point(s) in the asymptotic range ({:.1e} < error < {:.1e}, local slopes within 0.3); need 3",
                             pts.size(), floor, ceiling);
      out.push_back(fit);
      continue;
    }
    std::vector<double> hs, errs;
    for (const auto& [x, y] : pts) {
      hs.push_back(std::exp(x));
      errs.push_back(std::exp(y));
    }
    fit.observed = loglog_slope(hs, errs);
    fit.h_from = std::exp(std::min_element(pts.begin(), pts.end())->first);
    fit.h_to = std::exp(std::max_element(pts.begin(), pts.end())->first);
    out.push_back(fit);
  }
  return out;
}

}  // namespace liesim::study
