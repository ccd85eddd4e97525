// Where a study's jobs (references and runs) execute: child processes on this machine, or the
// worker ranks of an MPI job. Either way every job runs in a process of its own, and only the
// coordinating process writes results.
#pragma once
#include <liesim/host/child_process.hpp>

#include <functional>
#include <string>
#include <vector>

namespace liesim::study {

struct RunOptions;

/// One batch of jobs (the references, then the runs, then the matched runs) as the study runner
/// describes it; an engine calls these, never anything else of the runner.
struct Phase {
  /// Time limit of job `tag` in seconds (<= 0: none).
  std::function<double(int)> limit;
  /// The job, run in a child process: its answer text.
  std::function<std::string(int)> job;
  /// The coordinator receives each job's outcome here, in the order they end.
  std::function<void(int, const ChildOutcome&)> done;
  /// Coordinator: what job `tag` needs of the coordinator's state (a case's reference, a matched
  /// step), as text; an engine whose jobs run elsewhere sends it along.
  std::function<std::string(int)> context;
  /// Worker: install a received context before running job `tag`.
  std::function<void(int, const std::string&)> apply;
};

/// Executes the phases of a study.
class Engine {
 public:
  virtual ~Engine() = default;
  /// Whether this process only executes jobs handed to it (an MPI worker rank): it writes no
  /// results, and run() ignores `tags`.
  virtual bool worker() const { return false; }
  /// Execute job(tag) for every tag, handing each outcome to phase.done. When opt.stop_requested
  /// becomes true no job starts any more and those in flight get opt.grace_s to end; returns
  /// false if stopped.
  virtual bool run(const std::vector<int>& tags, const RunOptions& opt, const Phase& phase) = 0;
  /// Where the jobs ran, for the manifest (e.g. "local: 2 jobs", "mpi: 4 ranks on host1, host2").
  virtual std::string description(const RunOptions& opt) const = 0;
};

/// Child processes on this machine, at most opt.jobs at once.
class LocalEngine final : public Engine {
 public:
  bool run(const std::vector<int>& tags, const RunOptions& opt, const Phase& phase) override;
  std::string description(const RunOptions& opt) const override;
};

}  // namespace liesim::study
