// Explicit Runge–Kutta step in embedding coordinates.
#include "erk_stepper.hpp"

namespace liesim::classical_rk {

ErkStepper::ErkStepper(const ButcherTableau& tableau, bool adaptive, bool embedded_solution)
    : tab_(tableau), dense_(embedded_solution ? nullptr : continuous_extension(tableau)), adaptive_(adaptive), embedded_solution_(embedded_solution) {}

Status ErkStepper::init(Model& model, std::string& error) noexcept {
  try {
    model_ = &model;
    // Without an error estimate, only the stages the update uses.
    used_stages_ = adaptive_ ? tab_.stages : stages_needed(tab_, embedded_solution_ ? tab_.b_hat : tab_.b);
    K_.setZero(model.size(), tab_.stages);
    Y_.setZero(model.size());
    return Status::ok;
  } catch (const std::exception& e) {
    error = e.what();
    return Status::fatal;
  }
}

[[gnu::always_inline]] inline Status ErkStepper::stage(int i, double t, double h, ConstVec y) noexcept {
  Y_ = y;
  for (int j = 0; j < i; ++j)
    if (tab_.A[i][j] != 0.0) Y_.noalias() += (h * tab_.A[i][j]) * K_.col(j);
  return model_->vector_field(t + tab_.c[i] * h, Y_, K_.col(i));
}

Status ErkStepper::step(double t, double h, ConstVec y, Vec y_new, Vec err) noexcept {
  computed_stages_ = 0;
  for (int i = 0; i < used_stages_; ++i) {
    const Status s = stage(i, t, h, y);
    if (s != Status::ok) return s;
  }
  computed_stages_ = used_stages_;
  const double* w = embedded_solution_ ? tab_.b_hat : tab_.b;
  y_new = y;
  for (int i = 0; i < used_stages_; ++i)
    if (w[i] != 0.0) y_new.noalias() += (h * w[i]) * K_.col(i);
  if (adaptive_) {
    err.setZero();
    for (int i = 0; i < tab_.stages; ++i)
      if (tab_.b[i] != tab_.b_hat[i]) err.noalias() += (h * (tab_.b[i] - tab_.b_hat[i])) * K_.col(i);
  }
  return Status::ok;
}

Status ErkStepper::interpolate(double t, double h, ConstVec y, ConstVec y_new, double theta, Vec out, Vec work) noexcept {
  if (dense_ == nullptr) return sdk::Stepper::interpolate(t, h, y, y_new, theta, out, work);
  // A stage the step skipped (DOPRI5's f(y_{n+1}) at a fixed step), once per step.
  for (; computed_stages_ < tab_.stages; ++computed_stages_) {
    const Status s = stage(computed_stages_, t, h, y);
    if (s != Status::ok) return s;
  }
  out = y;
  for (int i = 0; i < tab_.stages; ++i) {
    const double w = dense_->weight(i, theta);
    if (w != 0.0) out.noalias() += (h * w) * K_.col(i);
  }
  return Status::ok;
}

}  // namespace liesim::classical_rk
