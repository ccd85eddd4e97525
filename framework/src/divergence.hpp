// A run that blows up ends with a RunFailure whose message starts with diverged_prefix and names
// the time; a study records it with the status "diverged" (the stability maps draw it as
// unstable). Two checks (bounds in DivergenceBounds, liesim/host/driver.hpp):
//  * the state: its norm passes state_factor * max(1, |y0|) at an accepted step (the driver);
//  * the invariants (InvariantBound): one the model declares conserved changes by more than
//    invariant_bound * max(|I0|, s), or one it declares non-increasing grows by more than that,
//    with I0 its value at t0 and s its scale (liesim_model_info.invariant_scales). They are checked
//    every invariant_check_every accepted steps, at every output of a self-controlled solver and at
//    the end, so the time reported is the first check at which the bound was passed.
#pragma once
#include <liesim/host/driver.hpp>
#include <liesim/sdk/model_view.hpp>

#include <string>
#include <vector>

namespace liesim {

/// The divergence check on a model's conserved and non-increasing invariants. Allocates in its
/// constructor only; check() evaluates the invariants into a preallocated vector.
class InvariantBound {
 public:
  /// Checks the invariants of `model` against their values at y0 (none when bound is inf or the
  /// model declares no invariant conserved or non-increasing).
  InvariantBound(const ModelView& model, ConstVec y0, double bound);
  /// Whether any invariant is checked.
  bool active() const noexcept { return !checked_.empty(); }
  /// "" while every checked invariant at the state y reached at t is within its bound, else the
  /// failure message (starting with diverged_prefix). A NaN value is not counted.
  std::string check(double t, ConstVec y);

 private:
  const ModelView& model_;
  std::vector<InvariantInfo> info_;
  std::vector<int> checked_;  ///< indices of the conserved and non-increasing invariants
  Eigen::VectorXd initial_, values_;
  double bound_;
};

}  // namespace liesim
