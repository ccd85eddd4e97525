// Explicit Runge–Kutta step in embedding coordinates.
#include "erk_stepper.hpp"

#include <liesim/sdk/stage_sum.hpp>

namespace liesim::classical_rk {

ErkStepper::ErkStepper(RungeKuttaTable tableau, bool adaptive, bool embedded_solution)
    : tab_(std::move(tableau)), dense_(embedded_solution ? nullptr : tab_.dense), adaptive_(adaptive), embedded_solution_(embedded_solution) {}

Status ErkStepper::init(ModelView& model, std::string& error) noexcept {
  try {
    model_ = &model;
    // Without an error estimate, only the stages the update uses.
    used_stages_ = adaptive_ ? tab_.stages : stages_needed(tab_, embedded_solution_ ? tab_.b_hat : tab_.b);
    error_weights_.assign(tab_.stages, 0.0);
    moves_.assign(tab_.stages, false);
    dense_weights_.assign(tab_.stages, 0.0);
    for (int i = 0; i < tab_.stages; ++i) {
      error_weights_[i] = tab_.b[i] - tab_.b_hat[i];
      for (int j = 0; j < i; ++j) moves_[i] = moves_[i] || tab_.row(i)[j] != 0.0;
    }
    K_.setZero(model.size(), tab_.stages);
    Y_.setZero(model.size());
    return Status::ok;
  } catch (const std::exception& e) {
    error = e.what();
    return Status::fatal;
  }
}

[[gnu::always_inline]] inline Status ErkStepper::stage(int i, double t, double h, ConstVec y) noexcept {
  if (!moves_[i]) return model_->vector_field(t + tab_.c[i] * h, y, K_.col(i));  // Y_i = y_n: no copy
  sdk::stage_sum(Y_, y, K_, tab_.row(i), i, h);
  return model_->vector_field(t + tab_.c[i] * h, Y_, K_.col(i));
}

Status ErkStepper::step(double t, double h, ConstVec y, Vec y_new, Vec err) noexcept {
  computed_stages_ = 0;
  for (int i = 0; i < used_stages_; ++i) {
    const Status s = stage(i, t, h, y);
    if (s != Status::ok) return s;
  }
  computed_stages_ = used_stages_;
  const double* w = embedded_solution_ ? tab_.b_hat.data() : tab_.b.data();
  sdk::stage_sum(y_new, y, K_, w, used_stages_, h);
  if (adaptive_) sdk::stage_sum(err, K_, error_weights_.data(), tab_.stages, h);
  return Status::ok;
}

Status ErkStepper::interpolate(double t, double h, ConstVec y, ConstVec y_new, double theta, Vec out, Vec work) noexcept {
  if (dense_ == nullptr) return sdk::Stepper::interpolate(t, h, y, y_new, theta, out, work);
  // A stage the step skipped (DOPRI5's f(y_{n+1}) at a fixed step), once per step.
  for (; computed_stages_ < tab_.stages; ++computed_stages_) {
    const Status s = stage(computed_stages_, t, h, y);
    if (s != Status::ok) return s;
  }
  for (int i = 0; i < tab_.stages; ++i) dense_weights_[i] = dense_->weight(i, theta);
  sdk::stage_sum(out, y, K_, dense_weights_.data(), tab_.stages, h);
  return Status::ok;
}

}  // namespace liesim::classical_rk
