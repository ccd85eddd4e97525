// liesim/lie/gl.hpp — the general linear group GL(N) with gl(N) = R^{N x N}.
//
// Conventions (README.md): an algebra vector holds the matrix entries row by row (hat / vee);
// exp is the matrix exponential (scaling and squaring with Padé approximants, Eigen's
// MatrixFunctions), the bracket the matrix commutator [A, B] = A B - B A, Ad_g X = g X g^-1,
// dexp and dexpinv the Bernoulli series of thesis (2.2.7)-(2.2.8) to order 20 (accurate to
// round-off for |ad_u| well below 2 pi: not a closed form). Used for the congruence action on
// symmetric positive-definite matrices (thesis Example 11).
#pragma once
#include <liesim/lie/bernoulli.hpp>

#include <Eigen/Core>
#include <unsupported/Eigen/MatrixFunctions>

namespace liesim::lie {

template <int N>
struct GL {
  static_assert(N > 0, "GL<N> needs a fixed positive size");
  static constexpr int dim = N * N;
  static constexpr int matrix_dim = N;
  using Algebra = Eigen::Matrix<double, N * N, 1>;
  using Element = Eigen::Matrix<double, N, N>;
  using Matrix = Element;
  using AdMatrix = Eigen::Matrix<double, N * N, N * N>;
  using RowMajor = Eigen::Matrix<double, N, N, Eigen::RowMajor>;

  /// The matrix of an algebra vector (entries row by row).
  static Matrix hat(const Algebra& x) { return Eigen::Map<const RowMajor>(x.data()); }
  /// The algebra vector of a matrix.
  static Algebra vee(const Matrix& m) {
    Algebra x;
    Eigen::Map<RowMajor>(x.data()) = m;
    return x;
  }
  /// Matrix representation of g (g itself).
  static Matrix matrix(const Element& g) { return g; }
  /// Identity I.
  static Element identity() { return Element::Identity(); }
  /// a b.
  static Element compose(const Element& a, const Element& b) { return a * b; }
  /// g^-1.
  static Element inverse(const Element& g) { return g.inverse(); }
  /// exp(X), the matrix exponential.
  static Element exp(const Algebra& x) { return hat(x).exp(); }
  /// The principal matrix logarithm (g without eigenvalues on the closed negative real axis).
  static Algebra log(const Element& g) { return vee(g.log()); }
  /// [a, b] = A B - B A.
  static Algebra bracket(const Algebra& a, const Algebra& b) {
    const Matrix A = hat(a), B = hat(b);
    return vee(A * B - B * A);
  }
  /// Ad_g X = g X g^-1 as a dim x dim matrix.
  static AdMatrix Ad(const Element& g) {
    const Element gi = g.inverse();
    AdMatrix m;
    for (int j = 0; j < dim; ++j) m.col(j) = vee(g * hat(Algebra::Unit(j)) * gi);
    return m;
  }
  /// ad_u = [u, .] as a dim x dim matrix.
  static AdMatrix ad(const Algebra& u) {
    AdMatrix m;
    for (int j = 0; j < dim; ++j) m.col(j) = bracket(u, Algebra::Unit(j));
    return m;
  }
  /// dexp_u(v) = sum_k 1/(k+1)! ad_u^k v, to order 20 [thesis (2.2.7)].
  static Algebra dexp(const Algebra& u, const Algebra& v) { return dexp_series<GL>(u, v, bernoulli_max_order); }
  /// dexpinv_u(v) = sum_k B_k/k! ad_u^k v, to order 20 [thesis (2.2.8)].
  static Algebra dexpinv(const Algebra& u, const Algebra& v) { return dexpinv_series<GL>(u, v, bernoulli_max_order); }
};

}  // namespace liesim::lie
