// Stage 4 of a study, one run (in a child process of its own): prepared, made with its observers
// (invariant monitor, series and step files), compared with its case's reference, then timed
// alone; a matched run first finds its step.
#include "execution.hpp"

#include <liesim/host/output.hpp>
#include <liesim/study/equal_accuracy.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace liesim::study {

namespace {

/// A run's times are the medians of repeated runs that take this much CPU time in all (see
/// timing_runs): CPU time, so that how many runs are timed does not depend on the machine's load.
constexpr double min_timed_s = 0.02;
constexpr int max_timing_runs = 1000;
/// ... or this much wall time: a run that waits rather than computes stops there, not at 1000 runs.
constexpr double max_timed_wall_s = 2.0;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size();
  return m % 2 ? v[m / 2] : 0.5 * (v[m / 2 - 1] + v[m / 2]);
}

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

/// Over the output times, for each invariant of the model: max_k |I(y(t_k)) - I(y_ref(t_k))|
/// (RunRecord::invariant_error), e.g. the energy error against the reference's energy at the same
/// instants, which for a forced or damped system is not the drift from I(0).
void invariant_errors(RunRecord& rec, const ModelView& model, const std::vector<double>& run, const std::vector<double>& reference,
                      std::size_t n) {
  const int m = model.invariant_count();
  if (n == 0 || m == 0 || run.empty() || run.size() != reference.size()) return;
  Eigen::VectorXd a(m), b(m), worst = Eigen::VectorXd::Zero(m);
  for (std::size_t k = 0; k < run.size(); k += n) {
    const auto e = static_cast<Eigen::Index>(n);
    model.evaluate_invariants(Eigen::Map<const Eigen::VectorXd>(run.data() + k, e), a);
    model.evaluate_invariants(Eigen::Map<const Eigen::VectorXd>(reference.data() + k, e), b);
    for (int i = 0; i < m; ++i) worst[i] = std::max(worst[i], std::abs(a[i] - b[i]));  // (NaN stays out: the run's check catches it)
  }
  const auto info = model.invariants();
  for (int i = 0; i < m; ++i) rec.invariant_error[info[static_cast<std::size_t>(i)].name] = worst[i];
}

/// match_error_of: the fewest equal steps that reach the adaptive run's error, searched from its
/// step count up or down; sets p.spec.step. Returns why it failed ("" when it found the step).
std::string match_error(const Execution& ex, const RunItem& item, PreparedRun& p) {
  const Reference& ref = ex.result.references.at(item.case_spec->name);
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
  const double target = ex.matched_error[item.index];
  try {
    // An error within the reference's own accuracy says nothing about the method.
    if (target <= 10.0 * ref.accuracy)
      throw Error(fmt::format("the target is within 10x the reference's accuracy estimate {:.3g}; tighten the "
                              "[reference] (smaller step or tolerances)", ref.accuracy));
    const long n0 = std::lround(span / ex.matched_step[item.index]);
    const EqualAccuracy m = steps_for_error(error_with, n0, p.method.order, target, p.spec.control.max_steps);
    p.spec.step = span / static_cast<double>(m.steps);
    return "";
  } catch (const Error& e) {
    return fmt::format("matching the error {:.3g} of '{}': {}{}", target, ex.plan.items[item.matched].id, e.what(),
                       last_failure.empty() ? "" : "; the last failed run (" + last_failure + ")");
  }
}

/// The wall and CPU times of the integration alone: runs without observers (no files written, no
/// invariants evaluated), their medians. A matched run is timed side by side with its adaptive
/// run: after one untimed run of each, they alternate, so that both see the same machine; the
/// ratio of their median CPU times is paired_time_ratio. A
/// failure here leaves the ratio empty; the run itself has succeeded.
void timing_runs(const Execution& ex, RunRecord& rec, PreparedRun& p, const RunItem& item) {
  const int repeats = std::max(1, ex.study.repeat);
  NullObserver null;
  std::unique_ptr<PreparedRun> partner;
  if (item.matched >= 0) {
    try {
      const RunItem& a = ex.plan.items[item.matched];
      partner = std::make_unique<PreparedRun>(prepare_run(ex.registry, request_for(a, a.step)));
      (void)execute(*partner, null);  // warm-up, untimed
      (void)execute(p, null);
    } catch (const std::exception&) {
      partner.reset();
    }
  }
  std::vector<double> times, cpu_times, partner_times;
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
      return;  // cannot happen for a deterministic run that has just succeeded: the run's own times stay
    }
    if (partner) {
      try {
        partner_times.push_back(execute(*partner, null).stats.cpu_time_s);
      } catch (const std::exception&) {
        partner.reset();
        partner_times.clear();
      }
    }
  }
  rec.wall_time_s = median(times);
  rec.cpu_time_s = median(cpu_times);
  if (!partner_times.empty()) rec.paired_time_ratio = rec.cpu_time_s / median(partner_times);
}

/// A one-step run: the same step from the pair's point, d(phi_h(p), phi_h(q)) / d(p, q), and both results.
void distance_ratio(const Execution& ex, RunRecord& rec, const PreparedRun& p, const RunItem& item, ConstVec y) {
  PreparedRun second = prepare_run(ex.registry, request_for(item, item.step, true));
  NullObserver null;
  try {
    const Eigen::VectorXd y1 = execute(second, null).y;
    const auto* metric = p.model->riemannian();
    const auto d = [&](ConstVec a, ConstVec b) { return metric ? metric->distance(a, b) : p.model->space().distance(a, b); };
    rec.distance_ratio = d(y, y1) / d(p.y0, second.y0);
    const auto names = p.model->state_names();
    for (std::size_t k = 0; k < names.size(); ++k) {
      rec.arrival[names[k]] = y[static_cast<Eigen::Index>(k)];
      rec.pair_arrival[names[k]] = y1[static_cast<Eigen::Index>(k)];
    }
    if (!std::isfinite(rec.distance_ratio)) {
      rec.status = "failed";
      rec.error = fmt::format("the distance ratio is not finite ({}): a step result left the manifold numerically", rec.distance_ratio);
    }
  } catch (const RunFailure& f) {
    rec.status = "failed";
    rec.error = fmt::format("the step from the pair's point failed: {}", f.what());
  }
}

