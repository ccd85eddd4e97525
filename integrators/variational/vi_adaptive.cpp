// Adaptive energy-preserving variational integrator (time as a configuration variable).
#include "vi_adaptive.hpp"
#include "vi_stepper.hpp"

#include <fmt/format.h>

#include <cmath>

namespace liesim::variational {

Status ViAdaptiveSolver::init(ModelView& model, double t0, ConstVec y0, const SolverTolerances& tol, std::string& error) noexcept {
  try {
    if (!(tol.fixed_step > 0)) {
      error = "vi_adaptive takes --step H0, the size of its first step (the discrete energy equation chooses the others), "
              "not tolerances";
      return Status::fatal;
    }
    const MechanicalSystemView* mech = mechanics_of(model, "vi_adaptive", error);
    if (!mech) return Status::fatal;
    model_ = &model;
    ld_.init(*mech, rule_);
    m_ = ld_.dof();
    joint_.resize(m_ + 1);
    momentum_.resize(m_);
    scalar_.resize(1);
    for (auto* v : {&q_, &p_, &q_prev_, &w_prev_, &w_, &dq_, &v_}) v->resize(m_);
    z_.resize(m_ + 1);
    hv_.resize(1);
    t_ = t_prev_ = t0;
    start_at(t0);
    h0_ = h_ = tol.fixed_step;
    q_ = q_prev_ = y0.head(m_);
    w_ = w_prev_ = y0.tail(m_);
    p_.noalias() = ld_.mass() * w_;
    v_ = w_;
    energy_ = residual_p_ = residual_e_ = condition_ = std::numeric_limits<double>::quiet_NaN();
    steps_ = 0;
    return Status::ok;
  } catch (const std::exception& e) {
    error = e.what();
    return Status::fatal;
  }
}

Status ViAdaptiveSolver::fail_no_root(const char* why, const NewtonResult& newton) noexcept {
  try {
    error_ = fmt::format(
        "vi_adaptive stopped at t = {} after {} steps: {} (last step h = {}, discrete energy E = {}; Newton: {} iterations, "
        "residual {:.3g}). The extended discrete Euler–Lagrange equations need not have a solution with h > 0 (Sharma 2020 "
        "§3.1, §8; Shibberu); the output up to this time is kept. A different h0, or the fixed-step vi_midpoint, may get through",
        t_, steps_, why, h_, energy_, newton.iterations, newton.residual);
  } catch (...) {
  }
  ++model_->counters().newton_fails;
  return Status::fatal;
}

Status ViAdaptiveSolver::take_step() noexcept {
  if (steps_ >= max_steps_) {
    error_ = fmt::format("vi_adaptive reached max_steps = {} at t = {} (step size {}); raise the option max_steps", max_steps_, t_, h_);
    return Status::fatal;
  }
  Counters& c = model_->counters();
  const auto momentum = [&](double h, ConstVec v, Vec res) {
    const Status s = ld_.evaluate(t_, q_, h, v);
    res = ld_.momentum_k() - p_;
    return s;
  };
  // The momentum equation for v at the current h: the first step (size h0, which defines the
  // discrete energy E_1 that the others keep), the predictor of the joint solve, and the first
  // half of each sequential pass.
  const auto solve_momentum = [&](const char* what) {
    const NewtonResult r = momentum_.solve(v_, [&](ConstVec v, Vec res) { return momentum(h_, v, res); });
    c.newton_iters += r.iterations;
    return r.status == Status::ok ? Status::ok : fail_no_root(what, r);
  };
  if (steps_ == 0) {
    if (solve_momentum("the first step's momentum equation did not converge") != Status::ok) return Status::fatal;
  } else if (solve_ == AdaptiveSolve::converged) {
    // Predictor: v for the last step size (near a turning point the last v is a poor guess).
    if (solve_momentum("the momentum equation did not converge") != Status::ok) return Status::fatal;
    z_[0] = h_;
    z_.tail(m_) = v_;
    const NewtonResult r = joint_.solve(
        z_,
        [&](ConstVec z, Vec res) {
          const Status s = ld_.evaluate(t_, q_, z[0], z.tail(m_));
          res.head(m_) = ld_.momentum_k() - p_;
          res[m_] = ld_.energy_k() - energy_;
          return s;
        },
        [](const auto& z) { return z[0] > 0; });
    c.newton_iters += r.iterations;
    condition_ = r.condition;
    if (r.status == Status::fatal) return Status::fatal;
    if (r.status != Status::ok || !(z_[0] > 0)) return fail_no_root("the discrete energy equation has no positive root h near the last step", r);
    h_ = z_[0];
    v_ = z_.tail(m_);
  } else {
    for (int pass = 0; pass < passes_; ++pass) {
      if (solve_momentum("the momentum equation did not converge") != Status::ok) return Status::fatal;
      dq_ = h_ * v_;
      hv_[0] = h_;
      const NewtonResult r = scalar_.solve(
          hv_,
          [&](ConstVec h, Vec res) {
            v_ = dq_ / h[0];
            const Status s = ld_.evaluate(t_, q_, h[0], v_);
            res[0] = ld_.energy_k() - energy_;
            return s;
          },
          [](const auto& h) { return h[0] > 0; });
      c.newton_iters += r.iterations;
      if (r.status != Status::ok || !(hv_[0] > 0)) return fail_no_root("the discrete energy equation has no positive root h near the last step", r);
      h_ = hv_[0];
      v_ = dq_ / h_;
    }
  }
  if (!(h_ > 0) || !std::isfinite(h_) || !v_.allFinite()) return fail_no_root("the step size left (0, inf)");
  const Status s = ld_.evaluate(t_, q_, h_, v_);
  if (s != Status::ok) {
    error_ = model_->last_error();
    return s;
  }
  residual_p_ = (ld_.momentum_k() - p_).lpNorm<Eigen::Infinity>();
  residual_e_ = steps_ == 0 ? 0.0 : std::abs(ld_.energy_k() - energy_);
  q_prev_ = q_;
  w_prev_ = w_;
  t_prev_ = t_;
  q_ += h_ * v_;
  t_ += h_;
  p_ = ld_.momentum_k1();
  w_ = ld_.mass_llt().solve(p_);
  energy_ = ld_.energy_k1();
  h_min_ = steps_ == 0 ? h_ : std::min(h_min_, h_);
  h_max_ = std::max(h_max_, h_);
  ++steps_;
  return Status::ok;
}

Status ViAdaptiveSolver::step(double& t_new, Vec y_new) noexcept {
  const Status s = take_step();
  if (s != Status::ok) return s;
  if (!q_.allFinite() || !w_.allFinite()) return fail_no_root("the state became non-finite");
  y_new.head(m_) = q_;
  y_new.tail(m_) = w_;
  t_new = t_;
  return Status::ok;
}

Status ViAdaptiveSolver::interpolate(double t_out, Vec y_out) noexcept {
  // Inside [t_prev, t]: q by cubic Hermite interpolation, v linearly.
  const double dt = t_ - t_prev_;
  if (dt <= 0 || t_out >= t_) {
    y_out.head(m_) = q_;
    y_out.tail(m_) = w_;
    return Status::ok;
  }
  const double s = (t_out - t_prev_) / dt, s2 = s * s, s3 = s2 * s;
  const double h00 = 2 * s3 - 3 * s2 + 1, h10 = s3 - 2 * s2 + s, h01 = -2 * s3 + 3 * s2, h11 = s3 - s2;
  y_out.head(m_) = h00 * q_prev_ + (h10 * dt) * w_prev_ + h01 * q_ + (h11 * dt) * w_;
  y_out.tail(m_) = (1 - s) * w_prev_ + s * w_;
  return Status::ok;
}

void ViAdaptiveSolver::add_stats(Stats& stats) const noexcept {
  stats.steps += steps_;
  stats.h_min_used = h_min_;
  stats.h_max_used = h_max_;
}

}  // namespace liesim::variational
