// liesim/lie/actions.hpp — left group actions psi: G x M -> M used by the thesis models.
//
// Each action is a struct with
//   using Group; static constexpr int point_dim; using Point = Eigen::Matrix<double, point_dim, 1>;
//   act(g, m)        = psi(g, m), a LEFT action: act(g1, act(g2, m)) = act(g1 g2, m);
//   act_exp(xi, m)   = psi(exp(xi), m) (may avoid building exp(xi));
//   generator(xi, m) = psi_*(xi)|_m = d/dt|_{t=0} psi(exp(t xi), m)   [thesis (2.2.2)].
// Conventions: README.md (rotation-first se(3), row-major storage of matrices in points).
#pragma once

#include "liesim/lie/gl.hpp"
#include "liesim/lie/product.hpp"
#include "liesim/lie/rn.hpp"
#include "liesim/lie/se3.hpp"
#include "liesim/lie/so3.hpp"

#include <Eigen/Core>
#include <Eigen/SVD>

#include <array>
#include <cstddef>
#include <tuple>
#include <utility>

namespace liesim::lie {

/// SO(3) on R^3 by rotation: g·p = g p; generator xi × p [thesis §2.2, Example 3].
struct SO3OnR3 {
  using Group = SO3;
  static constexpr int point_dim = 3;
  using Point = Eigen::Matrix<double, point_dim, 1>;

  /// g·p = g p.
  static Point act(const Group::Element& g, const Point& p) { return g * p; }
  /// exp(xi) p by Rodrigues on the vector [thesis Example 12, erratum 1].
  static Point act_exp(const Group::Algebra& xi, const Point& p) { return SO3::act_exp(xi, p); }
  /// psi_*(xi)|_p = xi × p.
  static Point generator(const Group::Algebra& xi, const Point& p) { return xi.cross(p); }
};

/// Coadjoint action of SO(3) on so(3)* ≅ R^3: g·mu = Ad*_{g^-1} mu = g mu; generator xi × mu
/// (= -ad*_xi mu); preserves |mu| [thesis Example 10, notes §2.2].
struct SO3Coadjoint {
  using Group = SO3;
  static constexpr int point_dim = 3;
  using Point = Eigen::Matrix<double, point_dim, 1>;

  /// g·mu = Ad*_{g^-1} mu = g mu.
  static Point act(const Group::Element& g, const Point& mu) { return g * mu; }
  /// exp(xi)·mu = exp(xi) mu (Rodrigues on the vector).
  static Point act_exp(const Group::Algebra& xi, const Point& mu) { return SO3::act_exp(xi, mu); }
  /// psi_*(xi)|_mu = xi × mu.
  static Point generator(const Group::Algebra& xi, const Point& mu) { return xi.cross(mu); }
};

/// SE(3) on TS^2 ⊂ R^6 (restricted adjoint action), point m = (q, w):
/// (A, a)·(q, w) = (A q, A w + a × A q); generator (u × q, u × w + v × q) for xi = (u, v);
/// preserves |q| and q·w [thesis §2.5.1, (3.3.1); notes §2.4].
struct SE3OnTS2 {
  using Group = SE3;
  static constexpr int point_dim = 6;
  using Point = Eigen::Matrix<double, point_dim, 1>;

