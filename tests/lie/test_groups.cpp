// Property tests run over every group of liesim::lie (SO3, SE3, Rn, Product): exp/log, Ad, ad,
// bracket, dexp/dexpinv (exact vs series, vs finite differences), series switch continuity.
#define EIGEN_RUNTIME_NO_MALLOC
#include "liesim/lie/bernoulli.hpp"
#include "liesim/lie/product.hpp"
#include "liesim/lie/rn.hpp"
#include "liesim/lie/se3.hpp"
#include "liesim/lie/so3.hpp"

#include "random_elements.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

using namespace liesim::lie;
using namespace liesim::lie::test;

namespace {


// Norm of the difference of two group elements in the matrix representation.
template <class G>
double dist(const typename G::Element& a, const typename G::Element& b) {
  return (G::matrix(a) - G::matrix(b)).norm();
}

// Matrix exponential by scaling and squaring of a Taylor series (reference only).
template <class M>
M expm(const M& A) {
  const double n = A.norm();
  int s = 0;
  while (n / std::ldexp(1.0, s) > 0.25) ++s;
  const M B = A / std::ldexp(1.0, s);
  M term = M::Identity(B.rows(), B.cols());
  M sum = term;
  for (int k = 1; k <= 22; ++k) {
    term = (term * B / k).eval();
    sum += term;
  }
  for (int i = 0; i < s; ++i) sum = (sum * sum).eval();
  return sum;
}

// The series switch points and representative angles (incl. tiny, near the switches, near pi).
std::vector<double> test_angles(double max_angle) {
  std::vector<double> a = {0.0, 1e-12, 1e-9, 1e-6, 1e-3, 0.3, 0.7, 1.2, 2.0, 2.7, 3.0,
                           pi - 1e-6};
  for (double t : {coeff::Sinc::series_switch, coeff::AlphaMinusSin::series_switch,
                   coeff::DexpinvG2::series_switch, coeff::OneMinusCosTilde::series_switch,
                   coeff::AlphaMinusSinTilde::series_switch, coeff::DexpinvG2Tilde::series_switch}) {
    a.push_back(t * (1.0 - 1e-12));
    a.push_back(t);
    a.push_back(t * (1.0 + 1e-12));
  }
  for (double t : coeff::series_tiers) {  // where a series is cut to fewer terms
    a.push_back(t);
    a.push_back(t * (1.0 + 1e-12));
  }
  std::vector<double> out;
  for (double x : a)
    if (x <= max_angle) out.push_back(x);
  return out;
}

}  // namespace

#define LIE_GROUPS SO3, SE3, Rn<3>, Product<SO3, Rn<3>>, Product<SE3, SO3, Rn<2>>

TEST_CASE_TEMPLATE("exp/log round trip in both directions", G, LIE_GROUPS) {
  Rng rng(11);
  for (double angle : test_angles(pi - 1e-6)) {
    for (int rep = 0; rep < 20; ++rep) {
      const auto u = Gen<G>::algebra(rng, angle);
      const auto g = G::exp(u);
      const auto w = G::log(g);
      CAPTURE(angle);
      CHECK((w - u).norm() <= 4 * eps * (1.0 + u.norm()));
      CHECK(dist<G>(G::exp(w), g) <= 16 * eps);
    }
  }
}

TEST_CASE_TEMPLATE("exp agrees with the matrix exponential of hat", G, LIE_GROUPS) {
  Rng rng(12);
  for (double angle : test_angles(pi - 1e-6)) {
    const auto u = Gen<G>::algebra(rng, angle);
    CAPTURE(angle);
    CHECK((G::matrix(G::exp(u)) - expm(G::hat(u))).norm() <= 1e-14);
    CHECK((G::vee(G::hat(u)) - u).norm() == 0.0);
  }
}

