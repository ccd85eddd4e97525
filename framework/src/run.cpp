// Resolving names and settings into a run, and executing it with the right driver loop.
#include <liesim/host/child_process.hpp>
#include <liesim/host/run.hpp>

#include "events.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>

namespace liesim {

namespace {

/// Everything but the model instance: method, options, times, tolerances.
PreparedRun prepare_method(const Registry& registry, const RunRequest& r) {
  PreparedRun p;
  child_stage(fmt::format("loading the plugin of method '{}'", r.method));
  const auto [family, info] = registry.method(r.method);
  p.integrator_plugin = family;
  p.method = info;

  // Options are the family's plus, for kernel-driven methods, the kernel's step control.
  const auto family_specs = family->integrator->options(info.name);
  const auto control_specs = info.self_controlled ? std::vector<SettingSpec>{} : step_control_options(family_specs);
  // The kernel's divergence options belong to every method (a family's own name shadows them).
  const auto divergence_specs = kernel_options(divergence_options(), family_specs);
  std::vector<SettingSpec> all = family_specs;
  all.insert(all.end(), control_specs.begin(), control_specs.end());
  all.insert(all.end(), divergence_specs.begin(), divergence_specs.end());
  const std::string what = fmt::format("option of method '{}'", r.method);
  (void)Settings(all, r.options, what);  // rejects unknown keys, listing every kind
  std::map<std::string, std::string> family_given, control_given, divergence_given;
  for (const auto& [k, v] : r.options) {
    bool control = false, divergence = false;
    for (const auto& s : control_specs) control = control || s.name == k;
    for (const auto& s : divergence_specs) divergence = divergence || s.name == k;
    (control ? control_given : divergence ? divergence_given : family_given)[k] = v;
  }
  p.options = Settings(family_specs, family_given, what);
  // The method as its options complete it (the orders of a table read from a file), checked now.
  child_stage(fmt::format("completing method '{}' with its options", r.method));
  p.method = family->integrator->resolved(info, p.options);
  p.control = Settings(control_specs, control_given, "step-control option");
  p.divergence = Settings(divergence_specs, divergence_given, "divergence option");

  if (!std::isfinite(r.t0) || !std::isfinite(r.t_end) || !(r.t_end > r.t0))
    throw Error(fmt::format("--t-end must be a finite time after t0 = {} (got {})", r.t0, r.t_end));
  const bool fixed = r.step > 0;
  const bool tolerances = r.rtol > 0 || r.atol > 0;
  if (r.step < 0 || !std::isfinite(r.step)) throw Error(fmt::format("--step must be a positive finite number (got {})", r.step));
  if (!fixed && !tolerances)
    throw Error("give a fixed step (--step H) or tolerances (--rtol R --atol A)");
  if (fixed && tolerances) throw Error("give either --step or --rtol/--atol, not both");
  if (tolerances && (!(r.atol > 0) || r.rtol < 0 || !std::isfinite(r.rtol) || !std::isfinite(r.atol)))
    throw Error(fmt::format("tolerances must be finite with --atol > 0 and --rtol >= 0 (got rtol = {}, atol = {})", r.rtol, r.atol));
  if (tolerances && !info.self_controlled && p.method.embedded_order == 0)
    throw Error(fmt::format("method '{}' has no error estimate and runs with a fixed step only: use --step H, or an adaptive method", r.method));

  p.spec.t0 = r.t0;
  p.spec.t_end = r.t_end;
  p.spec.step = r.step;
  p.spec.solver_outputs = r.solver_outputs;
  p.spec.output_times = r.output_times;
  check_output_times(p.spec);
  p.spec.control.rtol = r.rtol;
  p.spec.control.atol = r.atol;
  p.spec.control = parse_step_control(p.control, p.spec.control);
  p.spec.divergence = parse_divergence(p.divergence);
  return p;
}

/// The model's initial state (or the request's), checked; the method's look at the model.
void prepare_model(PreparedRun& p, const RunRequest& r) {
  const MethodInfo& info = p.method;
  child_stage(fmt::format("computing the initial state of model '{}'", r.model));
  p.y0.resize(p.model->size());
  p.model->initial_state(p.y0);
  if (!r.y0.empty()) {
    if (static_cast<Eigen::Index>(r.y0.size()) != p.y0.size())
      throw Error(fmt::format("model '{}': the initial state y0 has {} numbers, its state has {} ({})", r.model, r.y0.size(), p.y0.size(),
                              fmt::join(p.model->state_names(), ", ")));
    p.y0 = Eigen::Map<const Eigen::VectorXd>(r.y0.data(), p.y0.size());
  }
  if (!p.y0.allFinite()) throw Error(fmt::format("model '{}': the initial state is not finite", r.model));
  const std::string off = p.model->check_state(p.y0);
  if (!off.empty()) throw Error(fmt::format("model '{}': initial state rejected: {}", r.model, off));
  for (const auto& text : r.stop_when) p.spec.events.push_back(parse_event(text, *p.model, true));
  for (const auto& text : r.events) p.spec.events.push_back(parse_event(text, *p.model, false));

  // Let the method look at the model and settings now (fixed step for a solver without one, a
  // DAE method on a model without a DAE, ...), so that a bad combination is refused before any run.
  std::string refused;
  const IntegratorFamilyView& family_object = *p.integrator_plugin->integrator;
  child_stage(fmt::format("preparing model '{}' (its prepare())", r.model));
  if (p.model->prepare() != Status::ok)
    throw Error(fmt::format("model '{}': preparing its workspaces failed: {}", r.model, p.model->last_error()));
  child_stage(fmt::format("creating method '{}' for model '{}'", r.method, r.model));
  if (info.self_controlled) {
    std::unique_ptr<SolverView> solver(family_object.create_solver(info.name, p.options, refused));
    const SolverTolerances tol{p.spec.control.rtol, p.spec.control.atol, p.spec.step};
    if (solver && solver->init(*p.model, p.spec.t0, p.y0, tol, refused) == Status::ok) {
      refused.clear();
      EventLocator events(p.spec.events, *p.model);  // (refused before any run, as bad settings are)
      if (events.active()) set_solver_events(*solver, events, fmt::format("method '{}'", r.method));
    } else if (refused.empty()) {
      refused = "the solver refused the model";
    }
  } else {
    std::unique_ptr<StepperView> stepper(family_object.create_stepper(info.name, p.options, refused));
    if (stepper && stepper->init(*p.model, refused) == Status::ok) refused.clear();
    else if (refused.empty()) refused = "the method refused the model";
  }
  if (!refused.empty()) throw Error(fmt::format("method '{}' cannot run model '{}' with these settings: {}", r.method, r.model, refused));
  p.model->counters() = Counters{};
}

}  // namespace

std::string given_parameters(const std::map<std::string, std::string>& parameters) {
  if (parameters.empty()) return "its default parameters";
  std::vector<std::string> kv;
  for (const auto& [k, v] : parameters) kv.push_back(k + "=" + v);
  return fmt::format("parameters {}", fmt::join(kv, ", "));
}

PreparedRun prepare_run(const Registry& registry, const RunRequest& r) {
  child_stage(fmt::format("loading the plugin of model '{}'", r.model));
  const LoadedPlugin& plugin = registry.model(r.model);
  PreparedRun p = prepare_method(registry, r);
  p.model_plugin = &plugin;
  p.parameters = Settings(plugin.model->parameters(), r.parameters, fmt::format("parameter of model '{}'", r.model));
  std::string error;
  child_stage(fmt::format("creating model '{}' with {}", r.model, given_parameters(r.parameters)));
  p.model.reset(plugin.model->create(p.parameters, error));
  if (!p.model)
    throw Error(error.find(fmt::format("of model '{}'", r.model)) != std::string::npos ? error
                                                                                       : fmt::format("model '{}': {}", r.model, error));
  prepare_model(p, r);
  return p;
}

PreparedRun prepare_run(const Registry& registry, const RunRequest& r, std::unique_ptr<ModelView> model) {
  if (!model) throw Error(fmt::format("model '{}': no instance given", r.model));
  if (!r.parameters.empty())
    throw Error(fmt::format("model '{}' is made in this process: set its parameters when you make it, not as run parameters", r.model));
  PreparedRun p = prepare_method(registry, r);
  p.model = std::move(model);
  prepare_model(p, r);
  return p;
}

RunResult execute(PreparedRun& p, Observer& observer) {
  child_stage(fmt::format("running model '{}' under method '{}'", p.model_plugin ? p.model_plugin->name : std::string("(in process)"),
                          p.method.name));
  std::string error;
  const IntegratorFamilyView& family = *p.integrator_plugin->integrator;
  if (p.method.self_controlled) {
    std::unique_ptr<SolverView> solver(family.create_solver(p.method.name, p.options, error));
    if (!solver) throw Error(fmt::format("method '{}': {}", p.method.name, error));
    return integrate(*p.model, *solver, p.spec, p.y0, observer, p.method.name);
  }
  std::unique_ptr<StepperView> stepper(family.create_stepper(p.method.name, p.options, error));
  if (!stepper) throw Error(fmt::format("method '{}': {}", p.method.name, error));
  return integrate(*p.model, *stepper, p.method, p.spec, p.y0, observer);
}

}  // namespace liesim
