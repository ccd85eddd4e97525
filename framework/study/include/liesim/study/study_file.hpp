// A comparison study as written in its TOML file, and its expansion into individual runs.
#pragma once
#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace liesim::study {

/// Bounds on what a study file may ask for (a larger study is split into shards or studies).
inline constexpr int max_repeat = 1000;            ///< `repeat`
inline constexpr int max_outputs = 10'000'000;     ///< a case's `outputs`
inline constexpr std::size_t max_cases = 100'000;  ///< cases after sweep expansion
inline constexpr std::size_t max_runs = 1'000'000; ///< runs of the expanded plan

/// How the reference solution of every case is computed.
struct ReferenceSpec {
  std::string integrator = "rkmk45";  ///< default: adaptive RKMK(5,4); "exact": the model's exact solution
  double step = 0.0;                  ///< > 0: fixed step instead of tolerances
  double rtol = 1e-12;                ///< default tight tolerances
  double atol = 1e-12;
  std::map<std::string, std::string> options;
  double timeout = 0.0;               ///< time limit per reference computation in seconds (0: the study's)
  int line = 0;                       ///< where it was declared (0 = defaults)
};

/// One case: a model with parameters and a time span (after sweeps are expanded).
struct CaseSpec {
  std::string name;  ///< unique; swept cases get "name[key=value,...]"
  std::string model;
  std::map<std::string, std::string> parameters;
  /// A second initial point for one-step groups: parameters that override `parameters` (e.g. another
  /// latitude); the runs measure d(phi_h(p), phi_h(q)) / d(p, q) (thesis ch. 4, B-stability).
  std::map<std::string, std::string> pair;
  double t_end = 1.0;
  int outputs = 100;  ///< `outputs = N`: output times of self-controlled solvers (kernel-driven runs write every step)
  /// `outputs = [T1, T2, ...]` or `output_grid = DT`: every run's output at exactly these times
  /// (dense output; RunSpec::output_times).
  std::vector<double> output_times;
  /// Events of the study's [[event]] tables that select this case, as written ("q<0"): `stop_when`
  /// ones end every run (and the reference) at the event, `events` are recorded (RunRequest's).
  std::vector<std::string> stop_when, events;
  int line = 0;
};

/// A run group: integrators x (steps or tolerances) x options, on some or all cases. A matched
/// group runs each integrator with a constant step h = t_end / n for every run of the named
/// adaptive group: with match_steps_of, n is that run's number of accepted steps (the papers'
/// "variable vs constant step with the same number of steps", seed 002 Figs. 8 and 10); with
/// match_error_of, n is the smallest number of equal steps whose error at t_end is at most that
/// run's (the thesis' Table 3.1: "as many steps as needed to match the RKMK(5,4) error").
struct GroupSpec {
  std::string name;
  std::vector<std::string> integrators;
  std::vector<double> steps;       ///< fixed steps, or
  std::vector<double> tolerances;  ///< rtol = atol = tol, or
  std::string match_of;            ///< name of an earlier adaptive group, or empty
  std::string match;               ///< with match_of: "steps" (match_steps_of) or "error" (match_error_of)
  std::map<std::string, std::string> options;
  std::vector<std::string> cases;  ///< case names (before sweep expansion); empty = all
  std::string series = "coarsest"; ///< which runs write an invariant time series: coarsest|all|none
  bool one_step = false;           ///< each run is one step of size h from the case's point and its `pair`: distance_ratio
  double timeout = 0.0;            ///< time limit per run in seconds (0: the study's)
  int line = 0;
};

/// A figure drawn from the time series of a study's runs (plots/figure_<name>_<case>.png): columns
/// of the series (state, invariants, the model's observables) against t, or a path in space.
struct FigureSpec {
  std::string name;                  ///< plain name, part of the file name
  std::string kind;                  ///< "series": each column against t, a panel per column; "path": a 2-D or 3-D curve; "strobe"
  std::vector<std::string> columns;  ///< series: 1..8 columns; path: 2 or 3 (x, y[, z])
  std::vector<std::string> against;  ///< drawn dashed beside (path: as many as columns; series: one per column, or none)
  bool log = false;                  ///< series: logarithmic value axis (|value|)
  std::vector<std::string> invert;   ///< path: axes drawn reversed ("x", "y", "z"), e.g. a vertical axis pointing down
  bool reference = false;            ///< also draw the case's reference series (grey), e.g. the exact orbit in a phase portrait
  std::string x = "t";               ///< series: the abscissa, "t" or "step" (the step number t / h of fixed-step runs: iterations)
  bool together = false;             ///< one figure of all its cases' runs (plots/figure_<name>.png), not one per case
  std::string title;
  std::vector<std::string> cases;    ///< case names (before sweep expansion); empty = all
  /// strobe: the motion as one multi-exposure picture (the model's scene), of the reference's
  /// series or of the first run of `run` (an integrator) that writes one.
  int exposures = 8;                 ///< strobe: this many exposures evenly over the run
  std::vector<double> times;         ///< strobe: the exposures' times instead
  std::string run;                   ///< strobe: an integrator; "" = the reference
  int line = 0;
};

/// Whether a `cases` list (of a [[runs]] group or a [[figure]]) selects the case `case_name`: an empty
/// list selects every case; an entry selects its case and the cases swept from it ("name[key=value]").
bool selects(const std::vector<std::string>& selection, const std::string& case_name);

/// A study file, validated for syntax, types, keys and non-empty lists.
struct StudySpec {
  std::string file;         ///< path it was read from
  std::string text;         ///< its content (kept in the manifest)
  std::string name;
  std::string description;
  std::string output;       ///< output folder (relative to the working directory)
  int repeat = 1;           ///< timing runs per run, without observers (median wall time)
  double timeout = 0.0;     ///< time limit per run in seconds (0: `--run-timeout`, else none)
  ReferenceSpec reference;
  std::vector<CaseSpec> cases;
  std::vector<GroupSpec> groups;
  std::vector<FigureSpec> figures;
  /// The error the convergence fits, the work–precision front and the plots use: "final" (at
  /// t_end, error_final), "max" or "rms" (over every case's output times, error:max / error:rms).
  std::string error = "final";
  int error_line = 0;
};

/// One run of the expanded plan.
struct RunItem {
  int index = 0;            ///< position in the plan (results are sorted by it)
  std::string id;           ///< stable key: case|integrator|step|tol|options
  const CaseSpec* case_spec = nullptr;
  const GroupSpec* group = nullptr;
  std::string integrator;
  double step = 0.0;
  double tolerance = 0.0;
  bool series = false;      ///< write the invariant time series of this run
  int matched = -1;         ///< index of the adaptive run whose step count sets `step` (-1: none)
};

/// The shard (1 ... shards) that makes `item` under `--shard I/shards`: its plan position modulo
/// shards, a matched run with the adaptive run it matches.
inline int shard_of(const RunItem& item, int shards) { return (item.matched >= 0 ? item.matched : item.index) % shards + 1; }

/// Read and validate a study file; throws liesim::Error "FILE:LINE: ..." naming the key.
StudySpec load_study(const std::string& path);
/// Parse study text (for tests); `file` names it in messages.
StudySpec parse_study(const std::string& text, const std::string& file);
/// Expand run groups into runs, in a deterministic order.
std::vector<RunItem> expand(const StudySpec& study);

}  // namespace liesim::study
