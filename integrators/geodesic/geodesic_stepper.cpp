// Geodesic and implicit Lie–Euler steps: see geodesic_stepper.hpp.
#include "geodesic_stepper.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace liesim::geodesic {

namespace {
const char* name_of(Scheme s) {
  switch (s) {
    case Scheme::gee: return "geodesic_euler";
    case Scheme::gie: return "geodesic_implicit_euler";
    case Scheme::gimp: return "geodesic_implicit_midpoint";
    case Scheme::sphmp: return "spherical_midpoint";
    case Scheme::implicit_lie_euler: return "implicit_lie_euler";
  }
  return "";
}
}  // namespace

Status GeodesicStepper::init(ModelView& model, std::string& error) noexcept {
  try {
    model_ = &model;
    const int n = model.size(), d = model.space().algebra_dim();
    if (scheme_ != Scheme::implicit_lie_euler) {
      metric_ = model.riemannian();
      if (!metric_) {
        error = fmt::format("{} needs a model with a Riemannian metric on its manifold (ABI 2.3: exp, log, distance); `liesim describe "
                            "MODEL` lists it among the capabilities (sphere_flow has one)",
                            name_of(scheme_));
        return Status::fatal;
      }
      if (scheme_ == Scheme::sphmp && metric_->sphere_blocks() <= 0) {
        error = "spherical_midpoint needs a model whose manifold is a product of unit spheres (its Riemannian metric says how many); "
                "use geodesic_implicit_midpoint on other manifolds";
        return Status::fatal;
      }
    }
    for (Eigen::VectorXd* v : {&p_, &q_, &X_, &v_}) v->setZero(n);
    f_.setZero(d);
    xi_.setZero(d);
    start_.setZero(d);
    root_.setZero(d);
    taken_.setZero(n);
    if (survey_ > 0) found_.setZero(n, max_roots);
    if (scheme_ == Scheme::implicit_lie_euler) newton_.resize(d);
    else newton_.resize(d, n);
    return Status::ok;
  } catch (const std::exception& e) {
    error = e.what();
    return Status::fatal;
  }
}

void GeodesicStepper::sphere_midpoint(ConstVec y0, ConstVec p, Vec yb) const noexcept {
  const int b = metric_->sphere_blocks();
  const int k = static_cast<int>(y0.size()) / b;
  for (int i = 0; i < b; ++i) {
    auto s = yb.segment(i * k, k);
    s = y0.segment(i * k, k) + p.segment(i * k, k);
    s /= s.norm();
  }
}

Status GeodesicStepper::equations(double t, double h, ConstVec y0, ConstVec xi, Vec r) noexcept {
  Status s = model_->space().act_exp(xi, y0, p_);
  if (s != Status::ok) return s;
  switch (scheme_) {
    case Scheme::implicit_lie_euler:
      s = model_->generator(t + h, p_, f_);
      r = xi - h * f_;
      return s;
    case Scheme::gie:
    case Scheme::gimp: {
      const double a = scheme_ == Scheme::gie ? h : 0.5 * h;
      s = model_->vector_field(t + a, p_, X_);
      if (s != Status::ok) return s;
      v_ = -a * X_;
      s = metric_->exp(p_, v_, q_);
      r = q_ - y0;
      return s;
    }
    case Scheme::sphmp:
      sphere_midpoint(y0, p_, q_);
      s = model_->vector_field(t + 0.5 * h, q_, X_);
      r = p_ - y0 - h * X_;
      return s;
    case Scheme::gee: break;
  }
  return Status::fatal;
}

