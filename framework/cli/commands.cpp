// The subcommands of `liesim`: list, describe.
#include "command_line.hpp"
#include "commands.hpp"
#include "contained.hpp"

#include <liesim/host/catalog.hpp>
#include <liesim/host/driver.hpp>
#include <liesim/host/output.hpp>
#include <liesim/host/summary.hpp>
#include <liesim/host/run.hpp>
#include <liesim/host/view.hpp>

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

int list(const Registry& registry, const std::vector<std::string>& args) {
  bool as_json = false;
  CommandLine cl("list", "[--json]", "Every model and integrator method on the plugin search path, with the plugins that failed to load.");
  cl.add()("json", po::bool_switch(&as_json), "the list as JSON (what the Python package and the bash completion read)");
  cl.parse(args);
  return list(registry, as_json);
}

int describe(const Registry& registry, const std::vector<std::string>& args) {
  std::vector<std::string> names, assignments;
  bool as_json = false;
  CommandLine cl("describe", "NAME [--json] [--param KEY=VALUE]...",
                 "A model's parameters, conventions, state layout, invariants, observables and scene, or a method's order,\n"
                 "options and conventions. NAME: a model or an integrator method (`liesim list`).");
  cl.add()("json", po::bool_switch(&as_json), "the description as JSON")(
      "param", po::value(&assignments)->composing()->value_name("KEY=VALUE"),
      "a model's parameter (repeatable): the layout, invariants and observables of that instance");
  cl.operands(&names, "one NAME (a model or a method; see `liesim list`)", 1, 1);
  cl.parse(args);
  std::map<std::string, std::string> params;
  for (const auto& a : assignments) params.insert(parse_assignment(a, "--param"));
  // Describing a model makes an instance: the plugin's code runs in a child process.
  return contained("describe", [&] { return describe(registry, names.front(), as_json, params); }, probe_time_limit());
}

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
      if (m->dae()) caps.push_back("DAE formulation");
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

}  // namespace liesim::cli
