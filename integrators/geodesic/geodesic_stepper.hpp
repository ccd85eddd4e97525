// One-step methods of the B-stability chapter of E. Cokaj's thesis (seed 000 §4.3; notes §1.3,
// §1.7, §5): geodesic methods on a Riemannian manifold (ABI 2.3 metric: exp_p, log_p, d) and the
// implicit Lie–Euler method on a homogeneous space.
//   geodesic_euler (GEE, (4.3.1))             y1 = exp_{y0}(h X(y0))
//   geodesic_implicit_euler (GIE, (4.3.2))    y0 = exp_{y1}(-h X(y1))
//   geodesic_implicit_midpoint (GIMP, (4.3.3)) y0 = exp_{yb}(-h/2 X(yb)),  y1 = exp_{yb}(h/2 X(yb))
//   spherical_midpoint (SPHMP, (4.3.4))        y1 = y0 + h X(yb),  yb = (y0 + y1) / |y0 + y1|  (per unit sphere)
//   implicit_lie_euler ((4.3.14))              y1 = exp(h f(y1)) . y0
// The unknown point (y1, or yb for GIMP) is parametrised through the model's action,
// p = psi(exp(xi), y0) with xi in g, and found by the kernel's Newton method from the explicit
// guess xi = h f(y0) (h/2 f(y0) for GIMP): minimum-norm Gauss–Newton on the n embedding
// equations for the geodesic methods (xi is redundant where the action has isotropy), LU on the
// d equations xi = h f(psi(exp(xi), y0)) for implicit Lie–Euler. The equations can have several
// roots (thesis (4.3.13)): the root is continued in the step size, from h/K to h in K solves,
// each started from the last, with K = max(`substeps`, |h f(y0)| / 0.5) (so no solve starts more
// than 0.5 away in g from a known root); a solve that fails is retried with a quarter of the
// increment (down to 1e-6 h). So the step takes the branch that is continuous as h -> 0, never
// silently another; a step that still fails ends the run with that message. With `survey` = S
// > 0, every step also starts Newton from the S^d points of the grid [-R, R]^d in g (R =
// `survey_radius`) and reports how many distinct roots it found there (diagnostic `roots`) and
// whether the root it took is among them.
#pragma once
#include <liesim/sdk/newton.hpp>
#include <liesim/sdk/integrator.hpp>

#include <limits>
#include <string>

namespace liesim::geodesic {

enum class Scheme { gee, gie, gimp, sphmp, implicit_lie_euler };

class GeodesicStepper final : public sdk::Stepper {
 public:
  GeodesicStepper(Scheme scheme, int substeps, double newton_tol, int max_iters, int survey = 0, double survey_radius = 0.0)
      : scheme_(scheme), substeps_(substeps), survey_(survey), radius_(survey_radius) {
    newton_.configure(newton_tol, max_iters);
  }
  Status init(ModelView& model, std::string& error) noexcept override;
  ErrorSpace error_space() const noexcept override { return ErrorSpace::none; }
  Status step(double t, double h, ConstVec y, Vec y_new, Vec err) noexcept override;
  /// residual (max-norm of the step equations at the accepted root), newton_iterations (summed
  /// over the substeps), roots (distinct roots the survey found; NaN without a survey).
  void diagnostics(Vec out) const noexcept override {
    out[0] = residual_;
    out[1] = iterations_;
    out[2] = roots_;
  }
  std::string last_error() const override { return error_; }

 private:
  /// The step equations at xi for step size h from y0 (n or d values).
  Status equations(double t, double h, ConstVec y0, ConstVec xi, Vec r) noexcept;
  /// y = yb for SPHMP: (y0 + p) normalised on each unit sphere.
  void sphere_midpoint(ConstVec y0, ConstVec p, Vec yb) const noexcept;
  /// Count the distinct roots reached from the survey grid (the taken root's point is p_).
  Status survey(double t, double h, ConstVec y0) noexcept;

  Scheme scheme_;
  int substeps_;
  int survey_;
  double radius_;
  static constexpr int max_roots = 64;
  Eigen::MatrixXd found_;  ///< points of the roots found by the survey (n x max_roots)
  Eigen::VectorXd taken_, start_;
  ModelView* model_ = nullptr;
  const RiemannianMetricView* metric_ = nullptr;
  Newton newton_;
  Eigen::VectorXd p_, q_, X_, v_, f_, xi_, root_;
  double residual_ = 0.0, iterations_ = 0.0, roots_ = std::numeric_limits<double>::quiet_NaN();
  std::string error_;
};

}  // namespace liesim::geodesic
