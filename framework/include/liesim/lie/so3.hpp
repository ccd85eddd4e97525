// liesim/lie/so3.hpp — the rotation group SO(3) and its algebra so(3) ≅ (R^3, ×).
//
// Conventions (README.md): left actions; so(3) ≅ R^3 via hat(w) v = w × v, [a, b] = a × b;
// right-trivialised dexp: d/dt exp(u(t)) = dexp_u(u'(t)) exp(u(t)), dexp_u = (e^z-1)/z|_{z=ad_u},
// dexpinv_u = z/(e^z-1)|_{z=ad_u}. Formulas: thesis-cokaj-notes §0, §2.2 (thesis (1.3.2),
// §2.2.2, Example 10, Example 12 with erratum 1).
//
// The scalar coefficient functions below (also used by se3.hpp) switch to a Taylor series for
// small alpha. The switch points are chosen per function: the closed forms of C, D, B~, C~, D~
// cancel catastrophically (relative error ~ eps/alpha^2 or ~ eps/alpha^4; at alpha = 1e-2 the
// closed-form D~ is only good to ~2e-5), so those switch at alpha ~ 1..3 where the closed form
// is accurate to < 10 eps, and their series carry enough terms to be accurate to ~1e-17 there.
// Below the switch, a series is cut after as many terms as the angle needs (series_tiers): at
// the small angles of a step (alpha = h |w| ~ 1e-3 .. 1e-2) a few terms, not the 13 to 32 the
// switch point needs; the terms left out sum to below 2^-56 of the value (round-off).
#pragma once

#include "liesim/lie/bernoulli.hpp"

#include <Eigen/Core>
#include <Eigen/Geometry>

#include <array>
#include <cmath>

