// The harmonic_oscillator plugin: m q'' + c q' + k q = F0 cos(omega t), c = 2 zeta sqrt(k m), as a
// Lagrangian system with a time-dependent force (Sharma 2020, seed 001, (3.51)–(3.52), (3.62)),
// with its exact solution.
#include "../oscillator/damped_oscillator.hpp"

#include <liesim/plugin.hpp>
#include <liesim/sdk/lagrangian_model.hpp>

#include <fmt/format.h>

#include <cmath>

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
            Exact solution for every parameter set: the damped homogeneous flow plus the
            particular solution A cos(omega t) + B sin(omega t), A = F0 (k - m omega^2)/D,
            B = F0 c omega/D, D = (k - m omega^2)^2 + (c omega)^2; at resonance without damping
            (c = 0, omega^2 = k/m) the particular solution is F0 t sin(omega t)/(2 m omega).
PARAMETERS  m > 0, k > 0, zeta > -1 (damping ratio; negative values give negative damping),
            F0 (forcing amplitude), omega >= 0 (forcing frequency), q0, v0. The thesis's natural
            frequency w_n = sqrt(k/m) = 2 rad/s is the default; sigma = omega / w_n.
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
  Status exact_solution(double t, Vec y) const noexcept override {
    double xp0, vp0, xp, vp;
    particular(0.0, xp0, vp0);
    particular(t, xp, vp);
    const auto [xh, vh] = damped_oscillator::flow(m_, c_, k_, q0_ - xp0, v0_ - vp0, t);
    y[0] = xh + xp;
    y[1] = vh + vp;
    return Status::ok;
  }

 private:
  /// A particular solution (x_p, x_p') of the forced equation.
  void particular(double t, double& x, double& v) const noexcept {
    const double detune = k_ - m_ * w_ * w_;
    if (c_ == 0 && detune == 0) {  // undamped resonance
      const double a = F0_ / (2 * m_ * w_);
      x = a * t * std::sin(w_ * t);
      v = a * (std::sin(w_ * t) + w_ * t * std::cos(w_ * t));
      return;
    }
    const double D = detune * detune + c_ * w_ * c_ * w_;
    const double A = F0_ * detune / D, B = F0_ * c_ * w_ / D;
    x = A * std::cos(w_ * t) + B * std::sin(w_ * t);
    v = w_ * (B * std::cos(w_ * t) - A * std::sin(w_ * t));
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
            {"zeta", "0", "", "damping ratio c / (2 sqrt(k m)), > -1 (negative: negative damping)"},
            {"F0", "0", "N", "forcing amplitude"},
            {"omega", "0.2", "rad/s", "forcing frequency (>= 0; the thesis's sigma = omega / sqrt(k/m) is 0.1 by default)"},
            {"q0", "1", "m", "initial position"},
            {"v0", "0", "m/s", "initial velocity"}};
  }
  std::string conventions() const override { return conventions_text; }
  std::unique_ptr<sdk::Model> make(const Settings& p) const {
    const double m = p.number("m"), k = p.number("k"), zeta = p.number("zeta"), F0 = p.number("F0"), w = p.number("omega");
    if (!(m > 0) || !std::isfinite(m)) throw Error(fmt::format("parameter 'm': mass {} must be positive and finite", m));
    if (!(k > 0) || !std::isfinite(k)) throw Error(fmt::format("parameter 'k': stiffness {} must be positive and finite", k));
    if (!(zeta > -1) || !std::isfinite(zeta))
      throw Error(fmt::format("parameter 'zeta': damping ratio {} must be finite and > -1 (negative damping beyond -1 grows without oscillating)", zeta));
    if (!std::isfinite(F0)) throw Error(fmt::format("parameter 'F0' must be finite (got {})", F0));
    if (!(w >= 0) || !std::isfinite(w)) throw Error(fmt::format("parameter 'omega': forcing frequency {} must be finite and >= 0", w));
    return std::make_unique<HarmonicOscillator>(m, k, 2 * zeta * std::sqrt(k * m), F0, w, p.number("q0"), p.number("v0"));
  }
};

}  // namespace

}  // namespace liesim::harmonic_oscillator

LIESIM_PLUGIN(model, "harmonic_oscillator", "0.1.0", "forced, damped harmonic oscillator (Lagrangian, exact solution; Sharma 2020)",
              liesim::harmonic_oscillator::HarmonicOscillatorType)
