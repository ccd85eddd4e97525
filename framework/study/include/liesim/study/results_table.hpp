// results.csv: one row per run, every parameter and metric in its own column (tidy data).
#pragma once
#include <liesim/study/study_runner.hpp>

#include <optional>
#include <string>
#include <vector>

namespace liesim::study {

/// The columns of a study's results table.
struct ResultColumns {
  std::vector<std::string> parameters;  ///< union of model parameter names (column "param:NAME")
  std::vector<std::string> options;     ///< union of option names (column "option:NAME")
  std::vector<std::string> invariants;  ///< union of invariant names (column "drift:NAME"), conserved diagnostics included
  /// the models' invariants in cases with output times (column "invariant_error:NAME": the largest
  /// |I(y(t_k)) - I(y_ref(t_k))| over the output times)
  std::vector<std::string> invariant_errors;
  std::vector<std::string> diagnostics; ///< union of the other diagnostics' names (column "max:NAME": largest value in the run)
  std::vector<std::string> observables; ///< union of the models' observable names (column "final:NAME": value at the run's end)
  std::vector<std::string> events;      ///< union of the cases' events (columns "event:WHEN" and "event_error:WHEN")
  /// the state names of the models of one-step runs (columns "arrival:NAME" and "pair_arrival:NAME":
  /// the step's results phi_h(p) and phi_h(q), e.g. the thesis' Fig. 4.3 left)
  std::vector<std::string> arrivals;
  bool trajectory_errors = false;        ///< some case has output times: columns "error:max" and "error:rms" (RunRecord)
  /// All column names in order.
  std::vector<std::string> names() const;
};

/// The CSV line (with newline) of a record; fields are quoted where needed.
std::string csv_row(const RunRecord& r, const ResultColumns& c);
/// The CSV header line.
std::string csv_header(const ResultColumns& c);
/// The columns of a header line (without its newline), or nothing if it is not a results header.
std::optional<ResultColumns> columns_from_header(const std::string& line);
/// Read a results file written with these columns; rows that are incomplete (an interrupted
/// write) or have another header are dropped. Returns the records found.
std::vector<RunRecord> read_results(const std::string& path, const ResultColumns& c);
/// The record of one row (without its newline), or nothing if it is incomplete or malformed.
std::optional<RunRecord> parse_row(const std::string& line, const ResultColumns& c);
/// Split one CSV line into fields (RFC 4180 quoting).
std::vector<std::string> split_csv(const std::string& line, bool& complete);

}  // namespace liesim::study
