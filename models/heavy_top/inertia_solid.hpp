// The solid of uniform density with a rigid body's inertia: how a model's scene (ABI 2.8) draws a
// body it knows only by its mass and its inertia about the centre of mass. Header-only; used by
// the scenes of heavy_top, rigid_pendulum, rigid_body, underwater_vehicle and multibody.
#pragma once
#include <liesim/sdk/scene.hpp>

#include <Eigen/Core>
#include <Eigen/Eigenvalues>

#include <algorithm>
#include <array>
#include <cmath>

namespace liesim::scene_shapes {

/// A solid drawn for a body: its shape and size (plugin.h's LIESIM_SHAPE_* meaning), the shape's
/// frame in the body frame (columns: the shape's x, y, z axes, det +1; a cylinder's axis is its z)
/// and the principal axes of the inertia (columns, det +1; the identity when the inertia is diagonal).
struct InertiaSolid {
  Shape shape = Shape::box;
  std::array<double, 3> size{};
  Eigen::Matrix3d axes = Eigen::Matrix3d::Identity();
  Eigen::Matrix3d principal = Eigen::Matrix3d::Identity();
  /// Half the largest chord: the radius of the ball around the centre that holds the solid.
  double radius() const {
    if (shape == Shape::box) return 0.5 * std::sqrt(size[0] * size[0] + size[1] * size[1] + size[2] * size[2]);
    return std::sqrt(size[0] * size[0] + 0.25 * size[1] * size[1]);
  }
};

/// The principal axes V (columns, det +1) and moments of a symmetric Ic: V = I and the diagonal
/// when Ic is diagonal (off-diagonal entries below 1e-12 of the largest), so that the body axes stay
/// the shape's axes; else the eigenvectors, moments ascending.
inline void principal_axes(const Eigen::Matrix3d& Ic, Eigen::Matrix3d& V, Eigen::Vector3d& moments) {
  const double scale = Ic.cwiseAbs().maxCoeff();
  const double off = std::max({std::abs(Ic(0, 1)), std::abs(Ic(0, 2)), std::abs(Ic(1, 2))});
  if (off <= 1e-12 * scale) {
    V.setIdentity();
    moments = Ic.diagonal();
    return;
  }
  const Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> eig(0.5 * (Ic + Ic.transpose()));
  V = eig.eigenvectors();
  moments = eig.eigenvalues();
  if (V.determinant() < 0) V.col(2) = -V.col(2);
}

/// The solid of uniform density with the principal moments of Ic (about the centre of mass, body
/// axes) and mass m > 0: the box of edges a_k = sqrt(6 (I1 + I2 + I3 - 2 I_k) / m) along the
/// principal axes; with `prefer_cylinder` and two equal moments (a body of revolution) the
/// cylinder about the third axis, r^2 = 2 I_axis / m, L^2 = (12 I_across - 6 I_axis) / m.
/// Lengths below 4% of max(largest box edge, reference) (a flat or unphysical inertia makes some
/// zero or imaginary) are raised to it, so that a plate or a rod still shows; with no positive
/// length at all the box is a cube of 0.3 reference.
inline InertiaSolid inertia_solid(double m, const Eigen::Matrix3d& Ic, double reference, bool prefer_cylinder) {
  InertiaSolid s;
  Eigen::Vector3d l;
  principal_axes(Ic, s.principal, l);
  s.axes = s.principal;
  const double trace = l.sum();
  Eigen::Vector3d a;
  for (int k = 0; k < 3; ++k) {
    const double a2 = 6.0 * (trace - 2.0 * l[k]) / m;
    a[k] = a2 > 0 && std::isfinite(a2) ? std::sqrt(a2) : 0.0;
  }
  if (!(a.maxCoeff() > 0)) a.setConstant(0.3 * reference);
  const double floor = 0.04 * std::max(a.maxCoeff(), reference);
  const double scale = l.cwiseAbs().maxCoeff();
  if (prefer_cylinder && scale > 0) {
    for (int k = 0; k < 3; ++k) {
      const int i = (k + 1) % 3, j = (k + 2) % 3;  // (i, j, k) cyclic: the frame keeps det +1
      const bool pair = std::abs(l[i] - l[j]) <= 1e-9 * scale, distinct = std::abs(l[k] - l[i]) > 1e-9 * scale;
      if (!pair || !distinct || !(l[k] > 0)) continue;
      const double r = std::sqrt(2.0 * l[k] / m), L2 = (12.0 * 0.5 * (l[i] + l[j]) - 6.0 * l[k]) / m;
      s.shape = Shape::cylinder;
      s.size = {std::max(r, floor), std::max(L2 > 0 ? std::sqrt(L2) : 0.0, floor), 0.0};
      s.axes.col(0) = s.principal.col(i);
      s.axes.col(1) = s.principal.col(j);
      s.axes.col(2) = s.principal.col(k);
      return s;
    }
  }
  s.shape = Shape::box;
  s.size = {std::max(a[0], floor), std::max(a[1], floor), std::max(a[2], floor)};
  return s;
}

}  // namespace liesim::scene_shapes
