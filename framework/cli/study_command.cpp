// `liesim study FILE` and `liesim plot DIR`.
#include "commands.hpp"

#include <liesim/status.hpp>
#include <liesim/study/report.hpp>
#include <liesim/study/study_runner.hpp>

#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <thread>
#include <unistd.h>

namespace liesim::cli {

int study(const Registry& registry, const std::vector<std::string>& args) {
  std::string file, out;
  int jobs = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  bool resume = false;
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
    } else if (a == "--resume") {
      resume = true;
    } else if (!a.empty() && a[0] == '-') {
      throw Error(fmt::format("study: unknown option '{}' (options: --jobs N, --out DIR, --resume)", a));
    } else if (file.empty()) {
      file = a;
    } else {
      throw Error(fmt::format("study: unexpected argument '{}'", a));
    }
  }
  if (file.empty()) throw Error("study needs a study file: liesim study FILE.toml [--jobs N] [--out DIR] [--resume]");
  const study::StudySpec spec = study::load_study(file);
  study::RunOptions opt;
  opt.jobs = jobs;
  opt.out = out.empty() ? spec.output : out;
  opt.resume = resume;
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
                 r.status == "ok" ? fmt::format(", error {:.2e}", r.error_final) : " (" + r.error + ")");
    }
  };
  const std::string started = study::utc_now();
  fmt::print(stderr, "study '{}': output in {}, {} job(s)\n", spec.name, opt.out, jobs);
  const study::StudyResult result = study::run_study(registry, spec, opt);
  study::write_orders(opt.out, result.orders);
  study::write_manifest(opt.out, spec, registry, started, study::utc_now(), jobs);
  const std::string note = study::draw_plots(opt.out);
  study::write_report(opt.out, spec, result, note);
  int failed = 0;
  for (const auto& r : result.records) failed += r.status != "ok";
  fmt::print("study '{}': {} runs ({} failed, {} resumed); results in {}/results.csv, report {}/report.md\n", spec.name,
             result.records.size(), failed, result.skipped, opt.out, opt.out);
  if (!note.empty()) fmt::print("{}\n", note);
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
  const std::string note = study::draw_plots(args[0]);
  if (!note.empty()) throw Error(note);
  fmt::print("plots written to {}/plots\n", args[0]);
  return 0;
}

}  // namespace liesim::cli
