// Equal-accuracy matching by a power-law guess, a bracket and bisection.
#include <liesim/sdk/status.hpp>
#include <liesim/study/equal_accuracy.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

namespace liesim::study {

EqualAccuracy steps_for_error(const std::function<double(long)>& error, long n0, int order, double target, long n_max) {
  if (!(target > 0) || !std::isfinite(target))
    throw Error(fmt::format("equal-accuracy matching needs a positive finite target error (got {})", target));
  if (n_max < 1) throw Error("equal-accuracy matching needs max_steps >= 1");
  const double p = std::max(order, 1);
  std::map<long, double> seen;
  auto eval = [&](long n) {
    auto it = seen.find(n);
    if (it != seen.end()) return it->second;
    double e = error(n);
    if (std::isnan(e)) e = INFINITY;
    return seen[n] = e;
  };
  // Bracket the answer: lo misses the target (0 stands for "no steps"), hi meets it. Each next
  // count is the error model's root n* = n (e / target)^(1/order) (ceil(n*) from a coarse point,
  // ceil(n*) - 1 from a fine one: exact for a pure power law), kept inside the bracket; a guess
  // that does not halve the bracket is followed by a bisection, so the search always ends.
  long lo = 0, hi = -1, width = -1;
  bool guessed = false;
  long n = std::clamp(n0, 1L, n_max);
  long last_n = 0;      // the previous finite point of the growth phase
  double last_e = 0.0;
  int flat = 0;         // consecutive growth steps over which the error did not fall
  constexpr int max_runs = 60;
  for (int runs = 1;; ++runs) {
    const double e = eval(n);
    if (e <= target) hi = n;
    else lo = std::max(lo, n);
    if (hi >= 0 && hi - lo <= 1) break;
    if (runs >= max_runs)
      throw Error(fmt::format("no step count found in {} runs (between {} and {} steps)", max_runs, lo, hi < 0 ? n_max : hi));
    const double root = std::isfinite(e) && e > 0 ? static_cast<double>(n) * std::pow(e / target, 1.0 / p) : NAN;
    if (hi < 0) {
      const bool any_finite = std::any_of(seen.begin(), seen.end(), [](const auto& kv) { return std::isfinite(kv.second); });
      if (!any_finite && n >= n_max) throw Error(fmt::format("every run failed, from {} up to {} equal steps", std::min(n0, n_max), n_max));
      if (std::isfinite(e)) {
        // n grew by at least 1.5x since the last point: an order-p method's error falls by 1.5^p.
        flat = last_n > 0 && e > last_e / 1.2 ? flat + 1 : 0;
        if (flat >= 3)
          throw Error(fmt::format("the error levels off at about {:.3g} (from {} to {} equal steps), above the target {:.3g}: "
                                  "round-off or the reference's own accuracy; the target cannot be reached", e, last_n, n, target));
        last_n = n;
        last_e = e;
      }
      if (n >= n_max)
        throw Error(fmt::format("{} equal steps (max_steps) give error {:.3g}, above the target {:.3g}; raise the option "
                                "max_steps", n_max, e, target));
      // Too coarse so far: grow to the model's root, by 1.5x to 10x per run (2x after a failed run).
      const double m = static_cast<double>(n);
      const double grown = std::isfinite(root) ? std::clamp(std::ceil(root), std::ceil(1.5 * m), 10.0 * m) : 2.0 * m;
      n = std::min(n_max, std::max(n + 1, static_cast<long>(grown)));
      continue;
    }
    const bool guess = std::isfinite(root) && (!guessed || 2 * (hi - lo) <= width);
    width = hi - lo;
    guessed = guess;
    if (guess) {
      const double c = std::ceil(root) - (e <= target ? 1.0 : 0.0);
      n = static_cast<long>(std::clamp(c, static_cast<double>(lo + 1), static_cast<double>(hi - 1)));
    } else {
      n = lo + (hi - lo) / 2;
    }
  }
  EqualAccuracy r;
  r.steps = hi;
  r.error = seen.at(hi);
  r.evaluations = static_cast<int>(seen.size());
  return r;
}

}  // namespace liesim::study
