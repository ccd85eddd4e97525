// Rotations from the forms descriptions give them in, and the error helper.
#include "description.hpp"

#include <liesim/sdk/status.hpp>

#include <Eigen/Geometry>

#include <cmath>

namespace liesim::multibody {

void fail_at(const Where& where, const std::string& subject, const std::string& message) {
  std::string text = where.text() + ": ";
  if (!subject.empty()) text += subject + ": ";
  throw Error(text + message);
}

Eigen::Matrix3d rotation_rpy(const Eigen::Vector3d& rpy) {
  return (Eigen::AngleAxisd(rpy.z(), Eigen::Vector3d::UnitZ()) * Eigen::AngleAxisd(rpy.y(), Eigen::Vector3d::UnitY()) *
          Eigen::AngleAxisd(rpy.x(), Eigen::Vector3d::UnitX()))
      .toRotationMatrix();
}

Eigen::Matrix3d rotation_axis_angle(const Eigen::Vector3d& axis, double angle) {
  return Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix();
}

Eigen::Matrix3d rotation_quaternion(double w, double x, double y, double z) {
  return Eigen::Quaterniond(w, x, y, z).normalized().toRotationMatrix();
}

}  // namespace liesim::multibody