namespace liesim::lie {

/// Scalar coefficient functions of alpha = |u| (even, real-analytic) with closed form and series.
namespace coeff {

namespace detail {
/// sum_{k<K} c[k] x^k by Horner's rule (K = N: every term).
template <std::size_t K, std::size_t N>
constexpr double horner_first(const std::array<double, N>& c, double x) {
  static_assert(K >= 1 && K <= N);
  double s = c[K - 1];
  for (std::size_t k = K - 1; k-- > 0;) s = s * x + c[k];
  return s;
}
/// sum_{k<N} c[k] x^k by Horner's rule.
template <std::size_t N>
constexpr double horner(const std::array<double, N>& c, double x) {
  return horner_first<N>(c, x);
}
/// c[k] = (-1)^k/(2k+shift)!: coefficients of sum_k (-1)^k x^k/(2k+shift)!.
template <std::size_t N>
constexpr std::array<double, N> alternating_inverse_factorials(int shift) {
  std::array<double, N> c{};
  for (std::size_t k = 0; k < N; ++k)
    c[k] = (k % 2 ? -1.0 : 1.0) / liesim::lie::detail::factorial(2 * static_cast<int>(k) + shift);
  return c;
}
/// Coefficients of f'(alpha)/alpha = 2 df/dx for f = sum_k a[k] x^k (x = alpha^2), skipping a[0].
template <std::size_t N>
constexpr std::array<double, N> derivative_over_alpha(const std::array<double, N + 1>& a) {
  std::array<double, N> c{};
  for (std::size_t k = 0; k < N; ++k) c[k] = 2.0 * static_cast<double>(k + 1) * a[k + 1];
  return c;
}
/// The number of leading terms of sum c[k] x^k, x = alpha^2, that is accurate to round-off for
/// alpha <= alpha_max: the first K whose left-out terms sum (in absolute value) to at most
/// 2^-56 |c[0]|; every function here stays above |c[0]|/2 below its switch point.
template <std::size_t N>
constexpr std::size_t terms_for(const std::array<double, N>& c, double alpha_max) {
  const double x = alpha_max * alpha_max;
  const double bound = 0x1p-56 * (c[0] < 0 ? -c[0] : c[0]);
  for (std::size_t K = 1; K < N; ++K) {
    double tail = 0.0, p = 1.0;
    for (std::size_t k = 0; k < N; ++k) {
      if (k >= K) tail += (c[k] < 0 ? -c[k] : c[k]) * p;
      p *= x;
    }
    if (tail <= bound) return K;
  }
  return N;
}
inline constexpr auto abs_b2k = liesim::lie::detail::make_abs_b2k_over_factorial<33>();
template <std::size_t N>
constexpr std::array<double, N> shifted_b2k(std::size_t first) {
  std::array<double, N> c{};
  for (std::size_t k = 0; k < N; ++k) c[k] = abs_b2k[k + first];
  return c;
}
}  // namespace detail

/// Angles up to which a series is cut to fewer terms (detail::terms_for); above the last tier a
/// function sums every term.
inline constexpr std::array<double, 4> series_tiers = {0.01, 0.05, 0.2, 0.6};

namespace detail {
/// sum c[k] alpha^2k with the terms the angle needs: up to each tier, only the first
/// terms_for(c, tier) terms (enough for any angle up to the tier).
template <const auto& c>
double tiered_series(double a) {
  const double x = a * a;
  constexpr std::size_t k0 = terms_for(c, series_tiers[0]), k1 = terms_for(c, series_tiers[1]),
                        k2 = terms_for(c, series_tiers[2]), k3 = terms_for(c, series_tiers[3]);
  if (a <= series_tiers[0]) return horner_first<k0>(c, x);
  if (a <= series_tiers[1]) return horner_first<k1>(c, x);
  if (a <= series_tiers[2]) return horner_first<k2>(c, x);
  if (a <= series_tiers[3]) return horner_first<k3>(c, x);
  return horner(c, x);
}
}  // namespace detail

/// A(alpha) = sin(alpha)/alpha = sum (-1)^k alpha^2k/(2k+1)!  [Rodrigues, thesis (1.3.2)].
struct Sinc {
  static constexpr double series_switch = 1e-2;
  static constexpr auto c = detail::alternating_inverse_factorials<6>(1);
  /// Closed form sin(a)/a (accurate for a > 0).
  static double closed(double a) { return std::sin(a) / a; }
  /// Series in a^2 (6 terms: error < a^12/13! ~ 1e-34 at the switch).
  static double series(double a) { return detail::tiered_series<c>(a); }
  /// Series for a < series_switch, else closed form.
  static double eval(double a) { return a < series_switch ? series(a) : closed(a); }
};

/// B(alpha) = (1 - cos alpha)/alpha^2 = sum (-1)^k alpha^2k/(2k+2)!  [thesis (1.3.2), V-matrix].
struct OneMinusCos {
  static constexpr double series_switch = 1e-2;
  static constexpr auto c = detail::alternating_inverse_factorials<6>(2);
  /// Closed form 2 sin^2(a/2)/a^2 (cancellation-free).
  static double closed(double a) {
    const double h = std::sin(0.5 * a) / a;
    return 2.0 * h * h;
  }
  /// Series in a^2.
  static double series(double a) { return detail::tiered_series<c>(a); }
  /// Series for a < series_switch, else closed form.
  static double eval(double a) { return a < series_switch ? series(a) : closed(a); }
};

/// C(alpha) = (alpha - sin alpha)/alpha^3 = sum (-1)^k alpha^2k/(2k+3)!  [V-matrix, notes §2.3].
struct AlphaMinusSin {
  static constexpr double series_switch = 1.0;  // closed form rel. error ~6 eps/a^2
  static constexpr auto c = detail::alternating_inverse_factorials<13>(3);
  /// Closed form (a - sin a)/a^3.
  static double closed(double a) { return (a - std::sin(a)) / (a * a * a); }
  /// Series in a^2 (13 terms: error < 1/29! at a = 1).
  static double series(double a) { return detail::tiered_series<c>(a); }
  /// Series for a < series_switch, else closed form.
  static double eval(double a) { return a < series_switch ? series(a) : closed(a); }
};

/// D(alpha) = (1 - (alpha/2) cot(alpha/2))/alpha^2 = sum_{k>=1} |B_2k|/(2k)! alpha^(2k-2)
/// [so(3) dexpinv, thesis §2.2.2; g2 of the se(3) dexpinv, §2.2.3]. Singular at alpha = 2 pi.
struct DexpinvG2 {
  static constexpr double series_switch = 1.5;  // closed form rel. error ~7 eps/a^2
  static constexpr auto c = detail::shifted_b2k<18>(1);
  /// Closed form (1 - s cot s)/a^2, s = a/2.
  static double closed(double a) {
    const double s = 0.5 * a;
    return (1.0 - s * std::cos(s) / std::sin(s)) / (a * a);
  }
  /// Series in a^2: 1/12 + a^2/720 + a^4/30240 + a^6/1209600 + ... (18 terms, ratio (a/2pi)^2).
  static double series(double a) { return detail::tiered_series<c>(a); }
  /// Series for a < series_switch, else closed form.
  static double eval(double a) { return a < series_switch ? series(a) : closed(a); }
};

/// B~(alpha) = B'(alpha)/alpha = (alpha sin alpha - 2(1 - cos alpha))/alpha^4 = -1/12 + a^2/180 - ...
/// [g~1 of the se(3) dexp, notes §2.3].
struct OneMinusCosTilde {
  static constexpr double series_switch = 1.5;  // closed form rel. error ~12 eps/a^4
  static constexpr auto c =
      detail::derivative_over_alpha<15>(detail::alternating_inverse_factorials<16>(2));
  /// Closed form (a sin a - 4 sin^2(a/2))/a^4.
  static double closed(double a) {
    const double h = std::sin(0.5 * a);
    const double a2 = a * a;
    return (a * std::sin(a) - 4.0 * h * h) / (a2 * a2);
  }
  /// Series in a^2.
  static double series(double a) { return detail::tiered_series<c>(a); }
  /// Series for a < series_switch, else closed form.
  static double eval(double a) { return a < series_switch ? series(a) : closed(a); }
};

/// C~(alpha) = C'(alpha)/alpha = (alpha(1 - cos alpha) - 3(alpha - sin alpha))/alpha^5
/// = -1/60 + a^2/1260 - ...  [g~2 of the se(3) dexp, notes §2.3].
struct AlphaMinusSinTilde {
  static constexpr double series_switch = 2.0;  // closed form rel. error ~200 eps/a^4
  static constexpr auto c =
      detail::derivative_over_alpha<15>(detail::alternating_inverse_factorials<16>(3));
  /// Closed form (2a sin^2(a/2) - 3(a - sin a))/a^5.
  static double closed(double a) {
    const double h = std::sin(0.5 * a);
    const double a2 = a * a;
    return (2.0 * a * h * h - 3.0 * (a - std::sin(a))) / (a2 * a2 * a);
  }
  /// Series in a^2.
  static double series(double a) { return detail::tiered_series<c>(a); }
  /// Series for a < series_switch, else closed form.
  static double eval(double a) { return a < series_switch ? series(a) : closed(a); }
};

/// D~(alpha) = D'(alpha)/alpha = (s cot s + s^2/sin^2 s - 2)/alpha^4, s = alpha/2
/// = 1/360 + a^2/7560 + ...  [g~2 of the se(3) dexpinv, notes §2.3]. Singular at alpha = 2 pi.
struct DexpinvG2Tilde {
  static constexpr double series_switch = 3.0;  // closed form rel. error ~1e3 eps/a^4
  static constexpr auto c = detail::derivative_over_alpha<32>(detail::shifted_b2k<33>(1));
  /// Closed form (s cot s + s^2 csc^2 s - 2)/a^4 (equals g2'(a)/a of notes §2.3).
  static double closed(double a) {
    const double s = 0.5 * a;
    const double sn = std::sin(s);
    const double a2 = a * a;
    return (s * std::cos(s) / sn + s * s / (sn * sn) - 2.0) / (a2 * a2);
  }
  /// Series in a^2 (32 terms, ratio (a/2pi)^2 = 0.23 at the switch).
  static double series(double a) { return detail::tiered_series<c>(a); }
  /// Series for a < series_switch, else closed form.
  static double eval(double a) { return a < series_switch ? series(a) : closed(a); }
};

}  // namespace coeff

/// The rotation group SO(3) (elements: 3x3 rotation matrices) with so(3) ≅ R^3.
struct SO3 {
  static constexpr int dim = 3;
  /// Size of the matrix representation (3x3).
  static constexpr int matrix_dim = 3;
  using Algebra = Eigen::Vector3d;
  using Element = Eigen::Matrix3d;
  using Matrix = Eigen::Matrix3d;
  using AdMatrix = Eigen::Matrix3d;

