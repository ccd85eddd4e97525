// The sundials plugin: CVODE, ARKODE and IDA methods, their options, and solver creation.
#include "arkode_solver.hpp"
#include "butcher_tables.hpp"
#include "cvode_solver.hpp"
#include "ida_solver.hpp"

#include <liesim/sdk/plugin.hpp>

#include <fmt/format.h>

#include <cstdio>  // arkode_butcher.h uses FILE without including <stdio.h>

#include <arkode/arkode_butcher_dirk.h>
#include <arkode/arkode_butcher_erk.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace liesim::sundials {

namespace {

struct Entry {
  const char* name;
  Method method;
  const char* summary;
  int order;  // highest order (CVODE: default max order; ARKODE: the default table's)
};

constexpr std::array<Entry, 7> entries{{
    {"cvode_bdf", Method::cvode_bdf,
     "CVODE: variable-order BDF (orders 1-5), Newton iteration, dense linear solver, the model's Jacobian or difference quotients", 5},
    {"cvode_adams", Method::cvode_adams,
     "CVODE: variable-order Adams-Moulton (orders 1-12), Newton iteration, dense linear solver, the model's Jacobian or difference quotients", 12},
    {"cvode_adams_fixedpoint", Method::cvode_adams_fixedpoint,
     "CVODE: variable-order Adams-Moulton (orders 1-12) with fixed-point iteration (no Jacobian, non-stiff)", 12},
    {"cvode_bdf_proj", Method::cvode_bdf_proj,
     "CVODE: BDF + Newton + dense, projecting onto the model's manifold after every step (CVodeSetProjFn)", 5},
    {"arkode_erk", Method::arkode_erk,
     "ARKODE ERKStep: explicit Runge-Kutta with a built-in SUNDIALS table (default Dormand-Prince 5(4))", 5},
    {"arkode_dirk", Method::arkode_dirk,
     "ARKODE ARKStep: diagonally implicit Runge-Kutta with a built-in SUNDIALS table, Newton + dense", 4},
    {"ida", Method::ida,
     "IDA: variable-order BDF (orders 1-5) on the model's DAE formulation (pendulum_chain formulation=cartesian_dae), "
     "Newton + dense, DQ Jacobian", 5},
}};

constexpr const char* default_erk = "ARKODE_DORMAND_PRINCE_7_4_5";
constexpr const char* default_dirk = "ARKODE_SDIRK_5_3_4";  // ARKStep's own default of order 4

const Entry* find(const std::string& name) {
  for (const auto& e : entries)
    if (name == e.name) return &e;
  return nullptr;
}

bool is_cvode(Method m) { return m != Method::arkode_erk && m != Method::arkode_dirk && m != Method::ida; }
/// Methods whose nonlinear solver is Newton with a dense linear solver on F (option jacobian).
bool uses_newton(Method m) {
  return m == Method::cvode_bdf || m == Method::cvode_adams || m == Method::cvode_bdf_proj || m == Method::arkode_dirk;
}

/// "inf" or a number; 0 stands for "no limit" in SUNDIALS' max-step setters.
double max_step_value(const Settings& s) {
  const std::string& t = s.text("max_step");
  if (t == "inf" || t == "0") return 0.0;
  return s.number("max_step");
}

bool boolean(const Settings& s, const std::string& key) {
  return s.choice(key, {"true", "false"}) == "true";
}

class SundialsFamily final : public sdk::IntegratorFamily {
 public:
  SundialsFamily() {
    // Load the table lists now: a SUNDIALS that disagrees with its headers fails the plugin load.
    (void)erk_tables();
    (void)dirk_tables();
  }

  std::string summary() const override {
    return "SUNDIALS 6.4 solvers on the model's embedded vector field: CVODE (BDF, Adams, projection) and ARKODE (ERK, DIRK); "
           "IDA on the model's DAE formulation";
  }

