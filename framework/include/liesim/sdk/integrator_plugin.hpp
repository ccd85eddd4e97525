// The integrator adapter: turns a C++ integrator family (liesim/sdk/integrator.hpp) into the C
// integrator table of liesim/plugin.h. Header-only and compiled into the plugin; exceptions stop
// here and become LIESIM_FATAL with their message written through the host's logger.
#pragma once
#include <liesim/sdk/adapter.hpp>
#include <liesim/sdk/integrator.hpp>

#include <memory>
#include <optional>
#include <string>

namespace liesim::sdk::detail {

/// What a liesim_stepper* points to.
struct StepperInstance {
  std::unique_ptr<Stepper> stepper;
  std::optional<liesim::ModelView> model;  // the view of the host's model, from init
  void* context = nullptr;
  int n = 0;
  int err_size = 0;
  int diagnostics = 0;
};

/// What a liesim_solver* points to.
struct SolverInstance {
  std::unique_ptr<Solver> solver;
  std::optional<liesim::ModelView> model;
  void* context = nullptr;
  int n = 0;
  int diagnostics = 0;
};

/// Wrap an author's stepper or solver for the C table (`context`: the host's, for messages).
inline liesim_stepper* adopt(std::unique_ptr<Stepper> st, void* context, int diagnostics) {
  auto s = std::make_unique<StepperInstance>();
  s->stepper = std::move(st);
  s->context = context;
  s->diagnostics = diagnostics;
  return reinterpret_cast<liesim_stepper*>(s.release());
}
inline liesim_solver* adopt(std::unique_ptr<Solver> so, void* context, int diagnostics) {
  auto s = std::make_unique<SolverInstance>();
  s->solver = std::move(so);
  s->context = context;
  s->diagnostics = diagnostics;
  return reinterpret_cast<liesim_solver*>(s.release());
}

/// The C functions of steppers and solvers (every family shares them).
struct IntegratorFunctions {
  static StepperInstance* stepper(liesim_stepper* s) noexcept { return reinterpret_cast<StepperInstance*>(s); }
  static void stepper_destroy(liesim_stepper* s) noexcept { delete stepper(s); }
  static liesim_status stepper_init(liesim_stepper* p, const liesim_model_ref* ref) noexcept {
    StepperInstance* s = stepper(p);
    return guarded(s->context, [&] {
      s->model.emplace(*ref);
      s->n = s->model->size();
      s->err_size = s->stepper->error_space() == ErrorSpace::algebra ? s->model->space().algebra_dim() : s->n;
      std::string error;
      const Status st = s->stepper->init(*s->model, error);
      if (st != Status::ok) log_error(s->context, error.empty() ? "the method refused the model" : error);
      return to_c(st);
    });
  }
  /// Log the stepper's message after a failed step or interpolation (out of the hot path).
  [[gnu::cold, gnu::noinline]] static void log_stepper_failure(StepperInstance* s) noexcept {
    try {
      log_error(s->context, s->stepper->last_error());
    } catch (...) {
    }
  }
  static int32_t stepper_error_space(liesim_stepper* p) noexcept { return static_cast<int32_t>(stepper(p)->stepper->error_space()); }
  LIESIM_SDK_HOT static liesim_status stepper_step(liesim_stepper* p, double t, double h, const double* y, double* y_new, double* err) noexcept {
    StepperInstance* s = stepper(p);
    const Status st = s->stepper->step(t, h, in(y, s->n), out(y_new, s->n), out(err, s->err_size));
    if (st != Status::ok) log_stepper_failure(s);
    return to_c(st);
  }

