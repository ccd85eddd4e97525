// Jobs in forked children: answer through a pipe, outcome from waitpid, time limits by SIGKILL.
#include <liesim/host/child_process.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace liesim {

namespace {

// The child writes stage frames ('S', 8 hex digits of length, the text) while it works, then one
// final message whose first byte says what follows: the answer, or the message of an exception.
constexpr char answer_mark = 'A';
constexpr char failure_mark = 'F';
constexpr char stage_mark = 'S';

int stage_fd = -1;  // in a child: its answer pipe
// The answer pipe's descriptor is also put in the child's environment under this name: the MPI
// engine module has a copy of the kernel of its own (framework/study/CMakeLists.txt), so the job the
// command hands it calls the command's child_stage, whose stage_fd that module's ChildPool never set.
constexpr const char* stage_fd_variable = "LIESIM_CHILD_STAGE_FD";

void write_all(int fd, const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t w = ::write(fd, text.data() + done, text.size() - done);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return;
    done += static_cast<std::size_t>(w);
  }
}

[[noreturn]] void child_main(const ChildPool::Job& job, int out, bool quiet, pid_t parent) {
  // A process group of its own, so that whatever it forks ends with it (ChildPool::finish).
  ::setpgid(0, 0);
  // Killed with its owner: an orphan would go on holding the output folder (its lock, its files).
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  stage_fd = out;
  ::setenv(stage_fd_variable, fmt::format("{}:{}", out, ::getpid()).c_str(), 1);
  if (::getppid() != parent) ::_exit(1);
  std::signal(SIGINT, SIG_IGN);
  std::signal(SIGTERM, SIG_IGN);
  // A crash ends the child with its signal, which the owner reports: not the owner's handler
  // (a test framework's, an interpreter's) running in a copy of the owner.
  for (const int sig : {SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL}) std::signal(sig, SIG_DFL);
  if (quiet) {
    const int null = ::open("/dev/null", O_WRONLY);
    if (null >= 0) ::dup2(null, STDOUT_FILENO);
  }
  std::string message;
  try {
    message = answer_mark + job();
  } catch (const std::exception& e) {
    message = failure_mark + std::string(e.what());
  } catch (...) {
    message = failure_mark + std::string("unknown C++ exception");
  }
  write_all(out, message);
  std::fflush(nullptr);  // what the job printed
  ::_exit(0);
}

/// The stage frames at the start of `text` taken off; the last stage in `stage`.
std::string without_stages(const std::string& text, std::string& stage) {
  std::size_t pos = 0;
  while (pos + 9 <= text.size() && text[pos] == stage_mark) {
    const std::size_t len = std::strtoul(text.substr(pos + 1, 8).c_str(), nullptr, 16);
    if (pos + 9 + len > text.size()) break;
    stage = text.substr(pos + 9, len);
    pos += 9 + len;
  }
  return text.substr(pos);
}

std::string seconds_text(double s) { return s >= 10 ? fmt::format("{:.0f} s", s) : fmt::format("{:.3g} s", s); }

}  // namespace

void child_stage(const std::string& what) {
  // "FD:PID": only in that child (a process it starts inherits the variable, not the pipe's meaning).
  if (stage_fd < 0)
    if (const char* v = std::getenv(stage_fd_variable); v && std::strchr(v, ':') && std::atol(std::strchr(v, ':') + 1) == ::getpid())
      stage_fd = std::atoi(v);
  if (stage_fd < 0) return;
  write_all(stage_fd, fmt::format("{}{:08x}{}", stage_mark, what.size(), what));
}

std::string signal_text(int sig) {
  const char* abbrev = sigabbrev_np(sig);
  const char* desc = strsignal(sig);
  return fmt::format("SIG{} ({})", abbrev ? abbrev : std::to_string(sig).c_str(), desc ? desc : "unknown signal");
}

std::string ChildOutcome::reason() const {
  const std::string during = stage.empty() ? std::string() : " while " + stage;
  switch (end) {
    case End::answered: return "answered";
    case End::failed: return text;
    case End::exited:
      return fmt::format("its process ended with exit status {} before finishing{} (exit() called in a plugin?)", code, during);
    case End::signalled: return fmt::format("its process crashed with {}{}", signal_text(code), during);
    case End::timed_out: return fmt::format("timed out after {}{} (killed)", seconds_text(seconds), during);
    case End::not_started: return fmt::format("could not start its process ({})", text);
  }
  return text;
}

ChildPool::~ChildPool() { kill_all(); }

void ChildPool::start(int tag, Job job, double timeout_s, bool quiet) {
  Child c;
  c.tag = tag;
  timeout_s = std::min(timeout_s, max_time_limit_s);
  c.timeout_s = timeout_s;
  c.started = std::chrono::steady_clock::now();
  c.deadline = timeout_s > 0 ? c.started + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                               std::chrono::duration<double>(timeout_s))
                             : std::chrono::steady_clock::time_point::max();
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    c.start_failure = fmt::format("pipe: {}", std::strerror(errno));
    children_.push_back(std::move(c));
    return;
  }
  std::fflush(nullptr);  // nothing buffered here is written twice
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    c.start_failure = fmt::format("fork: {}", std::strerror(errno));
    children_.push_back(std::move(c));
    return;
  }
  if (pid == 0) {
    ::close(fds[0]);
    child_main(job, fds[1], quiet, parent);
  }
  ::close(fds[1]);
  ::setpgid(pid, pid);  // also here: the group exists before the child runs anything
  ::fcntl(fds[0], F_SETFL, ::fcntl(fds[0], F_GETFL) | O_NONBLOCK);
  c.pid = pid;
  c.fd = fds[0];
  children_.push_back(std::move(c));
}

