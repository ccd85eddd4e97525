// Flat-buffer vector types used on the run-time boundary between kernel and plugins.
#pragma once
#include <Eigen/Core>

namespace liesim {

/// Read-only view of a contiguous vector of doubles (a state, an algebra element, ...).
using ConstVec = const Eigen::Ref<const Eigen::VectorXd>&;
/// Writable view of a contiguous vector of doubles.
using Vec = Eigen::Ref<Eigen::VectorXd>;
/// Writable view of a contiguous column-major matrix of doubles (a Jacobian).
using MatRef = Eigen::Ref<Eigen::MatrixXd>;

}  // namespace liesim
