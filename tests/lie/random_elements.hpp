// Shared helpers of the Lie group property tests: seeded random vectors and algebra elements.
#pragma once
#include "liesim/lie/product.hpp"
#include "liesim/lie/rn.hpp"
#include "liesim/lie/se3.hpp"
#include "liesim/lie/so3.hpp"

#include <limits>
#include <random>
#include <utility>

namespace liesim::lie::test {

inline constexpr double pi = 3.141592653589793238462643383279502884;
inline constexpr double eps = std::numeric_limits<double>::epsilon();

struct Rng {
  std::mt19937_64 gen;
  explicit Rng(unsigned long long seed) : gen(seed) {}
  double uniform(double a = -1.0, double b = 1.0) {
    return std::uniform_real_distribution<double>(a, b)(gen);
  }
  template <int N>
  Eigen::Matrix<double, N, 1> vec() {
    Eigen::Matrix<double, N, 1> x;
    for (int i = 0; i < N; ++i) x[i] = uniform();
    return x;
  }
  Eigen::Vector3d direction() {
    Eigen::Vector3d d;
    do d = vec<3>();
    while (d.norm() < 0.1 || d.norm() > 1.0);
    return d.normalized();
  }
};

// Random algebra elements whose rotational blocks have norm exactly `angle`; translational
// blocks are O(1).
template <class G>
struct Gen;
template <>
struct Gen<SO3> {
  static SO3::Algebra algebra(Rng& r, double angle) { return angle * r.direction(); }
};
template <>
struct Gen<SE3> {
  static SE3::Algebra algebra(Rng& r, double angle) {
    SE3::Algebra xi;
    xi << angle * r.direction(), r.vec<3>();
    return xi;
  }
};
template <int N>
struct Gen<Rn<N>> {
  static typename Rn<N>::Algebra algebra(Rng& r, double) { return r.vec<N>(); }
};
template <class... G>
struct Gen<Product<G...>> {
  using P = Product<G...>;
  static typename P::Algebra algebra(Rng& r, double angle) {
    typename P::Algebra xi;
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      ((P::template block<I>(xi) = Gen<typename P::template Factor<I>>::algebra(r, angle)), ...);
    }(std::make_index_sequence<P::count>{});
    return xi;
  }
};

}  // namespace liesim::lie::test
