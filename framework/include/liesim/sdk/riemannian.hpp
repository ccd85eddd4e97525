// Riemannian geometry for models that state their metric (ABI 2.3) and for the geodesic methods'
// tests.
// The unit sphere S^{k-1} in R^k (round metric):
//   exp_p(v) = cos|v| p + (sin|v| / |v|) v            (v tangent at p),
//   d(p, q)  = 2 atan2(|q - p|, |q + p|)               (the angle, accurate near 0 and near pi),
//   log_p(q) = d(p, q) w / |w|,  w = q - (p . q) p     (undefined at q = -p, the cut locus).
// Symmetric positive-definite N x N matrices with the affine-invariant metric
// g_A(U, V) = tr(A^-1 U A^-1 V) (thesis (4.3.7)-(4.3.9), notes §2.8): with s = A^(1/2),
//   exp_A(V) = s expm(s^-1 V s^-1) s,   log_A(B) = s logm(s^-1 B s^-1) s,
//   d(A, B)  = sqrt(sum_i log^2 lambda_i(s^-1 B s^-1)),
// every function of a symmetric matrix through its eigendecomposition (fixed size: no allocation).
#pragma once
#include <liesim/lie/so3.hpp>
#include <liesim/sdk/status.hpp>
#include <liesim/sdk/types.hpp>

#include <Eigen/Eigenvalues>

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

/// phi(S) = V diag(phi(lambda)) V^T for a symmetric matrix S.
template <int N, class F>
Eigen::Matrix<double, N, N> symmetric_function(const Eigen::Matrix<double, N, N>& S, F&& phi) {
  const Eigen::SelfAdjointEigenSolver<Eigen::Matrix<double, N, N>> eig(S);
  const Eigen::Matrix<double, N, 1> l = eig.eigenvalues().unaryExpr(phi);
  return eig.eigenvectors() * l.asDiagonal() * eig.eigenvectors().transpose();
}

/// A^(1/2) and A^(-1/2) of a symmetric positive-definite A.
template <int N>
void spd_roots(const Eigen::Matrix<double, N, N>& A, Eigen::Matrix<double, N, N>& s, Eigen::Matrix<double, N, N>& s_inv) {
  const Eigen::SelfAdjointEigenSolver<Eigen::Matrix<double, N, N>> eig(A);
  s = eig.operatorSqrt();
  s_inv = eig.operatorInverseSqrt();
}

/// exp_A(V) = s expm(s^-1 V s^-1) s (V symmetric).
template <int N>
Eigen::Matrix<double, N, N> spd_exp(const Eigen::Matrix<double, N, N>& A, const Eigen::Matrix<double, N, N>& V) {
  Eigen::Matrix<double, N, N> s, si;
  spd_roots<N>(A, s, si);
  const Eigen::Matrix<double, N, N> inner = si * V * si;
  return s * symmetric_function<N>(0.5 * (inner + inner.transpose()), [](double x) { return std::exp(x); }) * s;
}

/// log_A(B) = s logm(s^-1 B s^-1) s (B symmetric positive definite).
template <int N>
Eigen::Matrix<double, N, N> spd_log(const Eigen::Matrix<double, N, N>& A, const Eigen::Matrix<double, N, N>& B) {
  Eigen::Matrix<double, N, N> s, si;
  spd_roots<N>(A, s, si);
  const Eigen::Matrix<double, N, N> inner = si * B * si;
  return s * symmetric_function<N>(0.5 * (inner + inner.transpose()), [](double x) { return std::log(x); }) * s;
}

/// d(A, B) = sqrt(sum_i log^2 lambda_i(A^-1/2 B A^-1/2)).
template <int N>
double spd_distance(const Eigen::Matrix<double, N, N>& A, const Eigen::Matrix<double, N, N>& B) {
  Eigen::Matrix<double, N, N> s, si;
  spd_roots<N>(A, s, si);
  const Eigen::Matrix<double, N, N> inner = si * B * si;
  const Eigen::SelfAdjointEigenSolver<Eigen::Matrix<double, N, N>> eig(0.5 * (inner + inner.transpose()), Eigen::EigenvaluesOnly);
  return std::sqrt(eig.eigenvalues().unaryExpr([](double x) { return std::log(x) * std::log(x); }).sum());
}

}  // namespace liesim::riemannian
