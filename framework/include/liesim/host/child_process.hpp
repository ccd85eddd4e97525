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
  std::string stage;     ///< what the job said it was doing last (child_stage), "" if nothing
  int code = 0;
  double seconds = 0.0;  ///< wall time from start to end

  bool answered() const { return end == End::answered; }
  /// Why it gave no answer, as a sentence fragment ("crashed with SIGSEGV (Segmentation
  /// fault)", "exited with status 7 before finishing", "timed out after 2 s (killed)", ...),
  /// followed by " while " and the job's last stage when it said one.
  std::string reason() const;
};

/// "SIGSEGV (Segmentation fault)".
std::string signal_text(int sig);

/// The longest time limit a child can have: 1e9 s (about 31 years); a longer one is refused by
/// the options that set limits, and treated as this one here (a steady_clock deadline of
/// nanoseconds overflows beyond about 9.2e9 s).
inline constexpr double max_time_limit_s = 1e9;

/// In a child of a ChildPool: say what the job is doing now ("creating model 'x' with parameters
/// N=3"), so that a crash, exit or time limit is reported with it. Elsewhere: does nothing.
void child_stage(const std::string& what);

/// Children running at once; the owner starts jobs and collects their outcomes one by one. The
/// owner must be single-threaded when it starts a job (fork). Children ignore SIGINT and SIGTERM
/// (the owner decides when they stop) and leave with _exit, running no destructor or atexit
/// handler of the owner's state. Each child leads a process group of its own: what it forks
/// (a plugin that forks) is killed with it when it ends, and cannot keep its answer pipe open.
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
    bool reaped = false;  ///< waitpid has collected it; `status` is its end
    int status = 0;
  };
  ChildOutcome finish(Child& c, bool timed_out);
  /// Read what the child has written; true at end of file.
  static bool drain(Child& c);
  std::vector<Child> children_;
};

/// Run one job in a child and wait for it (at most `timeout_s`, <= 0: no limit).
ChildOutcome run_in_child(const ChildPool::Job& job, double timeout_s, bool quiet = false);

}  // namespace liesim
