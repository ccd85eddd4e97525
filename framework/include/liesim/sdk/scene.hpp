// How a model looks (ABI 2.8): bodies with a shape, a size and a colour, posed at (t, y) by the
// model, and the scenery (the up direction, a ground plane, a length scale, fixed polylines drawn
// from observables). Shared by the SDK (a model states its scene) and the host (liesim view,
// liesim figure strobe, liesim describe). The pose layout is plugin.h's; sdk::set_pose and
// sdk::set_pose_points write a body's pose record from a position and a rotation matrix (body to
// space), or from two end points for segments and arrows.
#pragma once
#include <liesim/sdk/types.hpp>

#include <Eigen/Geometry>

#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace liesim {

/// The shapes of plugin.h's LIESIM_SHAPE_* (same values).
enum class Shape : std::int32_t { sphere = 1, box = 2, cylinder = 3, capsule = 4, axes = 5, segment = 6, arrow = 7 };

/// Numbers per body in a pose record: [x, y, z, qx, qy, qz, qw], or [a, b, 0] for two-point shapes.
inline constexpr int pose_size = 7;

/// "sphere", "box", ...; "" for a value that is no shape.
inline const char* shape_name(Shape s) noexcept {
  switch (s) {
    case Shape::sphere: return "sphere";
    case Shape::box: return "box";
    case Shape::cylinder: return "cylinder";
    case Shape::capsule: return "capsule";
    case Shape::axes: return "axes";
    case Shape::segment: return "segment";
    case Shape::arrow: return "arrow";
  }
  return "";
}

/// Whether a body of this shape is posed by two end points (else by a position and a quaternion).
inline bool two_point(Shape s) noexcept { return s == Shape::segment || s == Shape::arrow; }

/// One body of a scene.
struct SceneBody {
  std::string name;                   ///< e.g. "link1", "load"
  Shape shape = Shape::sphere;
  std::array<double, 3> size{};       ///< see LIESIM_SHAPE_* in plugin.h
  std::uint32_t color = 0x888888;     ///< 0xRRGGBB
};

/// A fixed polyline through three observables (a desired trajectory), drawn dashed.
struct ScenePath {
  std::string x, y, z;  ///< observable names
};

/// What a model looks like.
struct Scene {
  std::vector<SceneBody> bodies;
  std::array<double, 3> up{0.0, 0.0, 1.0};                  ///< opposite to gravity
  double ground = std::numeric_limits<double>::quiet_NaN();  ///< height of a ground plane along up; NaN: none
  double extent = 1.0;                                       ///< length scale of the scene
  std::vector<ScenePath> paths;
};

}  // namespace liesim

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
