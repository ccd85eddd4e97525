// liesim/lie/se3.hpp — the rigid-motion group SE(3) and se(3) ≅ R^6.
//
// Conventions (README.md): se(3) ≅ R^6 ordered ROTATION FIRST, xi = (u, v) (u rotational,
// v translational) as in thesis Ch. 2 §2.2.3, §2.5 and Ch. 3 (Ch. 1 uses the opposite order,
// erratum 5). Element (R, r) with (R1, r1)(R2, r2) = (R1 R2, R1 r2 + r1) [thesis §2.3.4.2],
// 4x4 matrix [[R, r], [0, 1]], hat(u, v) = [[hat u, v], [0, 0]],
// [(A,a),(B,b)] = (A×B, A×b - B×a), ad_(A,a) = [[hat A, 0], [hat a, hat A]].
// Right-trivialised dexp: d/dt exp(xi(t)) = dexp_xi(xi'(t)) exp(xi(t)).
// Formulas: thesis-cokaj-notes §0 and §2.3.
#pragma once

#include "liesim/lie/so3.hpp"

#include <Eigen/Core>

namespace liesim::lie {

/// The special Euclidean group SE(3) = SO(3) ⋉ R^3, algebra se(3) ≅ R^6 = (rotation, translation).
struct SE3 {
  static constexpr int dim = 6;
  /// Size of the matrix representation (4x4).
  static constexpr int matrix_dim = 4;
  using Algebra = Eigen::Matrix<double, 6, 1>;
  using Matrix = Eigen::Matrix4d;
  using AdMatrix = Eigen::Matrix<double, 6, 6>;
  /// Group element (R, r) ↔ [[R, r], [0, 1]].
  struct Element {
    Eigen::Matrix3d R;  ///< rotation
    Eigen::Vector3d r;  ///< translation
  };

  /// hat(u, v) = [[hat(u), v], [0, 0]] (rotation first) [notes §0, §2.3].
  static Eigen::Matrix4d hat(const Algebra& xi) {
    Eigen::Matrix4d m = Eigen::Matrix4d::Zero();
    m.topLeftCorner<3, 3>() = SO3::hat(xi.head<3>());
    m.topRightCorner<3, 1>() = xi.tail<3>();
    return m;
  }

  /// vee([[hat u, v], [0, 0]]) = (u, v), inverse of hat.
  static Algebra vee(const Eigen::Matrix4d& m) {
    Algebra xi;
    xi.head<3>() = SO3::vee(m.topLeftCorner<3, 3>());
    xi.tail<3>() = m.topRightCorner<3, 1>();
    return xi;
  }

  /// Identity (I, 0).
  static Element identity() { return {Eigen::Matrix3d::Identity(), Eigen::Vector3d::Zero()}; }

  /// (R1, r1)(R2, r2) = (R1 R2, R1 r2 + r1) [thesis §2.3.4.2].
  static Element compose(const Element& a, const Element& b) {
    return {a.R * b.R, a.R * b.r + a.r};
  }

  /// (R, r)^-1 = (R^T, -R^T r).
  static Element inverse(const Element& g) {
    const Eigen::Matrix3d Rt = g.R.transpose();
    return {Rt, -(Rt * g.r)};
  }

  /// 4x4 homogeneous matrix [[R, r], [0, 1]].
  static Eigen::Matrix4d matrix(const Element& g) {
    Eigen::Matrix4d m = Eigen::Matrix4d::Identity();
    m.topLeftCorner<3, 3>() = g.R;
    m.topRightCorner<3, 1>() = g.r;
    return m;
  }

  /// exp(u, v) = (exp(hat u), V(u) v), V(u) = I + ((1-cos a)/a^2) hat u + ((a - sin a)/a^3) hat u^2
  /// = so(3) dexp_u [thesis (1.3.3)-(1.3.4), notes §2.3].
  static Element exp(const Algebra& xi) {
    const Eigen::Vector3d u = xi.head<3>();
    return {SO3::exp(u), SO3::dexp(u, xi.tail<3>())};
  }

  /// log(R, r) = (u, V(u)^-1 r) with u = SO3::log(R) and V(u)^-1 = so(3) dexpinv_u
  /// (robust near angle 0 and pi; inverse of thesis (1.3.3)-(1.3.4)).
  static Algebra log(const Element& g) {
    Algebra xi;
    const Eigen::Vector3d u = SO3::log(g.R);
    xi.head<3>() = u;
    xi.tail<3>() = SO3::dexpinv(u, g.r);
    return xi;
  }

