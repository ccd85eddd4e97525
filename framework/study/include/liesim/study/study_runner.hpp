// Running a study: references, every run in parallel, results appended as they finish.
#pragma once
#include <nlohmann/json_fwd.hpp>
#include <liesim/host/registry.hpp>
#include <liesim/sdk/stats.hpp>
#include <liesim/study/engine.hpp>
#include <liesim/study/study_file.hpp>

#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace liesim::study {

/// The measured outcome of one run (one row of results.csv).
struct RunRecord {
  int index = 0;
  std::string id;
  std::string group, case_name, model, integrator, family;
  bool lie_group = false;
  int order = 0;
  double step = 0.0, tolerance = 0.0, t_end = 0.0;
  std::map<std::string, std::string> parameters;  ///< all model parameters (with defaults)
  std::map<std::string, std::string> options;     ///< all method options (with defaults)
  std::string status;                             ///< "ok" or "failed"
  std::string error;                              ///< message when failed
  double error_final = std::numeric_limits<double>::quiet_NaN();     ///< |y(T) - y_ref(T)|_2 in the embedding
  double distance_final = std::numeric_limits<double>::quiet_NaN();  ///< the model space's distance
  /// Over the case's output times (`outputs = [...]`, `output_grid`), against the reference there:
  /// max_k |y(t_k) - y_ref(t_k)|_2 and sqrt(mean_k |y(t_k) - y_ref(t_k)|_2^2) (NaN without output times).
  double error_max = std::numeric_limits<double>::quiet_NaN();
  double error_rms = std::numeric_limits<double>::quiet_NaN();
  std::map<std::string, double> drift;            ///< max |I(t) - I(0)| per invariant
  /// Over the case's output times, per invariant of the model: max_k |I(y(t_k)) - I(y_ref(t_k))|,
  /// e.g. the energy error against the reference's energy at the same instants (absent without
  /// output times).
  std::map<std::string, double> invariant_error;
  std::map<std::string, double> diagnostic_max;   ///< largest value of each non-conserved diagnostic of the method
  std::map<std::string, double> observable_final; ///< each observable of the model at the run's last output point
  /// Per event of the case ([[event]], by its text "q<0"): the time it was first located, and
  /// |that - the reference's| (absent: not located; no error where the reference has none).
  std::map<std::string, double> event_time, event_error;
  Stats stats;
  double wall_time_s = 0.0;                       ///< median of the timing runs (without observers)
  /// Median CPU time of the same timing runs (the thread that ran each; Stats::cpu_time_s); NaN
  /// for a run whose process died (not measured).
  double cpu_time_s = 0.0;
  /// Matched runs: median CPU time over that of the adaptive run they match, the two timed
  /// alternately (side by side); NaN otherwise.
  double paired_time_ratio = std::numeric_limits<double>::quiet_NaN();
  /// One-step groups: d(phi_h(p), phi_h(q)) / d(p, q) for the case's point p and its pair q, in the
  /// model's Riemannian distance where it states a metric, else the space's distance.
  double distance_ratio = std::numeric_limits<double>::quiet_NaN();
  /// One-step groups: the step's results phi_h(p) and phi_h(q), by state component name.
  std::map<std::string, double> arrival, pair_arrival;
};

/// Reference of a case: final state and an estimate of its own accuracy.
struct Reference {
  std::vector<double> y;
  double accuracy = 0.0;  ///< |y_ref - y_ref'| with the reference's settings loosened 10x
  /// The states at the case's output times (n values each, in order; empty without output times),
  /// from the reference's dense output, and max_k |y_ref(t_k) - y_ref'(t_k)| likewise.
  std::vector<double> trajectory;
  double trajectory_accuracy = 0.0;
  /// The time each event of the case was first located by the reference (an integrator
  /// reference; a terminal one also ends it, so `y` is the state there), and the largest difference
  /// of those times from the loosened reference's.
  std::map<std::string, double> event_times;
  double event_accuracy = 0.0;
  std::string settings;   ///< text identifying how it was computed (cache key)
};

/// Settings of a study execution. Every reference and every run is computed in a child process
/// of its own, at most `jobs` at once: a crash, an exit() or a time limit fails that run (or that
/// case, for a reference), never the study.
struct RunOptions {
  int jobs = 1;
  std::string out;            ///< output folder
  bool resume = false;        ///< skip runs already in results.csv (failed ones included)
  bool retry_failed = false;  ///< with `resume`: run the failed ones again
  /// Time limit per run and reference in seconds when the study file sets none (0: none).
  double run_timeout = 0.0;
  /// Polled between runs: when it returns true no run starts any more, the runs in flight get
  /// `grace_s` seconds to finish, and run_study returns what is done (`interrupted`).
  std::function<bool()> stop_requested;
  double grace_s = 5.0;
  /// Shard `shard` of `shards` (1-based): only the runs at plan positions shard - 1 modulo
  /// shards (a matched run with its adaptive run); `liesim study merge` joins the shards.
  int shard = 1, shards = 1;
  /// Told when a stop begins, with the number of runs in flight.
  std::function<void(int)> on_stop;
  /// Called after each finished run, in the calling thread: done, total, record.
  std::function<void(int, int, const RunRecord&)> progress;
  /// Where the jobs execute (nullptr: child processes on this machine, LocalEngine). With an
  /// engine whose process is a worker, run_study only executes the jobs handed to it and returns
  /// an empty result.
  Engine* engine = nullptr;
};

/// Observed order of one method on one case from fixed-step runs.
struct OrderFit {
  std::string case_name, integrator, group;
  int nominal = 0;
  double observed = std::numeric_limits<double>::quiet_NaN();
  double h_from = 0.0, h_to = 0.0;  ///< step range used
  int points = 0;
  std::string note;                 ///< why no fit, if none
};

/// Everything a study produced.
struct StudyResult {
  std::vector<RunRecord> records;
  std::map<std::string, Reference> references;
  std::vector<OrderFit> orders;
  int skipped = 0;  ///< runs taken from an earlier, interrupted execution
  bool interrupted = false;  ///< stopped on request before every run was made
  int not_run = 0;           ///< runs not made (interrupted)
  std::shared_ptr<void> lock;  ///< the output folder's lock, held while this result lives
};

/// Validate every run (names, parameters, options) before anything runs, then compute the
/// references (cached in OUT/reference) and all runs; writes OUT/results.csv as runs finish.
/// Throws if the output folder is another study's, or is in use by a running study.
StudyResult run_study(const Registry& registry, const StudySpec& study, const RunOptions& options);

/// Least-squares slope of log(error) against log(h) over the asymptotic range.
/// `error`: the study's measure (StudySpec::error: final, max or rms).
std::vector<OrderFit> observed_orders(const std::vector<RunRecord>& records, const std::map<std::string, Reference>& refs,
                                      const std::string& error = "final");
/// A reference as JSON (final_state, accuracy, and where the case has output times, trajectory and
/// trajectory_accuracy), as cached in OUT/reference/CASE.json and passed to run processes.
nlohmann::json reference_json(const Reference& ref);
/// The reference of such a JSON object (throws nlohmann::json::exception when a member is missing).
Reference reference_from_json(const nlohmann::json& j);
/// A run's error in the study's measure: error_final, error_max or error_rms.
double measured_error(const RunRecord& r, const std::string& error);

}  // namespace liesim::study