  /// (A, a)·(q, w) = (A q, A w + a × A q).
  static Point act(const Group::Element& g, const Point& m) {
    Point out;
    const Eigen::Vector3d Aq = g.R * m.head<3>();
    out.head<3>() = Aq;
    out.tail<3>() = g.R * m.tail<3>() + g.r.cross(Aq);
    return out;
  }
  /// exp(u, v)·(q, w) with the rotation applied by Rodrigues on vectors.
  static Point act_exp(const Group::Algebra& xi, const Point& m) {
    const SO3::Exp e(xi.head<3>());
    const Eigen::Vector3d Aq = e.rotate(m.head<3>());
    const Eigen::Vector3d a = e.dexp(xi.tail<3>());  // V(u) v
    Point out;
    out.head<3>() = Aq;
    out.tail<3>() = e.rotate(m.tail<3>()) + a.cross(Aq);
    return out;
  }
  /// psi_*(u, v)|_(q,w) = (u × q, u × w + v × q).
  static Point generator(const Group::Algebra& xi, const Point& m) {
    Point out;
    out.head<3>() = xi.head<3>().cross(m.head<3>());
    out.tail<3>() = xi.head<3>().cross(m.tail<3>()) + xi.tail<3>().cross(m.head<3>());
    return out;
  }
  /// Orthogonal projection onto TS^2: q <- q/|q|, w <- w - (q.w) q (used by projection methods).
  static void project(Point& m) {
    const Eigen::Vector3d q = m.head<3>().normalized();
    const Eigen::Vector3d w = m.tail<3>();
    m.head<3>() = q;
    m.tail<3>() = w - q.dot(w) * q;
  }
};

/// Coadjoint action of SE(3) on se(3)* ∋ (Pi, Gamma):
/// (g, u)·(Pi, Gamma) = Ad*_{(g,u)^-1}(Pi, Gamma) = (g Pi + u × g Gamma, g Gamma), using
/// Ad*_{(g,u)}(Pi, Gamma) = (g^-1(Pi - u × Gamma), g^-1 Gamma) [thesis §2.3.4.2];
/// generator (u × Pi + v × Gamma, u × Gamma) for xi = (u, v); preserves |Gamma| and Pi·Gamma.
struct SE3Coadjoint {
  using Group = SE3;
  static constexpr int point_dim = 6;
  using Point = Eigen::Matrix<double, point_dim, 1>;

  /// (g, u)·(Pi, Gamma) = (g Pi + u × g Gamma, g Gamma).
  static Point act(const Group::Element& g, const Point& m) {
    Point out;
    const Eigen::Vector3d gG = g.R * m.tail<3>();
    out.head<3>() = g.R * m.head<3>() + g.r.cross(gG);
    out.tail<3>() = gG;
    return out;
  }
  /// exp(u, v)·(Pi, Gamma) with the rotation applied by Rodrigues on vectors.
  static Point act_exp(const Group::Algebra& xi, const Point& m) {
    const SO3::Exp e(xi.head<3>());
    const Eigen::Vector3d gG = e.rotate(m.tail<3>());
    const Eigen::Vector3d a = e.dexp(xi.tail<3>());  // V(u) v
    Point out;
    out.head<3>() = e.rotate(m.head<3>()) + a.cross(gG);
    out.tail<3>() = gG;
    return out;
  }
  /// psi_*(u, v)|_(Pi,Gamma) = (u × Pi + v × Gamma, u × Gamma) (= -ad*_(u,v)(Pi, Gamma)).
  static Point generator(const Group::Algebra& xi, const Point& m) {
    Point out;
    out.head<3>() = xi.head<3>().cross(m.head<3>()) + xi.tail<3>().cross(m.tail<3>());
    out.tail<3>() = xi.head<3>().cross(m.tail<3>());
    return out;
  }
};

namespace detail {
using RowMajor3 = Eigen::Matrix<double, 3, 3, Eigen::RowMajor>;
/// View of 9 numbers (row-major) as a 3x3 matrix.
template <class Derived>
auto as_matrix(const Eigen::MatrixBase<Derived>& m) {
  return Eigen::Map<const RowMajor3>(m.derived().data());
}
/// Write a 3x3 matrix into 9 numbers, row-major.
template <class Derived, class M>
void store_row_major(Eigen::MatrixBase<Derived>& out, const M& R) {
  Eigen::Map<RowMajor3>(out.derived().data()) = R;
}
/// The rotation nearest to M in the Frobenius norm (polar factor, via the SVD; det +1).
inline Eigen::Matrix3d nearest_rotation(const Eigen::Matrix3d& M) {
  const Eigen::JacobiSVD<Eigen::Matrix3d> svd(M, Eigen::ComputeFullU | Eigen::ComputeFullV);
  Eigen::Matrix3d D = Eigen::Matrix3d::Identity();
  D(2, 2) = (svd.matrixU() * svd.matrixV().transpose()).determinant() < 0 ? -1.0 : 1.0;
  return svd.matrixU() * D * svd.matrixV().transpose();
}
}  // namespace detail

/// SO(3) on itself by left multiplication, point = R stored row-major (9 numbers):
/// B·R = B R; generator hat(xi) R; preserves R^T R = I [thesis §2.6.1].
struct SO3OnSO3 {
  using Group = SO3;
  static constexpr int point_dim = 9;
  using Point = Eigen::Matrix<double, point_dim, 1>;

