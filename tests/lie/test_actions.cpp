// Property tests run over every action of liesim/lie/actions.hpp: left-action property, identity,
// act_exp = act(exp), generator = d/dt act_exp(t xi) at 0, and the invariants each action keeps.
#define EIGEN_RUNTIME_NO_MALLOC
#include "liesim/lie/actions.hpp"

#include "random_elements.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

using namespace liesim::lie;
using namespace liesim::lie::test;

namespace {


Eigen::Matrix<double, 9, 1> row_major(const Eigen::Matrix3d& R) {
  Eigen::Matrix<double, 9, 1> m;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) m[3 * i + j] = R(i, j);
  return m;
}
Eigen::Matrix3d from_row_major(const Eigen::Matrix<double, 9, 1>& m) {
  Eigen::Matrix3d R;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) R(i, j) = m[3 * i + j];
  return R;
}
void append_orthogonality(std::vector<double>& inv, const Eigen::Matrix<double, 9, 1>& m) {
  const Eigen::Matrix3d R = from_row_major(m);
  const Eigen::Matrix3d E = R.transpose() * R - Eigen::Matrix3d::Identity();
  for (int i = 0; i < 9; ++i) inv.push_back(E.data()[i]);
  inv.push_back(R.determinant());
}

// Per action: a random point and the quantities the action preserves.
template <class A>
struct Traits;
template <>
struct Traits<SO3OnR3> {
  static SO3OnR3::Point point(Rng& r) { return r.vec<3>(); }
  static void invariants(std::vector<double>& inv, const SO3OnR3::Point& p) {
    inv.push_back(p.norm());
  }
};
template <>
struct Traits<SO3Coadjoint> {
  static SO3Coadjoint::Point point(Rng& r) { return 2.0 * r.vec<3>(); }
  static void invariants(std::vector<double>& inv, const SO3Coadjoint::Point& mu) {
    inv.push_back(mu.norm());  // coadjoint orbits are spheres
  }
};
template <>
struct Traits<SE3OnTS2> {
  static SE3OnTS2::Point point(Rng& r) {
    // a point of TS^2: |q| = 1, w ⟂ q (also test a generic point of R^6: invariants still hold)
    const Eigen::Vector3d q = r.direction();
    const Eigen::Vector3d w = q.cross(r.vec<3>());
    const double off = r.uniform() > 0 ? 0.3 : 0.0;
    SE3OnTS2::Point m;
    m << q, w + off * q;
    return m;
  }
  static void invariants(std::vector<double>& inv, const SE3OnTS2::Point& m) {
    inv.push_back(m.head<3>().norm());
    inv.push_back(m.head<3>().dot(m.tail<3>()));
  }
};
template <>
struct Traits<SE3Coadjoint> {
  static SE3Coadjoint::Point point(Rng& r) { return r.vec<6>(); }
  static void invariants(std::vector<double>& inv, const SE3Coadjoint::Point& m) {
    inv.push_back(m.tail<3>().norm());            // |Gamma|
    inv.push_back(m.head<3>().dot(m.tail<3>()));  // Pi . Gamma
  }
};
template <>
struct Traits<SO3OnSO3> {
  static SO3OnSO3::Point point(Rng& r) { return row_major(SO3::exp(Gen<SO3>::algebra(r, 2.5))); }
  static void invariants(std::vector<double>& inv, const SO3OnSO3::Point& m) {
    append_orthogonality(inv, m);
  }
};
template <>
struct Traits<SO3xR3OnTSO3> {
  static SO3xR3OnTSO3::Point point(Rng& r) {
    SO3xR3OnTSO3::Point m;
    m << row_major(SO3::exp(Gen<SO3>::algebra(r, 1.5))), r.vec<3>();
    return m;
  }
  static void invariants(std::vector<double>& inv, const SO3xR3OnTSO3::Point& m) {
    append_orthogonality(inv, m.head<9>());
  }
};
template <class... A>
struct Traits<ProductAction<A...>> {
  using PA = ProductAction<A...>;
  static typename PA::Point point(Rng& r) {
    typename PA::Point m;
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      ((PA::template point_block<I>(m) = Traits<typename PA::template Factor<I>>::point(r)), ...);
    }(std::make_index_sequence<PA::count>{});
    return m;
  }
  static void invariants(std::vector<double>& inv, const typename PA::Point& m) {
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      (Traits<typename PA::template Factor<I>>::invariants(
           inv, typename PA::template Factor<I>::Point(PA::template point_block<I>(m))),
       ...);
    }(std::make_index_sequence<PA::count>{});
  }
};

