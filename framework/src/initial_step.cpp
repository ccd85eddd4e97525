// The default first step of adaptive kernel-driven runs: Hairer, Nørsett & Wanner, Solving
// Ordinary Differential Equations I (2nd ed.), §II.4, "Starting Step Size" (declared in driver.hpp).
#include <liesim/host/driver.hpp>

#include <algorithm>
#include <cmath>

namespace liesim {

namespace {

/// The controller's norm of v, scaled at y0 (error_norm with y = y_new = y0): wrms with weights
/// rtol |y0_i| + atol, or the 2-norm in units of atol (the l2 controller accepts ||err||_2 < atol).
double scaled_norm(const StepControl& c, ConstVec v, ConstVec y0) {
  const double e = error_norm(c, ErrorSpace::embedding, v, y0, y0);
  return c.norm == ErrorNorm::l2 ? e / c.atol : e;
}

/// F(t, y) in embedding coordinates the way the method sees it: psi_*(f(t, y)) for a Lie group
/// method (xi receives f), the model's F for a classical one.
Status field(ModelView& model, bool lie_group, double t, ConstVec y, Vec xi, Vec F) {
  if (!lie_group) return model.vector_field(t, y, F);
  const Status s = model.generator(t, y, xi);
  return s != Status::ok ? s : model.space().generator(xi, y, F);
}

}  // namespace

double initial_step(ModelView& model, const MethodInfo& method, const RunSpec& spec, ConstVec y0) {
  const StepControl& c = spec.control;
  const double span = spec.t_end - spec.t0;
  const double fallback = std::min(span / 100.0, c.h_max);
  const Eigen::Index n = model.size();
  const bool lie = method.lie_group;
  Eigen::VectorXd xi(lie ? model.space().algebra_dim() : 0), F0(n), F1(n), y1(n);
  if (field(model, lie, spec.t0, y0, xi, F0) != Status::ok || !F0.allFinite()) return fallback;
  const double d0 = scaled_norm(c, y0, y0), d1 = scaled_norm(c, F0, y0);
  double h = d0 < 1e-5 || d1 < 1e-5 ? 1e-6 : 0.01 * d0 / d1;
  h = std::min({h, c.h_max, span});
  // One explicit Euler step; on M for a Lie group method (the Lie-Euler step).
  if (lie) {
    xi *= h;
    if (model.space().act_exp(xi, y0, y1) != Status::ok) return fallback;
  } else {
    y1 = y0 + h * F0;
  }
  if (field(model, lie, spec.t0 + h, y1, xi, F1) != Status::ok || !F1.allFinite()) return fallback;
  F1 -= F0;
  const double d2 = scaled_norm(c, F1, y0) / h;
  const double d = std::max(d1, d2);
  const int p = std::max(1, method.order);
  const double h1 = d <= 1e-15 ? std::max(1e-6, h * 1e-3) : std::pow(0.01 / d, 1.0 / (p + 1));
  const double out = std::min({100 * h, h1, c.h_max, span});
  return std::isfinite(out) && out > 0 ? out : fallback;
}

}  // namespace liesim