  /// B·R = B R.
  static Point act(const Group::Element& B, const Point& m) {
    Point out;
    detail::store_row_major(out, B * detail::as_matrix(m));
    return out;
  }
  /// exp(xi) R.
  static Point act_exp(const Group::Algebra& xi, const Point& m) { return act(SO3::exp(xi), m); }
  /// psi_*(xi)|_R = hat(xi) R.
  static Point generator(const Group::Algebra& xi, const Point& m) {
    Point out;
    detail::store_row_major(out, SO3::hat(xi) * detail::as_matrix(m));
    return out;
  }
  /// Projection onto SO(3): the nearest rotation (polar decomposition).
  static void project(Point& m) {
    const Eigen::Matrix3d R = detail::nearest_rotation(detail::as_matrix(m));
    detail::store_row_major(m, R);
  }
};

/// The direct product SO(3) x R^3 on TSO(3) ∋ (R, Omega), point = (R row-major, Omega) (12 numbers):
/// (B, b)·(R, Omega) = (B R, Omega + b); generator (hat(eta) R, beta) for xi = (eta, beta)
/// [thesis §2.6.1 (direct, not semidirect, product — erratum 6), §2.3.4.3].
struct SO3xR3OnTSO3 {
  using Group = Product<SO3, Rn<3>>;
  static constexpr int point_dim = 12;
  using Point = Eigen::Matrix<double, point_dim, 1>;

  /// (B, b)·(R, Omega) = (B R, Omega + b).
  static Point act(const Group::Element& g, const Point& m) {
    Point out;
    auto Rout = out.head<9>();
    detail::store_row_major(Rout, std::get<0>(g) * detail::as_matrix(m.head<9>()));
    out.tail<3>() = m.tail<3>() + std::get<1>(g);
    return out;
  }
  /// exp(eta, beta)·(R, Omega) = (exp(eta) R, Omega + beta).
  static Point act_exp(const Group::Algebra& xi, const Point& m) { return act(Group::exp(xi), m); }
  /// psi_*(eta, beta)|_(R,Omega) = (hat(eta) R, beta).
  static Point generator(const Group::Algebra& xi, const Point& m) {
    Point out;
    auto Rout = out.head<9>();
    detail::store_row_major(Rout, SO3::hat(xi.head<3>()) * detail::as_matrix(m.head<9>()));
    out.tail<3>() = xi.tail<3>();
    return out;
  }
  /// Projection onto TSO(3) = SO(3) x R^3: the nearest rotation; Omega unchanged.
  static void project(Point& m) {
    auto R = m.head<9>();
    const Eigen::Matrix3d P = detail::nearest_rotation(detail::as_matrix(R));
    detail::store_row_major(R, P);
  }
};

/// (R^N, +) acting on R^N by translation: a·x = x + a; generator psi_*(xi)|_x = xi. Used for the
/// vector-space factors of phase spaces (e.g. R^6 of the quadrotor, thesis §2.6.1).
template <int N>
struct RnTranslation {
  using Group = Rn<N>;
  static constexpr int point_dim = N;
  using Point = Eigen::Matrix<double, N, 1>;
  /// a·x = x + a.
  static Point act(const typename Group::Element& a, const Point& x) { return x + a; }
  /// exp(xi)·x = x + xi.
  static Point act_exp(const typename Group::Algebra& xi, const Point& x) { return x + xi; }
  /// psi_*(xi)|_x = xi.
  static Point generator(const typename Group::Algebra& xi, const Point&) { return xi; }
  /// R^N is its own manifold: nothing to project.
  static void project(Point&) {}
};

/// Product action of Product<A_1::Group, ..., A_n::Group> on M_1 x ... x M_n (points
/// concatenated): psi(g, m) = (psi_1(g_1, m_1), ..., psi_n(g_n, m_n)) [thesis §3.3.2].
template <class... A>
struct ProductAction {
  using Group = Product<typename A::Group...>;
  static constexpr std::size_t count = sizeof...(A);
  static constexpr int point_dim = (A::point_dim + ...);
  using Point = Eigen::Matrix<double, point_dim, 1>;
  /// The k-th factor action.
  template <std::size_t k>
  using Factor = std::tuple_element_t<k, std::tuple<A...>>;

