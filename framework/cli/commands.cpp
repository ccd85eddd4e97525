// The subcommands of `liesim`: list, describe, run.
#include "commands.hpp"

#include <liesim/driver.hpp>
#include <liesim/io/output.hpp>
#include <liesim/io/summary.hpp>
#include <liesim/run.hpp>

#include <boost/program_options.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <iostream>
#include <memory>

namespace po = boost::program_options;
using nlohmann::json;

namespace liesim::cli {

namespace {

json settings_json(const std::vector<SettingSpec>& specs) {
  json a = json::array();
  for (const auto& s : specs) a.push_back({{"name", s.name}, {"default", s.default_value}, {"unit", s.unit}, {"doc", s.doc}});
  return a;
}

void print_settings(const char* title, const std::vector<SettingSpec>& specs) {
  if (specs.empty()) return;
  fmt::print("{}:\n", title);
  for (const auto& s : specs)
    fmt::print("  {:<14} default {:<12} {}{}\n", s.name, s.default_value.empty() ? "(none)" : s.default_value,
               s.unit.empty() ? "" : "[" + s.unit + "] ", s.doc);
}

/// A model instance with default parameters, for printing its layout (nullptr if it fails).
std::unique_ptr<Model> default_instance(const LoadedPlugin& p, std::string& error, const std::map<std::string, std::string>& params = {}) {
  try {
    Settings s(p.model->parameters(), params, fmt::format("parameter of model '{}'", p.name));
    return std::unique_ptr<Model>(p.model->create(s, error));
  } catch (const std::exception& e) {
    error = e.what();
    return nullptr;
  }
}

}  // namespace

int list(const Registry& registry, bool as_json) {
  struct Entry {
    const PluginCandidate* candidate;
    ProbeResult probe;
    json metadata;
  };
  std::vector<Entry> entries;
  for (const auto& c : registry.candidates()) {
    Entry e{&c, probe_plugin(c.file), json::object()};
    if (e.probe.manifest) {
      try {
        e.metadata = json::parse(e.probe.metadata);
      } catch (const std::exception&) {
        e.probe.failure = "its metadata document is not valid JSON";
        e.probe.manifest.reset();
      }
    }
    entries.push_back(std::move(e));
  }
  // Names offered by more than one file (run and study refuse them).
  std::map<std::string, std::vector<std::string>> offered;
  for (const auto& e : entries) {
    if (!e.probe.manifest) continue;
    if (e.probe.manifest->kind == PluginKind::model) offered["model " + e.probe.manifest->name].push_back(e.candidate->file.string());
    for (const auto& m : e.probe.manifest->methods) offered["method " + m].push_back(e.candidate->file.string());
  }
  std::vector<std::pair<std::string, std::vector<std::string>>> duplicates;
  for (const auto& [name, files] : offered)
    if (files.size() > 1) duplicates.emplace_back(name, files);

  if (as_json) {
    json j;
    j["models"] = json::array();
    j["integrators"] = json::array();
    j["failures"] = json::array();
    j["duplicates"] = json::array();
    for (const auto& e : entries) {
      const std::string file = e.candidate->file.string();
      if (!e.probe.manifest) {
        j["failures"].push_back({{"file", file}, {"name", e.candidate->name}, {"reason", e.probe.failure}});
        continue;
      }
      const auto& m = *e.probe.manifest;
      json x = {{"name", m.name}, {"version", m.version}, {"summary", m.summary}, {"file", file},
                {"abi", fmt::format("{}.{}", m.abi_major, m.abi_minor)}};
      if (m.kind == PluginKind::model) {
        j["models"].push_back(x);
      } else {
        x["methods"] = json::array();
        for (const auto& meth : e.metadata.value("methods", json::array())) {
          json y = meth;
          y.erase("options");
          x["methods"].push_back(y);
        }
        j["integrators"].push_back(x);
      }
    }
    for (const auto& [name, files] : duplicates) j["duplicates"].push_back({{"name", name}, {"files", files}});
    std::cout << j.dump(2) << "\n";
    return 0;
  }
  // Columns as wide as their longest entry.
  std::size_t model_width = 0, method_width = 0, family_width = 0;
  for (const auto& e : entries) {
    if (!e.probe.manifest) continue;
    if (e.probe.manifest->kind == PluginKind::model) model_width = std::max(model_width, e.probe.manifest->name.size());
    if (e.probe.manifest->kind != PluginKind::integrator) continue;
    family_width = std::max(family_width, e.probe.manifest->name.size() + 1 + e.probe.manifest->version.size());
    for (const auto& m : e.metadata.value("methods", json::array()))
      method_width = std::max(method_width, m.value("name", std::string()).size());
  }
  fmt::print("models:\n");
  for (const auto& e : entries)
    if (e.probe.manifest && e.probe.manifest->kind == PluginKind::model)
      fmt::print("  {:<{}} {:<8} {}\n", e.probe.manifest->name, model_width, e.probe.manifest->version, e.probe.manifest->summary);
  fmt::print("integrators (method, order[/embedded], family):\n");
  for (const auto& e : entries) {
    if (!e.probe.manifest || e.probe.manifest->kind != PluginKind::integrator) continue;
    for (const auto& m : e.metadata.value("methods", json::array())) {
      const int order = m.value("order", 0), embedded = m.value("embedded_order", 0);
      fmt::print("  {:<{}} {:<6} {:<{}} {}\n", m.value("name", std::string()), method_width,
                 embedded ? fmt::format("{}/{}", order, embedded) : std::to_string(order),
                 e.probe.manifest->name + " " + e.probe.manifest->version, family_width, m.value("summary", std::string()));
    }
  }
  bool failed = false;
  for (const auto& e : entries)
    if (!e.probe.manifest) {
      if (!failed) fmt::print("plugins that failed to load:\n");
      failed = true;
      fmt::print("  {}: {}\n", e.candidate->file.string(), e.probe.failure);
    }
  if (!duplicates.empty()) {
    fmt::print("names offered by more than one plugin (run and study refuse them: remove all but one, or give the file, --model PATH):\n");
    for (const auto& [name, files] : duplicates) fmt::print("  {}: {}\n", name, fmt::join(files, ", "));
  }
  return 0;
}

int describe(const Registry& registry, const std::string& name, bool as_json, const std::map<std::string, std::string>& params) {
  const auto models = registry.model_names();
  if (std::find(models.begin(), models.end(), name) != models.end()) {
    const LoadedPlugin& p = registry.model(name);
    std::string error;
    const auto m = default_instance(p, error, params);
    // With parameters the user asks about that instance: bad ones are an error, not a note.
    if (!m && !params.empty()) throw Error(fmt::format("describe {}: {}", name, error));
    if (as_json) {
      json j = {{"kind", "model"}, {"name", p.name}, {"version", p.version}, {"summary", p.model->summary()},
                {"file", p.file}, {"abi", fmt::format("{}.{}", LIESIM_ABI_MAJOR, p.abi_minor)},
                {"parameters", settings_json(p.model->parameters())}, {"conventions", p.model->conventions()}};
      if (m) {
        j["state_layout"] = m->state_names();
        j["algebra_dim"] = m->space().algebra_dim();
        json inv = json::array();
        for (const auto& i : m->invariants()) inv.push_back({{"name", i.name}, {"doc", i.doc}});
        j["invariants"] = inv;
        json obs = json::array();
        for (const auto& o : m->observables()) obs.push_back({{"name", o.name}, {"unit", o.unit}, {"doc", o.doc}});
        j["observables"] = obs;
        j["capabilities"] = {{"exact_solution", m->has_exact_solution()}, {"jacobian", m->has_vector_field_jacobian()},
                             {"dae", m->dae_formulation() != nullptr}, {"projection", m->space().can_project()},
                             {"mechanical", m->mechanics() != nullptr}, {"rigid_body", m->rigid_body() != nullptr},
                             {"hamiltonian", m->hamiltonian() != nullptr}, {"riemannian", m->riemannian() != nullptr}};
      }
      std::cout << j.dump(2) << "\n";
      return 0;
    }
    fmt::print("model {} {} ({}; plugin ABI {}.{})\n{}\n\n", p.name, p.version, p.file, LIESIM_ABI_MAJOR, p.abi_minor, p.model->summary());
    print_settings("parameters", p.model->parameters());
    if (m) {
      fmt::print("state layout with {} parameters ({} numbers; algebra dimension {}):\n  {}\n", params.empty() ? "default" : "these",
                 m->size(), m->space().algebra_dim(), fmt::join(m->state_names(), ", "));
      fmt::print("invariants:\n");
      for (const auto& i : m->invariants()) fmt::print("  {:<16} {}\n", i.name, i.doc);
      if (m->observable_count() > 0) fmt::print("observables (columns after the invariants in --output CSV files):\n");
      for (const auto& o : m->observables())
        fmt::print("  {:<22} {}{}\n", o.name, o.unit.empty() ? "" : "[" + o.unit + "] ", o.doc);
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
  std::pair<const LoadedPlugin*, MethodInfo> found;
  try {
    found = registry.method(name);
  } catch (const Error& e) {
    throw Error(fmt::format("'{}' is neither a model nor an integrator method; models: {}; {}", name, fmt::join(models, ", "), e.what()));
  }
  if (!params.empty())
    throw Error(fmt::format("describe: --param sets a model's parameters; '{}' is an integrator method (its options are listed "
                            "without values)", name));
  const auto& [family, info] = found;
  const auto options = family->integrator->options(name);
  const auto control = info.self_controlled || info.embedded_order == 0 ? std::vector<SettingSpec>{} : step_control_options(options);
  if (as_json) {
    json j = {{"kind", "integrator"}, {"name", info.name}, {"family", family->name}, {"version", family->version},
              {"summary", info.summary}, {"order", info.order}, {"embedded_order", info.embedded_order},
              {"lie_group", info.lie_group}, {"self_controlled", info.self_controlled},
              {"options", settings_json(options)}, {"step_control_options", settings_json(control)},
              {"needs_mechanics", info.needs_mechanics}, {"needs", info.needs}};
    json diagnostics = json::array();
    for (const auto& d : info.diagnostics) diagnostics.push_back({{"name", d.name}, {"doc", d.doc}, {"conserved", d.conserved}});
    j["diagnostics"] = diagnostics;
    std::cout << j.dump(2) << "\n";
    return 0;
  }
  fmt::print("method {} (family {} {}, {})\n{}\n", info.name, family->name, family->version, family->file, info.summary);
  fmt::print("order {}{}; {}; {}\n", info.order,
             info.self_controlled ? ", its own adaptive error control (--rtol/--atol)"
             : info.embedded_order ? fmt::format(", embedded order {} (adaptive with --rtol/--atol)", info.embedded_order)
                                   : ", fixed step (--step)",
             info.lie_group ? "Lie group method (advances through the action, stays on M)" : "classical method in embedding coordinates",
             info.self_controlled ? "own step control and output times" : "stepped by the liesim kernel");
  if (info.needs_mechanics) {
    const std::string what = info.needs == "hamiltonian" ? "a Hamiltonian description on T*G"
                             : info.needs == "riemannian" ? "a Riemannian metric on M (exp, log, distance)"
                                                          : "a mechanical description (a Lagrangian, or a rigid body, as the summary says)";
    fmt::print("runs models with {} (`liesim describe MODEL` lists it among the capabilities)\n", what);
  }
  print_settings("options (--option KEY=VALUE)", options);
  print_settings("step-control options (--option KEY=VALUE)", control);
  if (!info.diagnostics.empty()) {
    fmt::print("diagnostics (written beside the invariants and in --steps; conserved ones get a drift):\n");
    for (const auto& d : info.diagnostics) fmt::print("  {:<18} {}{}\n", d.name, d.doc, d.conserved ? " [conserved]" : "");
  }
  return 0;
}

int run(const Registry& registry, const std::vector<std::string>& args) {
  RunRequest req;
  std::vector<std::string> params, options;
  std::string output, summary, steps;
  long output_every = 1;
  po::options_description desc("run options");
  desc.add_options()("model", po::value(&req.model)->required(), "model name")(
      "integrator", po::value(&req.method)->required(), "integrator method name")(
      "param", po::value(&params)->composing(), "model parameter KEY=VALUE (repeatable)")(
      "option", po::value(&options)->composing(), "integrator option KEY=VALUE (repeatable)")(
      "t-end", po::value(&req.t_end)->default_value(1.0), "final time")("step", po::value(&req.step), "fixed step size")(
      "rtol", po::value(&req.rtol), "relative tolerance")("atol", po::value(&req.atol), "absolute tolerance")(
      "output", po::value(&output), "CSV time series")("summary", po::value(&summary), "JSON run summary")(
      "steps", po::value(&steps), "CSV log of every adaptive step attempt")(
      "outputs", po::value(&req.solver_outputs)->default_value(100),
      "output times: of a self-controlled solver; of a kernel-driven run (--output), the first step at or after each of N equally spaced times")(
      "output-every", po::value(&output_every)->default_value(1), "write every N-th step to --output (and the last)");
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
  if (req.solver_outputs < 1 || req.solver_outputs > 10'000'000)
    throw Error(fmt::format("--outputs must be in [1, 10000000] (got {})", req.solver_outputs));
  const bool outputs_given = !vm["outputs"].defaulted(), every_given = !vm["output-every"].defaulted();
  if (outputs_given && every_given) throw Error("give --outputs N (N output times) or --output-every N (every N-th step), not both");
  // One file per output: two options naming the same file would overwrite each other.
  {
    std::vector<std::pair<const char*, std::string>> files;
    for (const auto& [option, path] : {std::pair<const char*, const std::string*>{"--output", &output}, {"--summary", &summary},
                                       {"--steps", &steps}})
      if (!path->empty()) {
        std::error_code ec;
        const std::string canonical = std::filesystem::weakly_canonical(*path, ec).string();
        for (const auto& [other, seen] : files)
          if (seen == (ec ? *path : canonical))
            throw Error(fmt::format("{} and {} name the same file '{}': give each its own file", other, option, *path));
        files.emplace_back(option, ec ? *path : canonical);
      }
  }

  PreparedRun prepared = prepare_run(registry, req);
  ObserverList observers;
  const auto& diagnostics = prepared.method.diagnostics;
  InvariantMonitor monitor(*prepared.model, diagnostics);
  observers.add(monitor);
  std::unique_ptr<CsvWriter> csv;
  std::unique_ptr<StepLog> step_log;
  std::unique_ptr<Thinning> every;
  if (output_every < 1) throw Error(fmt::format("--output-every must be >= 1 (got {})", output_every));
  if (!output.empty()) {
    csv = std::make_unique<CsvWriter>(output, *prepared.model, diagnostics);
    // A self-controlled solver writes its own --outputs times; a kernel-driven run is thinned.
    every = std::make_unique<Thinning>(
        outputs_given && !prepared.method.self_controlled
            ? Thinning::on_grid(*csv, prepared.spec.t0, prepared.spec.t_end, req.solver_outputs, prepared.model->size())
            : Thinning::every_nth(*csv, output_every, prepared.model->size()));
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
  if (csv && !csv->ok()) {
    std::cerr << "liesim: error: writing the output CSV '" << output << "' failed (disk full or not writable)\n";
    if (error.empty()) error = "writing the output CSV failed";
  }
  if (step_log && !step_log->ok()) {
    std::cerr << "liesim: error: writing the step log '" << steps << "' failed (disk full or not writable)\n";
    if (error.empty()) error = "writing the step log failed";
  }
  if (summary_file) {
    const std::string text = run_summary_json(prepared, result, monitor, error);
    const bool written = std::fwrite(text.data(), 1, text.size(), summary_file.get()) == text.size();
    if (!written || std::fclose(summary_file.release()) != 0) {
      std::cerr << "liesim: error: writing the summary '" << summary << "' failed (disk full or not writable)\n";
      return 1;
    }
    // One line of result, and where the files went.
    std::string files = "summary " + summary;
    if (!output.empty()) files += ", time series " + output;
    if (!steps.empty()) files += ", step log " + steps;
    fmt::print("model {} with {}: t = {} reached in {} steps ({} rejected){}; written: {}\n", prepared.model_plugin->name,
               prepared.method.name, result.t, result.stats.steps, result.stats.rejected_steps, error.empty() ? "" : " before the failure",
               files);
  } else {
    fmt::print("model {} with {}: t = {} reached in {} steps ({} rejected), {:.3g} s\n", prepared.model_plugin->name,
               prepared.method.name, result.t, result.stats.steps, result.stats.rejected_steps, result.stats.wall_time_s);
    const Counters& c = result.stats.counters;
    fmt::print("evaluations: f {}, F {}, exponentials {}, dexpinv {}, brackets {}\n", c.f_evals, c.F_evals, c.exps,
               c.dexpinv_calls, c.brackets);
    fmt::print("final state:\n");
    const auto names = prepared.model->state_names();
    for (Eigen::Index i = 0; i < result.y.size(); ++i) fmt::print("  {:<8} {: .17g}\n", names[i], result.y[i]);
    fmt::print("invariants (initial, final, max |drift|):\n");
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
}

}  // namespace liesim::cli
