// When a run counts as blown up: the kernel's divergence options and the check on invariants.
#include "divergence.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>

namespace liesim {

std::vector<SettingSpec> divergence_options() {
  return {
      {"diverged_factor", "1e6", "",
       "the run ends as diverged when its state norm passes diverged_factor max(1, |y0|) at an accepted step"},
      {"invariant_bound", "1e3", "",
       "the run ends as diverged when an invariant the model declares conserved changes (non-increasing: grows) by more "
       "than invariant_bound max(|I0|, scale); checked every 32 accepted steps, at each output of a self-controlled "
       "solver and at the end (inf: never)"},
  };
}

DivergenceBounds parse_divergence(const Settings& o) {
  DivergenceBounds b;
  const auto read = [&o](const char* key, double fallback) {
    if (!o.has(key)) return fallback;
    if (o.text(key) == "inf") return std::numeric_limits<double>::infinity();
    return o.positive(key);
  };
  b.state_factor = read("diverged_factor", b.state_factor);
  b.invariant_bound = read("invariant_bound", b.invariant_bound);
  return b;
}

InvariantBound::InvariantBound(const ModelView& model, ConstVec y0, double bound)
    : model_(model), info_(model.invariants()), bound_(bound) {
  if (!std::isfinite(bound) || info_.empty()) return;
  initial_.resize(model.invariant_count());
  values_.resize(model.invariant_count());
  model.evaluate_invariants(y0, initial_);
  for (int k = 0; k < static_cast<int>(info_.size()); ++k)
    if (info_[k].kind != InvariantKind::monitored && std::isfinite(initial_[k]) &&
        std::max(std::abs(initial_[k]), info_[k].scale) > 0)
      checked_.push_back(k);
}

std::string InvariantBound::check(double t, ConstVec y) {
  if (checked_.empty()) return {};
  model_.evaluate_invariants(y, values_);
  for (const int k : checked_) {
    const double i0 = initial_[k];
    const double change = values_[k] - i0;
    const bool conserved = info_[k].kind == InvariantKind::conserved;
    const double limit = bound_ * std::max(std::abs(i0), info_[k].scale);
    if (!((conserved ? std::abs(change) : change) > limit)) continue;  // NaN: not counted
    return fmt::format(
        "{}{}: invariant '{}' ({}) went from {:.6g} at t0 to {:.6g}, a {} of {:.3g} > {:g} max(|I0|, {:g}) = {:.3g} (invariants are "
        "checked every {} accepted steps or solver outputs and at the end: t is the first check past the bound); the method is "
        "unstable here: a smaller step or tolerance",
        diverged_prefix, t, info_[k].name, kind_name(info_[k].kind), i0, values_[k],
        conserved ? "change" : "growth", conserved ? std::abs(change) : change, bound_, info_[k].scale, limit,
        invariant_check_every);
  }
  return {};
}

}  // namespace liesim
