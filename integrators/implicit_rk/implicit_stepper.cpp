// Newton solve of the implicit stage equations; workspaces allocated once in init().
#include "implicit_stepper.hpp"


namespace liesim::implicit_rk {

ImplicitRkStepper::ImplicitRkStepper(const ButcherTableau& tableau, bool lie_group, double newton_tol, int max_iters,
                                     JacobianSource jacobian)
    : tab_(tableau), lie_(lie_group), jacobian_(jacobian) {
  newton_.configure(newton_tol, max_iters, false, false);  // no polishing: one residual per iteration
}

Status ImplicitRkStepper::init(ModelView& model, std::string& error) noexcept {
  try {
    model_ = &model;
    m_ = lie_ ? model.space().algebra_dim() : model.size();
    model_jacobian_ = !lie_ && uses_model_jacobian(jacobian_, model);
    JF_.setZero(model_jacobian_ ? m_ : 0, model_jacobian_ ? m_ : 0);
    const int N = tab_.stages * m_;
    K_.setZero(N);
    newton_.resize(N);
    u_.setZero(m_);
    f_.setZero(m_);
    k_.setZero(m_);
    Y_.setZero(model.size());
    return Status::ok;
  } catch (const std::exception& e) {
    error = e.what();
    return Status::fatal;
  }
}

Status ImplicitRkStepper::residual(double t, double h, ConstVec y, ConstVec K, Vec G) noexcept {
  const HomogeneousSpaceView& space = model_->space();
  Status s = Status::ok;
  for (int i = 0; i < tab_.stages; ++i) {
    u_.setZero();
    for (int j = 0; j < tab_.stages; ++j)
      if (tab_.A[i][j] != 0.0) u_.noalias() += (h * tab_.A[i][j]) * K.segment(j * m_, m_);
    const double ti = t + tab_.c[i] * h;
    if (lie_) {
      if ((s = space.act_exp(u_, y, Y_)) != Status::ok) return s;
      if ((s = model_->generator(ti, Y_, f_)) != Status::ok) return s;
      if ((s = space.dexpinv(u_, f_, k_)) != Status::ok) return s;
    } else {
      Y_ = y + u_;
      if ((s = model_->vector_field(ti, Y_, k_)) != Status::ok) return s;
    }
    G.segment(i * m_, m_) = K.segment(i * m_, m_) - k_;
  }
  return Status::ok;
}

Status ImplicitRkStepper::stage_jacobian(double t, double h, ConstVec y, ConstVec K, MatRef J) noexcept {
  for (int i = 0; i < tab_.stages; ++i) {
    u_.setZero();
    for (int j = 0; j < tab_.stages; ++j)
      if (tab_.A[i][j] != 0.0) u_.noalias() += (h * tab_.A[i][j]) * K.segment(j * m_, m_);
    Y_ = y + u_;
    if (const Status s = model_->vector_field_jacobian(t + tab_.c[i] * h, Y_, JF_); s != Status::ok) return s;
    for (int j = 0; j < tab_.stages; ++j) {
      auto block = J.block(i * m_, j * m_, m_, m_);
      block = (-h * tab_.A[i][j]) * JF_;
      if (i == j) block.diagonal().array() += 1.0;
    }
  }
  return Status::ok;
}

Status ImplicitRkStepper::step(double t, double h, ConstVec y, Vec y_new, Vec) noexcept {
  Status s = Status::ok;
  // Initial guess: every stage derivative equal to the one at y_n.
  if (lie_) s = model_->generator(t, y, f_);
  else s = model_->vector_field(t, y, f_);
  if (s != Status::ok) return s;
  for (int i = 0; i < tab_.stages; ++i) K_.segment(i * m_, m_) = f_;
  const auto G = [&](ConstVec K, Vec r) { return residual(t, h, y, K, r); };
  const NewtonResult r = model_jacobian_
                             ? newton_.solve_with_jacobian(K_, G, [&](Vec K, MatRef J) { return stage_jacobian(t, h, y, K, J); })
                             : newton_.solve(K_, G);
  if (const Status s = account_for(r, *model_, error_,
                                   [] { return "Newton's method did not converge on the implicit stage equations; reduce the step size"; });
      s != Status::ok)
    return s;
  u_.setZero();
  for (int i = 0; i < tab_.stages; ++i) u_.noalias() += (h * tab_.b[i]) * K_.segment(i * m_, m_);
  if (lie_) return model_->space().act_exp(u_, y, y_new);
  y_new = y + u_;
  return Status::ok;
}

}  // namespace liesim::implicit_rk
