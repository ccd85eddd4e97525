// Galerkin variational integrator (polynomial trajectory through equally spaced control points).
#include "galerkin_vi.hpp"
#include "discrete_lagrangian.hpp"
#include "hermite_stepper.hpp"
#include "vi_stepper.hpp"

#include <liesim/sdk/status.hpp>

#include <fmt/format.h>

namespace liesim::variational {

GalerkinViStepper::GalerkinViStepper(int degree, int points, double newton_tol, int max_iters) : degree_(degree) {
  if (degree < 1) throw Error(fmt::format("the trajectory's degree must be at least 1 (got {})", degree));
  if (points < degree)
    throw Error(fmt::format("quadrature = {} Gauss points make the discrete Lagrangian of a degree-{} trajectory degenerate (its "
                            "stationarity equations no longer determine the control points): use quadrature >= {}",
                            points, degree, degree));
  gauss_legendre(points, nodes_, weights_);
  // Lagrange basis of the control points s_j = j/d and its derivative, at the quadrature nodes.
  const int n = static_cast<int>(nodes_.size());
  phi_.resize(n, degree + 1);
  dphi_.resize(n, degree + 1);
  const auto node = [degree](int j) { return static_cast<double>(j) / degree; };
  for (int i = 0; i < n; ++i) {
    const double s = nodes_[static_cast<std::size_t>(i)];
    for (int j = 0; j <= degree; ++j) {
      double value = 1.0, slope = 0.0;
      for (int l = 0; l <= degree; ++l) {
        if (l == j) continue;
        double term = 1.0 / (node(j) - node(l));
        for (int k = 0; k <= degree; ++k)
          if (k != j && k != l) term *= (s - node(k)) / (node(j) - node(k));
        slope += term;
        value *= (s - node(l)) / (node(j) - node(l));
      }
      phi_(i, j) = value;
      dphi_(i, j) = slope;
    }
  }
  newton_.configure(newton_tol, max_iters);
}

Status GalerkinViStepper::init(ModelView& model, std::string& error) noexcept {
  try {
    mech_ = mechanics_of(model, "a Galerkin variational integrator", error);
    if (!mech_) return Status::fatal;
    model_ = &model;
    m_ = mech_->dof();
    factor_mass(*mech_, mass_, llt_);
    newton_.resize(static_cast<Eigen::Index>(degree_) * m_);
    z_.resize(static_cast<Eigen::Index>(degree_) * m_);
    res_.resize(z_.size());
    for (auto* v : {&p_, &p_end_, &q_, &qd_, &grad_, &f_, &mv_}) v->resize(m_);
    return Status::ok;
  } catch (const std::exception& e) {
    error = e.what();
    return Status::fatal;
  }
}

Status GalerkinViStepper::equations(double t, double h, ConstVec q0, ConstVec z, Vec r) noexcept {
  // Control point j: q0 for j = 0, else the unknowns' block j - 1.
  const auto point = [&](int j) -> Eigen::Ref<const Eigen::VectorXd> {
    if (j == 0) return q0;
    return z.segment(static_cast<Eigen::Index>(j - 1) * m_, m_);
  };
  // G_j = dL_d/dq_j + f_d^j: G_0 in r's first block, G_1 ... G_{d-1} in the next, G_d in p_end_.
  const auto G = [&](int j) -> Vec {
    if (j < degree_) return r.segment(static_cast<Eigen::Index>(j) * m_, m_);
    return p_end_;
  };
  r.setZero();
  p_end_.setZero();
  energy_ = 0.0;
  for (std::size_t i = 0; i < nodes_.size(); ++i) {
    const auto row = static_cast<Eigen::Index>(i);
    const double s = nodes_[i], w = weights_[i];
    q_.setZero();
    qd_.setZero();
    for (int j = 0; j <= degree_; ++j) {
      q_ += phi_(row, j) * point(j);
      qd_ += (dphi_(row, j) / h) * point(j);
    }
    double U = 0.0, dU_dt = 0.0;
    Status st = mech_->potential(t + s * h, q_, U, grad_, dU_dt);
    if (st != Status::ok) return st;
    st = mech_->force(t + s * h, q_, qd_, f_);
    if (st != Status::ok) return st;
    mv_.noalias() = mass_ * qd_;
    for (int j = 0; j <= degree_; ++j) G(j) += (w * dphi_(row, j)) * mv_ + (h * w * phi_(row, j)) * (f_ - grad_);
    energy_ += w * (0.5 * qd_.dot(mv_) + U) + h * w * s * (dU_dt + f_.dot(qd_));
  }
  auto r0 = r.head(m_);
  r0 = -r0 - p_;
  return Status::ok;
}

Status GalerkinViStepper::step(double t, double h, ConstVec y, Vec y_new, Vec err) noexcept {
  (void)err;
  const auto q0 = y.head(m_);
  p_.noalias() = mass_ * y.tail(m_);
  for (int j = 1; j <= degree_; ++j)
    z_.segment(static_cast<Eigen::Index>(j - 1) * m_, m_) = q0 + (h * j / degree_) * y.tail(m_);
  const NewtonResult r = newton_.solve(z_, [&](ConstVec z, Vec res) { return equations(t, h, q0, z, res); });
  if (const Status s = account_for(r, *model_, error_, [&] {
        return fmt::format("the step equations did not converge in Newton's method (residual {:.3g})", r.residual);
      });
      s != Status::ok)
    return s;
  residual_ = r.residual;
  // The accepted end point's p_{k+1} and energy (Newton's last evaluation may have been a trial point).
  if (const Status s = equations(t, h, q0, z_, res_); s != Status::ok) return s;
  y_new.head(m_) = z_.tail(m_);
  y_new.tail(m_) = llt_.solve(p_end_);
  return Status::ok;
}

}  // namespace liesim::variational
