// The harmonic_oscillator plugin: m q'' + c q' + k q = F0 cos(omega t), c = 2 zeta sqrt(k m), as a
// Lagrangian system with a time-dependent force (Sharma 2020, seed 001, (3.51)–(3.52), (3.62)),
// with its exact solution.
#include "../oscillator/damped_oscillator.hpp"

#include <liesim/sdk/plugin.hpp>
#include <liesim/sdk/lagrangian_model.hpp>

#include <fmt/format.h>

#include <cmath>
#include <complex>
#include <tuple>
#include <utility>

namespace liesim::harmonic_oscillator {

namespace {

constexpr const char* conventions_text = R"(SPACE       R^2, state [q, v] of m q'' + c q' + k q = F0 cos(omega t), c = 2 zeta sqrt(k m).
GROUP       (R^2, +), abelian: exp = identity, dexpinv = identity, bracket 0.
ACTION      translation a . (q, v) = (q + a1, v + a2); generator psi_*(xi)|_y = xi.
GENERATOR   f(t, q, v) = F(t, q, v) = (v, (F0 cos(omega t) - c v - k q)/m): depends on t when F0 != 0.
EMBEDDING   state [q, v] in R^2; F as above.
MECHANICS   L(q, v) = 1/2 m v^2 - 1/2 k q^2; mass m; force f(t, q, v) = F0 cos(omega t) - c v
            (forcing and damping, Lagrange–d'Alembert).
INVARIANTS  energy E = 1/2 m v^2 + 1/2 k q^2 (conserved only for F0 = 0, zeta = 0).
            Exact solution for every parameter set: the damped homogeneous flow from (q0, v0)
            plus the response from rest to the forcing, which tends to the particular solution
            A cos(omega t) + B sin(omega t), A = F0 (k - m omega^2)/D, B = F0 c omega/D,
            D = (k - m omega^2)^2 + (c omega)^2; at resonance without damping (c = 0,
            omega^2 = k/m) the forced part is F0 t sin(omega t)/(2 m omega). Evaluated without
            cancellation at and near resonance (README, "Exact solution").
PARAMETERS  m > 0, k > 0, zeta > -1 (damping ratio; negative values give negative damping,
            zeta >= 1 critical / overdamped), F0 (forcing amplitude), omega >= 0 (forcing
            frequency), q0, v0; all finite. The thesis's natural frequency w_n = sqrt(k/m) =
            2 rad/s is the default; sigma = omega / w_n.
SOURCE      H. A. Sharma, PhD thesis, Virginia Tech 2020 (seed 001), forced (3.51)–(3.52), damped (3.62),
            Figs 3.8–3.15; the symplecticity check of ch. 4 uses m = k = 1.)";

class HarmonicOscillator final : public sdk::LagrangianModel {
 public:
  HarmonicOscillator(double m, double k, double c, double F0, double omega, double q0, double v0)
      : sdk::LagrangianModel(Eigen::MatrixXd::Constant(1, 1, m)), m_(m), k_(k), c_(c), F0_(F0), w_(omega), q0_(q0), v0_(v0) {}
  void initial_state(Vec y) const override {
    y[0] = q0_;
    y[1] = v0_;
  }
  Status potential(double, ConstVec q, double& U, Vec dU_dq, double& dU_dt) noexcept override {
    U = 0.5 * k_ * q[0] * q[0];
    dU_dq[0] = k_ * q[0];
    dU_dt = 0.0;
    return Status::ok;
  }
  Status force(double t, ConstVec, ConstVec v, Vec f) noexcept override {
    f[0] = F0_ * std::cos(w_ * t) - c_ * v[0];
    return Status::ok;
  }
  bool has_exact_solution() const noexcept override { return true; }
  /// The homogeneous flow from (q0, v0) plus F0/m times the response to cos(omega t) from rest
  /// (README "Exact solution").
  Status exact_solution(double t, Vec y) const noexcept override {
    double xh, vh, xf, vf;
    homogeneous(q0_, v0_, t, xh, vh);
    forced_from_rest(t, xf, vf);
    y[0] = xh + F0_ / m_ * xf;
    y[1] = vh + F0_ / m_ * vf;
    return Status::ok;
  }

 private:
  using cplx = std::complex<double>;

  /// Underdamped (also negative damping): c^2 < 4 k m.
  bool underdamped() const noexcept { return c_ * c_ - 4.0 * m_ * k_ < 0; }

  /// Flow of m x'' + c x' + k x = 0. damped_oscillator::flow covers c >= 0; for c < 0 (always
  /// underdamped here) the same underdamped formula, with a growing exponential.
  void homogeneous(double x0, double v0, double t, double& x, double& v) const noexcept {
    if (c_ >= 0) {
      std::tie(x, v) = damped_oscillator::flow(m_, c_, k_, x0, v0, t);
      return;
    }
    const double a = c_ / (2.0 * m_), wd = std::sqrt(4.0 * m_ * k_ - c_ * c_) / (2.0 * m_);
    const double e = std::exp(-a * t), C = e * std::cos(wd * t), S = e * std::sin(wd * t) / wd;
    x = C * x0 + S * (v0 + a * x0);
    v = C * v0 - S * (a * v0 + (k_ / m_) * x0);
  }

  /// (e^z - 1) / z for |z| < 1/2 (Taylor series; the caller uses the plain quotient beyond).
  static cplx phi1(cplx z) noexcept {
    cplx sum = 1.0, term = 1.0;
    for (int n = 2; n < 20; ++n) {
      term *= z / static_cast<double>(n);
      sum += term;
    }
    return sum;
  }

