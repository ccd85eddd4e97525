// The variational plugin: integrators built from a discrete Lagrangian instead of a vector field
// (Sharma 2020, seed 001, ch. 2–4), for models with a mechanical description (ABI 2.2).
#include "galerkin_vi.hpp"
#include "hermite_stepper.hpp"
#include "lgvi.hpp"
#include "optimisation.hpp"
#include "vi_adaptive.hpp"
#include "vi_stepper.hpp"

#include <liesim/sdk/plugin.hpp>

#include <fmt/format.h>

#include <memory>

namespace liesim::variational {

namespace {

const DiagnosticInfo discrete_energy{
    "discrete_energy",
    "discrete energy of the last step E_{k+1} = -D_3 L_d - g_d^+ (Sharma 2020 (3.18), (3.37)); kept exactly by vi_adaptive "
    "for an autonomous system without forces, bounded without drift by the fixed-step VI",
    true};
const DiagnosticInfo residual_momentum{"residual_momentum", "max-norm of the momentum equation's residual |-D_2 L_d - f_d^- - p_k| at the accepted step", false};

std::vector<SettingSpec> newton_options(const char* tol) {
  return {{"newton_tol", tol, "", "Newton's method stops when its correction is below newton_tol (1 + |x|) (then one polishing step)"},
          {"max_iters", "30", "", "Newton iterations per step before the step fails"}};
}

class VariationalFamily final : public sdk::IntegratorFamily {
 public:
  std::string summary() const override {
    return "variational integrators from a discrete Lagrangian (models with a mechanical description): fixed-step and "
           "adaptive energy-preserving VIs, Hermite one-step variational and Galerkin methods";
  }

  std::vector<MethodInfo> methods() const override {
    MethodInfo midpoint{"vi_midpoint", "fixed-step variational integrator, midpoint discrete Lagrangian (DEL / DLA, position–momentum form)", 2, 0, false, false, {}, false, ""};
    midpoint.diagnostics = {discrete_energy, residual_momentum};
    MethodInfo trapezoidal = midpoint;
    trapezoidal.name = "vi_trapezoidal";
    trapezoidal.summary = "fixed-step variational integrator, trapezoidal discrete Lagrangian (Störmer–Verlet when f = 0)";
    MethodInfo adaptive{"vi_adaptive",
                        "adaptive energy-preserving variational integrator: time as a variable, h_k from the discrete energy equation "
                        "(--step is h0)",
                        2, 0, false, true, {}, false, ""};
    adaptive.diagnostics = {{"h_k", "step size h_k chosen by the discrete energy equation", false},
                            discrete_energy,
                            residual_momentum,
                            {"residual_energy", "|D_1 L_d + g_d^- - E_k| at the accepted step (the energy equation's residual)", false},
                            {"condition", "1-norm condition number of the last Newton Jacobian of the joint (h, v) equations (solve=converged; nan for sequential); grows like 1/h0 (Fig. 3.7)", false}};
    MethodInfo quadratic{"vi_quadratic",
                         "Galerkin variational integrator: quadratic trajectory through q_k, one interior point and q_{k+1}, action by "
                         "Gauss–Legendre quadrature (Marsden–West; Sharma 2020 Fig. 4.4's comparison VI)",
                         4, 0, false, false, {}, false, ""};
    quadratic.diagnostics = {{"discrete_energy",
                              "discrete energy of the last step E_{k+1} = -D_{t_k+1} L_d - g_d^+: the energy averaged along the step's "
                              "quadratic (within O(h^2) of the energy; q and p are order 4)",
                              true},
                             {"residual_momentum", "max-norm of the step equations' residual (momentum at q_k, stationarity at the interior point)", false}};
    const DiagnosticInfo residual{"residual", "max-norm of the step equations' residual at the accepted end point", false};
    MethodInfo hv{"hermite_variational", "Hermite one-step variational method: cubic Hermite trajectory, dL_d/dv0 = dL_d/dv1 = 0 (C^1)", 2, 0,
                  false, false, {}, false, ""};
    hv.diagnostics = {residual};
    MethodInfo hg{"hermite_galerkin", "Hermite one-step Galerkin method: cubic Hermite trajectory, equation of motion tested with 1 and (2t - h)/h",
                  4, 0, false, false, {}, false, ""};
    hg.diagnostics = {residual};
    MethodInfo lgvi{"lgvi", "Lie group variational integrator (Lee–Leok–McClamroch) on SO(3) (order 2), or SO(3) x R^3 with body "
                            "velocities (order 1 with an anisotropic mass matrix, as in the source): Cayley map, fixed step",
                    2, 0, true, false, {}, false, ""};
    lgvi.diagnostics = {{"discrete_energy", "discrete energy of the step E_d = 2 f^T J f / ((1 + |f|^2) h^2) + 1/2 v^T M v + (U_k + U_k+1)/2 "
                                            "(Sharma 2020 (5.29), (6.51)); bounded without drift by the fixed step", true},
                        {"residual_momentum", "max-norm of the Cayley equation g + g x f + (g.f) f - 2 J f at the accepted f", false}};
    MethodInfo lgvi_adaptive{"lgvi_adaptive",
                             "adaptive energy-preserving LGVI: h_k from the discrete energy equation (--step is h0); solve = converged | "
                             "sequential (the thesis's)",
                             2, 0, true, true, {}, false, ""};
    lgvi_adaptive.diagnostics = {{"h_k", "step size h_k chosen by the discrete energy equation", false},
                                 lgvi.diagnostics[0],
                                 lgvi.diagnostics[1],
                                 {"residual_energy", "|E_d(h_k) - E_0|, the energy equation's residual", false}};
    const DiagnosticInfo clamped{"clamped", "1 when SAGD's asin argument |g|/j exceeded 1 and was clamped in this step, else 0", false};
    MethodInfo gd{"gd", "gradient descent on SO(3): R1 = R exp(h D^-1 M(R)), the overdamped limit of a damped rigid body (Sharma 2020 (7.23))",
                  1, 0, true, false, {clamped}, false, ""};
    MethodInfo agd{"agd", "accelerated gradient descent on SO(3): symplectic Euler of the damped rigid body (Sharma 2020 (7.24)-(7.25))",
                   1, 0, true, false, {clamped}, false, ""};
    MethodInfo sagd{"sagd", "symplectic accelerated gradient descent: the damped LGVI with the potential at the right end point "
                            "(Sharma 2020 (7.33)-(7.37))",
                    1, 0, true, false, {clamped}, false, ""};
    std::vector<MethodInfo> all{midpoint, trapezoidal, quadratic, adaptive, hv, hg, lgvi, lgvi_adaptive, gd, agd, sagd};
    for (auto& m : all) m.needs = "mechanical";
    return all;
  }