  static SolverInstance* solver(liesim_solver* s) noexcept { return reinterpret_cast<SolverInstance*>(s); }
  static void solver_destroy(liesim_solver* s) noexcept { delete solver(s); }
  static liesim_status solver_init(liesim_solver* p, const liesim_model_ref* ref, double t0, const double* y0, double rtol,
                                   double atol, double fixed_step) noexcept {
    SolverInstance* s = solver(p);
    return guarded(s->context, [&] {
      s->model.emplace(*ref);
      s->n = s->model->size();
      std::string error;
      const Status st = s->solver->init(*s->model, t0, in(y0, s->n), SolverTolerances{rtol, atol, fixed_step}, error);
      if (st != Status::ok) log_error(s->context, error.empty() ? "the solver refused the model" : error);
      return to_c(st);
    });
  }
  /// Log the solver's message after a failed advance.
  [[gnu::cold, gnu::noinline]] static void log_solver_failure(SolverInstance* s) noexcept {
    try {
      log_error(s->context, s->solver->last_error());
    } catch (...) {
    }
  }
  static liesim_status solver_advance(liesim_solver* p, double t_out, double* y_out) noexcept {
    SolverInstance* s = solver(p);
    const Status st = s->solver->advance(t_out, out(y_out, s->n));
    if (st != Status::ok) log_solver_failure(s);
    return to_c(st);
  }
  static void solver_stats(liesim_solver* p, liesim_solver_stats* out_stats) noexcept {
    Stats st;
    solver(p)->solver->add_stats(st);
    out_stats->steps += st.steps;
    out_stats->rejected_steps += st.rejected_steps;
    out_stats->rhs_evals_jac += st.rhs_evals_jac;
    out_stats->jac_evals += st.jac_evals;
    out_stats->nonlinear_iters += st.nonlinear_iters;
    out_stats->nonlinear_conv_fails += st.nonlinear_conv_fails;
    out_stats->h_min_used = st.h_min_used;
    out_stats->h_max_used = st.h_max_used;
  }
#if LIESIM_ABI_MINOR >= 2
  static void stepper_diagnostics(liesim_stepper* p, double* o) noexcept {
    StepperInstance* s = stepper(p);
    s->stepper->diagnostics(out(o, s->diagnostics));
  }
  static void solver_diagnostics(liesim_solver* p, double* o) noexcept {
    SolverInstance* s = solver(p);
    s->solver->diagnostics(out(o, s->diagnostics));
  }
  static void solver_on_step(liesim_solver* p, void (*report)(void*, double, double, const double*), void* context) noexcept {
    solver(p)->solver->set_step_report(report, context);
  }
#endif
#if LIESIM_ABI_MINOR >= 6
  static liesim_status stepper_interpolate(liesim_stepper* p, double t, double h, const double* y, const double* y_new, double theta,
                                           double* o, double* work) noexcept {
    StepperInstance* s = stepper(p);
    const Status st = s->stepper->interpolate(t, h, in(y, s->n), in(y_new, s->n), theta, out(o, s->n), out(work, s->err_size));
    if (st != Status::ok) log_stepper_failure(s);
    return to_c(st);
  }
#endif
#if LIESIM_ABI_MINOR >= 7
  static liesim_status solver_set_events(liesim_solver* p, int32_t count, const int32_t* directions,
                                         int32_t (*g)(void*, double, const double*, double*), void* context) noexcept {
    SolverInstance* s = solver(p);
    return guarded(s->context, [&] {
      std::string error;
      const Status st = s->solver->set_events(EventFunctions{count, directions, g, context}, error);
      if (st != Status::ok) log_error(s->context, error.empty() ? "the solver refused the events" : error);
      return to_c(st);
    });
  }
  static liesim_status solver_advance_events(liesim_solver* p, double t_out, double* y_out, double* t_reached, int32_t* found) noexcept {
    SolverInstance* s = solver(p);
    const Status st = s->solver->advance_to_event(t_out, out(y_out, s->n), *t_reached, found);
    if (st != Status::ok) log_solver_failure(s);
    return to_c(st);
  }
  static uint32_t solver_capabilities(liesim_solver* p) noexcept { return solver(p)->solver->one_step() ? LIESIM_SOLVER_ONE_STEP : 0u; }
  static liesim_status solver_step(liesim_solver* p, double* t_new, double* y_new) noexcept {
    SolverInstance* s = solver(p);
    const Status st = s->solver->step(*t_new, out(y_new, s->n));
    if (st != Status::ok) log_solver_failure(s);
    return to_c(st);
  }
  static liesim_status solver_interpolate(liesim_solver* p, double t, double* y) noexcept {
    SolverInstance* s = solver(p);
    const Status st = s->solver->interpolate(t, out(y, s->n));
    if (st != Status::ok) log_solver_failure(s);
    return to_c(st);
  }
#endif

  /// The integrator table without the create functions (each family adds its own).
  static liesim_integrator_api api() noexcept {
    liesim_integrator_api t{};
    t.size = sizeof(liesim_integrator_api);
    t.stepper_destroy = &stepper_destroy;
    t.stepper_init = &stepper_init;
    t.stepper_error_space = &stepper_error_space;
    t.stepper_step = &stepper_step;
    t.solver_destroy = &solver_destroy;
    t.solver_init = &solver_init;
    t.solver_advance = &solver_advance;
    t.solver_stats = &solver_stats;
#if LIESIM_ABI_MINOR >= 2
    t.stepper_diagnostics = &stepper_diagnostics;
    t.solver_diagnostics = &solver_diagnostics;
    t.solver_on_step = &solver_on_step;
#endif
#if LIESIM_ABI_MINOR >= 6
    t.stepper_interpolate = &stepper_interpolate;
#endif
#if LIESIM_ABI_MINOR >= 7
    t.solver_set_events = &solver_set_events;
    t.solver_advance_events = &solver_advance_events;
    t.solver_capabilities = &solver_capabilities;
    t.solver_step = &solver_step;
    t.solver_interpolate = &solver_interpolate;
#endif
    return t;
  }
};

/// The C entry points of one integrator family `Family` (a default-constructible sdk::IntegratorFamily).
template <class Family>
struct IntegratorAdapter {
  static std::unique_ptr<Family>& family() {
    static std::unique_ptr<Family> f;
    return f;
  }

