// The stages of a study's execution (run_study, study_runner.cpp) and what they hand each other:
//   plan        every run validated in child processes, the results' columns (study_plan.cpp)
//   output      the output folder claimed, earlier results kept on --resume (study_output.cpp)
//   references  one per case, cached, each computed in a child process (references.cpp)
//   runs        each run measured in a child process (measure_run.cpp), appended as it ends
//   tables      the final results table in plan order, the observed orders (study_runner.cpp)
#pragma once
#include <liesim/study/results_table.hpp>
#include <liesim/study/study_runner.hpp>

#include "run_plan.hpp"

#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace liesim::study {

/// Every run of a study, validated before anything runs, and what its results will hold.
struct StudyPlan {
  std::vector<RunItem> items;
  std::vector<RunPlan> plans;  ///< per item (its probe's answer)
  ResultColumns columns;
  /// Per case whose reference cannot be set up: why (its runs fail with this message).
  std::map<std::string, std::string> reference_failure;
  std::set<std::string> needed_cases;  ///< the cases of which this shard has runs
  int runs_of_shard = 0;               ///< how many runs this shard makes
  int shard = 1, shards = 1;
  double study_limit = 0.0;  ///< a run's time limit when its group sets none (<= 0: none)

  /// Whether this shard makes `item`.
  bool mine(const RunItem& item) const { return shard_of(item, shards) == shard; }
  /// The time limit of a run of `item`.
  double limit_of(const RunItem& item) const { return item.group->timeout > 0 ? item.group->timeout : study_limit; }
};

/// Stage 1: expand the study, prepare every run (and every case's reference) in child processes
/// and collect the columns the results need. Throws an Error naming the study file's line for a
/// run the plugins refuse, a figure that draws a column no run writes, a reference every case
/// refuses, or a shard out of range; a plugin that misbehaves fails its runs instead.
StudyPlan plan_study(const Registry& registry, const StudySpec& study, const RunOptions& opt);

/// The request of a run of `c` under `integrator` (run_request.cpp).
RunRequest request_for(const CaseSpec& c, const std::string& integrator, double step, double tol,
                       const std::map<std::string, std::string>& options);
/// The request of a run of the plan: a one-step run ends after its one step (t_end = h), from
/// the case's point or (`second`) from its pair's.
RunRequest request_for(const RunItem& item, double step, bool second = false);
/// The time each event of a run was first located, by the event's text.
std::map<std::string, double> first_event_times(const RunResult& r, const RunSpec& spec);

/// The states at the output times after t0 (the observers of a run with output times see t0 and
/// exactly those times), one after the other.
struct TrajectoryRecorder final : Observer {
  double t0 = 0.0;
  std::vector<double> states;
  void on_output(double t, ConstVec y) override {
    if (t > t0) states.insert(states.end(), y.data(), y.data() + y.size());
  }
};

/// What the stages after the plan share.
struct Execution {
  const Registry& registry;
  const StudySpec& study;
  const RunOptions opt;  ///< a copy: an Execution outlives no caller's temporary
  StudyPlan plan;
  std::filesystem::path out;
  StudyResult result;
  std::set<std::string> done;  ///< ids of the runs kept from an earlier execution (--resume)
  /// Per item: a matched run's step (from the adaptive run it matches) and that run's error.
  std::vector<double> matched_step, matched_error;

  Execution(const Registry& r, const StudySpec& s, const RunOptions& o, StudyPlan p)
      : registry(r), study(s), opt(o), plan(std::move(p)), out(o.out),
        matched_step(plan.items.size(), 0.0), matched_error(plan.items.size(), 0.0) {}
};

/// Stage 2 (the coordinator's): claim the output folder, keep an earlier execution's rows on
/// --resume (into ex.result and ex.done), copy the study file, and open results.csv rewritten
/// with the kept rows, for appending.
std::unique_ptr<std::FILE, int (*)(std::FILE*)> open_results(Execution& ex);

/// Stage 3: each needed case's reference into ex.result.references, from OUT/reference/CASE.json
/// when its settings are the same, else computed by the engine (a failure fails that case's runs:
/// ex.plan.reference_failure). A worker rank serves the jobs it is handed. False when stopped on
/// request.
bool compute_references(Execution& ex, Engine& engine);

/// A run before anything is measured: its identity, method, settings and step (a matched run's:
/// `matched_step`, NaN where it has none).
RunRecord base_record(const Execution& ex, const RunItem& item, double matched_step);
/// Stage 4, one run: prepared and measured (in a child process): its record.
RunRecord measure_run(const Execution& ex, int index);

}  // namespace liesim::study
