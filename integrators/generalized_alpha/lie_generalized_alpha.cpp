// The Lie group generalized-alpha method: see lie_generalized_alpha.hpp.
#include "lie_generalized_alpha.hpp"

#include <liesim/lie/so3.hpp>

#include <fmt/format.h>

#include <cmath>

namespace liesim::generalized_alpha {

LieGeneralizedAlpha::LieGeneralizedAlpha(double rho, double newton_tol, int max_iters) {
  alpha_m_ = (2.0 * rho - 1.0) / (rho + 1.0);
  alpha_f_ = rho / (rho + 1.0);
  gamma_ = 0.5 + alpha_f_ - alpha_m_;
  beta_ = 0.25 * (gamma_ + 0.5) * (gamma_ + 0.5);
  newton_.configure(newton_tol, max_iters);
}

Status LieGeneralizedAlpha::init(ModelView& model, std::string& error) noexcept {
  try {
    rb_ = model.rigid_body();
    if (!rb_ || rb_->translation() != 0) {
      error = "lie_generalized_alpha needs a model with a rigid-body description on SO(3) (a body turning about a fixed point; "
              "`liesim describe MODEL` lists it among the capabilities: rotating_ball, heavy_top, rigid_pendulum)";
      return Status::fatal;
    }
    model_ = &model;
    Eigen::Matrix3d M;
    rb_->inertia(J_, M);
    Jinv_ = J_.inverse();
    z_.setZero(3);
    last_y_.setZero(model.size());
    newton_.resize(3);
    have_memory_ = false;
    return Status::ok;
  } catch (const std::exception& e) {
    error = e.what();
    return Status::fatal;
  }
}

Status LieGeneralizedAlpha::acceleration(double t, const RowMajor3& R, const Eigen::Vector3d& w, Eigen::Vector3d& wdot) noexcept {
  double U = 0.0;
  Eigen::Vector3d moment, dUx, torque, force;
  const Eigen::Vector3d zero = Eigen::Vector3d::Zero();
  Status s = rb_->potential(t, R, zero, U, moment, dUx);
  if (s == Status::ok) s = rb_->forces(t, R, zero, w, zero, torque, force);
  if (s != Status::ok) return s;
  wdot = Jinv_ * (moment + torque - w.cross(J_ * w));
  return Status::ok;
}

void LieGeneralizedAlpha::advance(double h, const Eigen::Vector3d& wdot1) noexcept {
  a1_ = ((1.0 - alpha_f_) * wdot1 + alpha_f_ * wdot0_ - alpha_m_ * a0_) / (1.0 - alpha_m_);
  hdq_ = h * (w0_ + ((0.5 - beta_) * h) * a0_ + (beta_ * h) * a1_);
  R1_ = R0_ * lie::SO3::exp(hdq_);
  w1_ = w0_ + ((1.0 - gamma_) * h) * a0_ + (gamma_ * h) * a1_;
}

Status LieGeneralizedAlpha::step(double t, double h, ConstVec y, Vec y_new, Vec err) noexcept {
  (void)err;
  rb_->from_state(y, R0_, x_, w0_, v_);
  // The method carries w' and a from step to step; a run that does not continue the last step
  // (the first step, or another starting point) starts with a_0 = w'_0.
  const bool continues = have_memory_ && std::abs(t - last_t_) <= 1e-12 * (1.0 + std::abs(t)) && y == last_y_;
  if (!continues) {
    if (Status s = acceleration(t, R0_, w0_, wdot0_); s != Status::ok) {
      error_ = model_->last_error();
      return s;
    }
    a0_ = wdot0_;
  }
  z_ = wdot0_;
  wdot_start_ = wdot0_;
  const NewtonResult r = newton_.solve(z_, [&](ConstVec z, Vec res) {
    const Eigen::Vector3d wdot1 = z;
    advance(h, wdot1);
    const Status s = acceleration(t + h, R1_, w1_, acc_);
    res = wdot1 - acc_;
    return s;
  });
  iterations_ = r.iterations;
  if (const Status s = account_for(r, *model_, error_, [&] {
        return fmt::format("the generalized-alpha equations did not converge in Newton's method (residual {:.3g} after {} iterations); "
                           "reduce the step size",
                           r.residual, r.iterations);
      });
      s != Status::ok)
    return s;
  residual_ = r.residual;
  const Eigen::Vector3d wdot1 = z_;
  advance(h, wdot1);
  wdot0_ = wdot1;
  a0_ = a1_;
  rb_->to_state(R1_, x_, w1_, v_, y_new);
  last_y_ = y_new;
  last_t_ = t + h;
  have_memory_ = true;
  return Status::ok;
}

Status LieGeneralizedAlpha::interpolate(double t, double h, ConstVec y, ConstVec y_new, double theta, Vec out, Vec work) noexcept {
  (void)t;
  (void)work;
  rb_->from_state(y_new, R1_, x_, w1_, v_);
  rb_->from_state(y, R0_, x_, w0_, v_);
  const Eigen::Vector3d xi = (theta * h) * w0_ + (theta * theta) * (hdq_ - h * w0_);
  const Eigen::Vector3d w = w0_ + (theta * h) * wdot_start_ + (theta * theta) * (w1_ - w0_ - h * wdot_start_);
  rb_->to_state(R0_ * lie::SO3::exp(xi), x_, w, v_, out);
  return Status::ok;
}

}  // namespace liesim::generalized_alpha