  std::vector<SettingSpec> options(const std::string& method) const override {
    if (method == "vi_midpoint" || method == "vi_trapezoidal") return newton_options("1e-12");
    if (method == "vi_adaptive") {
      auto o = newton_options("1e-12");
      o.insert(o.begin(),
               {{"lagrangian", "midpoint", "", "discrete Lagrangian: midpoint or trapezoidal"},
                {"solve", "converged", "",
                 "converged: Newton on (h, v) until both equations hold; sequential: `passes` rounds of momentum equation for v at fixed h, "
                 "then energy equation for h at fixed displacement (the thesis's sequential variant)"},
                {"passes", "1", "", "rounds per step of solve=sequential"},
                {"max_steps", "10000000", "", "steps allowed before the run ends with an error"}});
      return o;
    }
    if (method == "lgvi" || method == "gd" || method == "agd" || method == "sagd") return {};
    if (method == "lgvi_adaptive")
      return {{"solve", "sequential", "", "sequential: `passes` rounds of {Cayley solve at the current h; h from the energy equation at "
                                          "that f}, then the update (the thesis's variant; its momentum residual is reported); "
                                          "converged: h the root of E_d(h) = E_0 with the Cayley equation solved at every h"},
              {"passes", "1", "", "rounds per step of solve=sequential"},
              {"max_steps", "10000000", "", "steps allowed before the run ends with an error"}};
    if (method == "hermite_variational" || method == "hermite_galerkin" || method == "vi_quadratic") {
      auto o = newton_options("1e-12");
      o.insert(o.begin(), {"quadrature", "5", "", "Gauss–Legendre points for the integrals over a step (5 is exact for a quartic potential)"});
      return o;
    }
    return {};
  }

  sdk::Stepper* create_stepper(const std::string& method, const Settings& o, std::string& error) const noexcept override {
    try {
      if (method == "lgvi") return new LgviStepper();
      if (method == "gd") return new DescentStepper(Descent::gd);
      if (method == "agd") return new DescentStepper(Descent::agd);
      if (method == "sagd") return new DescentStepper(Descent::sagd);
      const double tol = o.positive("newton_tol");
      const int iters = static_cast<int>(o.integer("max_iters", 1, 1000));
      if (method == "vi_midpoint" || method == "vi_trapezoidal")
        return new ViStepper(lagrangian_rule(method == "vi_midpoint" ? "midpoint" : "trapezoidal"), tol, iters);
      if (method == "hermite_variational" || method == "hermite_galerkin")
        return new HermiteStepper(method == "hermite_variational" ? HermiteKind::variational : HermiteKind::galerkin,
                                  static_cast<int>(o.integer("quadrature", 1, 20)), tol, iters);
      if (method == "vi_quadratic") return new GalerkinViStepper(2, static_cast<int>(o.integer("quadrature", 1, 20)), tol, iters);
      error = fmt::format("method '{}' is not a kernel-driven stepper of the variational family", method);
    } catch (const std::exception& e) {
      error = e.what();
    }
    return nullptr;
  }

  sdk::Solver* create_solver(const std::string& method, const Settings& o, std::string& error) const noexcept override {
    try {
      if (method == "lgvi_adaptive")
        return new LgviAdaptiveSolver(o.choice("solve", {"sequential", "converged"}) == "sequential", static_cast<int>(o.integer("passes", 1, 100)),
                                      o.integer("max_steps", 1, 1L << 40));
      if (method != "vi_adaptive") {
        error = fmt::format("method '{}' is not a self-controlled solver of the variational family", method);
        return nullptr;
      }
      const auto solve = o.choice("solve", {"converged", "sequential"}) == "converged" ? AdaptiveSolve::converged : AdaptiveSolve::sequential;
      return new ViAdaptiveSolver(lagrangian_rule(o.choice("lagrangian", {"midpoint", "trapezoidal"})), solve,
                                  static_cast<int>(o.integer("passes", 1, 100)), o.positive("newton_tol"),
                                  static_cast<int>(o.integer("max_iters", 1, 1000)), o.integer("max_steps", 1, 1L << 40));
    } catch (const std::exception& e) {
      error = e.what();
    }
    return nullptr;
  }
};

}  // namespace

}  // namespace liesim::variational

LIESIM_PLUGIN(integrator, "variational", "0.1.0", "variational integrators (discrete Lagrangian): VI, adaptive VI, Hermite",
              liesim::variational::VariationalFamily)
