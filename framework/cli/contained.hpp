// A command whose plugin code runs in a child process: a plugin that crashes, calls exit(),
// forks or hangs past the time limit ends the child, and the command reports it in liesim's own
// words with its own exit status (plugin_died_status), never a bare signal or the plugin's status.
#pragma once
#include <liesim/host/child_process.hpp>
#include <liesim/sdk/status.hpp>

#include <fmt/format.h>

#include <cstdio>
#include <functional>
#include <string>

namespace liesim::cli {

/// The exit status of a command whose plugin ended its process (documented in the usage text).
inline constexpr int plugin_died_status = 4;

/// Run `body` (which prints what the command prints and returns its exit status) in a child
/// process with a time limit (<= 0: none). The child's stdout and stderr are the command's.
/// Errors thrown in the child are rethrown here as liesim::Error.
inline int contained(const std::string& command, const std::function<int()>& body, double timeout_s = 0.0) {
  const ChildOutcome o = run_in_child([&] { return std::to_string(body()); }, timeout_s);
  if (o.end == ChildOutcome::End::answered) return std::stoi(o.text);
  if (o.end == ChildOutcome::End::failed) throw Error(o.text);
  std::fflush(stdout);
  std::string what;
  switch (o.end) {
    case ChildOutcome::End::signalled: what = fmt::format("a plugin crashed with {}", signal_text(o.code)); break;
    case ChildOutcome::End::exited:
      what = fmt::format("a plugin ended the process with exit status {} (it called exit())", o.code);
      break;
    case ChildOutcome::End::timed_out: what = fmt::format("a plugin timed out after {:g} s (killed)", timeout_s); break;
    default: what = o.reason(); break;
  }
  if (!o.stage.empty()) what += " while " + o.stage;
  std::fprintf(stderr, "liesim: %s: %s. liesim itself did not fail: the plugin's code ran in a process of its own. Fix or "
               "remove that plugin (`liesim list` shows where it is)%s\n", command.c_str(), what.c_str(),
               command == "run" ? "; the files the run wrote before it hold what was computed" : "");
  return plugin_died_status;
}

}  // namespace liesim::cli
