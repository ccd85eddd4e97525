// The Cayley map of so(3) and the implicit equation of Lie group variational integrators on
// SO(3) [Lee, Leok & McClamroch 2005; Sharma 2020 (seed 001) (5.31)–(5.34)]: find F = Cay(f) with
// F J_d - J_d F^T = hat(g), J_d = 1/2 tr(J) I - J, by Newton's method on
//   G(f) = g + g x f + (g . f) f - 2 J f = 0,   dG/df = hat(g) + (g . f) I + f g^T - 2 J,
// from f0 = 1/2 J^-1 g.
#pragma once
#include <liesim/lie/so3.hpp>

#include <Eigen/Dense>

#include <cmath>

namespace liesim::lie {

/// Cay(f) = (I + hat(f)) (I - hat(f))^-1 = I + 2 (hat(f) + hat(f)^2) / (1 + |f|^2), in SO(3).
inline Eigen::Matrix3d cayley(const Eigen::Vector3d& f) {
  const Eigen::Matrix3d S = SO3::hat(f);
  return Eigen::Matrix3d::Identity() + (2.0 / (1.0 + f.squaredNorm())) * (S + S * S);
}

/// tr[(I - Cay(f)) J_d] = 2 f^T J f / (1 + |f|^2), without cancellation.
inline double cayley_kinetic(const Eigen::Matrix3d& J, const Eigen::Vector3d& f) {
  return 2.0 * f.dot(J * f) / (1.0 + f.squaredNorm());
}

/// The residual G(f) = g + g x f + (g . f) f - 2 J f.
inline Eigen::Vector3d cayley_residual(const Eigen::Matrix3d& J, const Eigen::Vector3d& g, const Eigen::Vector3d& f) {
  return g + g.cross(f) + g.dot(f) * f - 2.0 * (J * f);
}

/// Outcome of solve_cayley.
struct CayleySolve {
  Eigen::Vector3d f = Eigen::Vector3d::Zero();
  int iterations = 0;
  bool converged = false;
};

/// Solve G(f) = 0 by Newton's method with the exact Jacobian, from f0 = 1/2 J^-1 g; converged when
/// the correction is below `rtol` |f| (relative tolerance on f, as in the source). No allocation.
inline CayleySolve solve_cayley(const Eigen::Matrix3d& J, const Eigen::Vector3d& g, double rtol = 1e-15, int max_iters = 30) {
  CayleySolve s;
  s.f = 0.5 * J.ldlt().solve(g);
  if (g.squaredNorm() == 0) {
    s.converged = true;
    return s;
  }
  for (s.iterations = 1; s.iterations <= max_iters; ++s.iterations) {
    const Eigen::Vector3d G = cayley_residual(J, g, s.f);
    const Eigen::Matrix3d dG = SO3::hat(g) + g.dot(s.f) * Eigen::Matrix3d::Identity() + s.f * g.transpose() - 2.0 * J;
    const Eigen::Vector3d df = dG.partialPivLu().solve(G);
    s.f -= df;
    if (!s.f.allFinite()) return s;
    if (df.norm() <= rtol * s.f.norm()) {
      s.converged = true;
      return s;
    }
  }
  s.iterations = max_iters;
  return s;
}

}  // namespace liesim::lie
