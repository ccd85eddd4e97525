// `liesim study FILE` and `liesim plot DIR`.
#include "command_line.hpp"
#include "commands.hpp"

#include <liesim/host/child_process.hpp>
#include <liesim/study/mpi_engine.hpp>

#include <liesim/sdk/status.hpp>
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
#include <functional>
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
  bool no_plots = false;
  CommandLine cl("study merge", "SHARD_DIR... --out DIR [--no-plots]",
                 "Join the output folders of a study's shards (`liesim study FILE --shard I/N`) into one study folder.");
  cl.add()("out", po::value(&out)->value_name("DIR"), "the merged study's folder (required)")(
      "no-plots", po::bool_switch(&no_plots), "draw no plots (`liesim plot DIR` draws them later)");
  cl.operands(&dirs, "the shards' folders SHARD_DIR...", 1, -1);
  cl.parse(std::vector<std::string>(args.begin() + 1, args.end()));
  if (out.empty()) throw Error("study merge needs --out DIR: liesim study merge SHARD_DIR... --out DIR");
  const bool plots = !no_plots;
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

/// What `liesim study FILE` was asked.
struct StudyArguments {
  std::string file, out;  ///< out: "" for the study file's 'output'
  std::pair<int, int> shard{1, 1};
  bool sharded = false;
  int jobs = 1;
  bool resume = false, retry_failed = false, plots = true, views = true;
  double run_timeout = 0.0;  ///< 0: none beyond the study file's
};

StudyArguments parse_study(const std::vector<std::string>& args) {
  StudyArguments a;
  std::vector<std::string> files;
  std::string shard_text, jobs_text, timeout_text;
  bool no_plots = false, no_views = false;
  CommandLine cl("study", "FILE.toml [--jobs N] [--out DIR] [--resume [--retry-failed]] [--run-timeout SECONDS] [--shard I/N] [--no-plots] [--no-views]",
                 "Run a comparison study: every run in a process of its own (a crash or a time limit fails that run, not the study);\n"
                 "Ctrl-C stops and keeps results. Under `mpirun -np K liesim study FILE.toml ...` rank 0 hands the runs out to K - 1\n"
                 "worker ranks (docs/cluster.md). `liesim study merge SHARD_DIR... --out DIR` joins the shards' folders into one\n"
                 "study (see `liesim study merge --help`).");
  cl.add()("jobs", po::value(&jobs_text)->value_name("N"), "runs at once, 1 to 1024 (default: the number of cores)")(
      "out", po::value(&a.out)->value_name("DIR"), "the output folder (default: the study file's 'output')")(
      "resume", po::bool_switch(&a.resume), "keep the results of an earlier, interrupted execution in the folder; run the rest")(
      "retry-failed", po::bool_switch(&a.retry_failed), "with --resume: run the failed runs again")(
      "run-timeout", po::value(&timeout_text)->value_name("SECONDS"), "time limit of a run or reference where the study file sets none")(
      "shard", po::value(&shard_text)->value_name("I/N"), "only the I-th of N shares of the runs (job arrays; `study merge` joins them)")(
      "no-plots", po::bool_switch(&no_plots), "draw no plots (`liesim plot DIR` draws them later)")(
      "no-views", po::bool_switch(&no_views), "write no viewer pages (view_CASE.html)");
  cl.operands(&files, "a study file FILE.toml", 1, 1);
  const po::variables_map vm = cl.parse(args);
  a.file = files.front();
  if (vm.count("out") && a.out.empty())
    throw Error("study: --out needs a folder (got \"\"); leave --out away to use the study file's 'output'");
  a.jobs = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  if (vm.count("jobs")) {
    char* end = nullptr;
    const long j = std::strtol(jobs_text.c_str(), &end, 10);
    if (end == jobs_text.c_str() || *end != '\0' || j < 1 || j > 1024)
      throw Error(fmt::format("study: --jobs must be an integer in [1, 1024] (got '{}')", jobs_text));
    a.jobs = static_cast<int>(j);
  }
  a.sharded = vm.count("shard") > 0;
  if (a.sharded) a.shard = shard_value(shard_text);
  if (vm.count("run-timeout")) a.run_timeout = seconds_value("--run-timeout", timeout_text);
  a.plots = !no_plots;
  a.views = !no_views;
  if (a.retry_failed && !a.resume) throw Error("study: --retry-failed reruns the failed runs of an earlier execution: give it with --resume");
  return a;
}

/// The study's execution settings from the arguments: the folder (a shard's own under the
/// study's 'output'), the shard, the limits.
study::RunOptions run_options(const StudyArguments& a, const study::StudySpec& spec) {
  study::RunOptions opt;
  opt.out = !a.out.empty() ? a.out : a.sharded ? fmt::format("{}/shard-{}-of-{}", spec.output, a.shard.first, a.shard.second) : spec.output;
  opt.shard = a.shard.first;
  opt.shards = a.shard.second;
  opt.run_timeout = a.run_timeout;
  opt.jobs = a.jobs;
  opt.resume = a.resume;
  opt.retry_failed = a.retry_failed;
  return opt;
}

