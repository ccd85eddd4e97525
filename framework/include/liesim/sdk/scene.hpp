// Writing a model's scene poses (ABI 2.8): the record of body k from a position and a rotation
// matrix (body to space), or from two end points for segments and arrows.
#pragma once
#include <liesim/scene.hpp>
#include <liesim/types.hpp>

#include <Eigen/Geometry>

namespace liesim::sdk {

/// Body k at position x with orientation R (body to space, orthonormal): [x, q] with q the unit
/// quaternion of R, its w >= 0.
template <class Position, class Rotation>
void set_pose(Vec out, int k, const Position& x, const Rotation& R) noexcept {
  Eigen::Quaterniond q{Eigen::Matrix3d(R)};
  q.normalize();
  if (q.w() < 0.0) q.coeffs() = -q.coeffs();
  auto r = out.segment<pose_size>(pose_size * k);
  r << x(0), x(1), x(2), q.x(), q.y(), q.z(), q.w();
}

/// Body k (a segment or an arrow) from a to b.
template <class A, class B>
void set_pose_points(Vec out, int k, const A& a, const B& b) noexcept {
  auto r = out.segment<pose_size>(pose_size * k);
  r << a(0), a(1), a(2), b(0), b(1), b(2), 0.0;
}

}  // namespace liesim::sdk
