// Running a study: validation of every run first, references (cached), runs on a thread pool,
// each finished run appended to results.csv at once; --resume skips what is already there.
#include <liesim/child_process.hpp>
#include <liesim/fit.hpp>
#include <liesim/io/output.hpp>
#include <liesim/plugin.hpp>
#include <liesim/run.hpp>
#include <liesim/study/equal_accuracy.hpp>
#include <liesim/study/output_folder.hpp>
#include <liesim/study/results_table.hpp>
#include <liesim/study/case_views.hpp>
#include <liesim/study/study_runner.hpp>

#include "../divergence.hpp"
#include "run_plan.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>

namespace fs = std::filesystem;

namespace liesim::study {

namespace {

/// A run's times are the medians of repeated runs that take this much CPU time in all (see
/// timing_runs): CPU time, so that how many runs are timed does not depend on the machine's load.
constexpr double min_timed_s = 0.02;
constexpr int max_timing_runs = 1000;
/// ... or this much wall time: a run that waits rather than computes stops there, not at 1000 runs.
constexpr double max_timed_wall_s = 2.0;

/// Every [[figure]] draws columns that some run of its cases writes into its time series.
void validate_figures(const StudySpec& study, const std::map<std::string, std::set<std::string>>& series_columns) {
  for (const FigureSpec& f : study.figures) {
    if (f.kind == "strobe" && f.run.empty() && study.reference.integrator == "exact")
      throw Error(fmt::format("{}:{}: [[figure]] '{}': a strobe figure of the reference needs an integrator reference (the exact "
                              "solution writes no series): give run = \"METHOD\", a method of a [[runs]] group with series", study.file,
                              f.line, f.name));
    if (f.kind == "strobe" && f.run.empty()) continue;  // the reference's series
    std::set<std::string> available;
    for (const auto& [name, cols] : series_columns) {
      if (selects(f.cases, name)) available.insert(cols.begin(), cols.end());
    }
    if (available.empty())
      throw Error(fmt::format("{}:{}: [[figure]] '{}': no run of its cases writes a time series (give a [[runs]] group series = "
                              "\"coarsest\" or \"all\")", study.file, f.line, f.name));
    for (const auto* list : {&f.columns, &f.against})
      for (const auto& col : *list)
        if (!available.count(col))
          throw Error(fmt::format("{}:{}: [[figure]] '{}': no series has a column '{}' (columns: t, {})", study.file, f.line, f.name, col,
                                  fmt::join(available, ", ")));
  }
}

RunRequest request_for(const CaseSpec& c, const std::string& integrator, double step, double tol,
                       const std::map<std::string, std::string>& options) {
  RunRequest q;
  q.model = c.model;
  q.parameters = c.parameters;
  q.method = integrator;
  q.options = options;
  q.t_end = c.t_end;
  q.step = step;
  q.rtol = tol;
  q.atol = tol;
  q.solver_outputs = c.outputs;
  q.output_times = c.output_times;
  q.stop_when = c.stop_when;
  q.events = c.events;
  return q;
}

/// The request of a run of the plan: a one-step run ends after its one step (t_end = h), from
/// the case's point or (`second`) from its pair's.
RunRequest request_for(const RunItem& item, double step, bool second = false) {
  RunRequest q = request_for(*item.case_spec, item.integrator, step, item.tolerance, item.group->options);
  if (item.group->one_step) {
    q.t_end = step;
    q.output_times.clear();  // one step: no output inside it
  }
  if (second)
    for (const auto& [k, v] : item.case_spec->pair) q.parameters[k] = v;
  return q;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size();
  return m % 2 ? v[m / 2] : 0.5 * (v[m / 2 - 1] + v[m / 2]);
}

/// The states at the output times after t0 (the observers of a run with output times see t0 and
/// exactly those times), one after the other.
struct TrajectoryRecorder final : Observer {
  double t0 = 0.0;
  std::vector<double> states;
  void on_output(double t, ConstVec y) override {
    if (t > t0) states.insert(states.end(), y.data(), y.data() + y.size());
  }
};

/// The errors over the output times (RunRecord::error_max, error_rms) of a run's states against the
/// reference's there (both n values per time, in order).
void trajectory_errors(RunRecord& rec, const std::vector<double>& run, const std::vector<double>& reference, std::size_t n) {
  if (n == 0 || run.empty() || run.size() != reference.size()) return;
  double worst = 0, sum = 0;
  for (std::size_t k = 0; k < run.size(); k += n) {
    double d = 0;
    for (std::size_t i = k; i < k + n; ++i) d += (run[i] - reference[i]) * (run[i] - reference[i]);
    worst = std::max(worst, std::sqrt(d));
    sum += d;
  }
  rec.error_max = worst;
  rec.error_rms = std::sqrt(sum / static_cast<double>(run.size() / n));
}

/// The time each event of a run was first located, by the event's text.
std::map<std::string, double> first_event_times(const RunResult& r, const RunSpec& spec) {
  std::map<std::string, double> times;
  for (const EventHit& hit : r.events) times.emplace(spec.events[hit.event].text, hit.t);
  return times;
}

/// The model's exact solution at t_end and the case's output times (reference integrator "exact").
Reference exact_reference(const Registry& registry, const CaseSpec& c) {
  const LoadedPlugin& plugin = registry.model(c.model);
  const Settings params(plugin.model->parameters(), c.parameters, fmt::format("parameter of model '{}'", c.model));
  std::string error;
  std::unique_ptr<Model> m(plugin.model->create(params, error));
  if (!m) throw Error(error);
  Eigen::VectorXd y(m->size());
  if (!m->has_exact_solution() || m->exact_solution(c.t_end, y) != Status::ok)
    throw Error(fmt::format("model '{}' has no exact solution for these parameters; give [reference] an integrator", c.model));
  Reference ref;
  ref.y.assign(y.data(), y.data() + y.size());
  ref.accuracy = 0.0;
  for (const double t : c.output_times) {
    if (m->exact_solution(t, y) != Status::ok)
      throw Error(fmt::format("model '{}' has no exact solution at the output time {}; give [reference] an integrator", c.model, t));
    ref.trajectory.insert(ref.trajectory.end(), y.data(), y.data() + y.size());
  }
  return ref;
}

/// `series`: where the reference writes its time series ("" none), for the viewer pages: about
/// 2,000 rows (every k-th step of a fixed-step reference; every step of an adaptive one).
Reference compute_reference(const Registry& registry, const StudySpec& s, const CaseSpec& c, const std::string& series = "") {
  const ReferenceSpec& r = s.reference;
  if (r.integrator == "exact") return exact_reference(registry, c);
  // The final state, the states at the case's output times (its dense output) and the events' times.
  auto run = [&](double step, double rtol, double atol, std::vector<double>& trajectory, std::map<std::string, double>& events,
                 const std::string& series_file) {
    RunRequest q = request_for(c, r.integrator, step, 0.0, r.options);
    q.rtol = step > 0 ? 0.0 : rtol;
    q.atol = step > 0 ? 0.0 : atol;
    PreparedRun p = prepare_run(registry, q);
    TrajectoryRecorder recorder;
    recorder.t0 = p.spec.t0;
    ObserverList observers;
    observers.add(recorder);
    std::unique_ptr<CsvWriter> csv;
    std::optional<Thinning> thinned;
    if (!series_file.empty()) {
      csv = std::make_unique<CsvWriter>(series_file, *p.model);
      const long every = step > 0 ? std::max(1L, std::lround((c.t_end - p.spec.t0) / step / 2000.0)) : 1L;
      thinned.emplace(Thinning::every_nth(*csv, every, p.model->size()));
      observers.add(*thinned);
    }
    const RunResult result = execute(p, observers);
    if (thinned) thinned->finish();
    if (!c.output_times.empty()) trajectory = std::move(recorder.states);
    events = first_event_times(result, p.spec);
    return result.y;
  };
  Reference ref;
  std::vector<double> loose_trajectory;
  std::map<std::string, double> loose_events;
  const Eigen::VectorXd y = run(r.step, r.rtol, r.atol, ref.trajectory, ref.event_times, series);
  const Eigen::VectorXd loose = r.step > 0 ? run(2 * r.step, 0, 0, loose_trajectory, loose_events, "")
                                           : run(0, 10 * r.rtol, 10 * r.atol, loose_trajectory, loose_events, "");
  ref.y.assign(y.data(), y.data() + y.size());
  ref.accuracy = (y - loose).norm();
  for (const auto& [name, t] : ref.event_times) {
    const auto it = loose_events.find(name);
    ref.event_accuracy = std::max(ref.event_accuracy, it == loose_events.end() ? std::numeric_limits<double>::infinity() : std::abs(t - it->second));
  }
  const auto n = static_cast<std::size_t>(y.size());
  for (std::size_t k = 0; k + n <= ref.trajectory.size() && k + n <= loose_trajectory.size(); k += n) {
    double d = 0;
    for (std::size_t i = 0; i < n; ++i) d += (ref.trajectory[k + i] - loose_trajectory[k + i]) * (ref.trajectory[k + i] - loose_trajectory[k + i]);
    ref.trajectory_accuracy = std::max(ref.trajectory_accuracy, std::sqrt(d));
  }
  return ref;
}

std::string reference_key(const Registry& registry, const StudySpec& s, const CaseSpec& c) {
  nlohmann::json j = {{"model", c.model}, {"parameters", c.parameters}, {"t_end", c.t_end},
                      {"integrator", s.reference.integrator}, {"step", s.reference.step}, {"rtol", s.reference.rtol},
                      {"atol", s.reference.atol}, {"options", s.reference.options}, {"build", LIESIM_BUILD_TOKEN}};
  if (!c.output_times.empty()) j["output_times"] = c.output_times;
  if (!c.stop_when.empty()) j["stop_when"] = c.stop_when;
  if (!c.events.empty()) j["events"] = c.events;
  // A new plugin version invalidates the cached reference.
  // From the manifests: the coordinator loads no plugin.
  try {
    if (const PluginCandidate* m = registry.find_model(c.model); m && m->manifest) j["model_version"] = m->manifest->version;
    if (s.reference.integrator != "exact")
      if (const PluginCandidate* f = registry.find_method(s.reference.integrator); f->manifest)
        j["integrator_version"] = f->manifest->version;
  } catch (const Error&) {
  }
  return j.dump();
}

}  // namespace

StudyResult run_study(const Registry& registry, const StudySpec& study, const RunOptions& opt) {
  const std::vector<RunItem> items = expand(study);
  if (items.empty()) throw Error(fmt::format("{}: the study expands to no runs", study.file));

  // 1. Validate everything before anything runs, in child processes (plan_runs): runs that ask
  // the same of the plugins (same model, parameters, method, options and kind of step) share a
  // probe. A refusal is an error in the study file; a plugin that misbehaves fails its runs.
  const double study_limit = study.timeout > 0 ? study.timeout : opt.run_timeout;
  auto limit_of = [&](const RunItem& item) { return item.group->timeout > 0 ? item.group->timeout : study_limit; };
  std::vector<PlanProbe> probes;
  std::map<std::string, std::size_t> probe_of_key;
  std::vector<std::size_t> probe_of_item(items.size());
  for (const auto& item : items) {
    // A matched run's step is known only after its adaptive run: validate with a placeholder.
    const double step = item.matched >= 0 ? item.case_spec->t_end / 100 : item.step;
    PlanProbe probe;
    probe.requests.push_back(request_for(item, step));
    if (item.group->one_step) probe.requests.push_back(request_for(item, step, true));  // the pair's parameters too
    probe.limit_s = limit_of(item);
    nlohmann::json key = nlohmann::json::array();
    for (const auto& q : probe.requests)
      key.push_back({q.model, q.parameters, q.method, q.options, q.t_end, q.step > 0, q.rtol > 0, q.solver_outputs});
    const auto [it, added] = probe_of_key.emplace(key.dump(), probes.size());
    if (added) probes.push_back(std::move(probe));
    probe_of_item[item.index] = it->second;
  }
  // The references' set-up, one probe per case.
  std::map<std::string, std::size_t> reference_probe;
  if (study.reference.integrator != "exact")
    for (const auto& c : study.cases) {
      PlanProbe probe;
      probe.requests.push_back(request_for(c, study.reference.integrator, study.reference.step,
                                           study.reference.step > 0 ? 0.0 : study.reference.rtol, study.reference.options));
      probe.limit_s = study.reference.timeout > 0 ? study.reference.timeout : study_limit;
      reference_probe[c.name] = probes.size();
      probes.push_back(std::move(probe));
    }
  const std::vector<RunPlan> plan_of_probe = plan_runs(registry, probes, opt.jobs);
  std::vector<RunPlan> plans(items.size());
  ResultColumns columns;
  std::set<std::string> events;
  for (const auto& c : study.cases) {
    columns.trajectory_errors = columns.trajectory_errors || !c.output_times.empty();
    events.insert(c.stop_when.begin(), c.stop_when.end());
    events.insert(c.events.begin(), c.events.end());
  }
  columns.events.assign(events.begin(), events.end());
  std::set<std::string> params, options, invariants, diagnostics, observables;
  std::map<std::string, std::set<std::string>> series_columns;  // per case: the columns of its series files
  for (const auto& item : items) {
    const CaseSpec& c = *item.case_spec;
    const RunPlan& p = plans[item.index] = plan_of_probe[probe_of_item[item.index]];
    if (p.state == RunPlan::State::refused)
      throw Error(fmt::format("{}:{}: case '{}' with integrator '{}' ([[runs]] '{}', line {}): {}", study.file, c.line, c.name,
                              item.integrator, item.group->name, item.group->line, p.message));
    if (p.state != RunPlan::State::ok) continue;  // its runs fail with the reason
    if (item.matched >= 0 && p.method.self_controlled)
      throw Error(fmt::format("{}:{}: [[runs]] '{}': '{}' controls its own steps and cannot run a matched constant step "
                              "(match_{}_of needs a kernel-driven fixed-step method such as rkmk5 or rk4)",
                              study.file, item.group->line, item.group->name, item.integrator, item.group->match));
    for (const auto& [k, v] : p.parameters) params.insert(k);
    for (const auto& [k, v] : p.options) options.insert(k);
    for (const auto& [k, v] : p.control) options.insert(k);
    for (const auto& i : p.invariants) invariants.insert(i);
    for (const auto& d : p.method.diagnostics) (d.conserved ? invariants : diagnostics).insert(d.name);
    for (const auto& o : p.observables) observables.insert(o);
    if (item.series) {
      auto& cols = series_columns[c.name];
      cols.insert(p.state_names.begin(), p.state_names.end());
      cols.insert(p.invariants.begin(), p.invariants.end());
      cols.insert(p.observables.begin(), p.observables.end());
      for (const auto& d : p.method.diagnostics) cols.insert(d.name);
    }
  }
  validate_figures(study, series_columns);
  // A reference that cannot be set up fails its case's runs (the other cases run); one that
  // fails for every case is an error in the study file. The exact solution is evaluated later, in
  // a child process, like every computation.
  // (A plugin that misbehaves while the reference is set up fails those runs even when it is every
  // case's: the study still writes its folder and exits 3.)
  std::map<std::string, std::string> reference_failure;
  std::size_t references_refused = 0;
  for (const auto& [name, k] : reference_probe) {
    const RunPlan& p = plan_of_probe[k];
    if (p.state == RunPlan::State::ok) continue;
    reference_failure[name] = fmt::format("{}:{}: [reference] for case '{}': {}", study.file, study.reference.line, name, p.message);
    references_refused += p.state == RunPlan::State::refused;
  }
  if (!study.cases.empty() && references_refused == study.cases.size()) throw Error(reference_failure.begin()->second);
  columns.parameters.assign(params.begin(), params.end());
  columns.options.assign(options.begin(), options.end());
  columns.invariants.assign(invariants.begin(), invariants.end());
  columns.diagnostics.assign(diagnostics.begin(), diagnostics.end());
  columns.observables.assign(observables.begin(), observables.end());
  // A shard I/N makes the runs whose plan position is I - 1 modulo N; a matched run goes with
  // the adaptive run it matches. References: only for the cases it has runs of.
  if (opt.shards < 1 || opt.shard < 1 || opt.shard > opt.shards)
    throw Error(fmt::format("shard {}/{}: the shard must be in 1..{}", opt.shard, opt.shards, opt.shards));
  auto mine = [&](const RunItem& item) { return shard_of(item, opt.shards) == opt.shard; };
  std::set<std::string> needed_cases;
  int mine_total = 0;
  for (const auto& item : items)
    if (mine(item)) {
      needed_cases.insert(item.case_spec->name);
      ++mine_total;
    }

  // 2. Output folder; earlier results when resuming (the coordinator's: a worker rank only runs
  // the jobs it is handed, writing the series and step files of its runs into the same folder).
  LocalEngine local;
  Engine& engine = opt.engine ? *opt.engine : local;
  const bool worker = engine.worker();
  const fs::path out(opt.out);
  if (out.empty()) throw Error("the study's output folder is empty: set 'output' in the study file or give --out DIR");
  StudyResult result;
  std::set<std::string> done;
  const fs::path results_path = out / "results.csv";
  std::FILE* results = nullptr;
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> results_guard(nullptr, &std::fclose);
  const std::string header = csv_header(columns);
  if (!worker) {
    const OutputFolder folder = claim_output_folder(out);
    const bool ours = folder.earlier;
    if (opt.resume && !ours)
      std::fprintf(stderr, "liesim: --resume: no earlier results in '%s'; running every run\n", out.string().c_str());
    result.lock = folder.lock;
    if (!opt.resume && ours)
      for (const char* sub : {"series", "steps", "plots"}) fs::remove_all(out / sub);  // from an earlier execution
    fs::create_directories(out / "reference");
    fs::create_directories(out / "series");
    fs::create_directories(out / "steps");
    if (opt.resume) {
      const fs::path study_copy = out / "study.toml";
      if (fs::exists(study_copy)) {
        std::ifstream in(study_copy);
        const std::string old((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        if (old != study.text)
          throw Error(fmt::format("--resume: the study file changed since {} was written; run without --resume to start again",
                                  results_path.string()));
      }
      for (auto& r : read_results(results_path.string(), columns))
        if (r.index < static_cast<int>(items.size()) && items[r.index].id == r.id && mine(items[r.index]) &&
            !(opt.retry_failed && r.status != "ok") &&
            done.insert(r.id).second)
          result.records.push_back(std::move(r));
      result.skipped = static_cast<int>(result.records.size());
      std::error_code ec;
      if (result.skipped == 0 && fs::exists(results_path) && fs::file_size(results_path, ec) > 0)
        std::fprintf(stderr, "liesim: --resume: %s has other columns or no complete rows (the study, a plugin or liesim's "
                             "results format changed); running every run\n",
                     results_path.string().c_str());
    }
    {
      std::ofstream copy(out / "study.toml");
      copy << study.text;
    }
    // Rewrite the results file with the kept rows only (drops a row cut by an interruption).
    results = open_for_writing(results_path.string(), "results CSV");
    results_guard.reset(results);
    std::fwrite(header.data(), 1, header.size(), results);
    for (const auto& r : result.records) {
      const std::string row = csv_row(r, columns);
      std::fwrite(row.data(), 1, row.size(), results);
    }
    std::fflush(results);
  }

  // 3. References, one per case, cached in OUT/reference/<case>.json, each computed in a child
  // process (a crash or a time limit fails that case's runs only).
  std::vector<int> to_compute;
  std::vector<std::string> keys(study.cases.size());
  for (std::size_t k = 0; k < study.cases.size() && !worker; ++k) {
    const CaseSpec& c = study.cases[k];
    if (reference_failure.count(c.name) || !needed_cases.count(c.name)) continue;
    keys[k] = reference_key(registry, study, c);
    const fs::path file = out / "reference" / (file_safe(c.name) + ".json");
    try {
      std::ifstream in(file);
      const auto j = nlohmann::json::parse(in);
      if (j.at("settings") == keys[k]) {
        Reference& ref = result.references[c.name] = reference_from_json(j);
        ref.settings = keys[k];
        continue;
      }
    } catch (const std::exception&) {  // none, or unreadable: compute it
    }
    to_compute.push_back(static_cast<int>(k));
  }
  Phase references_phase;
  references_phase.limit = [&](int) { return study.reference.timeout > 0 ? study.reference.timeout : study_limit; };
  references_phase.job = [&](int k) {
    const CaseSpec& c = study.cases[static_cast<std::size_t>(k)];
    const Reference ref = compute_reference(registry, study, c, (out / "reference" / (file_safe(c.name) + ".csv")).string());
    return reference_json(ref).dump();
  };
  references_phase.context = [](int) { return std::string(); };
  references_phase.apply = [](int, const std::string&) {};
  references_phase.done = [&](int k, const ChildOutcome& o) {
        const CaseSpec& c = study.cases[static_cast<std::size_t>(k)];
        try {
          if (!o.answered()) throw Error(o.reason());
          const auto j = nlohmann::json::parse(o.text);
          Reference& ref = result.references[c.name] = reference_from_json(j);
          ref.settings = keys[static_cast<std::size_t>(k)];
          nlohmann::json cached = reference_json(ref);
          cached["case"] = c.name;
          cached["settings"] = ref.settings;
          std::ofstream file(out / "reference" / (file_safe(c.name) + ".json"));
          file << cached.dump(2) << "\n";
        } catch (const std::exception& e) {
          result.references.erase(c.name);
          reference_failure[c.name] = fmt::format("reference for case '{}' failed: {} (choose another [reference] integrator or "
                                                  "settings)", c.name, e.what());
        }
      };
  const bool references_done = engine.run(to_compute, opt, references_phase);
  if (!references_done) {
    result.interrupted = true;
    result.not_run = mine_total - static_cast<int>(result.records.size());
    return result;
  }

  // 4. The runs: first those with a known step or tolerance, then the matched constant-step runs.
  const int total = mine_total;
  int finished = result.skipped;
  std::vector<double> matched_step(items.size(), 0.0);
  std::vector<double> matched_error(items.size(), 0.0);  // match_error_of: the adaptive run's error
  // The wall and CPU times are those of the integration alone: `repeat` runs without observers
  // (no files written, no invariants evaluated), their medians. A matched run is timed side by side with
  // its adaptive run: after one untimed run of each, they alternate, so that both see the same
  // machine. A failure here leaves the ratio empty; the run itself has succeeded.
  auto timing_runs = [&](RunRecord& rec, PreparedRun& p, const RunItem& item, std::vector<double>& times, std::vector<double>& cpu_times) {
    const int repeats = std::max(1, study.repeat);
    NullObserver null;
    std::unique_ptr<PreparedRun> partner;
    if (item.matched >= 0) {
      try {
        const RunItem& a = items[item.matched];
        partner = std::make_unique<PreparedRun>(
            prepare_run(registry, request_for(a, a.step)));
        (void)execute(*partner, null);  // warm-up, untimed
        (void)execute(p, null);
      } catch (const std::exception&) {
        partner.reset();
      }
    }
    std::vector<double> partner_times;
    // At least `repeat` timed runs and, for runs below the timer's useful resolution, as many more
    // as make min_timed_s of CPU time in all (at most max_timing_runs): the median of many short
    // runs. Counted in CPU time, the number of runs is the same on a loaded machine as on an idle one.
    double timed = 0, waited = 0;
    for (int rep = 0; rep < repeats || (timed < min_timed_s && waited < max_timed_wall_s && rep < max_timing_runs); ++rep) {
      try {
        const Stats s = execute(p, null).stats;
        times.push_back(s.wall_time_s);
        cpu_times.push_back(s.cpu_time_s);
        timed += s.cpu_time_s;
        waited += s.wall_time_s;
      } catch (const std::exception&) {
        times.clear();  // cannot happen for a deterministic run that has just succeeded
        cpu_times.clear();
        return;
      }
      if (partner) {
        try {
          partner_times.push_back(execute(*partner, null).stats.wall_time_s);
        } catch (const std::exception&) {
          partner.reset();
          partner_times.clear();
        }
      }
    }
    if (!partner_times.empty()) rec.paired_time_ratio = median(times) / median(partner_times);
  };
  // What a run is, before anything is measured.
  auto base_record = [&](const RunItem& item) {
    const RunPlan& p = plans[item.index];
    RunRecord rec;
    rec.index = item.index;
    rec.id = item.id;
    rec.group = item.group->name;
    rec.case_name = item.case_spec->name;
    rec.model = item.case_spec->model;
    rec.integrator = item.integrator;
    rec.family = p.family;
    rec.lie_group = p.method.lie_group;
    rec.order = p.method.order;
    // A matched run whose adaptive run or search failed has no step (NaN: an empty cell).
    rec.step = item.matched >= 0 ? (matched_step[item.index] > 0 ? matched_step[item.index] : std::numeric_limits<double>::quiet_NaN())
                                 : item.step;
    rec.tolerance = item.tolerance;
    rec.t_end = item.case_spec->t_end;
    rec.parameters = p.state == RunPlan::State::ok ? p.parameters : item.case_spec->parameters;
    rec.options = p.state == RunPlan::State::ok ? p.options : item.group->options;
    for (const auto& [key, v] : p.control) rec.options[key] = v;
    return rec;
  };
  // One run, prepared and measured (in a child process).
  auto measure = [&](int index) {
    const RunItem& item = items[index];
    PreparedRun p = prepare_run(registry, request_for(item, item.matched >= 0 ? item.case_spec->t_end / 100 : item.step));
    std::string match_failure;
    if (item.matched >= 0 && item.group->match == "error" && matched_step[item.index] > 0) {
      // The fewest equal steps that reach the adaptive run's error, from its step count upwards or down.
      const Reference& ref = result.references.at(item.case_spec->name);
      const Eigen::Map<const Eigen::VectorXd> yref(ref.y.data(), static_cast<Eigen::Index>(ref.y.size()));
      const double span = p.spec.t_end - p.spec.t0;
      std::string last_failure;  // why the last failed run of the search failed
      auto error_with = [&](long n) {
        p.spec.step = span / static_cast<double>(n);
        NullObserver null;
        try {
          return (execute(p, null).y - yref).norm();
        } catch (const RunFailure& f) {
          last_failure = fmt::format("{} steps: {}", n, f.what());
          return std::numeric_limits<double>::infinity();
        }
      };
      const double target = matched_error[item.index];
      try {
        // An error within the reference's own accuracy says nothing about the method.
        if (target <= 10.0 * ref.accuracy)
          throw Error(fmt::format("the target is within 10x the reference's accuracy estimate {:.3g}; tighten the "
                                  "[reference] (smaller step or tolerances)", ref.accuracy));
        const long n0 = std::lround(span / matched_step[item.index]);
        const EqualAccuracy m = steps_for_error(error_with, n0, p.method.order, target, p.spec.control.max_steps);
        matched_step[item.index] = span / static_cast<double>(m.steps);
      } catch (const Error& e) {
        match_failure = fmt::format("matching the error {:.3g} of '{}': {}{}", target, items[item.matched].id, e.what(),
                                    last_failure.empty() ? "" : "; the last failed run (" + last_failure + ")");
        matched_step[item.index] = std::numeric_limits<double>::quiet_NaN();  // no run was made with a matched step
      }
    }
    if (item.matched >= 0 && matched_step[item.index] > 0) p.spec.step = matched_step[item.index];
    RunRecord rec = base_record(item);
    std::vector<double> times, cpu_times;
    try {
      if (!match_failure.empty()) throw Error(match_failure);
      if (item.matched >= 0 && !(rec.step > 0))
        throw Error(fmt::format("the adaptive run '{}' whose {} this run matches did not finish", items[item.matched].id,
                                item.group->match == "error" ? "error" : "step count"));
      InvariantMonitor monitor(*p.model, p.method.diagnostics);
      ObserverList observers;
      observers.add(monitor);
      TrajectoryRecorder trajectory;
      trajectory.t0 = p.spec.t0;
      if (!p.spec.output_times.empty()) observers.add(trajectory);
      std::unique_ptr<CsvWriter> series;
      std::unique_ptr<StepLog> steps;
      if (item.series) {
        series = std::make_unique<CsvWriter>((out / "series" / fmt::format("{}.csv", item.index)).string(), *p.model,
                                            p.method.diagnostics);
        observers.add(*series);
      }
      // Adaptive kernel-driven runs log their step attempts; solvers with diagnostics (steps chosen
      // by the dynamics) every step they report.
      if ((item.tolerance > 0 && !p.method.self_controlled) || (p.method.self_controlled && !p.method.diagnostics.empty())) {
        steps = std::make_unique<StepLog>((out / "steps" / fmt::format("{}.csv", item.index)).string(), p.method.diagnostics);
        observers.add(*steps);
      }
      RunResult r;
      try {
        r = execute(p, observers);
        rec.status = "ok";
      } catch (const RunFailure& f) {
        r = f.partial;
        rec.status = diverged(f.what()) ? "diverged" : "failed";
        rec.error = f.what();
      }
      rec.stats = r.stats;
      rec.event_time = first_event_times(r, p.spec);
      if (rec.status == "ok" && !item.group->one_step) {
        const Reference& ref = result.references.at(item.case_spec->name);
        for (const auto& [name, t] : rec.event_time)
          if (const auto it = ref.event_times.find(name); it != ref.event_times.end()) rec.event_error[name] = std::abs(t - it->second);
      }
      if (rec.status == "ok" && item.group->one_step) {
        // The same step from the pair's point: d(phi_h(p), phi_h(q)) / d(p, q).
        PreparedRun second = prepare_run(registry, request_for(item, item.step, true));
        NullObserver null;
        try {
          const Eigen::VectorXd y1 = execute(second, null).y;
          const auto* metric = p.model->riemannian();
          const auto d = [&](ConstVec a, ConstVec b) { return metric ? metric->distance(a, b) : p.model->space().distance(a, b); };
          rec.distance_ratio = d(r.y, y1) / d(p.y0, second.y0);
          if (!std::isfinite(rec.distance_ratio)) {
            rec.status = "failed";
            rec.error = fmt::format("the distance ratio is not finite ({}): a step result left the manifold numerically", rec.distance_ratio);
          }
        } catch (const RunFailure& f) {
          rec.status = "failed";
          rec.error = fmt::format("the step from the pair's point failed: {}", f.what());
        }
      } else if (rec.status == "ok") {
        const Reference& ref = result.references.at(item.case_spec->name);
        const Eigen::Map<const Eigen::VectorXd> yref(ref.y.data(), static_cast<Eigen::Index>(ref.y.size()));
        rec.error_final = (r.y - yref).norm();
        rec.distance_final = p.model->space().distance(r.y, yref);
        trajectory_errors(rec, trajectory.states, ref.trajectory, static_cast<std::size_t>(r.y.size()));
        timing_runs(rec, p, item, times, cpu_times);
      }
      for (std::size_t i = 0; i < monitor.info().size(); ++i)
        rec.drift[monitor.info()[i].name] = monitor.max_abs_drift()[static_cast<Eigen::Index>(i)];
      for (std::size_t i = 0; i < monitor.diagnostics().size(); ++i)
        if (!monitor.diagnostics()[i].conserved)
          rec.diagnostic_max[monitor.diagnostics()[i].name] = monitor.diagnostic_max()[static_cast<Eigen::Index>(i)];
      for (std::size_t i = 0; i < monitor.observables().size(); ++i)
        rec.observable_final[monitor.observables()[i].name] = monitor.observable_last()[static_cast<Eigen::Index>(i)];
      for (const auto& [written, file] : {std::pair<bool, const char*>{!series || series->ok(), "series"},
                                          {!steps || steps->ok(), "steps"}})
        if (!written && rec.status == "ok") {
          rec.status = "failed";
          rec.error = fmt::format("writing {}/{}.csv failed (disk full or not writable)", file, item.index);
        }
    } catch (const std::exception& e) {
      rec.status = "failed";
      rec.error = e.what();
    }
    if (!times.empty()) {
      rec.wall_time_s = median(times);
      rec.cpu_time_s = median(cpu_times);
    } else {
      rec.wall_time_s = rec.stats.wall_time_s;  // a failed run: the time until it failed
      rec.cpu_time_s = rec.stats.cpu_time_s;
    }
    return rec;
  };
  // Each outcome, here: the child's record, or a failed one that says how the child ended.
  auto record = [&](RunRecord rec) {  // the coordinator's
    const std::string row = csv_row(rec, columns);
    std::fwrite(row.data(), 1, row.size(), results);
    std::fflush(results);
    ++finished;
    if (opt.progress) opt.progress(finished, total, rec);
    result.records.push_back(std::move(rec));
  };
  auto failed_record = [&](const RunItem& item, const std::string& why, double seconds) {
    RunRecord rec = base_record(item);
    if (item.matched >= 0 && item.group->match == "error") rec.step = std::numeric_limits<double>::quiet_NaN();  // search unfinished
    rec.status = "failed";
    rec.error = why;
    rec.wall_time_s = seconds;
    rec.cpu_time_s = std::numeric_limits<double>::quiet_NaN();  // its process's CPU time is not measured
    return rec;
  };
  auto run_limit = [&](int index) {
    const GroupSpec& g = *items[static_cast<std::size_t>(index)].group;
    return g.timeout > 0 ? g.timeout : study_limit;
  };
  for (const bool matched_phase : {false, true}) {
    if (matched_phase)
      for (const auto& item : items) {
        if (item.matched < 0) continue;
        for (const auto& r : result.records)
          if (r.index == item.matched && r.status == "ok" && r.stats.steps > 0) {
            matched_step[item.index] = r.t_end / static_cast<double>(r.stats.steps);
            matched_error[item.index] = r.error_final;
          }
      }
    std::vector<int> todo;
    for (const auto& item : items) {
      if (worker || !mine(item) || done.count(item.id) || (item.matched >= 0) != matched_phase) continue;
      if (const RunPlan& plan = plans[item.index]; plan.state != RunPlan::State::ok)
        record(failed_record(item, plan.message, 0.0));
      else if (const auto f = reference_failure.find(item.case_spec->name); f != reference_failure.end())
        record(failed_record(item, f->second, 0.0));
      else
        todo.push_back(item.index);
    }
    Phase runs_phase;
    runs_phase.limit = run_limit;
    runs_phase.job = [&](int index) { return csv_row(measure(index), columns); };
    // What a run needs of the coordinator: its case's reference and, for a matched run, the step
    // (and error) of the run it matches.
    runs_phase.context = [&](int index) {
      const RunItem& item = items[static_cast<std::size_t>(index)];
      nlohmann::json j{{"matched_step", matched_step[item.index]}, {"matched_error", matched_error[item.index]}};
      if (const auto r = result.references.find(item.case_spec->name); r != result.references.end())
        j["reference"] = reference_json(r->second);
      return j.dump();
    };
    runs_phase.apply = [&](int index, const std::string& text) {
      const RunItem& item = items[static_cast<std::size_t>(index)];
      const auto j = nlohmann::json::parse(text);
      matched_step[item.index] = j.at("matched_step").get<double>();
      matched_error[item.index] = j.at("matched_error").get<double>();
      if (j.contains("reference")) result.references[item.case_spec->name] = reference_from_json(j["reference"]);
    };
    runs_phase.done = [&](int index, const ChildOutcome& o) {
          const RunItem& item = items[static_cast<std::size_t>(index)];
          std::optional<RunRecord> rec;
          if (o.answered()) {
            std::string row = o.text;
            if (!row.empty() && row.back() == '\n') row.pop_back();
            rec = parse_row(row, columns);
            if (!rec) rec = failed_record(item, "its process gave an unreadable result row", o.seconds);
          } else {
            rec = failed_record(item, o.reason(), o.seconds);
          }
          record(std::move(*rec));
        };
    const bool completed = engine.run(todo, opt, runs_phase);
    if (!completed) {
      result.interrupted = true;
      break;
    }
  }
  result.not_run = total - static_cast<int>(result.records.size());
  if (worker) return result;

  // 5. Final table, sorted by plan order, so that it is the same whatever the number of jobs.
  std::sort(result.records.begin(), result.records.end(), [](const RunRecord& a, const RunRecord& b) { return a.index < b.index; });
  results_guard.reset();
  {
    std::ofstream final_table(results_path, std::ios::trunc);
    final_table << header;
    for (const auto& r : result.records) final_table << csv_row(r, columns);
  }
  result.orders = observed_orders(result.records, result.references, study.error);
  return result;
}

nlohmann::json reference_json(const Reference& ref) {
  nlohmann::json j{{"final_state", ref.y}, {"accuracy", ref.accuracy}};
  if (!ref.trajectory.empty()) {
    j["trajectory"] = ref.trajectory;
    j["trajectory_accuracy"] = ref.trajectory_accuracy;
  }
  if (!ref.event_times.empty()) {
    j["event_times"] = ref.event_times;
    j["event_accuracy"] = ref.event_accuracy;
  }
  return j;
}

Reference reference_from_json(const nlohmann::json& j) {
  Reference ref;
  ref.y = j.at("final_state").get<std::vector<double>>();
  ref.accuracy = j.at("accuracy").get<double>();
  if (j.contains("trajectory")) {
    ref.trajectory = j.at("trajectory").get<std::vector<double>>();
    ref.trajectory_accuracy = j.at("trajectory_accuracy").get<double>();
  }
  if (j.contains("event_times")) {
    ref.event_times = j.at("event_times").get<std::map<std::string, double>>();
    ref.event_accuracy = j.at("event_accuracy").get<double>();
  }
  return ref;
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