/// One line per finished run (a progress bar on a terminal).
std::function<void(int, int, const study::RunRecord&)> progress_printer() {
  const bool tty = ::isatty(STDERR_FILENO) != 0;
  const auto start = std::chrono::steady_clock::now();
  return [tty, start](int done, int total, const study::RunRecord& r) {
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
}

/// The viewer pages (view_CASE.html) and the strobe figures, made in a child process: the models'
/// code draws the scenes.
void write_pictures(const Registry& registry, const study::StudySpec& spec, const std::string& out, bool views, bool plots) {
  const ChildOutcome o = run_in_child([&] {
    std::string files;
    const auto add = [&](const std::string& f) { files += (files.empty() ? "" : ", ") + f; };
    if (views) try {
        study::CaseViews pages;
        pages.folder = out;
        for (const auto& p : study::write_case_views(registry, pages).pages) add(p);
      } catch (const Error& e) {
        // No series, or no model with a scene: no page, and nothing to complain about.
        const std::string why = e.what();
        if (why.find("wrote a time series") == std::string::npos && why.find("states a scene") == std::string::npos) throw;
      }
    if (plots)
      for (const auto& f : study::draw_strobe_figures(registry, spec, out)) add(f);
    return files;
  }, 600.0);
  if (!o.answered())
    fmt::print(stderr, "liesim: study '{}': viewer pages or strobe figures missing: {}\n", spec.name,
               o.end == ChildOutcome::End::failed ? o.text : o.reason());
  else if (!o.text.empty())
    fmt::print(stderr, "study '{}': viewer pages and strobe figures: {}\n", spec.name, o.text);
}

/// Ctrl-C and SIGTERM stop the study (stop_signal) while it runs; the handlers before it are put
/// back when this ends.
class StopSignals {
 public:
  StopSignals() {
    stop_signal = 0;
    struct sigaction action {};
    action.sa_handler = on_stop_signal;
    sigemptyset(&action.sa_mask);
    ::sigaction(SIGINT, &action, &old_int_);
    ::sigaction(SIGTERM, &action, &old_term_);
  }
  ~StopSignals() {
    ::sigaction(SIGINT, &old_int_, nullptr);
    ::sigaction(SIGTERM, &old_term_, nullptr);
  }
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

 private:
  struct sigaction old_int_ {}, old_term_ {};
};

}  // namespace

int study(const Registry& registry, const std::vector<std::string>& args) {
  if (!args.empty() && args[0] == "merge") return merge(registry, args);
  const StudyArguments a = parse_study(args);
  const study::StudySpec spec = study::load_study(a.file);
  // Under mpirun: rank 0 coordinates and writes, the other ranks run the jobs it hands out.
  std::unique_ptr<study::Engine> mpi;
  if (study::launched_by_mpi()) mpi = study::make_mpi_engine();
  study::RunOptions opt = run_options(a, spec);
  opt.engine = mpi.get();
  if (mpi && mpi->worker()) {
    // A worker rank: run what rank 0 hands out; every output is rank 0's. Stops are rank 0's too.
    // It plans the study with one child process at a time (ranks may share a node).
    opt.jobs = 1;
    ::signal(SIGINT, SIG_IGN);
    ::signal(SIGTERM, SIG_IGN);
    (void)study::run_study(registry, spec, opt);
    return 0;
  }
  const StopSignals stops;
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
  opt.progress = progress_printer();
  const std::string started = study::utc_now();
  const study::LocalEngine local;
  const std::string engine = opt.engine ? opt.engine->description(opt) : local.description(opt);
  fmt::print(stderr, "study '{}': output in {}, {}\n", spec.name, opt.out, engine);
  const study::StudyResult result = study::run_study(registry, spec, opt);
  study::write_orders(opt.out, result.orders);
  study::write_manifest(opt.out, spec, registry, started, study::utc_now(), a.jobs,
                        a.sharded ? fmt::format("{}/{}", a.shard.first, a.shard.second) : "", {}, engine);
  if (!result.interrupted && (a.views || a.plots)) write_pictures(registry, spec, opt.out, a.views, a.plots);
  const std::string note = result.interrupted
                               ? fmt::format("The study was interrupted: {} run(s) not made, no plots drawn (`liesim study {} --resume` "
                                             "finishes it; `liesim plot {}` draws what is there).", result.not_run, a.file, opt.out)
                           : plots_or_note(a.plots, opt.out, a.jobs);
  study::write_report(opt.out, spec, result, note);
  int failed = 0;
  for (const auto& r : result.records) failed += r.status != "ok";
  fmt::print("study '{}': {} runs ({} failed, {} resumed); results in {}/results.csv, report {}/report.md\n", spec.name,
             result.records.size(), failed, result.skipped, opt.out, opt.out);
  if (!note.empty()) fmt::print("{}\n", note);
  if (result.interrupted) {
    fmt::print(stderr, "liesim: study '{}' interrupted with {} of {} runs done; every finished result is kept. Resume with: "
               "liesim study {}{} --resume\n", spec.name, result.records.size(), result.records.size() + result.not_run, a.file,
               a.out.empty() ? "" : " --out " + a.out);
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
  std::vector<std::string> dirs;
  CommandLine cl("plot", "DIR", "Redraw the plots of a study from its results (DIR/results.csv) into DIR/plots.");
  cl.operands(&dirs, "a study's output folder DIR", 1, 1);
  cl.parse(args);
  const std::string& dir = dirs.front();
  if (!std::filesystem::exists(std::filesystem::path(dir) / "results.csv"))
    throw Error(fmt::format("plot: {} has no results.csv (run `liesim study` first)", dir));
  const std::string note = study::draw_plots(dir, static_cast<int>(std::max(1u, std::thread::hardware_concurrency())));
  if (!note.empty()) throw Error(note);
  fmt::print("plots written to {}/plots\n", dir);
  return 0;
}

}  // namespace liesim::cli
