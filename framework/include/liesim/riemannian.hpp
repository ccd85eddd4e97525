// Riemannian geometry of the unit sphere S^{k-1} in R^k (round metric), for models that state
// their metric (ABI 2.3) and for the geodesic methods' tests:
//   exp_p(v) = cos|v| p + (sin|v| / |v|) v            (v tangent at p),
//   d(p, q)  = 2 atan2(|q - p|, |q + p|)               (the angle, accurate near 0 and near pi),
//   log_p(q) = d(p, q) w / |w|,  w = q - (p . q) p     (undefined at q = -p, the cut locus).
#pragma once
#include <liesim/lie/so3.hpp>
#include <liesim/status.hpp>
#include <liesim/types.hpp>

#include <cmath>

namespace liesim::riemannian {

/// out = exp_p(v) on the unit sphere.
template <class P, class V, class Out>
void sphere_exp(const P& p, const V& v, Out&& out) {
  const double a = v.norm();
  out = std::cos(a) * p + lie::coeff::Sinc::eval(a) * v;
}

/// The great-circle distance of two unit vectors.
template <class P, class Q>
double sphere_distance(const P& p, const Q& q) {
  return 2.0 * std::atan2((q - p).norm(), (q + p).norm());
}

/// v = log_p(q) on the unit sphere; false at (numerically) antipodal points.
template <class P, class Q, class V>
bool sphere_log(const P& p, const Q& q, V&& v) {
  const double theta = sphere_distance(p, q);
  v = q - p.dot(q) * p;
  const double s = v.norm();  // sin(theta)
  if (s == 0.0) {
    if (theta > 1.0) return false;  // q = -p: every direction is a minimising geodesic
    v.setZero();
    return true;
  }
  if (theta > M_PI - 1e-8) return false;
  v *= theta / s;
  return true;
}

}  // namespace liesim::riemannian