TEST_CASE_TEMPLATE("group axioms: identity, inverse, associativity", G, LIE_GROUPS) {
  Rng rng(13);
  for (int rep = 0; rep < 50; ++rep) {
    const auto a = G::exp(Gen<G>::algebra(rng, 3.0 * rng.uniform(0, 1)));
    const auto b = G::exp(Gen<G>::algebra(rng, 3.0 * rng.uniform(0, 1)));
    const auto c = G::exp(Gen<G>::algebra(rng, 3.0 * rng.uniform(0, 1)));
    CHECK(dist<G>(G::compose(a, G::identity()), a) == 0.0);
    CHECK(dist<G>(G::compose(G::identity(), a), a) == 0.0);
    CHECK(dist<G>(G::compose(a, G::inverse(a)), G::identity()) <= 16 * eps);
    CHECK(dist<G>(G::compose(G::compose(a, b), c), G::compose(a, G::compose(b, c))) <= 8 * eps);
    CHECK((G::matrix(G::compose(a, b)) - G::matrix(a) * G::matrix(b)).norm() <= 8 * eps);
  }
}

TEST_CASE_TEMPLATE("Ad_g xi = vee(g hat(xi) g^-1) and Ad_{exp u} = expm(ad_u)", G, LIE_GROUPS) {
  Rng rng(14);
  for (double angle : test_angles(pi - 1e-6)) {
    const auto u = Gen<G>::algebra(rng, angle);
    const auto g = G::exp(u);
    const auto xi = Gen<G>::algebra(rng, 1.0);
    const auto M = G::matrix(g);
    const auto conj = G::vee(M * G::hat(xi) * G::matrix(G::inverse(g)));
    CAPTURE(angle);
    CHECK((G::Ad(g) * xi - conj).norm() <= 16 * eps * (1.0 + xi.norm()));
    CHECK((G::Ad(g) - expm(G::ad(u))).norm() <= 2e-14);
    // Ad is a homomorphism
    const auto h = G::exp(Gen<G>::algebra(rng, 2.0));
    CHECK((G::Ad(G::compose(g, h)) - G::Ad(g) * G::Ad(h)).norm() <= 16 * eps);
  }
}

TEST_CASE_TEMPLATE("bracket: antisymmetry, Jacobi, ad, matrix commutator", G, LIE_GROUPS) {
  Rng rng(15);
  for (int rep = 0; rep < 100; ++rep) {
    const auto a = Gen<G>::algebra(rng, 2.0 * rng.uniform(0, 1));
    const auto b = Gen<G>::algebra(rng, 2.0 * rng.uniform(0, 1));
    const auto c = Gen<G>::algebra(rng, 2.0 * rng.uniform(0, 1));
    CHECK((G::bracket(a, b) + G::bracket(b, a)).norm() == 0.0);
    const typename G::Algebra jac = G::bracket(a, G::bracket(b, c)) + G::bracket(b, G::bracket(c, a)) +
                     G::bracket(c, G::bracket(a, b));
    CHECK(jac.norm() <= 32 * eps);
    CHECK((G::ad(a) * b - G::bracket(a, b)).norm() <= 8 * eps);
    const typename G::Matrix comm = G::hat(a) * G::hat(b) - G::hat(b) * G::hat(a);
    CHECK((G::vee(comm) - G::bracket(a, b)).norm() <= 8 * eps);
  }
}

TEST_CASE_TEMPLATE("dexpinv and dexp are mutually inverse (|u| up to 3)", G, LIE_GROUPS) {
  Rng rng(16);
  for (double angle : test_angles(3.0)) {
    for (int rep = 0; rep < 20; ++rep) {
      const auto u = Gen<G>::algebra(rng, angle);
      const auto v = Gen<G>::algebra(rng, 1.0);
      CAPTURE(angle);
      CHECK((G::dexpinv(u, G::dexp(u, v)) - v).norm() <= 1e-14 * v.norm());
      CHECK((G::dexp(u, G::dexpinv(u, v)) - v).norm() <= 1e-14 * v.norm());
    }
  }
}

