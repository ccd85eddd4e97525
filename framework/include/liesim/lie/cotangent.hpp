// liesim/lie/cotangent.hpp — the dual (coadjoint) operations of the groups in this folder, for
// Hamiltonian systems on T*G = G x g* (right trivialisation, thesis of E. Cokaj §2.3), and the
// packing of group elements into flat arrays of numbers.
//
// Conventions (README.md): g* = R^dim paired with g = R^dim by the dot product, so every dual
// operator is the transpose of its algebra operator:
//   Ad*_a mu      with <Ad*_a mu, eta> = <mu, Ad_a eta>            (Ad*_a = Ad_a^T),
//   ad*_xi mu     with <ad*_xi mu, eta> = <mu, [xi, eta]>          (ad*_xi = ad_xi^T; so(3): -xi x mu),
//   dexp*_xi mu   with <dexp*_xi mu, eta> = <mu, dexp_xi eta>      (dexp right-trivialised),
//   dexpinv*_xi   = (dexp*_xi)^-1.
// Generic in the group: the transposes are formed from the group's own Ad, ad, dexp and dexpinv
// (dim <= 6 here, so a dim x dim matrix per call), never from a second copy of their formulas.
#pragma once
#include <liesim/lie/product.hpp>
#include <liesim/lie/rn.hpp>
#include <liesim/lie/so3.hpp>

#include <Eigen/Core>

#include <tuple>

namespace liesim::lie {

/// Ad*_{exp(xi)} mu.
template <class G>
typename G::Algebra coadjoint_exp(const typename G::Algebra& xi, const typename G::Algebra& mu) {
  return G::Ad(G::exp(xi)).transpose() * mu;
}

/// ad*_xi mu = ad_xi^T mu.
template <class G>
typename G::Algebra coadjoint_ad(const typename G::Algebra& xi, const typename G::Algebra& mu) {
  return G::ad(xi).transpose() * mu;
}

namespace detail {
/// The matrix of the linear map v -> op(v) on g (column j = op(e_j)).
template <class G, class Op>
Eigen::Matrix<double, G::dim, G::dim> matrix_of(Op&& op) {
  Eigen::Matrix<double, G::dim, G::dim> m;
  for (int j = 0; j < G::dim; ++j) m.col(j) = op(G::Algebra::Unit(j));
  return m;
}
}  // namespace detail

/// dexp*_xi mu = dexp_xi^T mu.
template <class G>
typename G::Algebra dexp_dual(const typename G::Algebra& xi, const typename G::Algebra& mu) {
  return detail::matrix_of<G>([&](const typename G::Algebra& v) { return typename G::Algebra(G::dexp(xi, v)); }).transpose() * mu;
}

/// dexpinv*_xi mu = dexpinv_xi^T mu = (dexp*_xi)^-1 mu.
template <class G>
typename G::Algebra dexpinv_dual(const typename G::Algebra& xi, const typename G::Algebra& mu) {
  return detail::matrix_of<G>([&](const typename G::Algebra& v) { return typename G::Algebra(G::dexpinv(xi, v)); }).transpose() * mu;
}

/// Numbers of a packed group element: SO(3) 9 (row-major), R^N N, products the concatenation.
template <class G>
struct Packing;

template <>
struct Packing<SO3> {
  static constexpr int size = 9;
  static void pack(const SO3::Element& g, double* out) {
    Eigen::Map<Eigen::Matrix<double, 3, 3, Eigen::RowMajor>> m(out);
    m = g;
  }
  static SO3::Element unpack(const double* in) { return Eigen::Map<const Eigen::Matrix<double, 3, 3, Eigen::RowMajor>>(in); }
};

template <int N>
struct Packing<Rn<N>> {
  static constexpr int size = N;
  static void pack(const typename Rn<N>::Element& g, double* out) {
    Eigen::Map<typename Rn<N>::Element> m(out);
    m = g;
  }
  static typename Rn<N>::Element unpack(const double* in) { return Eigen::Map<const typename Rn<N>::Element>(in); }
};

template <class... G>
struct Packing<Product<G...>> {
  using P = Product<G...>;
  static constexpr int size = (Packing<G>::size + ...);
  static constexpr auto offsets = detail::block_offsets<P::count>({Packing<G>::size...});
  static void pack(const typename P::Element& g, double* out) {
    detail::for_each_block<P::count>([&](auto k) { Packing<typename P::template Factor<k>>::pack(std::get<k>(g), out + offsets[k]); });
  }
  static typename P::Element unpack(const double* in) {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      return typename P::Element{Packing<typename P::template Factor<I>>::unpack(in + offsets[I])...};
    }(std::make_index_sequence<P::count>{});
  }
};

/// out = exp(xi) g on packed elements (left multiplication).
template <class G>
void exp_mult_packed(const typename G::Algebra& xi, const double* g, double* out) {
  Packing<G>::pack(G::compose(G::exp(xi), Packing<G>::unpack(g)), out);
}

}  // namespace liesim::lie