template <class A>
std::vector<double> invariants(const typename A::Point& m) {
  std::vector<double> v;
  Traits<A>::invariants(v, m);
  return v;
}
double max_diff(const std::vector<double>& a, const std::vector<double>& b) {
  double d = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) d = std::max(d, std::abs(a[i] - b[i]));
  return d;
}

const std::vector<double> angles = {0.0, 1e-9, 1e-3, 1e-2 * (1 - 1e-12), 1e-2 * (1 + 1e-12),
                                    0.5, 1.0, 2.0, 3.0, pi - 1e-6};

}  // namespace

#define LIE_ACTIONS                                                                        \
  SO3OnR3, SO3Coadjoint, SE3OnTS2, SE3Coadjoint, SO3OnSO3, SO3xR3OnTSO3,                   \
      ProductAction<SE3OnTS2, SE3OnTS2>, ProductAction<SO3xR3OnTSO3, SE3Coadjoint, SO3OnR3>

TEST_CASE_TEMPLATE("action: left action property and identity", A, LIE_ACTIONS) {
  using G = typename A::Group;
  Rng rng(31);
  for (double angle : angles) {
    for (int rep = 0; rep < 10; ++rep) {
      const auto g1 = G::exp(Gen<G>::algebra(rng, angle));
      const auto g2 = G::exp(Gen<G>::algebra(rng, 3.0 * rng.uniform(0, 1)));
      const typename A::Point m = Traits<A>::point(rng);
      CAPTURE(angle);
      const typename A::Point lhs = A::act(g1, A::act(g2, m));
      const typename A::Point rhs = A::act(G::compose(g1, g2), m);
      CHECK((lhs - rhs).norm() <= 16 * eps * (1.0 + m.norm()));
      CHECK((A::act(G::identity(), m) - m).norm() == 0.0);
      // and it is not a right action (the order matters for these non-abelian groups)
      const typename A::Point wrong = A::act(G::compose(g2, g1), m);
      if (angle > 0.1) CHECK((wrong - lhs).norm() > 1e-6);
    }
  }
}

TEST_CASE_TEMPLATE("action: act_exp equals act(exp)", A, LIE_ACTIONS) {
  using G = typename A::Group;
  Rng rng(32);
  for (double angle : angles) {
    for (int rep = 0; rep < 10; ++rep) {
      const auto xi = Gen<G>::algebra(rng, angle);
      const typename A::Point m = Traits<A>::point(rng);
      CAPTURE(angle);
      CHECK((A::act_exp(xi, m) - A::act(G::exp(xi), m)).norm() <= 8 * eps * (1.0 + m.norm()));
    }
  }
}

TEST_CASE_TEMPLATE("action: generator is d/dt act_exp(t xi, m) at t = 0", A, LIE_ACTIONS) {
  using G = typename A::Group;
  Rng rng(33);
  for (int rep = 0; rep < 30; ++rep) {
    const auto xi = Gen<G>::algebra(rng, 2.0 * rng.uniform(0, 1));
    const typename A::Point m = Traits<A>::point(rng);
    auto D = [&](double h) {
      const typename G::Algebra a = h * xi, b = -h * xi;
      return typename A::Point((A::act_exp(a, m) - A::act_exp(b, m)) / (2 * h));
    };
    const double h = 1e-3;
    const typename A::Point fd = (4 * D(h / 2) - D(h)) / 3;  // Richardson: O(h^4)
    CHECK((fd - A::generator(xi, m)).norm() <= 1e-11 * (1.0 + m.norm()));
  }
}