  /// hat(w) = [[0,-w3,w2],[w3,0,-w1],[-w2,w1,0]], hat(w) v = w × v  [thesis (1.3.2), (2.2.5)].
  static Eigen::Matrix3d hat(const Algebra& w) {
    Eigen::Matrix3d m;
    m << 0.0, -w.z(), w.y(), w.z(), 0.0, -w.x(), -w.y(), w.x(), 0.0;
    return m;
  }

  /// vee(M) = (M32, M13, M21), the inverse of hat on skew matrices (skew part taken).
  static Algebra vee(const Eigen::Matrix3d& m) {
    return 0.5 * Algebra(m(2, 1) - m(1, 2), m(0, 2) - m(2, 0), m(1, 0) - m(0, 1));
  }

  /// Matrix representation of g (g itself).
  static Eigen::Matrix3d matrix(const Element& g) { return g; }

  /// Identity element I.
  static Element identity() { return Element::Identity(); }

  /// Group product a b (matrix product).
  static Element compose(const Element& a, const Element& b) { return a * b; }

  /// Inverse g^-1 = g^T.
  static Element inverse(const Element& g) { return g.transpose(); }

  /// Rodrigues: exp(hat u) = I + (sin a/a) hat u + ((1-cos a)/a^2) hat u^2, a = |u| [thesis (1.3.2)].
  static Element exp(const Algebra& u) {
    const double a = u.norm();
    const double A = coeff::Sinc::eval(a);
    const double B = coeff::OneMinusCos::eval(a);
    // hat(u)^2 = u u^T - a^2 I
    Element R = B * (u * u.transpose());
    R.diagonal().array() += 1.0 - B * a * a;
    R(0, 1) -= A * u.z();
    R(1, 0) += A * u.z();
    R(0, 2) += A * u.y();
    R(2, 0) -= A * u.y();
    R(1, 2) -= A * u.x();
    R(2, 1) += A * u.x();
    return R;
  }