TEST_CASE_TEMPLATE("dexp_u(v) is the right-trivialised derivative of exp (finite differences)", G,
                   LIE_GROUPS) {
  // L(e) = log(exp(u + e v) exp(u)^-1); central differences with Richardson extrapolation.
  Rng rng(17);
  for (double angle : test_angles(3.0)) {
    const auto u = Gen<G>::algebra(rng, angle);
    const auto v = Gen<G>::algebra(rng, 1.0);
    const auto ginv = G::inverse(G::exp(u));
    auto L = [&](double e) {
      return G::log(G::compose(G::exp(typename G::Algebra(u + e * v)), ginv));
    };
    auto D = [&](double h) { return typename G::Algebra((L(h) - L(-h)) / (2 * h)); };
    const double h = 1e-3;
    const typename G::Algebra fd = (4 * D(h / 2) - D(h)) / 3;
    CAPTURE(angle);
    CHECK((fd - G::dexp(u, v)).norm() <= 1e-10);
    // and the left-trivialised derivative is NOT what dexp returns (unless the group is abelian)
    auto Lleft = [&](double e) {
      return G::log(G::compose(G::inverse(G::exp(u)), G::exp(typename G::Algebra(u + e * v))));
    };
    const typename G::Algebra fdl = (Lleft(h) - Lleft(-h)) / (2 * h);
    const double commut = G::bracket(u, v).norm();
    if (commut > 1e-3) CHECK((fdl - G::dexp(u, v)).norm() > 1e-4);
  }
}

TEST_CASE_TEMPLATE("exact dexp/dexpinv equal the Bernoulli series of order 20 for |u| <= 1", G,
                   LIE_GROUPS) {
  Rng rng(18);
  for (double angle : test_angles(1.0)) {
    for (int rep = 0; rep < 10; ++rep) {
      const auto u = Gen<G>::algebra(rng, angle);
      const auto v = Gen<G>::algebra(rng, 1.0);
      CAPTURE(angle);
      CHECK((G::dexpinv(u, v) - dexpinv_series<G>(u, v, 20)).norm() <= 1e-15 * v.norm());
      CHECK((G::dexp(u, v) - dexp_series<G>(u, v, 20)).norm() <= 1e-15 * v.norm());
    }
  }
}

TEST_CASE_TEMPLATE("dexp/dexpinv are continuous across every series switch and tier", G, LIE_GROUPS) {
  Rng rng(19);
  for (double t : {coeff::Sinc::series_switch, coeff::AlphaMinusSin::series_switch,
                   coeff::DexpinvG2::series_switch, coeff::OneMinusCosTilde::series_switch,
                   coeff::AlphaMinusSinTilde::series_switch,
                   coeff::DexpinvG2Tilde::series_switch, coeff::series_tiers[0], coeff::series_tiers[1],
                   coeff::series_tiers[2], coeff::series_tiers[3]}) {
    for (int rep = 0; rep < 20; ++rep) {
      const auto u = Gen<G>::algebra(rng, t);
      const auto v = Gen<G>::algebra(rng, 1.0);
      // lo and hi differ by ~2 ulp and fall on opposite sides of the switch; a branch mismatch
      // larger than round-off shows up as a jump (e.g. the closed-form g2~ at 1e-2: ~5e-14).
      const typename G::Algebra lo = u * (1.0 - eps), hi = u * (1.0 + eps);
      const double tol = 16 * eps * (1.0 + u.norm());
      CAPTURE(t);
      CHECK((G::dexpinv(lo, v) - G::dexpinv(hi, v)).norm() <= tol * v.norm());
      CHECK((G::dexp(lo, v) - G::dexp(hi, v)).norm() <= tol * v.norm());
      CHECK(dist<G>(G::exp(lo), G::exp(hi)) <= tol);
    }
  }
}

TEST_CASE_TEMPLATE("no heap allocation in the group functions", G, LIE_GROUPS) {
  Rng rng(20);
  const auto u = Gen<G>::algebra(rng, 0.9);
  const auto v = Gen<G>::algebra(rng, 0.5);
  Eigen::internal::set_is_malloc_allowed(false);
  const auto g = G::compose(G::exp(u), G::inverse(G::exp(v)));
  const auto w = G::log(g);
  const typename G::Algebra a = G::dexpinv(u, G::dexp(u, v)) + G::bracket(u, w) + G::Ad(g) * v + G::ad(u) * v;
  const auto s = dexpinv_series<G>(u, v, 8);
  Eigen::internal::set_is_malloc_allowed(true);
  CHECK(std::isfinite(a.norm() + s.norm()));
}

