// Lie group variational integrators on SO(3) and SO(3) x R^3: fixed step and adaptive.
#include "lgvi.hpp"

#include <fmt/format.h>

#include <cmath>

namespace liesim::variational {

bool LgviCore::init(ModelView& model, const char* method, std::string& error) {
  rb_ = model.rigid_body();
  if (!rb_) {
    error = fmt::format("{} needs a model with a rigid-body description (attitude R in SO(3), inertia J, potential and its "
                        "moment); `liesim describe MODEL` says whether a model has one (rigid_pendulum and heavy_top with "
                        "formulation=tso3 do)",
                        method);
    return false;
  }
  model_ = &model;
  translation_ = rb_->translation() == 3;
  M_ = Eigen::Matrix3d::Identity();
  rb_->inertia(J_, M_);
  Minv_ = M_.inverse();
  return true;
}

void LgviCore::to_discrete(ConstVec y, RigidState& s) const noexcept {
  Eigen::Vector3d Omega, v;
  rb_->from_state(y, s.R, s.x, Omega, v);
  s.Pi = J_ * Omega;
  s.gamma = translation_ ? Eigen::Vector3d(s.R * (M_ * v)) : Eigen::Vector3d::Zero();
}

void LgviCore::to_model(const RigidState& s, Vec y) const noexcept {
  const Eigen::Vector3d Omega = J_.ldlt().solve(s.Pi);
  const Eigen::Vector3d v = translation_ ? Eigen::Vector3d(Minv_ * (s.R.transpose() * s.gamma)) : Eigen::Vector3d::Zero();
  rb_->to_state(s.R, s.x, Omega, v, y);
}

Status LgviCore::prepare(double t, const RigidState& s) noexcept {
  const Status st = rb_->potential(t, s.R, s.x, U_, moment_, dUx_);
  if (!translation_) dUx_.setZero();
  return st;
}

Status LgviCore::step(double t, double h, const RigidState& s) noexcept {
  v_ = translation_ ? Eigen::Vector3d(Minv_ * (s.R.transpose() * s.gamma - 0.5 * h * (s.R.transpose() * dUx_)))
                    : Eigen::Vector3d::Zero();
  const Eigen::Vector3d Mv = M_ * v_;
  const Eigen::Vector3d coupling = translation_ ? Eigen::Vector3d(Mv.cross(v_)) : Eigen::Vector3d::Zero();
  const Eigen::Vector3d g = h * s.Pi + 0.5 * h * h * moment_ + h * h * coupling;
  const lie::CayleySolve c = lie::solve_cayley(J_, g);
  iterations_ = c.iterations;
  model_->counters().newton_iters += c.iterations;
  if (!c.converged) {
    ++model_->counters().newton_fails;
    return Status::recoverable;
  }
  f_ = c.f;
  next_.R = s.R * lie::cayley(f_);
  next_.x = s.x + h * (s.R * v_);
  const Status st = rb_->potential(t + h, next_.R, next_.x, U1_, moment1_, dUx1_);
  if (st != Status::ok) return st;
  if (!translation_) dUx1_.setZero();
  rescale(h, s);
  return Status::ok;
}

void LgviCore::rescale(double h, const RigidState& s) noexcept {
  const Eigen::Vector3d Mv = M_ * v_;
  const Eigen::Vector3d coupling = translation_ ? Eigen::Vector3d(Mv.cross(v_)) : Eigen::Vector3d::Zero();
  const Eigen::Vector3d g = h * s.Pi + 0.5 * h * h * moment_ + h * h * coupling;
  residual_ = lie::cayley_residual(J_, g, f_).lpNorm<Eigen::Infinity>();
  const Eigen::Matrix3d F = lie::cayley(f_);
  next_.Pi = F.transpose() * (s.Pi + 0.5 * h * moment_ + h * coupling) + 0.5 * h * moment1_;
  next_.gamma = translation_ ? Eigen::Vector3d(s.R * Mv - 0.5 * h * dUx1_) : Eigen::Vector3d::Zero();
  trace_ = lie::cayley_kinetic(J_, f_);
  other_ = 0.5 * v_.dot(Mv) + 0.5 * (U_ + U1_);
  energy_ = trace_ / (h * h) + other_;
}

Status LgviStepper::init(ModelView& model, std::string& error) noexcept {
  model_ = &model;
  last_out_.resize(model.size());
  saved_out_.resize(model.size());
  have_last_ = false;
  return core_.init(model, "lgvi", error) ? Status::ok : Status::fatal;
}

Status LgviStepper::step(double t, double h, ConstVec y, Vec y_new, Vec err) noexcept {
  (void)err;
  if (have_last_ && (y.array() == last_out_.array()).all()) s_ = core_.next();
  else core_.to_discrete(y, s_);
  Status st = core_.prepare(t, s_);
  if (st == Status::ok) st = core_.step(t, h, s_);
  if (st != Status::ok) {
    error_ = st == Status::recoverable ? "the Cayley equation F J_d - J_d F^T = hat(g) did not converge in Newton's method (for this "
                                         "angular momentum the step may have no solution: reduce h)"
                                       : model_->last_error();
    return st;
  }
  core_.to_model(core_.next(), y_new);
  last_out_ = y_new;
  have_last_ = true;
  return Status::ok;
}

Status LgviStepper::interpolate(double t, double h, ConstVec y, ConstVec y_new, double theta, Vec out, Vec work) noexcept {
  (void)y_new;
  saved_core_ = core_;
  saved_out_ = last_out_;
  const bool had_last = have_last_;
  have_last_ = false;  // from the model state y, not from the carried discrete state (that of y_new)
  const Status s = step(t, theta * h, y, out, work);
  core_ = saved_core_;
  last_out_ = saved_out_;
  have_last_ = had_last;
  return s;
}

Status LgviAdaptiveSolver::init(ModelView& model, double t0, ConstVec y0, const SolverTolerances& tol, std::string& error) noexcept {
  if (!(tol.fixed_step > 0)) {
    error = "lgvi_adaptive takes --step H0, the size of its first step (the discrete energy equation chooses the others), "
            "not tolerances";
    return Status::fatal;
  }
  model_ = &model;
  if (!core_.init(model, "lgvi_adaptive", error)) return Status::fatal;
  core_.to_discrete(y0, s_);
  prev_ = s_;
  y_prev_ = y0;
  y_ = y0;
  t_ = t_prev_ = t0;
  start_at(t0);
  h_ = tol.fixed_step;
  energy_ = residual_p_ = residual_e_ = std::numeric_limits<double>::quiet_NaN();
  steps_ = 0;
  return Status::ok;
}

Status LgviAdaptiveSolver::fail(const char* why) noexcept {
  try {
    error_ = fmt::format("lgvi_adaptive stopped at t = {} after {} steps: {} (last step h = {}, discrete energy E = {}). The "
                         "energy equation need not have a positive root (Sharma 2020 §5.4; the exact variant's h drifts and can "
                         "lose it); the output up to this time is kept. solve=sequential, or the fixed-step lgvi, may get through",
                         t_, steps_, why, h_, target_);
  } catch (...) {
  }
  ++model_->counters().newton_fails;
  return Status::fatal;
}

Status LgviAdaptiveSolver::take_step() noexcept {
  if (steps_ >= max_steps_) {
    error_ = fmt::format("lgvi_adaptive reached max_steps = {} at t = {} (step size {}); raise the option max_steps", max_steps_, t_, h_);
    return Status::fatal;
  }
  Status st = core_.prepare(t_, s_);
  if (st != Status::ok) return st;
  const auto solve_at = [&](double h) {
    const Status s = core_.step(t_, h, s_);
    return s;
  };
  if (steps_ == 0) {
    // The first step, of size h0, defines the discrete energy every later step keeps.
    if (solve_at(h_) != Status::ok) return fail("the first step's Cayley equation did not converge");
    target_ = core_.energy();
    residual_e_ = 0.0;
  } else if (sequential_) {
    for (int pass = 0; pass < passes_; ++pass) {
      if (solve_at(h_) != Status::ok) return fail("the Cayley equation did not converge");
      const double rest = target_ - core_.other_energy();
      if (!(rest > 0) || !(core_.rotational_action() > 0)) return fail("the energy equation has no positive root h");
      h_ = std::sqrt(core_.rotational_action() / rest);
    }
    core_.rescale(h_, s_);
    residual_e_ = std::abs(core_.energy() - target_);
  } else {
    // Secant iterations on r(h) = E_d(h) - E, the Cayley equation solved exactly at every h.
    double h0 = h_, h1 = h_ * (1 + 1e-6);
    if (solve_at(h0) != Status::ok) return fail("the Cayley equation did not converge");
    double r0 = core_.energy() - target_;
    bool converged = false;
    for (int it = 0; it < 60 && !converged; ++it) {
      if (!(h1 > 0) || !std::isfinite(h1)) return fail("the energy equation has no positive root h near the last step");
      if (solve_at(h1) != Status::ok) return fail("the Cayley equation did not converge");
      const double r1 = core_.energy() - target_;
      ++model_->counters().newton_iters;
      if (std::abs(r1) <= 4 * std::numeric_limits<double>::epsilon() * std::abs(target_) || r1 == r0) {
        converged = std::abs(r1) <= 1e-12 * std::max(1.0, std::abs(target_));
        break;
      }
      const double h2 = h1 - r1 * (h1 - h0) / (r1 - r0);
      h0 = h1;
      r0 = r1;
      h1 = h2;
      if (std::abs(h1 - h0) <= 1e-15 * h0) {
        converged = true;
        if (solve_at(h1) != Status::ok) return fail("the Cayley equation did not converge");
      }
    }
    if (!converged) return fail("the energy equation has no positive root h near the last step");
    h_ = h1;
    residual_e_ = std::abs(core_.energy() - target_);
  }
  residual_p_ = core_.residual();
  if (!(h_ > 0) || !std::isfinite(h_)) return fail("the step size left (0, inf)");
  prev_ = s_;
  s_ = core_.next();
  y_prev_ = y_;
  core_.to_model(s_, y_);
  t_prev_ = t_;
  t_ += h_;
  // The carried E: kept by the exact solve; the sequential variant carries the last step's E_d.
  energy_ = core_.energy();
  if (sequential_) target_ = energy_;
  h_min_ = steps_ == 0 ? h_ : std::min(h_min_, h_);
  h_max_ = std::max(h_max_, h_);
  ++steps_;
  return Status::ok;
}

Status LgviAdaptiveSolver::step(double& t_new, Vec y_new) noexcept {
  const Status s = take_step();
  if (s != Status::ok) return s;
  if (!y_.allFinite()) return fail("the state became non-finite");
  y_new = y_;
  t_new = t_;
  return Status::ok;
}

Status LgviAdaptiveSolver::interpolate(double t_out, Vec y_out) noexcept {
  if (t_out >= t_ || t_ <= t_prev_) {
    y_out = y_;
    return Status::ok;
  }
  // Between steps: R along R_k Cay(s f) (on SO(3)); x, the spatial linear momentum gamma and the
  // spatial angular momentum about the origin R Pi + x x gamma linearly, so that every momentum
  // map of a spatial symmetry (e.g. the vertical angular momentum) keeps the value it has at both
  // steps.
  const double s = (t_out - t_prev_) / (t_ - t_prev_);
  const auto angular = [](const RigidState& r) -> Eigen::Vector3d { return r.R * r.Pi + r.x.cross(r.gamma); };
  RigidState mid;
  mid.R = prev_.R * lie::cayley(s * core_.f());
  mid.x = (1 - s) * prev_.x + s * s_.x;
  mid.gamma = (1 - s) * prev_.gamma + s * s_.gamma;
  mid.Pi = mid.R.transpose() * ((1 - s) * angular(prev_) + s * angular(s_) - mid.x.cross(mid.gamma));
  core_.to_model(mid, y_out);
  return Status::ok;
}

void LgviAdaptiveSolver::add_stats(Stats& stats) const noexcept {
  stats.steps += steps_;
  stats.h_min_used = h_min_;
  stats.h_max_used = h_max_;
}

}  // namespace liesim::variational