  /// log(R) = theta n with |theta| <= pi, via the unit quaternion (Shepperd) and
  /// theta = 2 atan2(|q_vec|, q_w): robust near 0 and near pi (inverse of thesis (1.3.2)).
  static Algebra log(const Element& R) {
    const Eigen::Quaterniond q(R);
    double w = q.w();
    Algebra v = q.vec();
    if (w < 0.0) {
      w = -w;
      v = -v;
    }
    const double n = v.norm();
    double f;
    if (n < 1e-8) {
      const double r = n / w;  // theta = 2 atan(r) = 2 r (1 - r^2/3 + ...)
      f = 2.0 / w * (1.0 - r * r / 3.0);
    } else {
      f = 2.0 * std::atan2(n, w) / n;
    }
    return f * v;
  }

  /// Ad_g xi = g xi (so Ad_g = g) [thesis Example 10].
  static AdMatrix Ad(const Element& g) { return g; }

  /// ad_u = hat(u) [notes §0].
  static AdMatrix ad(const Algebra& u) { return hat(u); }

  /// [a, b] = a × b [notes §0].
  static Algebra bracket(const Algebra& a, const Algebra& b) { return a.cross(b); }

  /// dexp_u(v) = v + ((1-cos a)/a^2) u×v + ((a - sin a)/a^3) u×(u×v), a = |u| [notes §2.2].
  static Algebra dexp(const Algebra& u, const Algebra& v) {
    const double a = u.norm();
    const Algebra uv = u.cross(v);
    return v + coeff::OneMinusCos::eval(a) * uv + coeff::AlphaMinusSin::eval(a) * u.cross(uv);
  }

  /// dexpinv_u(v) = v - 1/2 u×v + a^-2 (1 - (a/2) cot(a/2)) u×(u×v) [thesis §2.2.2]
  /// (valid for |u| < 2 pi).
  static Algebra dexpinv(const Algebra& u, const Algebra& v) {
    const double a = u.norm();
    const Algebra uv = u.cross(v);
    return v - 0.5 * uv + coeff::DexpinvG2::eval(a) * u.cross(uv);
  }

  /// exp(hat u) and V(u) = dexp_u applied to several vectors, with a = |u| and the coefficients
  /// computed once (the SE(3) actions move two vectors and need V(u) v: one norm, not three).
  /// rotate(p) equals act_exp(u, p) and dexp(v) equals dexp(u, v), term for term.
  struct Exp {
    explicit Exp(const Algebra& axis)
        : u(axis), a(axis.norm()), A(coeff::Sinc::eval(a)), B(coeff::OneMinusCos::eval(a)), C(coeff::AlphaMinusSin::eval(a)) {}
    /// exp(hat u) p.
    Eigen::Vector3d rotate(const Eigen::Vector3d& p) const {
      const Eigen::Vector3d up = u.cross(p);
      return p + A * up + B * u.cross(up);
    }
    /// V(u) v = dexp_u(v).
    Algebra dexp(const Algebra& v) const {
      const Algebra uv = u.cross(v);
      return v + B * uv + C * u.cross(uv);
    }
    Algebra u;
    double a, A, B, C;
  };

  /// exp(u) p = p + (sin a/a) u×p + ((1-cos a)/a^2) u×(u×p), without forming the matrix
  /// [thesis Example 12 with the sign corrected, erratum 1].
  static Eigen::Vector3d act_exp(const Algebra& u, const Eigen::Vector3d& p) {
    const double a = u.norm();
    const Eigen::Vector3d up = u.cross(p);
    return p + coeff::Sinc::eval(a) * up + coeff::OneMinusCos::eval(a) * u.cross(up);
  }
};

}  // namespace liesim::lie