  /// (x, x') of x'' + (c/m) x' + (k/m) x = cos(omega t), x(0) = x'(0) = 0.
  void forced_from_rest(double t, double& x, double& v) const noexcept {
    if (F0_ == 0) {
      x = v = 0.0;
      return;
    }
    if (!underdamped()) {  // critical or overdamped (c > 0): p(i omega) is bounded away from 0
      const double detune = k_ - m_ * w_ * w_, D = detune * detune + (c_ * w_) * (c_ * w_);
      const double A = m_ * detune / D, B = m_ * c_ * w_ / D;  // x_p = A cos + B sin (for unit F0/m)
      double xh, vh;
      homogeneous(-A, -w_ * B, t, xh, vh);
      x = xh + A * std::cos(w_ * t) + B * std::sin(w_ * t);
      v = vh + w_ * (B * std::cos(w_ * t) - A * std::sin(w_ * t));
      return;
    }
    // Roots r+- = -a +- i wd of s^2 + (c/m) s + k/m; z0 = i omega. The response from rest to
    // e^{i omega t} is the divided difference g[z0, r+, r-] of g(z) = e^{z t}, and its derivative
    // (z g)[z0, r+, r-] = z0 g[z0, r+, r-] + g[r+, r-] (Leibniz). Evaluated as
    // (g[z0, r+] - g[r+, r-]) / (z0 - r-), |z0 - r-| >= max(|a|, wd): no cancellation at or near
    // resonance (z0 -> r+, where g[z0, r+] -> t e^{r+ t}).
    const double a = c_ / (2.0 * m_), wd = std::sqrt(4.0 * m_ * k_ - c_ * c_) / (2.0 * m_);
    const cplx z0(0.0, w_), rp(-a, wd), rm(-a, -wd);
    const cplx dz = z0 - rp;
    const cplx g01 = std::abs(dz * t) < 0.5 ? std::exp(rp * t) * t * phi1(dz * t) : (std::exp(z0 * t) - std::exp(rp * t)) / dz;
    const double g12 = std::exp(-a * t) * std::sin(wd * t) / wd;
    const cplx g012 = (g01 - g12) / (z0 - rm);
    x = g012.real();
    v = (z0 * g012).real() + g12;
  }

  double m_, k_, c_, F0_, w_, q0_, v0_;
};

class HarmonicOscillatorType final : public sdk::ModelTypeBase<HarmonicOscillatorType> {
 public:
  std::string summary() const override {
    return "forced, damped harmonic oscillator m q'' + c q' + k q = F0 cos(omega t) (Lagrangian; exact solution; Sharma 2020)";
  }
  std::vector<SettingSpec> parameters() const override {
    return {{"m", "1", "kg", "mass (positive)"},
            {"k", "4", "N/m", "stiffness (positive; default: natural frequency sqrt(k/m) = 2 rad/s as in the thesis)"},
            {"zeta", "0", "", "damping ratio c / (2 sqrt(k m)), > -1 (negative: negative damping; >= 1: critically / overdamped)"},
            {"F0", "0", "N", "forcing amplitude"},
            {"omega", "0.2", "rad/s", "forcing frequency (>= 0; the thesis's sigma = omega / sqrt(k/m) is 0.1 by default)"},
            {"q0", "1", "m", "initial position"},
            {"v0", "0", "m/s", "initial velocity"}};
  }
  std::string conventions() const override { return conventions_text; }
  std::unique_ptr<sdk::Model> make(const Settings& p) const {
    const double m = p.number("m"), k = p.number("k"), zeta = p.number("zeta"), F0 = p.number("F0"), w = p.number("omega");
    const double q0 = p.number("q0"), v0 = p.number("v0");
    if (!(m > 0) || !std::isfinite(m)) throw Error(fmt::format("parameter 'm': mass {} must be positive and finite", m));
    if (!(k > 0) || !std::isfinite(k)) throw Error(fmt::format("parameter 'k': stiffness {} must be positive and finite", k));
    if (!(zeta > -1) || !std::isfinite(zeta))
      throw Error(fmt::format("parameter 'zeta': damping ratio {} must be finite and > -1 (negative damping beyond -1 grows without oscillating)", zeta));
    if (!(w >= 0) || !std::isfinite(w)) throw Error(fmt::format("parameter 'omega': forcing frequency {} must be finite and >= 0", w));
    for (const auto& [name, v] : {std::pair<const char*, double>{"F0", F0}, {"q0", q0}, {"v0", v0}})
      if (!std::isfinite(v)) throw Error(fmt::format("parameter '{}' must be finite (got {})", name, v));
    const double c = 2 * zeta * std::sqrt(k * m);
    if (!std::isfinite(c) || !std::isfinite(k * m) || !std::isfinite(c * c))
      throw Error(fmt::format("parameters 'm', 'k', 'zeta': the damping coefficient 2 zeta sqrt(k m) = {} overflows", c));
    if (c < 0 && !(c * c < 4 * m * k))  // only within rounding of zeta = -1
      throw Error(fmt::format("parameter 'zeta': damping ratio {} is too close to -1 (negative damping must leave the motion oscillating)", zeta));
    return std::make_unique<HarmonicOscillator>(m, k, c, F0, w, q0, v0);
  }
};

}  // namespace

}  // namespace liesim::harmonic_oscillator

LIESIM_PLUGIN(model, "harmonic_oscillator", "0.1.0", "forced, damped harmonic oscillator (Lagrangian, exact solution; Sharma 2020)",
              liesim::harmonic_oscillator::HarmonicOscillatorType)
