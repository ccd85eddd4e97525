// Checks that a state lies on the manifold, shared by the models' parameter and state validation.
#pragma once
#include <Eigen/Core>
#include <Eigen/LU>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string>

namespace liesim {

/// Tolerance of the models' manifold checks.
inline constexpr double manifold_tolerance = 1e-12;

/// "" when (q, w) lies on TS^2 (|q| = 1, and q . w = 0 relative to max(1, |w|)) within
/// manifold_tolerance; otherwise a message naming q<label> and w<label>.
inline std::string tangent_sphere_violation(const Eigen::Vector3d& q, const Eigen::Vector3d& w, int label) {
  if (std::abs(q.norm() - 1.0) > manifold_tolerance)
    return fmt::format("|q{}| = {:.17g} but must be 1 within {:g} (q{} lies on the unit sphere)", label, q.norm(),
                       manifold_tolerance, label);
  if (std::abs(q.dot(w)) > manifold_tolerance * std::max(1.0, w.norm()))
    return fmt::format("q{} . w{} = {:.3g} but must be 0 within {:g} relative (w{} is tangent to the sphere at q{})", label,
                       label, q.dot(w), manifold_tolerance, label, label);
  return {};
}

/// "" when R is a rotation (||R^T R - I||_F <= manifold_tolerance and det R > 0); otherwise a
/// message naming `name`.
inline std::string rotation_violation(const Eigen::Matrix3d& R, const std::string& name) {
  const double off = (R.transpose() * R - Eigen::Matrix3d::Identity()).norm();
  if (off > manifold_tolerance || !(R.determinant() > 0))
    return fmt::format("{} is not a rotation: ||{}^T {} - I||_F = {:.3g} (must be <= {:g}), det = {:.17g} (must be 1)", name,
                       name, name, off, manifold_tolerance, R.determinant());
  return {};
}

}  // namespace liesim
