// liesim/lie/product.hpp — direct products G_1 x ... x G_n of the groups in this folder.
//
// Conventions (README.md): everything componentwise [thesis §3.3.2]; the algebra vector is the
// concatenation (xi_1, ..., xi_n) in factor order, Ad/ad are block diagonal, the matrix
// representation is block diagonal. Examples: SO(3) x R^3 (heavy top, thesis §2.3.4.3),
// SE(3)^N ((TS^2)^N pendulum, thesis §2.5.1), the quadrotor group (thesis §2.6.1).
#pragma once

#include <Eigen/Core>

#include <array>
#include <cstddef>
#include <tuple>
#include <utility>

namespace liesim::lie {

namespace detail {
/// Start of each block when blocks of sizes d are concatenated (the last entry is the total).
template <std::size_t N>
constexpr std::array<int, N + 1> block_offsets(const std::array<int, N>& d) {
  std::array<int, N + 1> o{};
  for (std::size_t k = 0; k < N; ++k) o[k + 1] = o[k] + d[k];
  return o;
}
/// Call f(std::integral_constant<std::size_t, k>{}) for k = 0 .. N-1 (compile-time block loop).
template <std::size_t N, class F>
void for_each_block(F&& f) {
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (f(std::integral_constant<std::size_t, I>{}), ...);
  }(std::make_index_sequence<N>{});
}
}  // namespace detail

/// Direct product group G_1 x ... x G_n (componentwise product, exp, log, dexp, ...).
template <class... G>
struct Product {
  static_assert(sizeof...(G) > 0, "Product needs at least one factor");
  /// Number of factors.
  static constexpr std::size_t count = sizeof...(G);
  static constexpr int dim = (G::dim + ...);
  /// Size of the block-diagonal matrix representation.
  static constexpr int matrix_dim = (G::matrix_dim + ...);
  using Algebra = Eigen::Matrix<double, dim, 1>;
  using Element = std::tuple<typename G::Element...>;
  using Matrix = Eigen::Matrix<double, matrix_dim, matrix_dim>;
  using AdMatrix = Eigen::Matrix<double, dim, dim>;
  /// The k-th factor group.
  template <std::size_t k>
  using Factor = std::tuple_element_t<k, std::tuple<G...>>;

 private:
  template <class F>
  static void for_each(F&& f) {
    detail::for_each_block<count>(f);
  }

 public:
  /// offsets[k] = start of factor k in the algebra vector (offsets[count] = dim).
  static constexpr std::array<int, count + 1> offsets = detail::block_offsets<count>({G::dim...});
  /// matrix_offsets[k] = start of factor k's block in the matrix representation.
  static constexpr std::array<int, count + 1> matrix_offsets = detail::block_offsets<count>({G::matrix_dim...});

  /// Block k of an algebra vector (a fixed-size segment view).
  template <std::size_t k, class Derived>
  static auto block(Eigen::MatrixBase<Derived>& xi) {
    return xi.template segment<Factor<k>::dim>(offsets[k]);
  }
  /// Block k of an algebra vector (read-only view).
  template <std::size_t k, class Derived>
  static auto block(const Eigen::MatrixBase<Derived>& xi) {
    return xi.template segment<Factor<k>::dim>(offsets[k]);
  }

  /// Identity (e_1, ..., e_n).
  static Element identity() { return Element{G::identity()...}; }

  /// (a_1..a_n)(b_1..b_n) = (a_1 b_1, ..., a_n b_n) [thesis §3.3.2].
  static Element compose(const Element& a, const Element& b) {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      return Element{Factor<I>::compose(std::get<I>(a), std::get<I>(b))...};
    }(std::make_index_sequence<count>{});
  }

  /// (g_1..g_n)^-1 = (g_1^-1, ..., g_n^-1).
  static Element inverse(const Element& g) {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      return Element{Factor<I>::inverse(std::get<I>(g))...};
    }(std::make_index_sequence<count>{});
  }

  /// exp(xi_1..xi_n) = (exp xi_1, ..., exp xi_n) [thesis §3.3.2].
  static Element exp(const Algebra& xi) {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      return Element{Factor<I>::exp(block<I>(xi))...};
    }(std::make_index_sequence<count>{});
  }

  /// log(g_1..g_n) = (log g_1, ..., log g_n).
  static Algebra log(const Element& g) {
    Algebra xi;
    for_each([&](auto k) { block<k>(xi) = Factor<k>::log(std::get<k>(g)); });
    return xi;
  }

  /// Ad_g = blockdiag(Ad_{g_1}, ..., Ad_{g_n}).
  static AdMatrix Ad(const Element& g) {
    AdMatrix m = AdMatrix::Zero();
    for_each([&](auto k) {
      constexpr int d = Factor<k>::dim;
      m.template block<d, d>(offsets[k], offsets[k]) = Factor<k>::Ad(std::get<k>(g));
    });
    return m;
  }

  /// ad_xi = blockdiag(ad_{xi_1}, ..., ad_{xi_n}).
  static AdMatrix ad(const Algebra& xi) {
    AdMatrix m = AdMatrix::Zero();
    for_each([&](auto k) {
      constexpr int d = Factor<k>::dim;
      m.template block<d, d>(offsets[k], offsets[k]) = Factor<k>::ad(block<k>(xi));
    });
    return m;
  }

  /// [x, y] = ([x_1, y_1], ..., [x_n, y_n]).
  static Algebra bracket(const Algebra& x, const Algebra& y) {
    Algebra z;
    for_each([&](auto k) { block<k>(z) = Factor<k>::bracket(block<k>(x), block<k>(y)); });
    return z;
  }

  /// dexp_u(v) = (dexp_{u_1} v_1, ..., dexp_{u_n} v_n).
  static Algebra dexp(const Algebra& u, const Algebra& v) {
    Algebra z;
    for_each([&](auto k) { block<k>(z) = Factor<k>::dexp(block<k>(u), block<k>(v)); });
    return z;
  }

  /// dexpinv_u(v) = (dexpinv_{u_1} v_1, ..., dexpinv_{u_n} v_n) [blockwise, notes §2.4].
  static Algebra dexpinv(const Algebra& u, const Algebra& v) {
    Algebra z;
    for_each([&](auto k) { block<k>(z) = Factor<k>::dexpinv(block<k>(u), block<k>(v)); });
    return z;
  }

  /// hat(xi) = blockdiag(hat xi_1, ..., hat xi_n) (block-diagonal matrix representation).
  static Matrix hat(const Algebra& xi) {
    Matrix m = Matrix::Zero();
    for_each([&](auto k) {
      constexpr int d = Factor<k>::matrix_dim;
      m.template block<d, d>(matrix_offsets[k], matrix_offsets[k]) = Factor<k>::hat(block<k>(xi));
    });
    return m;
  }

  /// vee of a block-diagonal matrix: (vee of each diagonal block).
  static Algebra vee(const Matrix& m) {
    Algebra xi;
    for_each([&](auto k) {
      constexpr int d = Factor<k>::matrix_dim;
      block<k>(xi) = Factor<k>::vee(m.template block<d, d>(matrix_offsets[k], matrix_offsets[k]));
    });
    return xi;
  }

  /// Block-diagonal matrix representation of g.
  static Matrix matrix(const Element& g) {
    Matrix m = Matrix::Zero();
    for_each([&](auto k) {
      constexpr int d = Factor<k>::matrix_dim;
      m.template block<d, d>(matrix_offsets[k], matrix_offsets[k]) =
          Factor<k>::matrix(std::get<k>(g));
    });
    return m;
  }
};

}  // namespace liesim::lie
