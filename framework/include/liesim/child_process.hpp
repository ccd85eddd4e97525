// Jobs run in forked child processes: a crash, an exit() or an endless loop in a plugin ends the
// child, never the process that owns the results. Used to probe plugins and to run studies.
#pragma once
#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <sys/types.h>

namespace liesim {

/// How a child's job ended.
struct ChildOutcome {
  enum class End {
    answered,   ///< the job returned; `text` is its answer
    failed,     ///< the job threw; `text` is the message
    exited,     ///< the process ended (exit(), _exit()) before answering; `code` is its status
    signalled,  ///< the process was killed by signal `code` (a crash, SIGKILL from outside, ...)
    timed_out,  ///< it exceeded its time limit and was killed
    not_started ///< pipe or fork failed; `text` says why
  };
  End end = End::not_started;
  std::string text;
  int code = 0;
  double seconds = 0.0;  ///< wall time from start to end

  bool answered() const { return end == End::answered; }
  /// Why it gave no answer, as a sentence fragment ("crashed with SIGSEGV (Segmentation
  /// fault)", "exited with status 7 before finishing", "timed out after 2 s (killed)", ...).
  std::string reason() const;
};

/// "SIGSEGV (Segmentation fault)".
std::string signal_text(int sig);

/// Children running at once; the owner starts jobs and collects their outcomes one by one. The
/// owner must be single-threaded when it starts a job (fork). Children ignore SIGINT and SIGTERM
/// (the owner decides when they stop) and leave with _exit, running no destructor or atexit
/// handler of the owner's state.
class ChildPool {
 public:
  /// Runs in the child; its return value is the answer, an exception's message a failure.
  using Job = std::function<std::string()>;

  ChildPool() = default;
  ChildPool(const ChildPool&) = delete;
  ChildPool& operator=(const ChildPool&) = delete;
  ~ChildPool();  ///< kills and reaps children still running

  /// Start `job` in a new child, identified by `tag`; `timeout_s` <= 0: no time limit. With
  /// `quiet`, the child's stdout goes to /dev/null. A pipe or fork failure is reported by the
  /// next `wait` as End::not_started.
  void start(int tag, Job job, double timeout_s = 0.0, bool quiet = false);
  /// Children started and not yet collected.
  std::size_t running() const { return children_.size(); }
  /// Wait up to `max_wait` for a child to end (or to exceed its limit); returns its tag and
  /// outcome, or nothing if none ended in that time or none is running. A signal delivered to
  /// this process also ends the wait early (nothing returned).
  std::optional<std::pair<int, ChildOutcome>> wait(std::chrono::milliseconds max_wait);
  /// Kill every running child (SIGKILL) and reap it; their outcomes are dropped.
  void kill_all();

 private:
  struct Child {
    int tag = 0;
    pid_t pid = -1;
    int fd = -1;
    std::string text;
    std::chrono::steady_clock::time_point started, deadline;
    double timeout_s = 0.0;
    std::string start_failure;
  };
  ChildOutcome finish(Child& c, bool timed_out);
  std::vector<Child> children_;
};

/// Run one job in a child and wait for it (at most `timeout_s`, <= 0: no limit).
ChildOutcome run_in_child(const ChildPool::Job& job, double timeout_s, bool quiet = false);

}  // namespace liesim
