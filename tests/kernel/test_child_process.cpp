// Child processes (child_process.cpp): what a job says it is doing reaches the report of its
// death; a job whose process forks ends when it ends (its group is killed, the pipe it leaves
// open is no reason to wait); a time limit past the clock's range is bounded, not overflowed.
#include <liesim/host/child_process.hpp>

#include <doctest/doctest.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <unistd.h>

using namespace liesim;

TEST_CASE("a child's last stage names what it was doing when it died") {
  const ChildOutcome o = run_in_child(
      [] {
        child_stage("loading the plugin");
        child_stage("creating model 'x' with parameters N=3");
        std::raise(SIGSEGV);
        return std::string();
      },
      10);
  CHECK(o.end == ChildOutcome::End::signalled);
  CHECK(o.stage == "creating model 'x' with parameters N=3");
  CHECK(o.reason() == "its process crashed with SIGSEGV (Segmentation fault) while creating model 'x' with parameters N=3");
  const ChildOutcome answered = run_in_child(
      [] {
        child_stage("working");
        return std::string("the answer");
      },
      10);
  CHECK(answered.answered());
  CHECK(answered.text == "the answer");
  child_stage("outside a child: nothing happens");
}

TEST_CASE("a child that forks ends when it ends: its answer comes at once and what it forked is killed") {
  const auto start = std::chrono::steady_clock::now();
  const ChildOutcome o = run_in_child(
      [] {
        if (::fork() == 0)
          for (;;) ::pause();  // holds the answer pipe open
        return std::string("done");
      },
      30);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK(o.answered());
  CHECK(o.text == "done");
  CHECK(seconds < 5);
  // Crashing after the fork: the crash is reported, not a time limit.
  const ChildOutcome crashed = run_in_child(
      [] {
        if (::fork() == 0)
          for (;;) ::pause();
        std::abort();
        return std::string();
      },
      30);
  CHECK(crashed.end == ChildOutcome::End::signalled);
  CHECK(crashed.code == SIGABRT);
}

TEST_CASE("a time limit beyond the clock's range is bounded, and a short one still kills") {
  const ChildOutcome o = run_in_child([] { return std::string("quick"); }, 1e300);
  CHECK(o.answered());
  const ChildOutcome hang = run_in_child(
      [] {
        child_stage("spinning");
        for (;;) ::pause();
        return std::string();
      },
      0.3);
  CHECK(hang.end == ChildOutcome::End::timed_out);
  CHECK(hang.reason() == "timed out after 0.3 s while spinning (killed)");
}
