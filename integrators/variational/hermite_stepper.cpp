// Hermite one-step variational and Galerkin methods.
#include "hermite_stepper.hpp"
#include "vi_stepper.hpp"

#include <fmt/format.h>

#include <cmath>
#include <numbers>

namespace liesim::variational {

void gauss_legendre(int points, std::vector<double>& nodes, std::vector<double>& weights) {
  nodes.assign(points, 0.0);
  weights.assign(points, 0.0);
  for (int i = 0; i < points; ++i) {
    // Newton's method on P_n from the Chebyshev-like guess cos(pi (i + 3/4) / (n + 1/2)).
    double x = std::cos(std::numbers::pi * (i + 0.75) / (points + 0.5)), dp = 0.0;
    for (int it = 0; it < 100; ++it) {
      double p0 = 1.0, p1 = x;
      for (int k = 2; k <= points; ++k) {
        const double p2 = ((2 * k - 1) * x * p1 - (k - 1) * p0) / k;
        p0 = p1;
        p1 = p2;
      }
      dp = points * (x * p1 - p0) / (x * x - 1);
      const double dx = p1 / dp;
      x -= dx;
      if (std::abs(dx) < 1e-16) break;
    }
    // On [0, 1]: node (1 - x)/2 (ascending), weight 1/((1 - x^2) P_n'(x)^2) (half the [-1, 1] weight).
    nodes[i] = 0.5 * (1 - x);
    weights[i] = 1.0 / ((1 - x * x) * dp * dp);
  }
}

HermiteStepper::HermiteStepper(HermiteKind kind, int points, double newton_tol, int max_iters) : kind_(kind) {
  gauss_legendre(points, nodes_, weights_);
  newton_.configure(newton_tol, max_iters);
}

Status HermiteStepper::init(ModelView& model, std::string& error) noexcept {
  try {
    mech_ = mechanics_of(model, "a Hermite variational or Galerkin method", error);
    if (!mech_) return Status::fatal;
    model_ = &model;
    m_ = mech_->dof();
    mass_.resize(m_, m_);
    mech_->mass_matrix(mass_);
    newton_.resize(2 * m_);
    z_.resize(2 * m_);
    for (auto* v : {&q_, &qd_, &qdd_, &grad_, &f_, &mv_}) v->resize(m_);
    return Status::ok;
  } catch (const std::exception& e) {
    error = e.what();
    return Status::fatal;
  }
}

Status HermiteStepper::equations(double t, double h, ConstVec y, ConstVec z, Vec r) noexcept {
  const auto q0 = y.head(m_), v0 = y.tail(m_), q1 = z.head(m_), v1 = z.tail(m_);
  r.setZero();
  for (std::size_t i = 0; i < nodes_.size(); ++i) {
    const double s = nodes_[i], w = h * weights_[i], s2 = s * s, s3 = s2 * s;
    // Shape functions (4.6), their time derivatives and second derivatives.
    const double N1 = 2 * s3 - 3 * s2 + 1, N2 = h * (s3 - 2 * s2 + s), N3 = -2 * s3 + 3 * s2, N4 = h * (s3 - s2);
    const double D1 = (6 * s2 - 6 * s) / h, D2 = 3 * s2 - 4 * s + 1, D3 = -D1, D4 = 3 * s2 - 2 * s;
    const double A1 = (12 * s - 6) / (h * h), A2 = (6 * s - 4) / h, A3 = -A1, A4 = (6 * s - 2) / h;
    q_ = N1 * q0 + N2 * v0 + N3 * q1 + N4 * v1;
    qd_ = D1 * q0 + D2 * v0 + D3 * q1 + D4 * v1;
    double U = 0.0, dU_dt = 0.0;
    Status st = mech_->potential(t + s * h, q_, U, grad_, dU_dt);
    if (st != Status::ok) return st;
    st = mech_->force(t + s * h, q_, qd_, f_);
    if (st != Status::ok) return st;
    if (kind_ == HermiteKind::variational) {
      // dL/dq = -dU/dq, dL/dq' = M q'; d q/d v0 = N2, d q'/d v0 = D2 (and N4, D4 for v1).
      mv_.noalias() = mass_ * qd_;
      r.head(m_) += w * (D2 * mv_ + N2 * (f_ - grad_));
      r.tail(m_) += w * (D4 * mv_ + N4 * (f_ - grad_));
    } else {
      qdd_ = A1 * q0 + A2 * v0 + A3 * q1 + A4 * v1;
      mv_.noalias() = mass_ * qdd_;
      mv_ += grad_ - f_;
      r.head(m_) += w * mv_;
      r.tail(m_) += (w * (2 * s - 1)) * mv_;
    }
  }
  return Status::ok;
}

Status HermiteStepper::step(double t, double h, ConstVec y, Vec y_new, Vec err) noexcept {
  (void)err;
  z_.head(m_) = y.head(m_) + h * y.tail(m_);
  z_.tail(m_) = y.tail(m_);
  const NewtonResult r = newton_.solve(z_, [&](ConstVec z, Vec res) { return equations(t, h, y, z, res); });
  if (const Status s = account_for(r, *model_, error_, [&] {
        return fmt::format("the step equations did not converge in Newton's method (residual {:.3g})", r.residual);
      });
      s != Status::ok)
    return s;
  residual_ = r.residual;
  y_new = z_;
  return Status::ok;
}

}  // namespace liesim::variational