// ---------------------------------------------------------------------------------------------
// Scalar coefficient functions: closed form vs series at the switch point.

#define COEFFS                                                                               \
  coeff::Sinc, coeff::OneMinusCos, coeff::AlphaMinusSin, coeff::DexpinvG2,                   \
      coeff::OneMinusCosTilde, coeff::AlphaMinusSinTilde, coeff::DexpinvG2Tilde

TEST_CASE_TEMPLATE("coefficient: closed form equals series at the switch", F, COEFFS) {
  const double t = F::series_switch;
  for (double a : {t * (1 - 1e-12), t, t * (1 + 1e-12)}) {
    const double c = F::closed(a), s = F::series(a);
    CAPTURE(a);
    CHECK(std::abs(c - s) <= 12 * eps * std::abs(s));
    CHECK(F::eval(a) == (a < t ? s : c));
  }
}

TEST_CASE_TEMPLATE("coefficient: the series cut at each tier equals the whole series to round-off", F, COEFFS) {
  // Every term is summed above the last tier; below, the left-out terms are < 2^-56 of the value.
  // 20,000 angles in (0, switch), and both sides of every tier: within 2 ulp of the whole sum
  // (the order of the additions differs), continuous across each tier.
  const auto whole = [](double a) { return coeff::detail::horner(F::c, a * a); };
  double worst = 0.0;
  for (int k = 0; k <= 20000; ++k) {
    const double a = F::series_switch * k / 20000.0;
    if (a >= F::series_switch) break;
    worst = std::max(worst, std::abs(F::series(a) - whole(a)) / std::abs(whole(a)));
  }
  CAPTURE(worst);
  CHECK(worst <= 2 * eps);
  for (double t : coeff::series_tiers) {
    if (t >= F::series_switch) continue;
    const double lo = F::series(t), hi = F::series(t * (1 + eps));
    CAPTURE(t);
    CHECK(std::abs(lo - hi) <= 4 * eps * std::abs(lo));
    CHECK(std::abs(lo - whole(t)) <= 2 * eps * std::abs(lo));
  }
  // The cut is real: at the smallest tier the series sums fewer terms than the whole.
  CHECK(coeff::detail::terms_for(F::c, coeff::series_tiers[0]) < F::c.size());
}

TEST_CASE("SO3::Exp (coefficients once for several vectors) equals act_exp and dexp term for term") {
  Rng rng(23);
  for (double angle : test_angles(pi - 1e-6)) {
    const Eigen::Vector3d u = Gen<SO3>::algebra(rng, angle), p = rng.vec<3>(), v = rng.vec<3>();
    const SO3::Exp e(u);
    CAPTURE(angle);
    CHECK(e.rotate(p) == SO3::act_exp(u, p));
    CHECK(e.dexp(v) == SO3::dexp(u, v));
  }
}

TEST_CASE("coefficient values at zero and high-precision references") {
  CHECK(coeff::Sinc::eval(0) == 1.0);
  CHECK(coeff::OneMinusCos::eval(0) == 0.5);
  CHECK(coeff::AlphaMinusSin::eval(0) == doctest::Approx(1.0 / 6).epsilon(1e-16));
  CHECK(coeff::DexpinvG2::eval(0) == doctest::Approx(1.0 / 12).epsilon(1e-16));
  CHECK(coeff::OneMinusCosTilde::eval(0) == doctest::Approx(-1.0 / 12).epsilon(1e-16));
  CHECK(coeff::AlphaMinusSinTilde::eval(0) == doctest::Approx(-1.0 / 60).epsilon(1e-16));
  CHECK(coeff::DexpinvG2Tilde::eval(0) == doctest::Approx(1.0 / 360).epsilon(1e-16));
  // thesis/notes §2.2: g2 = 1/12 + a^2/720 + a^4/30240 + a^6/1209600, g2~ = 1/360 + a^2/7560
  const auto& d = coeff::DexpinvG2::c;
  CHECK(d[1] == doctest::Approx(1.0 / 720).epsilon(1e-15));
  CHECK(d[2] == doctest::Approx(1.0 / 30240).epsilon(1e-15));
  CHECK(d[3] == doctest::Approx(1.0 / 1209600).epsilon(1e-15));
  CHECK(coeff::DexpinvG2Tilde::c[1] == doctest::Approx(1.0 / 7560).epsilon(1e-15));
  // References computed in quadruple precision (__float128) from the closed forms.
  struct Ref {
    double a, value;
  };
  auto rel = [](double x, double y) { return std::abs(x - y) / std::abs(y); };
  for (Ref r : {Ref{0.5, 8.36826353540598949595e-02}, Ref{1.4, 8.61891415874104345328e-02},
                Ref{3.0, 9.92919703940023696463e-02}, Ref{5.0, 1.73864812830415136021e-01}})
    CHECK(rel(coeff::DexpinvG2::eval(r.a), r.value) <= 4 * eps);
  for (Ref r : {Ref{0.5, 2.81115921108181552768e-03}, Ref{2.9, 4.37579550389118889799e-03},
                Ref{3.1, 4.71866156250148729103e-03}, Ref{5.0, 1.93651956009054713796e-02}})
    CHECK(rel(coeff::DexpinvG2Tilde::eval(r.a), r.value) <= 16 * eps);
}

