// Least-squares slope of log(error) against log(h): the observed order of convergence.
#pragma once
#include <cmath>
#include <cstddef>
#include <vector>

namespace liesim {

/// Slope of the least-squares line through (log h_i, log err_i) (needs two or more points).
inline double loglog_slope(const std::vector<double>& h, const std::vector<double>& err) {
  const double n = static_cast<double>(h.size());
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (std::size_t i = 0; i < h.size(); ++i) {
    const double x = std::log(h[i]), y = std::log(err[i]);
    sx += x;
    sy += y;
    sxx += x * x;
    sxy += x * y;
  }
  return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

}  // namespace liesim
