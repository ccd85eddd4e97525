// The geodesic plugin: the one-step methods of the B-stability chapter (Cokaj thesis §4.3) —
// geodesic explicit / implicit Euler, geodesic implicit midpoint, spherical midpoint (models with
// a Riemannian metric, ABI 2.3) — and implicit Lie–Euler (every model).
#include "geodesic_stepper.hpp"

#include <liesim/sdk/plugin.hpp>

#include <fmt/format.h>

namespace liesim::geodesic {

namespace {

class GeodesicFamily final : public sdk::IntegratorFamily {
 public:
  std::string summary() const override {
    return "geodesic methods on Riemannian manifolds (GEE, GIE, GIMP, spherical midpoint) and implicit Lie–Euler (thesis §4.3)";
  }

  std::vector<MethodInfo> methods() const override {
    const std::vector<DiagnosticInfo> implicit{
        {"residual", "max-norm of the step equations at the accepted root", false},
        {"newton_iterations", "Newton iterations of the last step (all substeps)", false},
        {"roots", "distinct roots of the step equations found from the survey grid (option survey; with the root taken); nan without", false}};
    MethodInfo gee{"geodesic_euler", "geodesic explicit Euler (GEE): y1 = exp_y0(h X(y0)) with the Riemannian exponential (thesis (4.3.1))",
                   1, 0, false, false, {}, false, "riemannian"};
    MethodInfo gie{"geodesic_implicit_euler",
                   "geodesic implicit Euler (GIE): y0 = exp_y1(-h X(y1)); B-stable where the sectional curvature is <= 0 (thesis (4.3.2), "
                   "Thm 4.2)",
                   1, 0, false, false, implicit, false, "riemannian"};
    MethodInfo gimp{"geodesic_implicit_midpoint",
                    "geodesic implicit midpoint (GIMP): y0 = exp_yb(-h/2 X(yb)), y1 = exp_yb(h/2 X(yb)) (thesis (4.3.3))", 2, 0, false,
                    false, implicit, false, "riemannian"};
    MethodInfo sphmp{"spherical_midpoint",
                     "spherical midpoint (SPHMP, McLachlan–Modin–Verdier): y1 = y0 + h X(yb), yb = (y0 + y1)/|y0 + y1| per unit sphere "
                     "(thesis (4.3.4))",
                     2, 0, false, false, implicit, false, "riemannian"};
    MethodInfo ile{"implicit_lie_euler", "implicit Lie–Euler: y1 = exp(h f(y1)) . y0 through the model's action and generator (thesis (4.3.14))",
                   1, 0, true, false, implicit, false, ""};
    return {gee, gie, gimp, sphmp, ile};
  }

  std::vector<SettingSpec> options(const std::string& method) const override {
    if (method == "geodesic_euler") return {};
    return {{"substeps", "1", "", "continuation: solve at h/K, 2h/K, ..., h, each from the last root, a failed solve retried with a quarter "
                                  "of the increment (K > 1 follows the root that is continuous as h -> 0 where the equations have several)"},
            {"newton_tol", "1e-13", "", "Newton's method stops when its correction is below newton_tol (1 + |x|) (then one polishing step)"},
            {"max_iters", "50", "", "Newton iterations per (sub)step before the step fails"},
            {"survey", "0", "", "S > 0: also start Newton from the S^d points of the grid [-R, R]^d in g and report the distinct roots found "
                                "(diagnostic roots; costs S^d solves per step)"},
            {"survey_radius", "3.14159", "", "R, the half-width of the survey grid in g"}};
  }

  sdk::Stepper* create_stepper(const std::string& method, const Settings& o, std::string& error) const noexcept override {
    try {
      if (method == "geodesic_euler") return new GeodesicStepper(Scheme::gee, 1, 1e-13, 1);
      const Scheme s = method == "geodesic_implicit_euler"      ? Scheme::gie
                       : method == "geodesic_implicit_midpoint" ? Scheme::gimp
                       : method == "spherical_midpoint"         ? Scheme::sphmp
                       : method == "implicit_lie_euler"         ? Scheme::implicit_lie_euler
                                                                : throw Error(fmt::format("method '{}' is not a method of the geodesic family", method));
      return new GeodesicStepper(s, static_cast<int>(o.integer("substeps", 1, 100000)), o.positive("newton_tol"),
                                 static_cast<int>(o.integer("max_iters", 1, 1000)), static_cast<int>(o.integer("survey", 0, 100)),
                                 o.positive("survey_radius"));
    } catch (const std::exception& e) {
      error = e.what();
    }
    return nullptr;
  }
};

}  // namespace

}  // namespace liesim::geodesic

LIESIM_PLUGIN(integrator, "geodesic", "0.1.0", "geodesic methods (GEE, GIE, GIMP, spherical midpoint) and implicit Lie–Euler",
              liesim::geodesic::GeodesicFamily)