// ---------------------------------------------------------------------------------------------
// SO(3) specifics.

TEST_CASE("SO3: exp is a rotation; act_exp equals exp(u) p; erratum-1 check") {
  Rng rng(21);
  for (double angle : test_angles(pi - 1e-6)) {
    const Eigen::Vector3d u = Gen<SO3>::algebra(rng, angle);
    const Eigen::Matrix3d R = SO3::exp(u);
    const Eigen::Vector3d p = rng.vec<3>();
    CAPTURE(angle);
    CHECK((R.transpose() * R - Eigen::Matrix3d::Identity()).norm() <= 10 * eps);
    CHECK(std::abs(R.determinant() - 1.0) <= 4 * eps);
    CHECK((SO3::act_exp(u, p) - R * p).norm() <= 4 * eps * p.norm());
    // a = alpha e3, p = e1 -> (cos alpha, sin alpha, 0) (thesis Example 12 has the wrong sign)
    const Eigen::Vector3d r = SO3::act_exp(angle * Eigen::Vector3d::UnitZ(), Eigen::Vector3d::UnitX());
    CHECK((r - Eigen::Vector3d(std::cos(angle), std::sin(angle), 0.0)).norm() <= 2 * eps);
  }
}

TEST_CASE("SO3: log at and near angle pi") {
  Rng rng(22);
  for (int rep = 0; rep < 50; ++rep) {
    const Eigen::Vector3d n = rng.direction();
    // exactly pi: R = 2 n n^T - I; log has norm pi and axis +-n
    const Eigen::Matrix3d R = 2.0 * n * n.transpose() - Eigen::Matrix3d::Identity();
    const Eigen::Vector3d w = SO3::log(R);
    CHECK(std::abs(w.norm() - pi) <= 8 * eps);
    CHECK(std::abs(std::abs(w.normalized().dot(n)) - 1.0) <= 8 * eps);
    CHECK((SO3::exp(w) - R).norm() <= 8 * eps);
    for (double d : {1e-6, 1e-9, 1e-12}) {
      const Eigen::Vector3d u = (pi - d) * n;
      CHECK((SO3::log(SO3::exp(u)) - u).norm() <= 8 * eps);
    }
  }
  const Eigen::Matrix3d diag = Eigen::Vector3d(1, -1, -1).asDiagonal();
  CHECK((SO3::exp(SO3::log(diag)) - diag).norm() <= 4 * eps);
}

TEST_CASE("SO3: closed-form dexpinv matches the thesis formula (a cot) away from the switch") {
  Rng rng(23);
  for (double angle : {0.05, 0.5, 2.0, 4.0, 6.0}) {
    const Eigen::Vector3d u = Gen<SO3>::algebra(rng, angle), v = rng.vec<3>();
    const double c = (1.0 - 0.5 * angle / std::tan(0.5 * angle)) / (angle * angle);
    const Eigen::Vector3d ref = v - 0.5 * u.cross(v) + c * u.cross(u.cross(v));
    CHECK((SO3::dexpinv(u, v) - ref).norm() <= 1e-13);
  }
}

