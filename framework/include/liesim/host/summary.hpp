// The JSON run summary (`liesim run --summary FILE.json`).
#pragma once
#include <liesim/host/output.hpp>
#include <liesim/host/run.hpp>

#include <string>

namespace liesim {

/// Summary of a finished (or failed: `error` non-empty) run as pretty-printed JSON: model,
/// integrator, parameters, options, t_end, final_state, stats, invariants (with how their drift was
/// sampled: every `sampled_every`-th output point and the last), wall_time_s, plugins, and `series`:
/// the time series file, relative to the summary's folder (liesim view finds it there), if any.
std::string run_summary_json(const PreparedRun& run, const RunResult& result, const InvariantMonitor& invariants,
                             const std::string& error, long sampled_every = 1, const std::string& series = "");

}  // namespace liesim
