// Commutator-free step: each stage point is a product of exponentials acting on y_n.
#include "cf_stepper.hpp"

#include <liesim/sdk/stage_sum.hpp>

#include <algorithm>

namespace liesim::lie_rk {

CommutatorFreeStepper::CommutatorFreeStepper(CommutatorFreeTable scheme, bool adaptive, bool embedded_solution)
    : scheme_(std::move(scheme)), adaptive_(adaptive), embedded_solution_(embedded_solution) {
  for (int r = 0; r < scheme_.stages; ++r) stage_prefix_.push_back(reusable_prefix(scheme_, scheme_.stage[r], r));
  update_prefix_ = reusable_prefix(scheme_, scheme_.update, scheme_.stages);
  embedded_prefix_ = reusable_prefix(scheme_, scheme_.embedded, scheme_.stages);
}

std::pair<int, int> CommutatorFreeStepper::reusable_prefix(const CommutatorFreeTable& s, const ExponentialList& p, int before) {
  std::pair<int, int> best{-1, 0};
  for (int m = 1; m < before; ++m) {
    const ExponentialList& q = s.stage[m];
    if (q.count == 0 || q.count > p.count || q.count <= best.second) continue;
    if (std::equal(q.alpha.begin(), q.alpha.end(), p.alpha.begin())) best = {m, q.count};  // (rows of s numbers each)
  }
  return best;
}

Status CommutatorFreeStepper::init(ModelView& model, std::string& error) noexcept {
  try {
    model_ = &model;
    const int d = model.space().algebra_dim();
    const int n = model.size();
    F_.setZero(d, scheme_.stages);
    Y_.setZero(n, scheme_.stages);
    xi_.setZero(d);
    a_.setZero(n);
    b_.setZero(n);
    y_hat_.setZero(n);
    return Status::ok;
  } catch (const std::exception& e) {
    error = e.what();
    return Status::fatal;
  }
}

Status CommutatorFreeStepper::apply(const ExponentialList& p, int start_stage, int skip, double h, ConstVec y,
                                    Vec out) noexcept {
  const HomogeneousSpaceView& space = model_->space();
  // Ping-pong between two buffers; the result ends in `out`.
  if (start_stage >= 0) a_ = Y_.col(start_stage);
  else a_ = y;
  for (int j = skip; j < p.count; ++j) {
    sdk::stage_sum(xi_, F_, p.row(j), scheme_.stages, h);
    const Status s = space.act_exp(xi_, a_, b_);
    if (s != Status::ok) return s;
    a_.swap(b_);
  }
  out = a_;
  return Status::ok;
}

Status CommutatorFreeStepper::step(double t, double h, ConstVec y, Vec y_new, Vec err) noexcept {
  Status s = Status::ok;
  for (int r = 0; r < scheme_.stages; ++r) {
    const auto [start, skip] = stage_prefix_[r];
    if ((s = apply(scheme_.stage[r], start, skip, h, y, Y_.col(r))) != Status::ok) return s;
    if ((s = model_->generator(t + scheme_.c[r] * h, Y_.col(r), F_.col(r))) != Status::ok) return s;
  }
  if ((s = apply(scheme_.update, update_prefix_.first, update_prefix_.second, h, y, y_new)) != Status::ok) return s;
  if (scheme_.embedded.count > 0 && (adaptive_ || embedded_solution_)) {
    if ((s = apply(scheme_.embedded, embedded_prefix_.first, embedded_prefix_.second, h, y, y_hat_)) != Status::ok) return s;
    if (adaptive_) err = y_new - y_hat_;
    if (embedded_solution_) y_new = y_hat_;
  }
  return Status::ok;
}

}  // namespace liesim::lie_rk