// ---------------------------------------------------------------------------------------------
// SE(3) specifics.

TEST_CASE("SE3: conventions (rotation first, product, Ad formula, exp translation = V(u) v)") {
  Rng rng(24);
  const SE3::Algebra xi = Gen<SE3>::algebra(rng, 1.3);
  const SE3::Element g = SE3::exp(xi);
  const Eigen::Vector3d u = xi.head<3>(), v = xi.tail<3>();
  CHECK((g.R - SO3::exp(u)).norm() == 0.0);
  const double a = u.norm();
  const Eigen::Matrix3d V = Eigen::Matrix3d::Identity() + (1 - std::cos(a)) / (a * a) * SO3::hat(u) +
                            (a - std::sin(a)) / (a * a * a) * SO3::hat(u) * SO3::hat(u);
  CHECK((g.r - V * v).norm() <= 4 * eps);
  const SE3::Element h = SE3::exp(Gen<SE3>::algebra(rng, 0.4));
  const SE3::Element gh = SE3::compose(g, h);
  CHECK((gh.R - g.R * h.R).norm() == 0.0);
  CHECK((gh.r - (g.R * h.r + g.r)).norm() == 0.0);
  const SE3::Algebra eta = Gen<SE3>::algebra(rng, 1.0);
  SE3::Algebra ad_ref;
  ad_ref << g.R * eta.head<3>(), g.R * eta.tail<3>() + g.r.cross(g.R * eta.head<3>());
  CHECK((SE3::Ad(g) * eta - ad_ref).norm() <= 4 * eps);
  SE3::Algebra br;
  br << u.cross(eta.head<3>()), u.cross(eta.tail<3>()) - eta.head<3>().cross(v);
  CHECK((SE3::bracket(xi, eta) - br).norm() == 0.0);
}

TEST_CASE("SE3: exact phi(ad) dexpinv equals 6x6 matrix function z/(e^z-1) of ad (|A| up to 3)") {
  // Reference: dexpinv_u = (dexp_u)^-1 with dexp_u = int_0^1 expm(s ad_u) ds computed from the
  // block exponential expm([[ad, I], [0, 0]]) = [[expm(ad), phi1(ad)], [0, I]].
  Rng rng(25);
  for (double angle : test_angles(3.0)) {
    const SE3::Algebra u = Gen<SE3>::algebra(rng, angle);
    Eigen::Matrix<double, 12, 12> big = Eigen::Matrix<double, 12, 12>::Zero();
    big.topLeftCorner<6, 6>() = SE3::ad(u);
    big.topRightCorner<6, 6>() = Eigen::Matrix<double, 6, 6>::Identity();
    const Eigen::Matrix<double, 6, 6> dexp_ref = expm(big).topRightCorner<6, 6>();
    const Eigen::Matrix<double, 6, 6> dexpinv_ref = dexp_ref.inverse();
    for (int k = 0; k < 6; ++k) {
      const SE3::Algebra e = SE3::Algebra::Unit(k);
      CAPTURE(angle);
      CHECK((SE3::dexp(u, e) - dexp_ref.col(k)).norm() <= 1e-14);
      CHECK((SE3::dexpinv(u, e) - dexpinv_ref.col(k)).norm() <= 1e-14);
    }
  }
}

TEST_CASE("SE3: log near angle pi and at the identity") {
  Rng rng(26);
  for (int rep = 0; rep < 20; ++rep) {
    SE3::Algebra xi;
    xi << (pi - 1e-6) * rng.direction(), rng.vec<3>();
    CHECK((SE3::log(SE3::exp(xi)) - xi).norm() <= 8 * eps * xi.norm());
  }
  CHECK(SE3::log(SE3::identity()).norm() == 0.0);
}

// ---------------------------------------------------------------------------------------------
// Product and Bernoulli specifics.

