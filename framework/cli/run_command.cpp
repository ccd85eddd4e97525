// `liesim run`: one run of a model under a method, with the outputs asked for (time series, summary,
// step log, events, viewer page), its plugins' code in a child process.
#include "command_line.hpp"
#include "commands.hpp"
#include "contained.hpp"

#include <liesim/host/driver.hpp>
#include <liesim/host/output.hpp>
#include <liesim/host/summary.hpp>
#include <liesim/host/run.hpp>
#include <liesim/host/view.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>

namespace liesim::cli {

namespace {

/// What `liesim run` was asked: the run, and where its outputs go.
struct RunArguments {
  RunRequest req;
  std::string output, summary, steps, events_file, view;  ///< "" where not asked for
  long output_every = 1, invariants_every = 1;
  double run_timeout = 0.0;  ///< 0: none
};

/// The file `path` writes to: absolute, every symbolic link followed (a dangling one too: its
/// target is the file a write creates), then `.` and `..` resolved.
std::string file_identity(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path p = fs::absolute(path, ec);
  for (int hops = 0; hops < 40 && fs::is_symlink(fs::symlink_status(p, ec)); ++hops) {
    const fs::path target = fs::read_symlink(p, ec);
    if (ec) break;
    p = target.is_absolute() ? target : p.parent_path() / target;
  }
  const fs::path canonical = fs::weakly_canonical(p.parent_path(), ec);
  return ((ec ? p.parent_path() : canonical) / p.filename()).lexically_normal().string();
}

/// The arguments of `liesim run`, checked: a liesim::Error says what is wrong and how to fix it.
RunArguments parse_run(const std::vector<std::string>& args) {
  RunArguments a;
  RunRequest& req = a.req;
  std::string &output = a.output, &summary = a.summary, &steps = a.steps, &events_file = a.events_file, &view = a.view;
  long &output_every = a.output_every, &invariants_every = a.invariants_every;
  double& run_timeout = a.run_timeout;
  std::vector<std::string> params, options;
  std::string output_times, tableau;
  double output_grid_dt = 0.0;
  CommandLine cl("run", "--model NAME --integrator NAME [--param KEY=VALUE]... [--option KEY=VALUE]... [--t-end T]\n"
                        "                  (--step H | --rtol R --atol A) [--output FILE.csv] [--summary FILE.json] [--view FILE.html] ...",
                 "One run of a model under a method: a fixed step, or tolerances for an adaptive method; the time series,\n"
                 "summary, step log, events and viewer page where asked. The plugins' code runs in a process of its own.");
  cl.add()("model", po::value(&req.model)->required()->value_name("NAME"), "model name (`liesim list`)")(
      "integrator", po::value(&req.method)->required()->value_name("NAME"), "integrator method name (`liesim list`)")(
      "param", po::value(&params)->composing()->value_name("KEY=VALUE"), "model parameter (repeatable; `liesim describe MODEL`)")(
      "option", po::value(&options)->composing()->value_name("KEY=VALUE"), "integrator option (repeatable; `liesim describe METHOD`)")(
      "tableau", po::value(&tableau)->value_name("FILE"),
      "coefficient table (TOML, docs/tableaux.md) of methods rk and rkmk, or scheme of method cf: the option tableau=FILE, the path from this folder")(
      "t-end", po::value(&req.t_end)->default_value(1.0)->value_name("T"), "final time")(
      "step", po::value(&req.step)->value_name("H"), "fixed step size")(
      "rtol", po::value(&req.rtol)->value_name("R"), "relative tolerance (adaptive)")(
      "atol", po::value(&req.atol)->value_name("A"), "absolute tolerance (adaptive)")(
      "output", po::value(&output)->value_name("FILE.csv"), "CSV time series")(
      "summary", po::value(&summary)->value_name("FILE.json"), "JSON run summary")(
      "view", po::value(&view)->value_name("FILE.html"),
      "the motion in the browser: a self-contained HTML page (the series it shows is --output's, else a temporary file)")(
      "steps", po::value(&steps)->value_name("FILE.csv"), "CSV log of every adaptive step attempt")(
      "outputs", po::value(&req.solver_outputs)->default_value(100)->value_name("N"),
      "output at N equally spaced times, exactly (the method's dense output; default: every step of a kernel-driven method, 100 "
      "times of a self-controlled solver)")(
      "output-times", po::value(&output_times)->value_name("T1,T2,..."), "output at exactly these times (increasing, in [t0, t_end])")(
      "output-grid", po::value(&output_grid_dt)->value_name("DT"), "output at exactly t0 + k DT, k = 1, 2, ... up to t_end")(
      "output-every", po::value(&output_every)->default_value(1)->value_name("N"), "write every N-th step to --output (and the last)")(
      "stop-when", po::value(&req.stop_when)->composing()->value_name("NAME<VALUE"),
      "stop the run when NAME<VALUE or NAME>VALUE first holds (NAME a state column, an invariant or an observable; repeatable)")(
      "event", po::value(&req.events)->composing()->value_name("NAME>VALUE"),
      "record when NAME<VALUE or NAME>VALUE starts to hold, without stopping (repeatable)")(
      "events", po::value(&events_file)->value_name("FILE.csv"), "CSV of the located events (event, t, state)")(
      "invariants-every", po::value(&invariants_every)->default_value(1)->value_name("K"),
      "evaluate the invariants and observables of the summary at every K-th output point and the last (default: every one)")(
      "run-timeout", po::value(&run_timeout)->value_name("SECONDS"), "stop the run after SECONDS (exit status 4, as for a plugin that crashes)");
  const po::variables_map vm = cl.parse(args);
  for (const auto& p : params) {
    auto [k, v] = parse_assignment(p, "--param");
    req.parameters[k] = v;
  }
  for (const auto& o : options) {
    auto [k, v] = parse_assignment(o, "--option");
    req.options[k] = v;
  }
  if (!tableau.empty()) {
    if (req.options.contains("tableau")) throw Error("run: give the table once, as --tableau FILE or as --option tableau=FILE");
    req.options["tableau"] = std::filesystem::absolute(tableau).lexically_normal().string();
  }
  if (req.solver_outputs < 1 || req.solver_outputs > 10'000'000)
    throw Error(fmt::format("--outputs must be in [1, 10000000] (got {})", req.solver_outputs));
  {
    std::vector<std::string> given;
    for (const char* o : {"outputs", "output-times", "output-grid", "output-every"})
      if (vm.count(o) && !vm[o].defaulted()) given.push_back(fmt::format("--{}", o));
    if (given.size() > 1)
      throw Error(fmt::format("{} each choose the output points: give one of --outputs N, --output-times T1,T2,..., --output-grid DT "
                              "(exact times) or --output-every N (every N-th step)", fmt::join(given, " and ")));
  }
  if (!vm["outputs"].defaulted()) req.output_times = equal_output_times(req.t0, req.t_end, req.solver_outputs);
  if (vm.count("output-times"))
    req.output_times = Settings({{"output-times", "", "", ""}}, {{"output-times", output_times}}, "run").numbers("output-times", {});
  if (vm.count("output-grid")) {
    if (!(output_grid_dt > 0) || !std::isfinite(output_grid_dt))
      throw Error(fmt::format("--output-grid must be a positive finite time step (got {})", output_grid_dt));
    req.output_times = output_grid(req.t0, req.t_end, output_grid_dt);
  }
  // One file per output: two options naming the same file would overwrite each other.
  {
    std::vector<std::pair<const char*, std::string>> files;
    for (const auto& [option, path] : {std::pair<const char*, const std::string*>{"--output", &output}, {"--summary", &summary},
                                       {"--steps", &steps}, {"--events", &events_file}, {"--view", &view}})
      if (!path->empty()) {
        const std::string identity = file_identity(*path);
        for (const auto& [other, seen] : files)
          if (seen == identity)
            throw Error(fmt::format("{} and {} name the same file '{}': give each its own file", other, option, *path));
        files.emplace_back(option, identity);
      }
  }

  if (invariants_every < 1) throw Error(fmt::format("--invariants-every must be >= 1 (got {})", invariants_every));
  if (output_every < 1) throw Error(fmt::format("--output-every must be >= 1 (got {})", output_every));
  if (run_timeout < 0 || !std::isfinite(run_timeout) || run_timeout > max_time_limit_s)
    throw Error(fmt::format("--run-timeout must be a number of seconds in (0, {:g}] (got {})", max_time_limit_s, run_timeout));
  return a;
}

/// The located events as CSV (event, t, state); false (with a message) when the file cannot be written.
bool write_events(const std::string& events_file, const PreparedRun& prepared, const RunResult& result) {
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(open_for_writing(events_file, "events CSV"), &std::fclose);
  std::string text = "event,t";
  for (const auto& name : prepared.model->state_names()) text += "," + name;
  text += "\n";
  for (const auto& e : result.events) {
    text += fmt::format("\"{}\",{:.17g}", prepared.spec.events[e.event].text, e.t);
    for (Eigen::Index i = 0; i < e.y.size(); ++i) text += fmt::format(",{:.17g}", e.y[i]);
    text += "\n";
  }
  if (std::fwrite(text.data(), 1, text.size(), f.get()) != text.size() || std::fclose(f.release()) != 0) {
    std::cerr << "liesim: error: writing the events CSV '" << events_file << "' failed (disk full or not writable)\n";
    return false;
  }
  return true;
}

/// A run's result in words, when no summary file was asked for: where it got, its events and
/// evaluations, the final state, the invariants' drift, observables, diagnostics, and the error
/// against an exact solution where the model has one.
void print_result(const PreparedRun& prepared, const RunResult& result, const InvariantMonitor& monitor, long invariants_every) {
  const auto& diagnostics = prepared.method.diagnostics;
  fmt::print("model {} with {}: t = {} reached in {} steps ({} rejected), {:.3g} s\n", prepared.model_plugin->name,
             prepared.method.name, result.t, result.stats.steps, result.stats.rejected_steps, result.stats.wall_time_s);
  for (const auto& e : result.events)
    fmt::print("event {} at t = {:.17g}{}\n", prepared.spec.events[e.event].text, e.t, prepared.spec.events[e.event].terminal ? " (stopped the run)" : "");
  const Counters& c = result.stats.counters;
  fmt::print("evaluations: f {}, F {}, exponentials {}, dexpinv {}, brackets {}\n", c.f_evals, c.F_evals, c.exps,
             c.dexpinv_calls, c.brackets);
  fmt::print("final state:\n");
  const auto names = prepared.model->state_names();
  for (Eigen::Index i = 0; i < result.y.size(); ++i) fmt::print("  {:<8} {: .17g}\n", names[i], result.y[i]);
  fmt::print("invariants (initial, final, max |drift| {}):\n",
             invariants_every == 1 ? std::string("over every output point") : fmt::format("over every {}-th output point and the last", invariants_every));
  for (std::size_t k = 0; k < monitor.info().size(); ++k) {
    const auto i = static_cast<Eigen::Index>(k);
    fmt::print("  {:<16} {: .17g} {: .17g} {:.3e}\n", monitor.info()[k].name, monitor.initial()[i], monitor.current()[i],
               monitor.max_abs_drift()[i]);
  }
  if (!monitor.observables().empty()) fmt::print("observables (min, max, final):\n");
  for (std::size_t k = 0; k < monitor.observables().size(); ++k) {
    const auto i = static_cast<Eigen::Index>(k);
    fmt::print("  {:<16} {: .17g} {: .17g} {: .17g}\n", monitor.observables()[k].name, monitor.observable_min()[i],
               monitor.observable_max()[i], monitor.observable_last()[i]);
  }
  if (!diagnostics.empty()) fmt::print("method diagnostics (min, max, last):\n");
  for (std::size_t k = 0; k < diagnostics.size(); ++k) {
    const auto i = static_cast<Eigen::Index>(k);
    fmt::print("  {:<16} {: .17g} {: .17g} {: .17g}\n", diagnostics[k].name, monitor.diagnostic_min()[i],
               monitor.diagnostic_max()[i], monitor.diagnostic_last()[i]);
  }
  Eigen::VectorXd exact(prepared.model->size());
  if (prepared.model->has_exact_solution() && prepared.model->exact_solution(result.t, exact) == Status::ok)
    fmt::print("error against the exact solution at t = {}: {:.3e}\n", result.t, (result.y - exact).norm());
}

/// The run and its outputs (in the child process the plugins' code runs in); exit code.
int make_run(const Registry& registry, const RunArguments& a) {
  const RunRequest& req = a.req;
  const std::string &output = a.output, &summary = a.summary, &steps = a.steps, &events_file = a.events_file, &view = a.view;
  const long output_every = a.output_every, invariants_every = a.invariants_every;
  PreparedRun prepared = prepare_run(registry, req);
  ObserverList observers;
  const auto& diagnostics = prepared.method.diagnostics;
  InvariantMonitor monitor(*prepared.model, diagnostics);
  // The drift is sampled at every K-th output point and the last (the method's diagnostics, at every step).
  Thinning sampled = Thinning::every_nth(monitor, invariants_every, prepared.model->size());
  observers.add(sampled);
  std::unique_ptr<CsvWriter> csv;
  std::unique_ptr<StepLog> step_log;
  std::unique_ptr<Thinning> every;
  // --view without --output: the series goes to a temporary file beside the page.
  const std::string series = !output.empty() ? output : view.empty() ? std::string() : view + ".series.csv";
  if (!series.empty()) {
    csv = std::make_unique<CsvWriter>(series, *prepared.model, diagnostics);
    // Requested output times reach the file as they are; steps may be thinned (--output-every).
    every = std::make_unique<Thinning>(Thinning::every_nth(*csv, output_every, prepared.model->size()));
    observers.add(*every);
}
if (!steps.empty()) {
  step_log = std::make_unique<StepLog>(steps, diagnostics);
  observers.add(*step_log);
}
std::unique_ptr<std::FILE, int (*)(std::FILE*)> summary_file(nullptr, &std::fclose);
if (!summary.empty()) summary_file.reset(open_for_writing(summary, "summary JSON"));

RunResult result;
result.t = prepared.spec.t0;
result.y = prepared.y0;
std::string error;
try {
  result = execute(prepared, observers);
} catch (const RunFailure& f) {
  result = f.partial;
  error = f.what();
} catch (const Error& e) {
  // The method refused the model or its settings before the first step.
  error = e.what();
}
if (every) every->finish();
sampled.finish();
if (!events_file.empty() && !write_events(events_file, prepared, result) && error.empty()) error = "writing the events CSV failed";
if (csv && !csv->ok()) {
  std::cerr << "liesim: error: writing the output CSV '" << series << "' failed (disk full or not writable)\n";
  if (error.empty()) error = "writing the output CSV failed";
}
if (!view.empty()) {
  every.reset();
  csv.reset();  // closed: the page reads it
  try {
    ViewOptions o;
    const std::string setting = prepared.spec.step > 0 ? fmt::format("h = {:g}", prepared.spec.step)
                                                       : fmt::format("tol = {:g}", prepared.spec.control.rtol);
    o.title = fmt::format("{}: {} {}", prepared.model_plugin->name, prepared.method.name, setting);
    write_view_page(view_data(*prepared.model, {{prepared.method.name + " " + setting, series}}, o), view);
    if (summary.empty()) fmt::print("view written: {}\n", view);
  } catch (const Error& e) {
    std::cerr << "liesim: error: the view page: " << e.what() << "\n";
    if (error.empty()) error = "the view page was not written";
  }
  if (output.empty()) std::remove(series.c_str());
}
if (step_log && !step_log->ok()) {
  std::cerr << "liesim: error: writing the step log '" << steps << "' failed (disk full or not writable)\n";
  if (error.empty()) error = "writing the step log failed";
}
if (summary_file) {
  std::string series_from_summary;
  if (!output.empty()) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path relative = fs::relative(fs::absolute(output), fs::absolute(summary).parent_path(), ec);
    series_from_summary = ec || relative.empty() ? fs::absolute(output).string() : relative.string();
  }
  const std::string text = run_summary_json(prepared, result, monitor, error, invariants_every, series_from_summary);
  const bool written = std::fwrite(text.data(), 1, text.size(), summary_file.get()) == text.size();
  if (!written || std::fclose(summary_file.release()) != 0) {
    std::cerr << "liesim: error: writing the summary '" << summary << "' failed (disk full or not writable)\n";
    return 1;
  }
  // One line of result, and where the files went.
  std::string files = "summary " + summary;
  if (!output.empty()) files += ", time series " + output;
  if (!steps.empty()) files += ", step log " + steps;
  if (!view.empty()) files += ", view " + view;
  fmt::print("model {} with {}: t = {} reached in {} steps ({} rejected){}; written: {}\n", prepared.model_plugin->name,
             prepared.method.name, result.t, result.stats.steps, result.stats.rejected_steps, error.empty() ? "" : " before the failure",
             files);
} else {
  print_result(prepared, result, monitor, invariants_every);
}
if (!error.empty()) {
  std::cerr << "liesim: error: " << error << "\n";
  if (!output.empty()) std::cerr << "liesim: the rows computed before the failure are in " << output << "\n";
  return 1;
}
return 0;
}

}  // namespace

int run(const Registry& registry, const std::vector<std::string>& args) {
  const RunArguments a = parse_run(args);
  // The plugins' code runs in a child process: a crash, exit() or hang is reported, not suffered.
  return contained("run", [&] { return make_run(registry, a); }, a.run_timeout);
}

}  // namespace liesim::cli