  std::vector<MethodInfo> methods() const override {
    std::vector<MethodInfo> out;
    for (const auto& e : entries) {
      int order = e.order;
      int embedded = 0;
      if (e.method == Method::arkode_erk || e.method == Method::arkode_dirk) {
        const TableInfo* t = find_table(e.method == Method::arkode_erk ? erk_tables() : dirk_tables(),
                                        e.method == Method::arkode_erk ? default_erk : default_dirk);
        if (t) {
          order = t->order;
          embedded = t->embedded;
        }
      }
      MethodInfo m;
      m.name = e.name;
      m.summary = e.summary;
      m.order = order;
      m.embedded_order = embedded;
      m.lie_group = false;
      m.self_controlled = true;
      out.push_back(m);
    }
    return out;
  }

  std::vector<SettingSpec> options(const std::string& method) const override {
    const Entry* e = find(method);
    if (!e) return {};
    std::vector<SettingSpec> o{
        {"max_steps", "10000", "",
         "steps allowed between two output times (SUNDIALS mxstep; SUNDIALS' own default is 500); exceeding it ends the "
         "run with *_TOO_MUCH_WORK"},
        {"h0", "0", "s", "initial step size (0 = estimated by SUNDIALS; ignored with a fixed step)"},
        {"max_step", "inf", "s", "largest step size (inf or 0 = unlimited)"},
        {"min_step", "0", "s", "smallest step size (SUNDIALS fails with *_ERR_FAILURE / *_CONV_FAILURE instead of going below)"},
    };
    if (e->method == Method::ida) {
      o.push_back({"max_order", "5", "", "largest BDF order, 1..5 (IDASetMaxOrd)"});
      o.push_back({"algebraic_atol", "1", "",
                   "absolute tolerance of the algebraic components z (multipliers), which IDA leaves out of the error test "
                   "(IDASetSuppressAlg) and uses only in its Newton convergence test, with weights |h| / (rtol |z| + "
                   "algebraic_atol): a tolerance on the impulse h z over a step (IDAWFtolerances; see README.md)"});
      o.push_back({"fresh_jacobian", "true", "",
                   "true: IDA's Newton iteration starts every step from a new difference-quotient Jacobian; false: IDA's "
                   "own reuse (a new one only when cj changed by 25 % or after a failure), which on index-2 constraints "
                   "accepts inaccurate Newton iterates (more steps, lower orders; see README.md): true|false"});
      o.push_back({"stop_at_outputs", "true", "",
                   "true: IDA steps exactly to every output time (IDASetStopTime), so outputs are Newton solutions on the "
                   "constraints; false: outputs are IDA's interpolant between its steps (constraint residuals of the size "
                   "of the local error): true|false"});
    }
    if (is_cvode(e->method))
      o.push_back({"max_order", e->method == Method::cvode_bdf || e->method == Method::cvode_bdf_proj ? "5" : "12", "",
                   e->method == Method::cvode_bdf || e->method == Method::cvode_bdf_proj
                       ? "largest BDF order, 1..5 (CVodeSetMaxOrd)"
                       : "largest Adams order, 1..12 (CVodeSetMaxOrd)"});
    if (uses_newton(e->method))
      o.push_back(jacobian_option_spec("the Newton iteration", "SUNDIALS' difference quotients"));
    if (e->method == Method::cvode_adams_fixedpoint)
      o.push_back({"fixedpoint_accel", "0", "", "Anderson acceleration depth m of the fixed-point iteration (0 = plain iteration)"});
    if (e->method == Method::cvode_bdf_proj)
      o.push_back({"proj_err_est", "true", "",
                   "also project the local error estimate onto the tangent space (CVodeSetProjErrEst): true|false"});
    if (e->method == Method::arkode_erk || e->method == Method::arkode_dirk)
      o.push_back({"adaptivity", "default", "",
                   "ARKODE's own step-size controller (*SetAdaptivityMethod, SUNDIALS' parameters): default (SUNDIALS' choice: "
                   "PI for ERKStep, PID for ARKStep), pid, pi, i, explicit_gustafsson, implicit_gustafsson, imex_gustafsson; not "
                   "the kernel's controllers (README.md, step-size control)"});
    if (e->method == Method::arkode_erk)
      o.push_back({"table", default_erk, "",
                   "built-in explicit Butcher table of SUNDIALS (the ARKODE_ prefix may be left out; tables marked 'run by "
                   "ARKStep' have c_s = 1 without being FSAL, which ERKStep of SUNDIALS < 6.6 integrates with a lowered "
                   "order, llnl/sundials#311, so they run on ARKStep's explicit part): " +
                       describe_tables(erk_tables())});
    if (e->method == Method::arkode_dirk) {
      o.push_back({"table", default_dirk, "",
                   "built-in diagonally implicit Butcher table of SUNDIALS (the ARKODE_ prefix may be left out): " +
                       describe_tables(dirk_tables())});
      o.push_back({"fixed_step_tol", "1e-10", "",
                   "with a fixed step (--step): rtol = atol used by the Newton convergence test of the stages"});
    }
    return o;
  }