TEST_CASE("Product: blocks, offsets and componentwise operations") {
  using P = Product<SE3, SO3, Rn<2>>;
  static_assert(P::dim == 11 && P::matrix_dim == 4 + 3 + 3);
  static_assert(P::offsets[0] == 0 && P::offsets[1] == 6 && P::offsets[2] == 9 && P::offsets[3] == 11);
  Rng rng(27);
  const P::Algebra xi = Gen<P>::algebra(rng, 0.8);
  const P::Algebra eta = Gen<P>::algebra(rng, 0.3);
  CHECK((P::block<1>(xi) - xi.segment<3>(6)).norm() == 0.0);
  const P::Element g = P::exp(xi);
  CHECK((std::get<0>(g).R - SE3::exp(xi.head<6>()).R).norm() == 0.0);
  CHECK((std::get<2>(g) - xi.tail<2>()).norm() == 0.0);
  const P::Algebra d = P::dexpinv(xi, eta);
  CHECK((d.head<6>() - SE3::dexpinv(xi.head<6>(), eta.head<6>())).norm() == 0.0);
  CHECK((d.segment<3>(6) - SO3::dexpinv(xi.segment<3>(6), eta.segment<3>(6))).norm() == 0.0);
  CHECK((d.tail<2>() - eta.tail<2>()).norm() == 0.0);
  CHECK(P::ad(xi).block<6, 5>(0, 6).norm() == 0.0);  // block diagonal
}

TEST_CASE("Bernoulli table and the run-time series over flat buffers") {
  CHECK(bernoulli_numbers[0] == 1.0);
  CHECK(bernoulli_numbers[1] == -0.5);
  CHECK(bernoulli_numbers[2] == doctest::Approx(1.0 / 6).epsilon(1e-16));
  CHECK(bernoulli_numbers[12] == doctest::Approx(-691.0 / 2730).epsilon(1e-16));
  CHECK(bernoulli_numbers[20] == doctest::Approx(-174611.0 / 330).epsilon(1e-16));
  for (std::size_t k = 3; k <= 19; k += 2) CHECK(bernoulli_numbers[k] == 0.0);
  CHECK(bernoulli_over_factorial[4] == doctest::Approx(-1.0 / 720).epsilon(1e-16));
  CHECK(bernoulli_over_factorial[6] == doctest::Approx(1.0 / 30240).epsilon(1e-16));
  // sum B_k/k! z^k = z/(e^z-1) at z = 0.5 (order 20 truncation error ~ 1e-23)
  double s = 0.0;
  for (std::size_t k = 21; k-- > 0;) s = s * 0.5 + bernoulli_over_factorial[k];
  CHECK(std::abs(s - 0.5 / std::expm1(0.5)) <= 2 * eps);

  // run-time version equals the static one (SE(3) bracket through a callable), no allocation
  Rng rng(28);
  const SE3::Algebra u = Gen<SE3>::algebra(rng, 0.7), v = Gen<SE3>::algebra(rng, 1.0);
  Eigen::VectorXd uu = u, vv = v, w1(6), w2(6), out(6), out2(6);
  auto br = [](Eigen::Ref<const Eigen::VectorXd> a, Eigen::Ref<const Eigen::VectorXd> b,
               Eigen::Ref<Eigen::VectorXd> r) {
    r = SE3::bracket(a.head<6>(), b.head<6>());
  };
  Eigen::internal::set_is_malloc_allowed(false);
  dexpinv_series(uu, vv, 12, br, w1, w2, out);
  dexp_series(uu, vv, 12, br, w1, w2, out2);
  Eigen::internal::set_is_malloc_allowed(true);
  CHECK((out - dexpinv_series<SE3>(u, v, 12)).norm() <= 2 * eps);
  CHECK((out2 - dexp_series<SE3>(u, v, 12)).norm() <= 2 * eps);
  // order 0 and 1
  dexpinv_series(uu, vv, 1, br, w1, w2, out);
  CHECK((out - (v - 0.5 * SE3::bracket(u, v))).norm() <= 2 * eps);
  dexpinv_series(uu, vv, 0, br, w1, w2, out);
  CHECK((out - vv).norm() == 0.0);
  CHECK((dexpinv_series<SE3>(u, v, -3) - v).norm() == 0.0);  // negative order = order 0
}