TEST_CASE_TEMPLATE("action: invariants are preserved", A, LIE_ACTIONS) {
  using G = typename A::Group;
  Rng rng(34);
  for (double angle : angles) {
    for (int rep = 0; rep < 10; ++rep) {
      const auto xi = Gen<G>::algebra(rng, angle);
      const typename A::Point m = Traits<A>::point(rng);
      const auto before = invariants<A>(m);
      CAPTURE(angle);
      CHECK(max_diff(invariants<A>(A::act(G::exp(xi), m)), before) <= 16 * eps);
      CHECK(max_diff(invariants<A>(A::act_exp(xi, m)), before) <= 16 * eps);
    }
  }
}

TEST_CASE_TEMPLATE("action: no heap allocation", A, LIE_ACTIONS) {
  using G = typename A::Group;
  Rng rng(35);
  const auto xi = Gen<G>::algebra(rng, 0.7);
  const typename A::Point m = Traits<A>::point(rng);
  Eigen::internal::set_is_malloc_allowed(false);
  const typename A::Point r = A::act(G::exp(xi), m) + A::act_exp(xi, m) + A::generator(xi, m);
  Eigen::internal::set_is_malloc_allowed(true);
  CHECK(std::isfinite(r.norm()));
}

TEST_CASE("SE3OnTS2 is the restriction of the adjoint action Ad_g on R^6 ≅ se(3)") {
  Rng rng(36);
  for (int rep = 0; rep < 20; ++rep) {
    const SE3::Element g = SE3::exp(Gen<SE3>::algebra(rng, 3.0 * rng.uniform(0, 1)));
    const SE3OnTS2::Point m = Traits<SE3OnTS2>::point(rng);
    CHECK((SE3OnTS2::act(g, m) - SE3::Ad(g) * m).norm() <= 8 * eps);
    const SE3::Algebra xi = Gen<SE3>::algebra(rng, 1.0);
    CHECK((SE3OnTS2::generator(xi, m) - SE3::ad(xi) * m).norm() <= 8 * eps);
  }
}

TEST_CASE("coadjoint actions: <g.mu, Ad_g xi> = <mu, xi> and generator = -ad*_xi mu") {
  Rng rng(37);
  for (int rep = 0; rep < 20; ++rep) {
    const SE3::Element g = SE3::exp(Gen<SE3>::algebra(rng, 3.0 * rng.uniform(0, 1)));
    const SE3::Algebra xi = Gen<SE3>::algebra(rng, 1.0);
    const SE3Coadjoint::Point mu = rng.vec<6>();
    // g.mu = Ad*_{g^-1} mu  <=>  <g.mu, Ad_g xi> = <mu, xi>; ad*_xi = (ad_xi)^T
    CHECK(std::abs(SE3Coadjoint::act(g, mu).dot(SE3::Ad(g) * xi) - mu.dot(xi)) <= 16 * eps);
    CHECK((SE3Coadjoint::generator(xi, mu) + SE3::ad(xi).transpose() * mu).norm() <= 8 * eps);
    // thesis §2.3.4.2: Ad*_{(g,u)}(Pi, Gamma) = (g^-1(Pi - u x Gamma), g^-1 Gamma) is the
    // inverse of act(g, .)
    SE3Coadjoint::Point back;
    const SE3Coadjoint::Point gm = SE3Coadjoint::act(g, mu);
    back << g.R.transpose() * (gm.head<3>() - g.r.cross(gm.tail<3>())), g.R.transpose() * gm.tail<3>();
    CHECK((back - mu).norm() <= 16 * eps);

    const SO3::Element R = SO3::exp(Gen<SO3>::algebra(rng, 2.0));
    const Eigen::Vector3d w = rng.vec<3>(), nu = rng.vec<3>();
    CHECK(std::abs(SO3Coadjoint::act(R, nu).dot(SO3::Ad(R) * w) - nu.dot(w)) <= 8 * eps);
    CHECK((SO3Coadjoint::generator(w, nu) + SO3::ad(w).transpose() * nu).norm() <= 4 * eps);
  }
}