ChildOutcome ChildPool::finish(Child& c, bool timed_out) {
  ChildOutcome o;
  if (!c.start_failure.empty()) {
    o.end = ChildOutcome::End::not_started;
    o.text = c.start_failure;
    return o;
  }
  ::close(c.fd);
  c.fd = -1;
  if (timed_out) ::kill(c.pid, SIGKILL);
  int status = c.status;
  if (!c.reaped)
    while (::waitpid(c.pid, &status, 0) < 0 && errno == EINTR) {
    }
  ::kill(-c.pid, SIGKILL);  // what it forked (its group outlives it only through them)
  c.text = without_stages(c.text, o.stage);
  o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - c.started).count();
  if (timed_out) {
    o.end = ChildOutcome::End::timed_out;
    o.seconds = c.timeout_s;
  } else if (!c.text.empty() && (c.text[0] == answer_mark || c.text[0] == failure_mark) && WIFEXITED(status) &&
             WEXITSTATUS(status) == 0) {
    o.end = c.text[0] == answer_mark ? ChildOutcome::End::answered : ChildOutcome::End::failed;
    o.text = c.text.substr(1);
  } else if (WIFSIGNALED(status)) {
    o.end = ChildOutcome::End::signalled;
    o.code = WTERMSIG(status);
  } else {
    o.end = ChildOutcome::End::exited;
    o.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  return o;
}

bool ChildPool::drain(Child& c) {
  char buf[8192];
  while (true) {
    const ssize_t n = ::read(c.fd, buf, sizeof buf);
    if (n > 0) {
      c.text.append(buf, static_cast<std::size_t>(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    return n == 0;  // end of file; else nothing more for now (EAGAIN)
  }
}

std::optional<std::pair<int, ChildOutcome>> ChildPool::wait(std::chrono::milliseconds max_wait) {
  if (children_.empty()) return std::nullopt;
  auto take = [&](std::size_t k, bool timed_out) {
    Child c = std::move(children_[k]);
    children_.erase(children_.begin() + static_cast<std::ptrdiff_t>(k));
    ChildOutcome o = finish(c, timed_out);
    return std::optional<std::pair<int, ChildOutcome>>(std::pair<int, ChildOutcome>(c.tag, std::move(o)));
  };
  for (std::size_t k = 0; k < children_.size(); ++k)
    if (!children_[k].start_failure.empty()) return take(k, false);
  const auto until = std::chrono::steady_clock::now() + max_wait;
  while (true) {
    const auto now = std::chrono::steady_clock::now();
    for (std::size_t k = 0; k < children_.size(); ++k)
      if (children_[k].deadline <= now) return take(k, true);
    auto next = until;
    for (const auto& c : children_) next = std::min(next, c.deadline);
    if (next < now) next = now;
    std::vector<pollfd> fds;
    for (const auto& c : children_) fds.push_back({c.fd, POLLIN, 0});
    const auto ms = std::chrono::ceil<std::chrono::milliseconds>(next - now).count();
    // At most 50 ms: a child that ended while something it forked holds its pipe open gives no
    // end of file, so its end is also looked for with waitpid.
    const int ready = ::poll(fds.data(), fds.size(), static_cast<int>(std::min<long long>(ms, 50)));
    if (ready < 0 && errno == EINTR) return std::nullopt;  // a signal: let the owner look
    for (std::size_t k = 0; ready > 0 && k < fds.size(); ++k) {
      if (!(fds[k].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      if (drain(children_[k])) return take(k, false);  // end of file: the child has answered or died
    }
    for (std::size_t k = 0; k < children_.size(); ++k) {
      Child& c = children_[k];
      if (c.pid <= 0) continue;
      if (::waitpid(c.pid, &c.status, WNOHANG) != c.pid) continue;
      c.reaped = true;
      (void)drain(c);  // what it wrote before it ended
      return take(k, false);
    }
    if (std::chrono::steady_clock::now() >= until) return std::nullopt;  // a child past its limit: the next wait
  }
}

void ChildPool::kill_all() {
  for (auto& c : children_) {
    if (c.pid > 0) {
      ::kill(-c.pid, SIGKILL);
      ::kill(c.pid, SIGKILL);
      if (!c.reaped)
        while (::waitpid(c.pid, nullptr, 0) < 0 && errno == EINTR) {
        }
    }
    if (c.fd >= 0) ::close(c.fd);
  }
  children_.clear();
}

ChildOutcome run_in_child(const ChildPool::Job& job, double timeout_s, bool quiet) {
  ChildPool pool;
  pool.start(0, job, timeout_s, quiet);
  while (true)
    if (auto r = pool.wait(std::chrono::milliseconds(1000))) return std::move(r->second);
}

}  // namespace liesim
