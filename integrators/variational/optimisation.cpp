// Gradient descent, accelerated gradient descent and SAGD on SO(3) as integrators.
#include "optimisation.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace liesim::variational {

Status DescentStepper::init(ModelView& model, std::string& error) noexcept {
  model_ = &model;
  rb_ = model.rigid_body();
  if (!rb_ || rb_->translation() != 0) {
    error = "gd, agd and sagd need a model with a rigid-body description on SO(3) (a body with a fixed point, e.g. "
            "trace_function or rigid_pendulum)";
    return Status::fatal;
  }
  Eigen::Matrix3d M;
  rb_->inertia(J_, M);
  Jinv_ = J_.inverse();
  isotropic_ = (J_ - J_(0, 0) * Eigen::Matrix3d::Identity()).cwiseAbs().maxCoeff() <= 1e-15 * std::abs(J_(0, 0));
  // The damping D of a linear torque tau = -D Omega, read from the model's torque at unit velocities.
  Eigen::Matrix3d D;
  const RigidBodySystemView::RowMajor3 I = RigidBodySystemView::RowMajor3::Identity();
  const Eigen::Vector3d zero = Eigen::Vector3d::Zero();
  Eigen::Vector3d tau0, tau, force;
  if (rb_->forces(0.0, I, zero, zero, zero, tau0, force) != Status::ok) {
    error = "the model's forces failed";
    return Status::fatal;
  }
  for (int k = 0; k < 3; ++k) {
    (void)rb_->forces(0.0, I, zero, Eigen::Vector3d::Unit(k), zero, tau, force);
    D.col(k) = -(tau - tau0);
  }
  if (kind_ == Descent::gd) {
    const Eigen::FullPivLU<Eigen::Matrix3d> lu(D);
    if (!lu.isInvertible()) {
      error = "gd is the overdamped limit Omega = D^-1 M(R) of a damped rigid-body description: the model's damping torque "
              "-D Omega must have an invertible D (trace_function with gamma > 0)";
      return Status::fatal;
    }
    Dinv_ = lu.inverse();
  }
  return Status::ok;
}

Status DescentStepper::step(double t, double h, ConstVec y, Vec y_new, Vec err) noexcept {
  (void)err;
  RigidBodySystemView::RowMajor3 R;
  Eigen::Vector3d x, Omega, v, moment, dUx, tau, force;
  double U = 0.0;
  rb_->from_state(y, R, x, Omega, v);
  Status st = rb_->potential(t, R, x, U, moment, dUx);
  if (st == Status::ok) st = rb_->forces(t, R, x, Omega, v, tau, force);
  if (st != Status::ok) {
    error_ = model_->last_error();
    return st;
  }
  clamped_ = false;
  RigidBodySystemView::RowMajor3 R1;
  Eigen::Vector3d Omega1;
  switch (kind_) {
    case Descent::gd: {
      R1 = R * lie::SO3::exp(h * (Dinv_ * moment));
      st = rb_->potential(t + h, R1, x, U, moment, dUx);
      Omega1 = Dinv_ * moment;  // the overdamped velocity at R1
      break;
    }
    case Descent::agd: {
      const Eigen::Vector3d Pi = J_ * Omega;
      const Eigen::Vector3d Pi1 = Pi + h * (Pi.cross(Omega) + moment + tau);
      Omega1 = Jinv_ * Pi1;
      R1 = R * lie::SO3::exp(h * Omega1);
      break;
    }
    case Descent::sagd: {
      const Eigen::Vector3d Pi = J_ * Omega;
      const Eigen::Vector3d p = Pi + h * tau;
      const Eigen::Vector3d g = h * p;
      Eigen::Matrix3d F;
      if (isotropic_) {
        const double j = J_(0, 0), s = g.norm() / j;
        clamped_ = s > 1;
        F = s > 0 ? lie::SO3::exp((std::asin(std::min(1.0, s)) / g.norm()) * g) : Eigen::Matrix3d::Identity();
      } else {
        const lie::CayleySolve c = lie::solve_cayley(J_, g);
        model_->counters().newton_iters += c.iterations;
        if (!c.converged) {
          ++model_->counters().newton_fails;
          error_ = "sagd: the equation h (Pi + h tau)^ = F J_d - J_d F^T has no solution for this step (reduce h)";
          return Status::recoverable;
        }
        F = lie::cayley(c.f);
      }
      R1 = R * F;
      st = rb_->potential(t + h, R1, x, U, moment, dUx);
      Omega1 = Jinv_ * (F.transpose() * p + h * moment);
      break;
    }
  }
  if (st != Status::ok) {
    error_ = model_->last_error();
    return st;
  }
  rb_->to_state(R1, x, Omega1, v, y_new);
  return Status::ok;
}

}  // namespace liesim::variational