TEST_CASE("SO3xR3OnTSO3 and ProductAction layouts") {
  Rng rng(38);
  using G = SO3xR3OnTSO3::Group;
  const G::Algebra xi = Gen<G>::algebra(rng, 1.1);
  const SO3xR3OnTSO3::Point m = Traits<SO3xR3OnTSO3>::point(rng);
  const SO3xR3OnTSO3::Point r = SO3xR3OnTSO3::act_exp(xi, m);
  const Eigen::Matrix3d R = from_row_major(m.head<9>());
  CHECK((from_row_major(r.head<9>()) - SO3::exp(xi.head<3>()) * R).norm() <= 8 * eps);
  CHECK((r.tail<3>() - (m.tail<3>() + xi.tail<3>())).norm() == 0.0);

  using PA = ProductAction<SO3xR3OnTSO3, SE3Coadjoint, SO3OnR3>;
  static_assert(PA::point_dim == 21 && PA::Group::dim == 15);
  static_assert(PA::point_offsets[1] == 12 && PA::point_offsets[2] == 18);
  const PA::Group::Algebra eta = Gen<PA::Group>::algebra(rng, 0.9);
  const PA::Point p = Traits<PA>::point(rng);
  const PA::Point q = PA::generator(eta, p);
  CHECK((q.segment<6>(12) - SE3Coadjoint::generator(eta.segment<6>(6), p.segment<6>(12))).norm() ==
        0.0);
  CHECK((q.tail<3>() - eta.tail<3>().cross(p.tail<3>())).norm() == 0.0);
}

TEST_CASE("projections land on the manifold, fix its points and are idempotent") {
  using namespace liesim::lie;
  SUBCASE("TS^2") {
    SE3OnTS2::Point m;
    m << 0.6, 0.0, 0.8, 0.0, 1.0, 0.0;
    SE3OnTS2::Point p = m;
    SE3OnTS2::project(p);
    CHECK((p - m).norm() == 0.0);  // on TS^2 already (|q| = 1, q.w = 0 exactly)
    m << 1.1, 0.2, 0.7, 0.3, -1.0, 0.5;
    p = m;
    SE3OnTS2::project(p);
    CHECK(std::abs(p.head<3>().norm() - 1.0) < 1e-15);
    CHECK(std::abs(p.head<3>().dot(p.tail<3>())) < 1e-15);
    SE3OnTS2::Point again = p;
    SE3OnTS2::project(again);
    CHECK((again - p).norm() < 1e-15);
  }
  SUBCASE("SO(3) and TSO(3)") {
    const Eigen::Matrix3d R = SO3::exp(Eigen::Vector3d(0.3, -1.2, 2.0));
    SO3xR3OnTSO3::Point m;
    auto block = m.head<9>();
    detail::store_row_major(block, Eigen::Matrix3d(R + 1e-3 * Eigen::Matrix3d::Ones()));
    m.tail<3>() << 1, 2, 3;
    SO3xR3OnTSO3::project(m);
    const Eigen::Matrix3d P = detail::as_matrix(m.head<9>());
    CHECK((P.transpose() * P - Eigen::Matrix3d::Identity()).norm() < 1e-14);
    CHECK(P.determinant() == doctest::Approx(1.0).epsilon(1e-14));
    CHECK((P - R).norm() < 3e-3);
    CHECK(m.tail<3>() == Eigen::Vector3d(1, 2, 3));
  }
  SUBCASE("products project factor by factor") {
    using A = ProductAction<RnTranslation<2>, SE3OnTS2>;
    A::Point m;
    m << 5, 6, 2.0, 0.0, 0.0, 1.0, 1.0, 0.0;
    A::project(m);
    CHECK(m.head<2>() == Eigen::Vector2d(5, 6));
    CHECK(m.segment<3>(2) == Eigen::Vector3d(1, 0, 0));
    CHECK(m.segment<3>(5) == Eigen::Vector3d(0, 1, 0));
  }
}
