// Test support: shared test problems and small helpers.
#pragma once
#include <Eigen/Core>

#include <map>
#include <string>

namespace liesim::test {

/// Model parameters by name.
using Params = std::map<std::string, std::string>;

/// The N = 2 pendulum with a non-planar start: q1 = (1,0,1)/sqrt2, w1 = (0,1,0), q2 = (0,1,0),
/// w2 = (0.5,0,0.5). |q_i| = 1 and q_i . w_i = 0 hold to round-off, and the motion leaves every
/// plane, so tangency is not preserved trivially (from the thesis's planar start it would be).
inline Params nonplanar_pendulum() {
  return {{"N", "2"}, {"q0", "0.7071067811865476,0,0.7071067811865476,0,1,0"}, {"w0", "0,1,0,0.5,0,0.5"}};
}

/// The message of the exception `f` throws ("" if none).
template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return {};
}

/// Largest componentwise difference.
inline double max_diff(const Eigen::VectorXd& a, const Eigen::VectorXd& b) { return (a - b).lpNorm<Eigen::Infinity>(); }

}  // namespace liesim::test
