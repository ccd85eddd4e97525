// liesim/lie/rn.hpp — the additive group (R^N, +), its own (abelian) Lie algebra.
//
// Conventions (README.md): Element = Algebra = R^N, exp = log = identity, Ad = I, ad = 0,
// dexp = dexpinv = identity. Used for the translational factors of direct products such as
// SO(3) x R^3 (thesis §2.3.4.3) and R^6 in the quadrotor group (thesis §2.6.1).
#pragma once

#include <Eigen/Core>

namespace liesim::lie {

/// (R^N, +) as a Lie group; matrix representation [[I, x], [0, 1]] of size N+1.
template <int N>
struct Rn {
  static_assert(N > 0, "Rn<N> needs a fixed positive dimension");
  static constexpr int dim = N;
  /// Size of the matrix representation ((N+1)x(N+1) affine translations).
  static constexpr int matrix_dim = N + 1;
  using Algebra = Eigen::Matrix<double, N, 1>;
  using Element = Eigen::Matrix<double, N, 1>;
  using Matrix = Eigen::Matrix<double, N + 1, N + 1>;
  using AdMatrix = Eigen::Matrix<double, N, N>;

  /// hat(x) = [[0, x], [0, 0]] (translation generator).
  static Matrix hat(const Algebra& x) {
    Matrix m = Matrix::Zero();
    m.template topRightCorner<N, 1>() = x;
    return m;
  }

  /// vee([[0, x], [0, 0]]) = x.
  static Algebra vee(const Matrix& m) { return m.template topRightCorner<N, 1>(); }

  /// Matrix representation [[I, x], [0, 1]].
  static Matrix matrix(const Element& g) {
    Matrix m = Matrix::Identity();
    m.template topRightCorner<N, 1>() = g;
    return m;
  }

  /// Identity 0.
  static Element identity() { return Element::Zero(); }

  /// a b = a + b.
  static Element compose(const Element& a, const Element& b) { return a + b; }

  /// g^-1 = -g.
  static Element inverse(const Element& g) { return -g; }

  /// exp(x) = x.
  static Element exp(const Algebra& x) { return x; }

  /// log(g) = g.
  static Algebra log(const Element& g) { return g; }

  /// Ad_g = I (abelian).
  static AdMatrix Ad(const Element&) { return AdMatrix::Identity(); }

  /// ad_x = 0 (abelian).
  static AdMatrix ad(const Algebra&) { return AdMatrix::Zero(); }

  /// [a, b] = 0.
  static Algebra bracket(const Algebra&, const Algebra&) { return Algebra::Zero(); }

  /// dexp_u(v) = v.
  static Algebra dexp(const Algebra&, const Algebra& v) { return v; }

  /// dexpinv_u(v) = v.
  static Algebra dexpinv(const Algebra&, const Algebra& v) { return v; }
};

}  // namespace liesim::lie