/// What the invariant monitor saw: drifts, the largest diagnostics, the observables at the end.
void monitored(RunRecord& rec, const InvariantMonitor& monitor) {
  for (std::size_t i = 0; i < monitor.info().size(); ++i)
    rec.drift[monitor.info()[i].name] = monitor.max_abs_drift()[static_cast<Eigen::Index>(i)];
  for (std::size_t i = 0; i < monitor.diagnostics().size(); ++i)
    if (!monitor.diagnostics()[i].conserved)
      rec.diagnostic_max[monitor.diagnostics()[i].name] = monitor.diagnostic_max()[static_cast<Eigen::Index>(i)];
  for (std::size_t i = 0; i < monitor.observables().size(); ++i)
    rec.observable_final[monitor.observables()[i].name] = monitor.observable_last()[static_cast<Eigen::Index>(i)];
}

/// The run of `item` with its observers, its errors against the reference, then its timing.
void make_run(const Execution& ex, RunRecord& rec, PreparedRun& p, const RunItem& item) {
  const std::filesystem::path& out = ex.out;
  InvariantMonitor monitor(*p.model, p.method.diagnostics);
  ObserverList observers;
  observers.add(monitor);
  TrajectoryRecorder trajectory;
  trajectory.t0 = p.spec.t0;
  if (!p.spec.output_times.empty()) observers.add(trajectory);
  std::unique_ptr<CsvWriter> series;
  std::unique_ptr<StepLog> steps;
  if (item.series) {
    series = std::make_unique<CsvWriter>((out / "series" / fmt::format("{}.csv", item.index)).string(), *p.model, p.method.diagnostics);
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
  rec.wall_time_s = r.stats.wall_time_s;  // until the timing runs replace them (a failed run: until it failed)
  rec.cpu_time_s = r.stats.cpu_time_s;
  rec.event_time = first_event_times(r, p.spec);
  if (rec.status == "ok" && item.group->one_step) {
    distance_ratio(ex, rec, p, item, r.y);
  } else if (rec.status == "ok") {
    const Reference& ref = ex.result.references.at(item.case_spec->name);
    for (const auto& [name, t] : rec.event_time)
      if (const auto it = ref.event_times.find(name); it != ref.event_times.end()) rec.event_error[name] = std::abs(t - it->second);
    const Eigen::Map<const Eigen::VectorXd> yref(ref.y.data(), static_cast<Eigen::Index>(ref.y.size()));
    rec.error_final = (r.y - yref).norm();
    rec.distance_final = p.model->space().distance(r.y, yref);
    trajectory_errors(rec, trajectory.states, ref.trajectory, static_cast<std::size_t>(r.y.size()));
    invariant_errors(rec, *p.model, trajectory.states, ref.trajectory, static_cast<std::size_t>(r.y.size()));
    timing_runs(ex, rec, p, item);
  }
  monitored(rec, monitor);
  for (const auto& [written, file] : {std::pair<bool, const char*>{!series || series->ok(), "series"}, {!steps || steps->ok(), "steps"}})
    if (!written && rec.status == "ok") {
      rec.status = "failed";
      rec.error = fmt::format("writing {}/{}.csv failed (disk full or not writable)", file, item.index);
    }
}

}  // namespace

RunRecord base_record(const Execution& ex, const RunItem& item, double matched_step) {
  const RunPlan& p = ex.plan.plans[item.index];
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
  rec.step = item.matched >= 0 ? (matched_step > 0 ? matched_step : std::numeric_limits<double>::quiet_NaN()) : item.step;
  rec.tolerance = item.tolerance;
  rec.t_end = item.case_spec->t_end;
  rec.parameters = p.state == RunPlan::State::ok ? p.parameters : item.case_spec->parameters;
  rec.options = p.state == RunPlan::State::ok ? p.options : item.group->options;
  for (const auto& [key, v] : p.control) rec.options[key] = v;
  return rec;
}

RunRecord measure_run(const Execution& ex, int index) {
  const RunItem& item = ex.plan.items[static_cast<std::size_t>(index)];
  // A failure to prepare leaves this function: the engine records the job as failed with it.
  PreparedRun p = prepare_run(ex.registry, request_for(item, item.matched >= 0 ? item.case_spec->t_end / 100 : item.step));
  double step = ex.matched_step[item.index];
  std::string match_failure;
  if (item.matched >= 0 && item.group->match == "error" && step > 0) {
    match_failure = match_error(ex, item, p);
    step = match_failure.empty() ? p.spec.step : std::numeric_limits<double>::quiet_NaN();  // NaN: no run was made with it
  }
  if (item.matched >= 0 && step > 0) p.spec.step = step;
  RunRecord rec = base_record(ex, item, step);
  try {
    if (!match_failure.empty()) throw Error(match_failure);
    if (item.matched >= 0 && !(rec.step > 0))
      throw Error(fmt::format("the adaptive run '{}' whose {} this run matches did not finish", ex.plan.items[item.matched].id,
                              item.group->match == "error" ? "error" : "step count"));
    make_run(ex, rec, p, item);
  } catch (const std::exception& e) {
    rec.status = "failed";
    rec.error = e.what();
  }
  return rec;
}

}  // namespace liesim::study
