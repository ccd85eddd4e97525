// `liesim study FILE` and `liesim plot DIR`.
#include "commands.hpp"

#include <liesim/child_process.hpp>
#include "mpi_engine.hpp"

#include <liesim/status.hpp>
#include <liesim/study/case_views.hpp>
#include <liesim/study/merge.hpp>
#include <liesim/study/report.hpp>
#include <liesim/study/study_runner.hpp>

#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <thread>
#include <unistd.h>

namespace liesim::cli {

namespace {

volatile std::sig_atomic_t stop_signal = 0;

/// First Ctrl-C (or SIGTERM): stop handing out runs; the second: leave at once.
extern "C" void on_stop_signal(int sig) {
  if (stop_signal != 0) ::_exit(128 + sig);
  stop_signal = sig;
}

double seconds_value(const std::string& flag, const std::string& v) {
  char* end = nullptr;
  const double s = std::strtod(v.c_str(), &end);
  if (end == v.c_str() || *end != '\0' || !(s > 0) || !std::isfinite(s) || s > max_time_limit_s)
    throw Error(fmt::format("study: {} must be a positive number of seconds, at most {:g} (got '{}')", flag, max_time_limit_s, v));
  return s;
}

/// The plots (drawn by as many processes as the study had jobs), or why there are none.
std::string plots_or_note(bool plots, const std::string& out, int jobs) {
  return plots ? study::draw_plots(out, jobs) : fmt::format("No plots drawn (--no-plots): `liesim plot {}` draws them.", out);
}

/// "I/N" with 1 <= I <= N.
std::pair<int, int> shard_value(const std::string& v) {
  int i = 0, n = 0;
  char rest = 0;
  if (std::sscanf(v.c_str(), "%d/%d%c", &i, &n, &rest) != 2 || n < 1 || n > 100000 || i < 1 || i > n)
    throw Error(fmt::format("study: --shard must be I/N with 1 <= I <= N, e.g. 2/8 (got '{}')", v));
  return {i, n};
}

/// `liesim study merge DIR... --out DIR [--no-plots]`.
int merge(const Registry& registry, const std::vector<std::string>& args) {
  std::vector<std::string> dirs;
  std::string out;
  bool plots = true;
  for (std::size_t i = 1; i < args.size(); ++i) {
    if (args[i] == "--out") {
      if (i + 1 >= args.size()) throw Error("study merge: --out needs a folder");
      out = args[++i];
    } else if (args[i] == "--no-plots") {
      plots = false;
    } else if (!args[i].empty() && args[i][0] == '-') {
      throw Error(fmt::format("study merge: unknown option '{}' (options: --out DIR, --no-plots)", args[i]));
    } else {
      dirs.push_back(args[i]);
    }
  }
  if (out.empty()) throw Error("study merge needs --out DIR: liesim study merge SHARD_DIR... --out DIR");
  const std::string started = study::utc_now();
  const study::Merged m = study::merge_shards(dirs, out);
  study::write_orders(out, m.result.orders);
  study::write_manifest(out, m.study, registry, started, study::utc_now(), 0, "", m.shards);
  const std::string note = plots_or_note(plots, out, static_cast<int>(std::max(1u, std::thread::hardware_concurrency())));
  study::write_report(out, m.study, m.result, note);
  int failed = 0;
  for (const auto& r : m.result.records) failed += r.status != "ok";
  fmt::print("study '{}': {} shards merged, {} runs ({} failed); results in {}/results.csv, report {}/report.md\n", m.study.name,
             m.shards.size(), m.result.records.size(), failed, out, out);
  if (!note.empty()) fmt::print("{}\n", note);
  return failed > 0 ? 3 : 0;
}

}  // namespace

int study(const Registry& registry, const std::vector<std::string>& args) {
  if (!args.empty() && args[0] == "merge") return merge(registry, args);
  std::string file, out;
  std::pair<int, int> shard{1, 1};
  bool sharded = false;
  int jobs = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  bool resume = false, retry_failed = false, plots = true, views = true;
  double run_timeout = 0.0;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](const char* flag) {
      if (i + 1 >= args.size()) throw Error(fmt::format("study: {} needs a value", flag));
      return args[++i];
    };
    if (a == "--jobs") {
      const std::string v = value("--jobs");
      char* end = nullptr;
      const long j = std::strtol(v.c_str(), &end, 10);
      if (end == v.c_str() || *end != '\0' || j < 1 || j > 1024) throw Error(fmt::format("study: --jobs must be an integer in [1, 1024] (got '{}')", v));
      jobs = static_cast<int>(j);
    } else if (a == "--out") {
      out = value("--out");
      if (out.empty()) throw Error("study: --out needs a folder (got \"\"); leave --out away to use the study file's 'output'");
    } else if (a == "--resume") {
      resume = true;
    } else if (a == "--no-plots") {
      plots = false;
    } else if (a == "--no-views") {
      views = false;
    } else if (a == "--shard") {
      shard = shard_value(value("--shard"));
      sharded = true;
    } else if (a == "--retry-failed") {
      retry_failed = true;
    } else if (a == "--run-timeout") {
      run_timeout = seconds_value("--run-timeout", value("--run-timeout"));
    } else if (!a.empty() && a[0] == '-') {
      throw Error(fmt::format("study: unknown option '{}' (options: --jobs N, --out DIR, --resume, --retry-failed, "
                              "--run-timeout SECONDS, --shard I/N, --no-plots, --no-views)", a));
    } else if (file.empty()) {
      file = a;
    } else {
      throw Error(fmt::format("study: unexpected argument '{}'", a));
    }
  }
  if (file.empty())
    throw Error("study needs a study file: liesim study FILE.toml [--jobs N] [--out DIR] [--resume [--retry-failed]] "
                "[--run-timeout SECONDS] [--shard I/N] [--no-plots]");
  if (retry_failed && !resume) throw Error("study: --retry-failed reruns the failed runs of an earlier execution: give it with --resume");
  const study::StudySpec spec = study::load_study(file);
  // Under mpirun: rank 0 coordinates and writes, the other ranks run the jobs it hands out.
  std::unique_ptr<study::Engine> mpi;
  if (launched_by_mpi()) mpi = make_mpi_engine();
  study::RunOptions opt;
  opt.engine = mpi.get();
  if (mpi && mpi->worker()) {
    // A worker rank: run what rank 0 hands out; every output is rank 0's. Stops are rank 0's too.
    opt.out = out.empty() ? (sharded ? fmt::format("{}/shard-{}-of-{}", spec.output, shard.first, shard.second) : spec.output) : out;
    opt.shard = shard.first;
    opt.shards = shard.second;
    opt.run_timeout = run_timeout;
    ::signal(SIGINT, SIG_IGN);
    ::signal(SIGTERM, SIG_IGN);
    (void)study::run_study(registry, spec, opt);
    return 0;
  }
  opt.jobs = jobs;
  opt.out = out.empty() ? (sharded ? fmt::format("{}/shard-{}-of-{}", spec.output, shard.first, shard.second) : spec.output) : out;
  opt.shard = shard.first;
  opt.shards = shard.second;
  opt.resume = resume;
  opt.retry_failed = retry_failed;
  opt.run_timeout = run_timeout;
  stop_signal = 0;
  struct sigaction action {};
  action.sa_handler = on_stop_signal;
  sigemptyset(&action.sa_mask);
  struct sigaction old_int {}, old_term {};
  ::sigaction(SIGINT, &action, &old_int);
  ::sigaction(SIGTERM, &action, &old_term);
  struct Restore {
    struct sigaction i, t;
    ~Restore() {
      ::sigaction(SIGINT, &i, nullptr);
      ::sigaction(SIGTERM, &t, nullptr);
    }
  } restore{old_int, old_term};
  opt.stop_requested = [] { return stop_signal != 0; };
  // Under mpirun a Ctrl-C reaches rank 0 as SIGTERM from the launcher, which kills every rank
  // soon after: no grace for the runs in flight, so that what is done is written in time.
  if (mpi) opt.grace_s = 0.0;
  opt.on_stop = [&](int in_flight) {
    if (opt.grace_s > 0)
      fmt::print(stderr, "\nliesim: {}: no new runs; waiting up to {:g} s for the {} run(s) in flight (again to quit at once)\n",
                 stop_signal == SIGINT ? "interrupted" : "terminated", opt.grace_s, in_flight);
    else
      fmt::print(stderr, "\nliesim: {}: no new runs; the {} run(s) in flight are stopped\n",
                 stop_signal == SIGINT ? "interrupted" : "terminated", in_flight);
  };
  const bool tty = ::isatty(STDERR_FILENO) != 0;
  const auto start = std::chrono::steady_clock::now();
  opt.progress = [&](int done, int total, const study::RunRecord& r) {
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double left = done > 0 ? elapsed / done * (total - done) : 0.0;
    if (tty) {
      const int width = 30, filled = total ? width * done / total : width;
      fmt::print(stderr, "\r[{}{}] {}/{}  ~{:.0f} s left   ", std::string(filled, '#'), std::string(width - filled, '.'), done,
                 total, left);
      if (done == total) fmt::print(stderr, "\n");
    } else {
      fmt::print(stderr, "[{}/{}] {} {} {}: {}{}\n", done, total, r.case_name, r.integrator,
                 r.step > 0 ? fmt::format("h={}", r.step) : r.tolerance > 0 ? fmt::format("tol={}", r.tolerance) : "(no step: matched run not made)", r.status,
                 r.status != "ok"                ? " (" + r.error + ")"
                 : std::isnan(r.distance_ratio) ? fmt::format(", error {:.2e}", r.error_final)
                                                : fmt::format(", distance ratio {:.6g}", r.distance_ratio));
    }
  };
  const std::string started = study::utc_now();
  const study::LocalEngine local;
  const std::string engine = opt.engine ? opt.engine->description(opt) : local.description(opt);
  fmt::print(stderr, "study '{}': output in {}, {}\n", spec.name, opt.out, engine);
  const study::StudyResult result = study::run_study(registry, spec, opt);
  study::write_orders(opt.out, result.orders);
  study::write_manifest(opt.out, spec, registry, started, study::utc_now(), jobs,
                        sharded ? fmt::format("{}/{}", shard.first, shard.second) : "", {}, engine);
  // The viewer pages (view_CASE.html) and the strobe figures, made in a child process: the models'
  // code draws the scenes.
  if (!result.interrupted && (views || plots)) {
    const ChildOutcome o = run_in_child([&] {
      std::string files;
      const auto add = [&](const std::string& f) { files += (files.empty() ? "" : ", ") + f; };
      if (views) try {
          for (const auto& p : study::write_case_views(registry, {opt.out, {}, 2000, {}}).pages) add(p);
        } catch (const Error& e) {
          // No series, or no model with a scene: no page, and nothing to complain about.
          const std::string why = e.what();
          if (why.find("wrote a time series") == std::string::npos && why.find("states a scene") == std::string::npos) throw;
        }
      if (plots)
        for (const auto& f : study::draw_strobe_figures(registry, spec, opt.out)) add(f);
      return files;
    }, 600.0);
    if (!o.answered())
      fmt::print(stderr, "liesim: study '{}': viewer pages or strobe figures missing: {}\n", spec.name,
                 o.end == ChildOutcome::End::failed ? o.text : o.reason());
    else if (!o.text.empty())
      fmt::print(stderr, "study '{}': viewer pages and strobe figures: {}\n", spec.name, o.text);
  }
  const std::string note = result.interrupted
                               ? fmt::format("The study was interrupted: {} run(s) not made, no plots drawn (`liesim study {} --resume` "
                                             "finishes it; `liesim plot {}` draws what is there).", result.not_run, file, opt.out)
                           : plots_or_note(plots, opt.out, jobs);
  study::write_report(opt.out, spec, result, note);
  int failed = 0;
  for (const auto& r : result.records) failed += r.status != "ok";
  fmt::print("study '{}': {} runs ({} failed, {} resumed); results in {}/results.csv, report {}/report.md\n", spec.name,
             result.records.size(), failed, result.skipped, opt.out, opt.out);
  if (!note.empty()) fmt::print("{}\n", note);
  if (result.interrupted) {
    fmt::print(stderr, "liesim: study '{}' interrupted with {} of {} runs done; every finished result is kept. Resume with: "
               "liesim study {}{} --resume\n", spec.name, result.records.size(), result.records.size() + result.not_run, file,
               out.empty() ? "" : " --out " + out);
    return 128 + (stop_signal != 0 ? stop_signal : SIGINT);
  }
  if (failed > 0) {
    fmt::print(stderr, "liesim: study '{}': {} of {} runs failed; their messages are in {}/results.csv (columns status, error_message) "
               "and {}/report.md; every other result is kept\n", spec.name, failed, result.records.size(), opt.out, opt.out);
    return 3;
  }
  return 0;
}

int plot(const std::vector<std::string>& args) {
  if (args.size() != 1) throw Error("plot needs exactly one study output folder: liesim plot DIR");
  if (!std::filesystem::exists(std::filesystem::path(args[0]) / "results.csv"))
    throw Error(fmt::format("plot: {} has no results.csv (run `liesim study` first)", args[0]));
  const std::string note = study::draw_plots(args[0], static_cast<int>(std::max(1u, std::thread::hardware_concurrency())));
  if (!note.empty()) throw Error(note);
  fmt::print("plots written to {}/plots\n", args[0]);
  return 0;
}

}  // namespace liesim::cli