  /// Number of diagnostics `method` declares.
  static int diagnostic_count(const char* method) {
    for (const auto& m : family()->methods())
      if (m.name == method) return static_cast<int>(m.diagnostics.size());
    return 0;
  }

  static Settings options_of(const char* method, int32_t count, const char* const* keys, const char* const* values) {
    const std::string m = method ? method : "";
    return settings_of(family()->options(m), count, keys, values, "option of method '" + m + "'");
  }

  static liesim_status create_stepper(void* context, const char* method, int32_t count, const char* const* keys,
                                      const char* const* values, liesim_stepper** result) noexcept {
    *result = nullptr;
    return guarded(context, [&] {
      const Settings o = options_of(method, count, keys, values);
      std::string error;
      std::unique_ptr<Stepper> st(family()->create_stepper(method, o, error));
      if (!st) {
        log_error(context, error.empty() ? "the family made no stepper" : error);
        return LIESIM_FATAL;
      }
      *result = adopt(std::move(st), context, diagnostic_count(method));
      return LIESIM_OK;
    });
  }
  static liesim_status create_solver(void* context, const char* method, int32_t count, const char* const* keys,
                                     const char* const* values, liesim_solver** result) noexcept {
    *result = nullptr;
    return guarded(context, [&] {
      const Settings o = options_of(method, count, keys, values);
      std::string error;
      std::unique_ptr<Solver> so(family()->create_solver(method, o, error));
      if (!so) {
        log_error(context, error.empty() ? "the family made no solver" : error);
        return LIESIM_FATAL;
      }
      *result = adopt(std::move(so), context, diagnostic_count(method));
      return LIESIM_OK;
    });
  }
#if LIESIM_ABI_MINOR >= 9
  static liesim_status method_resolved(void* context, const char* method, int32_t count, const char* const* keys,
                                       const char* const* values, void (*write)(void* sink, const char* json), void* sink) noexcept {
    return guarded(context, [&] {
      const Settings o = options_of(method, count, keys, values);
      const std::string json = method_entry(*family(), family()->resolved_method(method ? method : "", o)).dump();
      write(sink, json.c_str());
      return LIESIM_OK;
    });
  }
#endif
  static const liesim_integrator_api* api() noexcept {
    static const liesim_integrator_api a = [] {
      liesim_integrator_api t = IntegratorFunctions::api();
      t.create_stepper = &create_stepper;
      t.create_solver = &create_solver;
#if LIESIM_ABI_MINOR >= 9
      t.method_resolved = &method_resolved;
#endif
      return t;
    }();
    return &a;
  }

  /// A method's entry of the metadata document.
  static nlohmann::json method_entry(const Family& f, const MethodInfo& m) {
    nlohmann::json diagnostics = nlohmann::json::array();
    for (const auto& d : m.diagnostics) diagnostics.push_back({{"name", d.name}, {"doc", d.doc}, {"conserved", d.conserved}});
    return {{"name", m.name}, {"summary", m.summary}, {"order", m.order}, {"embedded_order", m.embedded_order},
            {"dense_order", m.dense_order > 0 ? m.dense_order : m.order},
            {"lie_group", m.lie_group}, {"self_controlled", m.self_controlled},
            {"options", specs_json(f.options(m.name))}, {"diagnostics", diagnostics},
            {"needs_mechanics", m.needs_mechanics || !m.needs.empty()}, {"needs", m.needs}};
  }

  /// The plugin table (nullptr after logging why, when the family cannot be made).
  static const liesim_plugin* plugin(const liesim_host* h, const char* plugin_name, const char* version,
                                     const char* summary) noexcept {
    if (!accept_host(h, plugin_name)) return nullptr;
    static liesim_plugin table{};
    static std::string metadata;
    if (table.size != 0) return &table;
    const liesim_status s = guarded(nullptr, [&] {
      family() = std::make_unique<Family>();
      const Family& f = *family();
      nlohmann::json methods = nlohmann::json::array();
      for (const auto& m : f.methods()) methods.push_back(method_entry(f, m));
      metadata = nlohmann::json{{"summary", f.summary()}, {"methods", methods}}.dump();
      return LIESIM_OK;
    });
    if (s != LIESIM_OK) return nullptr;
    table.abi_major = LIESIM_ABI_MAJOR;
    table.abi_minor = LIESIM_ABI_MINOR;
    table.kind = LIESIM_KIND_INTEGRATOR;
    table.build_token = LIESIM_BUILD_TOKEN;
    table.name = plugin_name;
    table.version = version;
    table.summary = summary;
    table.metadata_json = metadata.c_str();
    table.model = nullptr;
    table.integrator = api();
    table.size = sizeof(liesim_plugin);
    return &table;
  }
};

}  // namespace liesim::sdk::detail
