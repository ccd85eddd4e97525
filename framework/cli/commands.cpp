// The subcommands of `liesim`: list, describe, run.
#include "commands.hpp"
#include "contained.hpp"

#include <liesim/catalog.hpp>
#include <liesim/driver.hpp>
#include <liesim/io/output.hpp>
#include <liesim/io/summary.hpp>
#include <liesim/run.hpp>
#include <liesim/view.hpp>

#include <boost/program_options.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <iostream>
#include <memory>

namespace po = boost::program_options;
using nlohmann::json;

namespace liesim::cli {

namespace {

void print_settings(const char* title, const std::vector<SettingSpec>& specs) {
  if (specs.empty()) return;
  fmt::print("{}:\n", title);
  for (const auto& s : specs)
    fmt::print("  {:<14} default {:<12} {}{}\n", s.name, s.default_value.empty() ? "(none)" : s.default_value,
               s.unit.empty() ? "" : "[" + s.unit + "] ", s.doc);
}

/// A model instance with default parameters, for printing its layout (nullptr if it fails).
}  // namespace

int list(const Registry& registry, bool as_json) {
  const std::string doc = list_json(registry);
  if (as_json) {
    std::cout << doc << "\n";
    return 0;
  }
  const json j = json::parse(doc);
  // Columns as wide as their longest entry.
  std::size_t model_width = 0, method_width = 0, family_width = 0;
  for (const auto& m : j["models"]) model_width = std::max(model_width, m["name"].get<std::string>().size());
  for (const auto& f : j["integrators"]) {
    family_width = std::max(family_width, f["name"].get<std::string>().size() + 1 + f["version"].get<std::string>().size());
    for (const auto& m : f["methods"]) method_width = std::max(method_width, m.value("name", std::string()).size());
  }
  fmt::print("models:\n");
  for (const auto& m : j["models"])
    fmt::print("  {:<{}} {:<8} {}\n", m["name"].get<std::string>(), model_width, m["version"].get<std::string>(), m["summary"].get<std::string>());
  fmt::print("integrators (method, order[/embedded], family):\n");
  for (const auto& f : j["integrators"])
    for (const auto& m : f["methods"]) {
      const int order = m.value("order", 0), embedded = m.value("embedded_order", 0);
      fmt::print("  {:<{}} {:<6} {:<{}} {}\n", m.value("name", std::string()), method_width,
                 embedded ? fmt::format("{}/{}", order, embedded) : std::to_string(order),
                 f["name"].get<std::string>() + " " + f["version"].get<std::string>(), family_width, m.value("summary", std::string()));
    }
  if (!j["failures"].empty()) fmt::print("plugins that failed to load:\n");
  for (const auto& f : j["failures"]) fmt::print("  {}: {}\n", f["file"].get<std::string>(), f["reason"].get<std::string>());
  if (!j["duplicates"].empty())
    fmt::print("names offered by more than one plugin (run and study refuse them: remove all but one, or give the file, --model PATH):\n");
  for (const auto& d : j["duplicates"])
    fmt::print("  {}: {}\n", d["name"].get<std::string>(), fmt::join(d["files"].get<std::vector<std::string>>(), ", "));
  return 0;
}

int describe(const Registry& registry, const std::string& name, bool as_json, const std::map<std::string, std::string>& params) {
  if (as_json) {
    std::cout << describe_json(registry, name, params) << "\n";
    return 0;
  }
  const auto models = registry.model_names();
  if (std::find(models.begin(), models.end(), name) != models.end()) {
    const LoadedPlugin& p = registry.model(name);
    std::string error;
    const auto m = described_instance(p, params, error);
    fmt::print("model {} {} ({}; plugin ABI {}.{})\n{}\n\n", p.name, p.version, p.file, LIESIM_ABI_MAJOR, p.abi_minor, p.model->summary());
    print_settings("parameters", p.model->parameters());
    if (m) {
      fmt::print("state layout with {} parameters ({} numbers; algebra dimension {}):\n  {}\n", params.empty() ? "default" : "these",
                 m->size(), m->space().algebra_dim(), fmt::join(m->state_names(), ", "));
      fmt::print("invariants (conserved and non-increasing ones are checked for divergence: option invariant_bound):\n");
      for (const auto& i : m->invariants()) fmt::print("  {:<16} [{}] {}\n", i.name, kind_name(i.kind), i.doc);
      if (m->observable_count() > 0) fmt::print("observables (columns after the invariants in --output CSV files):\n");
      for (const auto& o : m->observables())
        fmt::print("  {:<22} {}{}\n", o.name, o.unit.empty() ? "" : "[" + o.unit + "] ", o.doc);
      const Scene scene = m->scene();
      if (scene.bodies.empty()) fmt::print("scene: none (the model states no bodies: liesim view cannot draw it)\n");
      else
        fmt::print("scene (liesim view; up {}, extent {:g}{}):\n", fmt::join(scene.up, ","), scene.extent,
                   std::isfinite(scene.ground) ? fmt::format(", ground at {:g}", scene.ground) : std::string());
      for (const auto& b : scene.bodies)
        fmt::print("  {:<16} {:<8} size {:<18} #{:06x}\n", b.name, shape_name(b.shape), fmt::format("{}", fmt::join(b.size, ",")), b.color);
      for (const auto& p : scene.paths) fmt::print("  path through the observables {}, {}, {}\n", p.x, p.y, p.z);
      std::vector<std::string> caps;
      if (m->has_exact_solution()) caps.push_back("exact solution");
      if (m->has_vector_field_jacobian()) caps.push_back("exact Jacobian of F");
      if (m->dae_formulation()) caps.push_back("DAE formulation");
      if (m->space().can_project()) caps.push_back("projection onto M");
      if (m->mechanics()) caps.push_back(fmt::format("mechanical description (Lagrangian in R^{}: variational methods)", m->mechanics()->dof()));
      if (m->rigid_body())
        caps.push_back(m->rigid_body()->translation() ? "rigid-body description on SO(3) x R^3 (Lie group variational methods)"
                                                      : "rigid-body description on SO(3) (Lie group variational methods)");
      if (const auto* ham = m->hamiltonian())
        caps.push_back(ham->group_size() ? fmt::format("Hamiltonian description on T*G, dim g = {} (symplectic Lie group methods)", ham->algebra_dim())
                                         : fmt::format("reduced Hamiltonian description on g*, dim g = {} (symplectic Lie group methods)",
                                                       ham->algebra_dim()));
      if (const auto* riem = m->riemannian())
        caps.push_back(riem->sphere_blocks() ? "Riemannian metric, product of unit spheres (geodesic methods, spherical midpoint)"
                                             : "Riemannian metric (geodesic methods)");
      fmt::print("capabilities: {}\n", caps.empty() ? std::string("(none beyond f and F)") : fmt::format("{}", fmt::join(caps, ", ")));
    } else {
      fmt::print("(default parameters rejected: {})\n", error);
    }
    fmt::print("\nconventions:\n{}\n", p.model->conventions());
    return 0;
  }
  const auto [family, info] = described_method(registry, name, params);
  const auto options = family->integrator->options(name);
  const auto control = info.self_controlled || info.embedded_order == 0 ? std::vector<SettingSpec>{} : step_control_options(options);
  fmt::print("method {} (family {} {}, {})\n{}\n", info.name, family->name, family->version, family->file, info.summary);
  const bool from_table = info.order == 0 && std::any_of(options.begin(), options.end(), [](const SettingSpec& o) { return o.name == "tableau"; });
  fmt::print("{}; {}; {}\n",
             from_table ? std::string("order and embedded order: its table's (--tableau FILE, checked when read; docs/tableaux.md)")
             : fmt::format("order {}{}", info.order,
                           info.self_controlled  ? ", its own adaptive error control (--rtol/--atol)"
                           : info.embedded_order ? fmt::format(", embedded order {} (adaptive with --rtol/--atol)", info.embedded_order)
                                                 : ", fixed step (--step)"),
             info.lie_group ? "Lie group method (advances through the action, stays on M)" : "classical method in embedding coordinates",
             info.self_controlled ? "own step control and output times" : "stepped by the liesim kernel");
  if (!info.self_controlled && !from_table)
    fmt::print("dense output (--outputs, --output-times, --output-grid): interpolant of order {} inside a step, {}\n", info.dense_order,
               info.dense_order < info.order ? fmt::format("a continuous extension (output keeps the method's order {})", info.order)
                                             : std::string("the method's own order"));
  if (info.needs_mechanics) {
    const std::string what = info.needs == "hamiltonian" ? "a Hamiltonian description on T*G"
                             : info.needs == "riemannian" ? "a Riemannian metric on M (exp, log, distance)"
                                                          : "a mechanical description (a Lagrangian, or a rigid body, as the summary says)";
    fmt::print("runs models with {} (`liesim describe MODEL` lists it among the capabilities)\n", what);
  }
  print_settings("options (--option KEY=VALUE)", options);
  print_settings("step-control options (--option KEY=VALUE)", control);
  print_settings("divergence options (--option KEY=VALUE)", kernel_options(divergence_options(), options));
  if (!info.diagnostics.empty()) {
    fmt::print("diagnostics (written beside the invariants and in --steps; conserved ones get a drift):\n");
    for (const auto& d : info.diagnostics) fmt::print("  {:<18} {}{}\n", d.name, d.doc, d.conserved ? " [conserved]" : "");
  }
  return 0;
}

namespace {
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
}  // namespace

int run(const Registry& registry, const std::vector<std::string>& args) {
  RunRequest req;
  std::vector<std::string> params, options;
  std::string output, summary, steps, output_times, events_file, view, tableau;
  long output_every = 1, invariants_every = 1;
  double output_grid_dt = 0.0;
  double run_timeout = 0.0;
  po::options_description desc("run options");
  desc.add_options()("model", po::value(&req.model)->required(), "model name")(
      "integrator", po::value(&req.method)->required(), "integrator method name")(
      "param", po::value(&params)->composing(), "model parameter KEY=VALUE (repeatable)")(
      "option", po::value(&options)->composing(), "integrator option KEY=VALUE (repeatable)")(
      "tableau", po::value(&tableau),
      "coefficient table FILE (TOML, docs/tableaux.md) of methods rk and rkmk: the option tableau=FILE, the path from this folder")(
      "t-end", po::value(&req.t_end)->default_value(1.0), "final time")("step", po::value(&req.step), "fixed step size")(
      "rtol", po::value(&req.rtol), "relative tolerance")("atol", po::value(&req.atol), "absolute tolerance")(
      "output", po::value(&output), "CSV time series")("summary", po::value(&summary), "JSON run summary")(
      "view", po::value(&view), "the motion in the browser: a self-contained HTML page (the series it shows is --output's, else a temporary file)")(
      "steps", po::value(&steps), "CSV log of every adaptive step attempt")(
      "outputs", po::value(&req.solver_outputs)->default_value(100),
      "output at N equally spaced times, exactly (the method's dense output; default: every step of a kernel-driven method, 100 "
      "times of a self-controlled solver)")(
      "output-times", po::value(&output_times), "output at exactly these times T1,T2,... (increasing, in [t0, t_end])")(
      "output-grid", po::value(&output_grid_dt), "output at exactly t0 + k DT, k = 1, 2, ... up to t_end")(
      "stop-when", po::value(&req.stop_when)->composing(),
      "stop the run when NAME<VALUE or NAME>VALUE first holds (NAME a state column or an observable; repeatable)")(
      "event", po::value(&req.events)->composing(), "record when NAME<VALUE or NAME>VALUE starts to hold, without stopping (repeatable)")(
      "events", po::value(&events_file), "CSV of the located events (event, t, state)")(
      "output-every", po::value(&output_every)->default_value(1), "write every N-th step to --output (and the last)")(
      "run-timeout", po::value(&run_timeout), "stop the run after SECONDS (exit status 4, as for a plugin that crashes)")(
      "invariants-every", po::value(&invariants_every)->default_value(1),
      "evaluate the invariants and observables of the summary at every K-th output point and the last (default: every one)");
  po::variables_map vm;
  try {
    // No positional arguments: a stray word (e.g. a forgotten --param) is an error, not ignored.
    po::store(po::command_line_parser(args).options(desc).positional(po::positional_options_description{}).run(), vm);
    po::notify(vm);
  } catch (const po::too_many_positional_options_error&) {
    // Name the stray word: the first argument that is neither an option nor an option's value.
    std::string stray;
    for (std::size_t i = 0; i < args.size() && stray.empty(); ++i) {
      if (args[i].rfind("--", 0) == 0) {
        const bool takes_value = args[i].find('=') == std::string::npos && desc.find_nothrow(args[i].substr(2), false) != nullptr &&
                                 desc.find(args[i].substr(2), false).semantic()->max_tokens() > 0;
        if (takes_value) ++i;
      } else {
        stray = args[i];
      }
    }
    throw Error(fmt::format("run: unexpected argument '{}' (every setting is an option: --param KEY=VALUE, --option KEY=VALUE, ...; "
                            "see `liesim run --help`)", stray));
  } catch (const po::error& e) {
    throw Error(fmt::format("run: {} (see `liesim run --help`)", e.what()));
  }
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
  // The plugins' code runs in a child process: a crash, exit() or hang is reported, not suffered.
  return contained("run", [&]() -> int {
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
  if (!events_file.empty()) {
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
      if (error.empty()) error = "writing the events CSV failed";
    }
  }
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
  if (!error.empty()) {
    std::cerr << "liesim: error: " << error << "\n";
    if (!output.empty()) std::cerr << "liesim: the rows computed before the failure are in " << output << "\n";
    return 1;
  }
  return 0;
  }, run_timeout);
}

}  // namespace liesim::cli
