// Output times of a run: equal intervals, a grid, and the check of a requested list.
#include <liesim/host/driver.hpp>

#include <fmt/format.h>

#include <cmath>
#include <limits>

namespace liesim {

std::vector<double> equal_output_times(double t0, double t_end, long n) {
  std::vector<double> out;
  for (long k = 1; k <= n; ++k) out.push_back(k == n ? t_end : t0 + (t_end - t0) * static_cast<double>(k) / static_cast<double>(n));
  return out;
}

std::vector<double> output_grid(double t0, double t_end, double dt) {
  if (!(dt > 0) || !std::isfinite(dt)) throw Error(fmt::format("the output grid's spacing must be a positive finite number (got {})", dt));
  const double count = (t_end - t0) / dt;
  if (count > 1e7) throw Error(fmt::format("an output grid of spacing {} over [{}, {}] has {:.3g} times (at most 1e7): give a larger spacing", dt, t0, t_end, count));
  std::vector<double> out;
  for (long k = 1;; ++k) {
    const double tau = t0 + static_cast<double>(k) * dt;
    if (tau > t_end - 1e-9 * dt) {
      if (std::abs(tau - t_end) <= 1e-9 * dt) out.push_back(t_end);
      break;
    }
    out.push_back(tau);
  }
  return out;
}

void check_output_times(const RunSpec& spec) {
  double previous = -std::numeric_limits<double>::infinity();
  for (std::size_t k = 0; k < spec.output_times.size(); ++k) {
    const double tau = spec.output_times[k];
    if (!std::isfinite(tau) || tau < spec.t0 || tau > spec.t_end)
      throw Error(fmt::format("output time {} (number {} of {}) is outside the run's time span [{}, {}]: give times between t0 and t_end",
                              tau, k + 1, spec.output_times.size(), spec.t0, spec.t_end));
    if (!(tau > previous))
      throw Error(fmt::format("output times must increase: {} (number {}) follows {}; sort them and remove repeats", tau, k + 1, previous));
    previous = tau;
  }
}

}  // namespace liesim
