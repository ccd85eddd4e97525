// Equal-accuracy matching by a power-law guess, a bracket and bisection.
#include <liesim/status.hpp>
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
  for (int guard = 0;; ++guard) {
    if (guard > 200) throw Error("equal-accuracy matching did not converge in 200 runs");
    const double e = eval(n);
    if (e <= target) hi = n;
    else lo = std::max(lo, n);
    if (hi >= 0 && hi - lo <= 1) break;
    const double root = std::isfinite(e) && e > 0 ? static_cast<double>(n) * std::pow(e / target, 1.0 / p) : NAN;
    if (hi < 0) {
      if (n >= n_max)
        throw Error(fmt::format("{} equal steps (max_steps) give error {:.3g}, above the target {:.3g}; raise the option "
                                "max_steps", n_max, e, target));
      // Too coarse so far: grow to the model's root (at most 10x per run; 2x after a failed run).
      const double grown = std::isfinite(root) ? std::min(std::ceil(root), 10.0 * static_cast<double>(n)) : 2.0 * static_cast<double>(n);
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
