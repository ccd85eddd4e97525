// Stage 1 of a study: every run validated before anything runs, in child processes (plan_runs):
// runs that ask the same of the plugins (same model, parameters, method, options and kind of step)
// share a probe. A refusal is an error in the study file; a plugin that misbehaves fails its runs.
#include "execution.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

namespace liesim::study {

namespace {

/// The probes of a study: one per distinct request of its runs, one per case's reference.
struct Probes {
  std::vector<PlanProbe> probes;
  std::vector<std::size_t> of_item;                   ///< per item: its probe
  std::map<std::string, std::size_t> of_reference;   ///< per case (integrator references)
};

Probes probes_of(const StudySpec& study, const StudyPlan& plan) {
  Probes out;
  std::map<std::string, std::size_t> by_key;
  out.of_item.resize(plan.items.size());
  for (const auto& item : plan.items) {
    // A matched run's step is known only after its adaptive run: validate with a placeholder.
    const double step = item.matched >= 0 ? item.case_spec->t_end / 100 : item.step;
    PlanProbe probe;
    probe.requests.push_back(request_for(item, step));
    if (item.group->one_step) probe.requests.push_back(request_for(item, step, true));  // the pair's parameters too
    probe.limit_s = plan.limit_of(item);
    nlohmann::json key = nlohmann::json::array();
    for (const auto& q : probe.requests)
      key.push_back({q.model, q.parameters, q.method, q.options, q.t_end, q.step > 0, q.rtol > 0, q.solver_outputs});
    const auto [it, added] = by_key.emplace(key.dump(), out.probes.size());
    if (added) out.probes.push_back(std::move(probe));
    out.of_item[item.index] = it->second;
  }
  if (study.reference.integrator != "exact")
    for (const auto& c : study.cases) {
      PlanProbe probe;
      probe.requests.push_back(request_for(c, study.reference.integrator, study.reference.step,
                                           study.reference.step > 0 ? 0.0 : study.reference.rtol, study.reference.options));
      probe.limit_s = study.reference.timeout > 0 ? study.reference.timeout : plan.study_limit;
      out.of_reference[c.name] = out.probes.size();
      out.probes.push_back(std::move(probe));
    }
  return out;
}

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

/// The runs' plans: a refused run is an error in the study file; the columns of the results
/// (parameters, options, invariants, diagnostics, observables, events) and of each case's series.
void check_runs(const StudySpec& study, StudyPlan& plan) {
  std::set<std::string> events;
  for (const auto& c : study.cases) {
    plan.columns.trajectory_errors = plan.columns.trajectory_errors || !c.output_times.empty();
    events.insert(c.stop_when.begin(), c.stop_when.end());
    events.insert(c.events.begin(), c.events.end());
  }
  plan.columns.events.assign(events.begin(), events.end());
  std::set<std::string> params, options, invariants, diagnostics, observables, invariant_errors, arrivals;
  std::map<std::string, std::set<std::string>> series_columns;  // per case: the columns of its series files
  for (const auto& item : plan.items) {
    const CaseSpec& c = *item.case_spec;
    const RunPlan& p = plan.plans[item.index];
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
    if (!c.output_times.empty()) invariant_errors.insert(p.invariants.begin(), p.invariants.end());
    for (const auto& d : p.method.diagnostics) (d.conserved ? invariants : diagnostics).insert(d.name);
    for (const auto& o : p.observables) observables.insert(o);
    if (item.group->one_step) arrivals.insert(p.state_names.begin(), p.state_names.end());
    if (item.series) {
      auto& cols = series_columns[c.name];
      cols.insert(p.state_names.begin(), p.state_names.end());
      cols.insert(p.invariants.begin(), p.invariants.end());
      cols.insert(p.observables.begin(), p.observables.end());
      for (const auto& d : p.method.diagnostics) cols.insert(d.name);
    }
  }
  validate_figures(study, series_columns);
  plan.columns.parameters.assign(params.begin(), params.end());
  plan.columns.options.assign(options.begin(), options.end());
  plan.columns.invariants.assign(invariants.begin(), invariants.end());
  plan.columns.invariant_errors.assign(invariant_errors.begin(), invariant_errors.end());
  plan.columns.diagnostics.assign(diagnostics.begin(), diagnostics.end());
  plan.columns.observables.assign(observables.begin(), observables.end());
  plan.columns.arrivals.assign(arrivals.begin(), arrivals.end());
}

/// A reference that cannot be set up fails its case's runs (the other cases run); one that
/// fails for every case is an error in the study file. (A plugin that misbehaves while the
/// reference is set up fails those runs even when it is every case's: the study still writes its
/// folder and exits 3.) The exact solution is evaluated later, in a child process.
void check_references(const StudySpec& study, const std::map<std::string, std::size_t>& of_reference,
                      const std::vector<RunPlan>& answers, StudyPlan& plan) {
  std::size_t refused = 0;
  for (const auto& [name, k] : of_reference) {
    const RunPlan& p = answers[k];
    if (p.state == RunPlan::State::ok) continue;
    plan.reference_failure[name] = fmt::format("{}:{}: [reference] for case '{}': {}", study.file, study.reference.line, name, p.message);
    refused += p.state == RunPlan::State::refused;
  }
  if (!study.cases.empty() && refused == study.cases.size()) throw Error(plan.reference_failure.begin()->second);
}

}  // namespace

StudyPlan plan_study(const Registry& registry, const StudySpec& study, const RunOptions& opt) {
  StudyPlan plan;
  plan.items = expand(study);
  if (plan.items.empty()) throw Error(fmt::format("{}: the study expands to no runs", study.file));
  // A shard I/N makes the runs whose plan position is I - 1 modulo N; a matched run goes with
  // the adaptive run it matches. References: only for the cases it has runs of.
  if (opt.shards < 1 || opt.shard < 1 || opt.shard > opt.shards)
    throw Error(fmt::format("shard {}/{}: the shard must be in 1..{}", opt.shard, opt.shards, opt.shards));
  plan.shard = opt.shard;
  plan.shards = opt.shards;
  plan.study_limit = study.timeout > 0 ? study.timeout : opt.run_timeout;
  const Probes probes = probes_of(study, plan);
  const std::vector<RunPlan> answers = plan_runs(registry, probes.probes, opt.jobs);
  plan.plans.resize(plan.items.size());
  for (const auto& item : plan.items) plan.plans[item.index] = answers[probes.of_item[item.index]];
  check_runs(study, plan);
  check_references(study, probes.of_reference, answers, plan);
  for (const auto& item : plan.items)
    if (plan.mine(item)) {
      plan.needed_cases.insert(item.case_spec->name);
      ++plan.runs_of_shard;
    }
  return plan;
}

}  // namespace liesim::study