  sdk::Solver* create_solver(const std::string& method, const Settings& s, std::string& error) const noexcept override {
    try {
      const Entry* e = find(method);
      if (!e) throw Error(fmt::format("the sundials plugin has no method '{}'", method));
      Options o;
      o.max_steps = s.integer("max_steps", 1, std::numeric_limits<long>::max());
      o.h0 = s.number("h0");
      if (o.h0 < 0) throw Error(fmt::format("option h0 must be >= 0 (got {}); 0 lets SUNDIALS estimate it", o.h0));
      o.max_step = max_step_value(s);
      if (o.max_step < 0) throw Error(fmt::format("option max_step must be > 0 or inf (got {})", o.max_step));
      o.min_step = s.number("min_step");
      if (o.min_step < 0) throw Error(fmt::format("option min_step must be >= 0 (got {})", o.min_step));
      if (is_cvode(e->method) || e->method == Method::ida)
        o.max_order = s.integer("max_order", std::numeric_limits<int>::min(), std::numeric_limits<int>::max());
      if (e->method == Method::cvode_adams_fixedpoint) o.fixedpoint_accel = s.integer("fixedpoint_accel", 0, 1000);
      if (uses_newton(e->method)) o.jacobian = jacobian_option(s);
      if (e->method == Method::cvode_bdf_proj) o.proj_err_est = boolean(s, "proj_err_est");
      if (e->method == Method::arkode_dirk) o.fixed_step_tol = s.positive("fixed_step_tol");
      if (e->method == Method::ida) {
        o.algebraic_atol = s.positive("algebraic_atol");
        o.fresh_jacobian = boolean(s, "fresh_jacobian");
        o.stop_at_outputs = boolean(s, "stop_at_outputs");
      }
      if (e->method == Method::arkode_erk || e->method == Method::arkode_dirk) {
        // "default" is -1 (no call); ARK_ADAPT_PID .. ARK_ADAPT_IMEX_GUS are 0 .. 5, in this order.
        const std::vector<std::string> adaptivity{"default", "pid", "pi", "i", "explicit_gustafsson", "implicit_gustafsson", "imex_gustafsson"};
        const std::string a = s.choice("adaptivity", adaptivity);
        o.adaptivity = static_cast<int>(std::find(adaptivity.begin(), adaptivity.end(), a) - adaptivity.begin()) - 1;
        const auto& tables = e->method == Method::arkode_erk ? erk_tables() : dirk_tables();
        const std::string& name = s.text("table");
        const TableInfo* t = find_table(tables, name);
        if (!t)
          throw Error(fmt::format("option table: '{}' is not a built-in {} table of SUNDIALS; valid tables: {}", name,
                                  e->method == Method::arkode_erk ? "explicit (ERK)" : "diagonally implicit (DIRK)",
                                  table_names(tables)));
        o.table = t->id;
        o.table_name = t->name;
        o.table_embedded = t->embedded;
        o.table_via_arkstep = e->method == Method::arkode_erk && t->erkstep_fsal_bug;
      }
      if (e->method == Method::ida) return new IdaSolver(std::move(o));
      if (is_cvode(e->method)) return new CvodeSolver(e->method, std::move(o));
      return new ArkodeSolver(e->method, std::move(o));
    } catch (const std::exception& ex) {
      error = ex.what();
      return nullptr;
    }
  }
};

}  // namespace

}  // namespace liesim::sundials

LIESIM_PLUGIN(integrator, "sundials", "0.2.0",
              "SUNDIALS 6.4 CVODE, ARKODE and IDA solvers (BDF, Adams, projection, ERK, DIRK; BDF on DAE formulations)",
              liesim::sundials::SundialsFamily)
