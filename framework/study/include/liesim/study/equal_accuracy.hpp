// Equal-accuracy matching: the fewest equal steps with which a fixed-step method reaches a given
// error (the thesis' Table 3.1 runs RKMK5 "with as many steps as needed to match the RKMK(5,4)
// error").
#pragma once
#include <functional>

namespace liesim::study {

struct EqualAccuracy {
  long steps = 0;        ///< the smallest n found with error(n) <= target
  double error = 0.0;    ///< error(steps)
  int evaluations = 0;   ///< runs the search made
};

/// The smallest n in [1, n_max] with error(n) <= target, where error(n) is the error of the
/// method with n equal steps (+inf or NaN for a failed run: too coarse). Starts from n0, predicts
/// from the error model C n^-order to bracket the answer, then bisects; n is minimal in the sense
/// that error(n - 1) > target (errors need not be monotone in n far from the asymptotic range).
/// Throws liesim::Error when the target is out of reach, saying why: every run failed, the error
/// levels off above the target as n grows (round-off, or the accuracy of the reference the error
/// is measured against), n_max steps are not enough, or no answer in 60 runs.
EqualAccuracy steps_for_error(const std::function<double(long)>& error, long n0, int order, double target, long n_max);

}  // namespace liesim::study
