// The method vi_adaptive: the adaptive energy-preserving variational integrator (vi_adaptive_core.hpp)
// as a solver the host steps, on a model's mechanical description.
#include "vi_adaptive.hpp"
#include "vi_stepper.hpp"

#include <fmt/format.h>

#include <algorithm>

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
    m_ = mech->dof();
    vi_.init(*mech, rule_, t0, y0.head(m_), y0.tail(m_), tol.fixed_step);
    start_at(t0);
    return Status::ok;
  } catch (const std::exception& e) {
    error = e.what();
    return Status::fatal;
  }
}

Status ViAdaptiveSolver::step(double& t_new, Vec y_new) noexcept {
  if (vi_.steps() >= max_steps_) {
    try {
      error_ = fmt::format("vi_adaptive reached max_steps = {} at t = {} (step size {}); raise the option max_steps", max_steps_, vi_.t(),
                           vi_.h());
    } catch (...) {
    }
    return Status::fatal;
  }
  Counters& c = model_->counters();
  const long iterations = vi_.newton_iterations();
  const Status s = vi_.step();
  c.newton_iters += vi_.newton_iterations() - iterations;
  if (s != Status::ok) {
    try {
      if (!vi_.why()) {
        error_ = model_->last_error();  // the model's mechanical description failed
        return s;
      }
      const NewtonResult& newton = vi_.failed_solve();
      error_ = fmt::format(
          "vi_adaptive stopped at t = {} after {} steps: {} (last step h = {}, discrete energy E = {}; Newton: {} iterations, "
          "residual {:.3g}). The extended discrete Euler–Lagrange equations need not have a solution with h > 0 (Sharma 2020 "
          "§3.1, §8; Shibberu); the output up to this time is kept. A different h0, or the fixed-step vi_midpoint, may get through",
          vi_.t(), vi_.steps(), vi_.why(), vi_.h(), vi_.energy(), newton.iterations, newton.residual);
    } catch (...) {
    }
    ++c.newton_fails;
    return Status::fatal;
  }
  h_min_ = vi_.steps() == 1 ? vi_.h() : std::min(h_min_, vi_.h());
  h_max_ = std::max(h_max_, vi_.h());
  y_new.head(m_) = vi_.q();
  y_new.tail(m_) = vi_.velocity();
  t_new = vi_.t();
  return Status::ok;
}

Status ViAdaptiveSolver::interpolate(double t_out, Vec y_out) noexcept {
  // Inside [t_prev, t]: q by cubic Hermite interpolation, v linearly.
  const double dt = vi_.t() - vi_.t_prev();
  if (dt <= 0 || t_out >= vi_.t()) {
    y_out.head(m_) = vi_.q();
    y_out.tail(m_) = vi_.velocity();
    return Status::ok;
  }
  const double s = (t_out - vi_.t_prev()) / dt, s2 = s * s, s3 = s2 * s;
  const double h00 = 2 * s3 - 3 * s2 + 1, h10 = s3 - 2 * s2 + s, h01 = -2 * s3 + 3 * s2, h11 = s3 - s2;
  y_out.head(m_) = h00 * vi_.q_prev() + (h10 * dt) * vi_.velocity_prev() + h01 * vi_.q() + (h11 * dt) * vi_.velocity();
  y_out.tail(m_) = (1 - s) * vi_.velocity_prev() + s * vi_.velocity();
  return Status::ok;
}

void ViAdaptiveSolver::add_stats(Stats& stats) const noexcept {
  stats.steps += vi_.steps();
  stats.h_min_used = h_min_;
  stats.h_max_used = h_max_;
}

}  // namespace liesim::variational
