// Exact flow of the scalar test equation m x'' + d x' + k x = 0 (seed 003 (*)), shared by the
// oscillator plugin and the rotating_ball plugin (its Lie group counterpart). Header only.
#pragma once
#include <cmath>
#include <utility>

namespace liesim::damped_oscillator {

/// Which regime d^2 - 4 m k puts the oscillator in.
enum class Regime { underdamped, critical, overdamped };

/// Regime of m x'' + d x' + k x = 0 (exact comparison of d^2 with 4 m k).
inline Regime regime(double m, double d, double k) {
  const double disc = d * d - 4.0 * m * k;
  return disc < 0 ? Regime::underdamped : disc == 0 ? Regime::critical : Regime::overdamped;
}

inline const char* regime_name(Regime r) {
  return r == Regime::underdamped ? "underdamped" : r == Regime::critical ? "critically damped" : "overdamped";
}

/// (x(t), x'(t)) for x(0) = x0, x'(0) = v0, with m > 0, d >= 0, k >= 0.
///
/// With A = [[0, 1], [-k/m, -d/m]], lambda = -d/(2m) and mu^2 = lambda^2 - k/m, Cayley-Hamilton gives
/// (A - lambda I)^2 = mu^2 I, hence exp(A t) = e^{lambda t} (C(t) I + S(t) (A - lambda I)) with
///   underdamped (mu^2 < 0, w = sqrt(-mu^2)): C = cos(w t), S = sin(w t)/w,
///   critical    (mu^2 = 0):                   C = 1,        S = t,
///   overdamped  (mu^2 > 0):                   C = cosh(mu t), S = sinh(mu t)/mu,
/// and (A - lambda I)(x0, v0) = (v0 - lambda x0, lambda v0 - (k/m) x0). In the overdamped case the
/// products e^{lambda t} C and e^{lambda t} S are formed from the two decaying exponentials
/// e^{(lambda +- mu) t} (with expm1), so nothing overflows for large t and nothing cancels for mu -> 0.
inline std::pair<double, double> flow(double m, double d, double k, double x0, double v0, double t) {
  const double lambda = -d / (2.0 * m);
  const double disc = d * d - 4.0 * m * k;
  double eC, eS;  // e^{lambda t} C(t), e^{lambda t} S(t)
  if (disc < 0) {
    const double w = std::sqrt(-disc) / (2.0 * m);
    const double e = std::exp(lambda * t);
    eC = e * std::cos(w * t);
    eS = e * std::sin(w * t) / w;
  } else if (disc == 0) {
    const double e = std::exp(lambda * t);
    eC = e;
    eS = e * t;
  } else {
    const double mu = std::sqrt(disc) / (2.0 * m);
    const double slow = std::exp((lambda + mu) * t);  // lambda + mu <= 0
    const double em1 = std::expm1(-2.0 * mu * t);     // e^{-2 mu t} - 1
    eC = slow * (1.0 + 0.5 * em1);                    // (e^{(l+mu)t} + e^{(l-mu)t}) / 2
    eS = -slow * em1 / (2.0 * mu);                    // (e^{(l+mu)t} - e^{(l-mu)t}) / (2 mu)
  }
  const double p = v0 - lambda * x0;
  const double q = lambda * v0 - (k / m) * x0;
  return {eC * x0 + eS * p, eC * v0 + eS * q};
}

}  // namespace liesim::damped_oscillator
