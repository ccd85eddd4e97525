// GGL (stabilised index-2) formulation of the N-fold pendulum in Cartesian coordinates.
#include "cartesian_dae.hpp"

#include <Eigen/Geometry>

namespace liesim::pendulum_chain {

namespace {
using V3 = Eigen::Vector3d;
/// Block i (0-based) of 3-vectors starting at `offset`.
inline V3 at(ConstVec v, int offset, int i) { return v.segment<3>(offset + 3 * i); }
}  // namespace

void CartesianDae::differential_components(Vec id) const noexcept {
  id.head(6 * n_).setOnes();   // x, v
  id.tail(2 * n_).setZero();   // lambda, mu
}

Status CartesianDae::initial_values(double, ConstVec y0, Vec x, Vec xdot) noexcept {
  if (y0.size() != 6 * n_ || x.size() != size() || xdot.size() != size()) {
    try { last_error_ = "cartesian_dae: initial_values called with vectors of the wrong size"; } catch (...) {}
    return Status::fatal;
  }
  // Tensions and mass accelerations of the state y0 (the O(N) solve of the Lie group model).
  angular_accelerations(chain_, y0.data(), wdot_.data(), ws_);
  V3 pos = V3::Zero(), vel = V3::Zero();
  for (int i = 0; i < n_; ++i) {
    const V3 q = y0.segment<3>(6 * i), w = y0.segment<3>(6 * i + 3);
    pos += chain_.L[i] * q;
    vel += chain_.L[i] * w.cross(q);
    x.segment<3>(x_offset() + 3 * i) = pos;
    x.segment<3>(v_offset() + 3 * i) = vel;
    xdot.segment<3>(x_offset() + 3 * i) = vel;
    xdot.segment<3>(v_offset() + 3 * i) = ws_.acc.col(i);
  }
  x.segment(lambda_offset(), n_) = ws_.tension;
  x.segment(mu_offset(), n_).setZero();
  xdot.tail(2 * n_).setZero();
  return Status::ok;
}

Status CartesianDae::residual(double, ConstVec X, ConstVec Xd, Vec r) noexcept {
  const V3 gvec(0.0, 0.0, -chain_.g);
  const int xo = x_offset(), vo = v_offset(), lo = lambda_offset(), mo = mu_offset();
  V3 x_prev = V3::Zero(), v_prev = V3::Zero();
  // First the terms without multipliers, then each link's multiplier terms on its two masses.
  for (int i = 0; i < n_; ++i) {
    r.segment<3>(xo + 3 * i) = at(Xd, xo, i) - at(X, vo, i);
    r.segment<3>(vo + 3 * i) = chain_.m[i] * (at(Xd, vo, i) - gvec);
  }
  for (int i = 0; i < n_; ++i) {
    const V3 xi = at(X, xo, i), vi = at(X, vo, i);
    const V3 d = xi - x_prev;
    const double L = chain_.L[i];
    const V3 n = d / L;
    const double lambda = X[lo + i], mu = X[mo + i];
    // G^T mu and G^T lambda: link i pulls mass i along -n_i and mass i-1 along +n_i.
    r.segment<3>(xo + 3 * i) += mu * n;
    r.segment<3>(vo + 3 * i) += lambda * n;
    if (i > 0) {
      r.segment<3>(xo + 3 * (i - 1)) -= mu * n;
      r.segment<3>(vo + 3 * (i - 1)) -= lambda * n;
    }
    r[lo + i] = n.dot(vi - v_prev);                   // G(x) v = 0 (index 2)
    r[mo + i] = (d.squaredNorm() - L * L) / (2 * L);  // c(x) = 0
    x_prev = xi;
    v_prev = vi;
  }
  return Status::ok;
}

void CartesianDae::to_state(ConstVec X, ConstVec, Vec y) const noexcept {
  V3 x_prev = V3::Zero(), v_prev = V3::Zero();
  for (int i = 0; i < n_; ++i) {
    const V3 xi = at(X, x_offset(), i), vi = at(X, v_offset(), i);
    const double L = chain_.L[i];
    const V3 q = (xi - x_prev) / L, qdot = (vi - v_prev) / L;
    y.segment<3>(6 * i) = q;
    y.segment<3>(6 * i + 3) = q.cross(qdot);
    x_prev = xi;
    v_prev = vi;
  }
}

void CartesianDae::constraints(ConstVec X, Vec c) const noexcept {
  V3 x_prev = V3::Zero(), v_prev = V3::Zero();
  for (int i = 0; i < n_; ++i) {
    const V3 xi = at(X, x_offset(), i), vi = at(X, v_offset(), i);
    const V3 d = xi - x_prev;
    c[i] = d.squaredNorm() - chain_.L[i] * chain_.L[i];
    c[n_ + i] = d.dot(vi - v_prev);
    x_prev = xi;
    v_prev = vi;
  }
}

}  // namespace liesim::pendulum_chain