Status GeodesicStepper::survey(double t, double h, ConstVec y0) noexcept {
  taken_ = p_;
  const int d = static_cast<int>(xi_.size());
  long total = 1;
  for (int i = 0; i < d; ++i) total *= survey_;
  int count = 0;
  bool taken_found = false;
  for (long k = 0; k < total; ++k) {
    long rest = k;
    for (int i = 0; i < d; ++i) {
      const long j = rest % survey_;
      rest /= survey_;
      start_[i] = survey_ == 1 ? 0.0 : -radius_ + 2.0 * radius_ * static_cast<double>(j) / (survey_ - 1);
    }
    const NewtonResult r = newton_.solve(start_, [&](ConstVec xi, Vec res) { return equations(t, h, y0, xi, res); });
    if (r.status != Status::ok) continue;
    if (model_->space().act_exp(start_, y0, p_) != Status::ok) continue;
    bool known = false;
    for (int j = 0; j < count && !known; ++j) known = (found_.col(j) - p_).norm() <= 1e-8 * (1.0 + p_.norm());
    if (known || count == max_roots) continue;
    found_.col(count++) = p_;
    taken_found = taken_found || (taken_ - p_).norm() <= 1e-8 * (1.0 + p_.norm());
  }
  roots_ = count + (taken_found ? 0 : 1);  // the taken root counts even where no grid start reached it
  p_ = taken_;
  return Status::ok;
}

Status GeodesicStepper::step(double t, double h, ConstVec y, Vec y_new, Vec err) noexcept {
  (void)err;
  Status s;
  if (scheme_ == Scheme::gee) {
    if ((s = model_->vector_field(t, y, X_)) != Status::ok) return s;
    v_ = h * X_;
    return metric_->exp(y, v_, y_new);
  }
  // The explicit guess: the algebra element of one Lie–Euler step (half a step for GIMP's yb).
  const double part = scheme_ == Scheme::gimp ? 0.5 : 1.0;
  if ((s = model_->generator(t, y, f_)) != Status::ok) return s;
  iterations_ = 0;
  // Continuation in the step size: solve at lambda h for lambda = dl, 2 dl, ... up to 1, each
  // from the last root scaled to the new lambda (the root is about proportional to h); a failed
  // solve is retried with a quarter of the increment.
  // The first increment moves by at most 0.5 in g (|part h f(y0)| / K <= 0.5), so that a large
  // step follows its root from small steps instead of trusting a distant guess.
  const double min_increment = 1e-6, max_move = 0.5;
  const double moves = std::ceil(part * h * f_.norm() / max_move);
  double lambda = 0.0, dl = 1.0 / std::max(static_cast<double>(substeps_), std::min(moves, 1e6));
  while (lambda < 1.0) {
    const double next = std::min(1.0, lambda + dl);
    if (lambda == 0.0) xi_ = (part * next * h) * f_;
    else xi_ = root_ * (next / lambda);
    const NewtonResult r = newton_.solve(xi_, [&](ConstVec xi, Vec res) { return equations(t, next * h, y, xi, res); });
    iterations_ += r.iterations;
    s = account_for(r, *model_, error_, [&] {
      return fmt::format("the {} equations did not converge in Newton's method (residual {:.3g} after {} iterations) even when "
                         "continued from {:.6g} h in increments of {:.1e} h; reduce the step size",
                         name_of(scheme_), r.residual, r.iterations, lambda, dl);
    });
    if (s == Status::ok) {
      root_ = xi_;
      lambda = next;
      residual_ = r.residual;
      continue;
    }
    if (s == Status::fatal) return s;
    dl *= 0.25;
    if (dl < min_increment) return Status::recoverable;  // error_ says so
  }
  xi_ = root_;
  if ((s = model_->space().act_exp(xi_, y, p_)) != Status::ok) return s;
  if (survey_ > 0 && (s = survey(t, h, y)) != Status::ok) return s;
  if (scheme_ != Scheme::gimp) {
    y_new = p_;
    return Status::ok;
  }
  if ((s = model_->vector_field(t + 0.5 * h, p_, X_)) != Status::ok) return s;
  v_ = (0.5 * h) * X_;
  return metric_->exp(p_, v_, y_new);
}

}  // namespace liesim::geodesic
