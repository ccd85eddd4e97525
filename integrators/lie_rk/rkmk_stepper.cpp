// RKMK step: stages in the Lie algebra, one exponential per stage, update exp(sigma) . y_n.
#include "rkmk_stepper.hpp"

#include <liesim/lie/bernoulli.hpp>
#include <liesim/sdk/stage_sum.hpp>

#include <algorithm>

namespace liesim::lie_rk {

RkmkStepper::RkmkStepper(RungeKuttaTable tableau, std::span<const CommutatorTerm> commutators, DexpinvMode mode, int series_order,
                         bool adaptive, bool embedded_solution)
    : tab_(std::move(tableau)), commutators_(commutators), mode_(mode), series_order_(series_order), adaptive_(adaptive), embedded_solution_(embedded_solution) {}

Status RkmkStepper::init(ModelView& model, std::string& error) noexcept {
  try {
    model_ = &model;
    // Spaces without a closed-form dexpinv fall back to the truncated series.
    if (mode_ == DexpinvMode::exact && !model.space().has_exact_dexpinv()) mode_ = DexpinvMode::series;
    const int d = model.space().algebra_dim();
    const int n = model.size();
    const int s = tab_.stages;
    // Without an error estimate, only the stages the update uses (and its commutators' stages).
    used_stages_ = adaptive_ ? s : stages_needed(tab_, embedded_solution_ ? tab_.b_hat : tab_.b);
    for (const auto& c : commutators_)
      if (c.row == s) used_stages_ = std::max({used_stages_, c.i + 1, c.j + 1});
    dense_ = commutators_.empty() && !embedded_solution_ ? tab_.dense : nullptr;
    dense_weights_.assign(s, 0.0);
    K_.setZero(d, s);
    u_.setZero(d);
    f_.setZero(d);
    sigma_.setZero(d);
    sigma_hat_.setZero(d);
    w1_.setZero(d);
    w2_.setZero(d);
    Y_.setZero(n);
    return Status::ok;
  } catch (const std::exception& e) {
    error = e.what();
    return Status::fatal;
  }
}

Status RkmkStepper::stage_derivative(ConstVec u, ConstVec f, Vec k) noexcept {
  const HomogeneousSpaceView& space = model_->space();
  switch (mode_) {
    case DexpinvMode::exact:
      return space.dexpinv(u, f, k);
    case DexpinvMode::series: {
      Status status = Status::ok;
      auto bracket = [&](ConstVec a, ConstVec b, Vec out) {
        if (status == Status::ok) status = space.bracket(a, b, out);
      };
      lie::dexpinv_series(u, f, series_order_, bracket, w1_, w2_, k);
      return status;
    }
    case DexpinvMode::none:
      k = f;
      return Status::ok;
  }
  return Status::fatal;
}

void RkmkStepper::add_commutators(int row, double h, Vec u) noexcept {
  // coef [h K_i, h K_j] = h^2 coef [K_i, K_j]
  for (const auto& c : commutators_) {
    if (c.row != row) continue;
    if (model_->space().bracket(K_.col(c.i), K_.col(c.j), w1_) != Status::ok) continue;
    u += (h * h * c.coefficient) * w1_;
  }
}

[[gnu::always_inline]] inline Status RkmkStepper::stage(int i, double t, double h, ConstVec y, const HomogeneousSpaceView& space) noexcept {
  Status s = Status::ok;
  const bool moved = sdk::stage_sum(u_, K_, tab_.row(i), i, h) > 0;
  if (!commutators_.empty()) add_commutators(i, h, u_);
  if (!moved)  // u_i = 0: Y_i = y_n and dexpinv_0 = identity.
    return model_->generator(t + tab_.c[i] * h, y, K_.col(i));
  if ((s = space.act_exp(u_, y, Y_)) != Status::ok) return s;
  if ((s = model_->generator(t + tab_.c[i] * h, Y_, f_)) != Status::ok) return s;
  return stage_derivative(u_, f_, K_.col(i));
}

Status RkmkStepper::step(double t, double h, ConstVec y, Vec y_new, Vec err) noexcept {
  const HomogeneousSpaceView& space = model_->space();
  computed_stages_ = 0;
  for (int i = 0; i < used_stages_; ++i) {
    const Status s = stage(i, t, h, y, space);
    if (s != Status::ok) return s;
  }
  computed_stages_ = used_stages_;
  sdk::stage_sum(sigma_, K_, tab_.b.data(), used_stages_, h);
  if (adaptive_ || embedded_solution_) sdk::stage_sum(sigma_hat_, K_, tab_.b_hat.data(), used_stages_, h);
  if (!commutators_.empty()) add_commutators(tab_.stages, h, sigma_);
  if (adaptive_) err = sigma_ - sigma_hat_;
  return space.act_exp(embedded_solution_ ? sigma_hat_ : sigma_, y, y_new);
}

Status RkmkStepper::interpolate(double t, double h, ConstVec y, ConstVec y_new, double theta, Vec out, Vec work) noexcept {
  if (dense_ == nullptr) return sdk::Stepper::interpolate(t, h, y, y_new, theta, out, work);
  // A stage the step skipped (DOPRI5's at y_{n+1} at a fixed step), once per step.
  for (; computed_stages_ < tab_.stages; ++computed_stages_) {
    const Status s = stage(computed_stages_, t, h, y, model_->space());
    if (s != Status::ok) return s;
  }
  for (int i = 0; i < tab_.stages; ++i) dense_weights_[i] = dense_->weight(i, theta);
  sdk::stage_sum(sigma_, K_, dense_weights_.data(), tab_.stages, h);
  return model_->space().act_exp(sigma_, y, out);
}

}  // namespace liesim::lie_rk