 private:
  template <class F>
  static void for_each(F&& f) {
    detail::for_each_block<count>(f);
  }

 public:
  /// point_offsets[k] = start of factor k's point in the concatenated point.
  static constexpr std::array<int, count + 1> point_offsets = detail::block_offsets<count>({A::point_dim...});

  /// Point block k (fixed-size segment view).
  template <std::size_t k, class Derived>
  static auto point_block(Eigen::MatrixBase<Derived>& m) {
    return m.template segment<Factor<k>::point_dim>(point_offsets[k]);
  }
  /// Point block k (read-only view).
  template <std::size_t k, class Derived>
  static auto point_block(const Eigen::MatrixBase<Derived>& m) {
    return m.template segment<Factor<k>::point_dim>(point_offsets[k]);
  }

  /// psi(g, m) = (psi_k(g_k, m_k))_k.
  static Point act(const typename Group::Element& g, const Point& m) {
    Point out;
    for_each([&](auto k) {
      point_block<k>(out) = Factor<k>::act(std::get<k>(g), point_block<k>(m));
    });
    return out;
  }
  /// psi(exp(xi), m) = (act_exp_k(xi_k, m_k))_k.
  static Point act_exp(const typename Group::Algebra& xi, const Point& m) {
    Point out;
    for_each([&](auto k) {
      point_block<k>(out) = Factor<k>::act_exp(Group::template block<k>(xi), point_block<k>(m));
    });
    return out;
  }
  /// psi_*(xi)|_m = (generator_k(xi_k, m_k))_k.
  static Point generator(const typename Group::Algebra& xi, const Point& m) {
    Point out;
    for_each([&](auto k) {
      point_block<k>(out) = Factor<k>::generator(Group::template block<k>(xi), point_block<k>(m));
    });
    return out;
  }
  /// Componentwise projection; available when every factor has one.
  static void project(Point& m)
    requires(requires(typename A::Point& p) { A::project(p); } && ...)
  {
    for_each([&](auto k) {
      typename Factor<k>::Point block = point_block<k>(m);
      Factor<k>::project(block);
      point_block<k>(m) = block;
    });
  }
};

/// GL(N) on symmetric matrices by congruence: g . A = g A g^T (entries row by row); generator
/// psi_*(X)|_A = X A + A X^T. Transitive on the symmetric positive-definite matrices, which it
/// keeps (thesis Example 11: the affine-invariant metric is invariant under it).
template <int N>
struct GLCongruence {
  using Group = GL<N>;
  static constexpr int point_dim = N * N;
  using Point = Eigen::Matrix<double, point_dim, 1>;

  /// g . A = g A g^T.
  static Point act(const typename Group::Element& g, const Point& p) {
    return Group::vee(g * Group::hat(p) * g.transpose());
  }
  /// exp(X) A exp(X)^T.
  static Point act_exp(const typename Group::Algebra& xi, const Point& p) { return act(Group::exp(xi), p); }
  /// X A + A X^T.
  static Point generator(const typename Group::Algebra& xi, const Point& p) {
    const typename Group::Matrix X = Group::hat(xi), A = Group::hat(p);
    return Group::vee(X * A + A * X.transpose());
  }
};

}  // namespace liesim::lie