  /// Ad_(R,r) = [[R, 0], [hat(r) R, R]]: Ad_(R,r)(u, v) = (R u, R v + r × R u) [thesis §2.5.1].
  static AdMatrix Ad(const Element& g) {
    AdMatrix m = AdMatrix::Zero();
    m.topLeftCorner<3, 3>() = g.R;
    m.bottomRightCorner<3, 3>() = g.R;
    m.bottomLeftCorner<3, 3>() = SO3::hat(g.r) * g.R;
    return m;
  }

  /// ad_(A,a) = [[hat A, 0], [hat a, hat A]] [notes §0].
  static AdMatrix ad(const Algebra& xi) {
    AdMatrix m = AdMatrix::Zero();
    const Eigen::Matrix3d hA = SO3::hat(xi.head<3>());
    m.topLeftCorner<3, 3>() = hA;
    m.bottomRightCorner<3, 3>() = hA;
    m.bottomLeftCorner<3, 3>() = SO3::hat(xi.tail<3>());
    return m;
  }

  /// [(A,a),(B,b)] = (A×B, A×b - B×a) (matrix commutator of hats) [notes §0].
  static Algebra bracket(const Algebra& x, const Algebra& y) {
    Algebra z;
    z.head<3>() = x.head<3>().cross(y.head<3>());
    z.tail<3>() = x.head<3>().cross(y.tail<3>()) - y.head<3>().cross(x.tail<3>());
    return z;
  }

  /// Exact phi(ad_(A,a))(B,b) = (C, c) [thesis §2.2.3, notes §2.3]:
  /// C = phi0 B + g1 A×B + g2 A×(A×B),
  /// c = phi0 b + g1 (a×B + A×b) + rho g1~ A×B + rho g2~ A×(A×B)
  ///     + g2 (a×(A×B) + A×(a×B) + A×(A×b)),  rho = A·a,
  /// with g1, g2, g1~ = g1'/alpha, g2~ = g2'/alpha evaluated at alpha = |A|.
  static Algebra phi_ad(double phi0, double g1, double g2, double g1t, double g2t,
                        const Algebra& xi, const Algebra& eta) {
    const Eigen::Vector3d A = xi.head<3>(), a = xi.tail<3>();
    const Eigen::Vector3d B = eta.head<3>(), b = eta.tail<3>();
    const double rho = A.dot(a);
    const Eigen::Vector3d AB = A.cross(B);
    const Eigen::Vector3d AAB = A.cross(AB);
    const Eigen::Vector3d aB = a.cross(B);
    const Eigen::Vector3d Ab = A.cross(b);
    Algebra out;
    out.head<3>() = phi0 * B + g1 * AB + g2 * AAB;
    out.tail<3>() = phi0 * b + g1 * (aB + Ab) + (rho * g1t) * AB + (rho * g2t) * AAB +
                    g2 * (a.cross(AB) + A.cross(aB) + A.cross(Ab));
    return out;
  }

  /// dexp_xi(eta) = phi(ad_xi) eta with phi(z) = (e^z-1)/z: phi0 = 1, g1 = (1-cos a)/a^2,
  /// g2 = (a - sin a)/a^3, g1~ = g1'/a, g2~ = g2'/a [notes §2.3, derived from thesis §2.2.3].
  static Algebra dexp(const Algebra& xi, const Algebra& eta) {
    const double a = xi.head<3>().norm();
    return phi_ad(1.0, coeff::OneMinusCos::eval(a), coeff::AlphaMinusSin::eval(a),
                  coeff::OneMinusCosTilde::eval(a), coeff::AlphaMinusSinTilde::eval(a), xi, eta);
  }

  /// dexpinv_xi(eta) = phi(ad_xi) eta with phi(z) = z/(e^z-1): phi0 = 1, g1 = -1/2, g1~ = 0,
  /// g2 = (1 - (a/2)cot(a/2))/a^2, g2~ = g2'/a [thesis §2.2.3] (valid for |A| < 2 pi).
  static Algebra dexpinv(const Algebra& xi, const Algebra& eta) {
    const double a = xi.head<3>().norm();
    return phi_ad(1.0, -0.5, coeff::DexpinvG2::eval(a), 0.0, coeff::DexpinvG2Tilde::eval(a), xi,
                  eta);
  }
};

}  // namespace liesim::lie
