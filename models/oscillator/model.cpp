// The oscillator plugin: the linear test equation m x'' + d x' + k x = 0 in R^2 (seed 003 (*)),
// the classical counterpart of rotating_ball, under the translation group R^2.
#include "damped_oscillator.hpp"

#include <liesim/lie/actions.hpp>
#include <liesim/sdk/lie_space.hpp>
#include <liesim/sdk/plugin.hpp>

#include <fmt/format.h>

#include <cmath>

namespace liesim::oscillator {

namespace {

constexpr const char* conventions_text = R"(SPACE       R^2, state (x, v) of the scalar damped oscillator m x'' + d x' + k x = 0.
GROUP       (R^2, +), abelian: exp = identity, dexpinv = identity, bracket 0.
ACTION      translation a . (x, v) = (x + a1, v + a2) (lie::RnTranslation<2>); generator psi_*(xi)|_y = xi.
GENERATOR   f(x, v) = F(x, v) = (v, -(d v + k x)/m): every Lie group method is its classical
            counterpart with the same tableau (RKMK = RK, CF/CG = RK with the same weights summed).
EMBEDDING   state [x, v] in R^2; F as above, with its exact Jacobian [[0, 1], [-k/m, -d/m]] for
            implicit solvers.
INVARIANTS  energy E = 1/2 m v^2 + 1/2 k x^2 (dE/dt = -d v^2: conserved for d = 0, decays for d > 0).
            Exact solution for every m > 0, d >= 0, k >= 0 (underdamped, critically damped, overdamped).
PARAMETERS  m > 0 (mass), d >= 0 (damping), k >= 0 (stiffness), x0, v0 (initial position and velocity).
SOURCE      M. Arnold, Stability analysis of Lie group integrators in terms of test equations,
            EasyChair preprint 2024 (seed 003), §2 equation (*); rotating_ball is its SO(3) version.)";

class Oscillator final : public sdk::Model {
 public:
  Oscillator(double m, double d, double k, double x0, double v0)
      : sdk::Model(std::make_unique<PowerSpace<lie::RnTranslation<2>>>(1)), m_(m), d_(d), k_(k), x0_(x0), v0_(v0) {}

  void initial_state(Vec y) const override {
    y[0] = x0_;
    y[1] = v0_;
  }
  std::vector<std::string> state_names() const override { return {"x", "v"}; }
  std::vector<InvariantInfo> invariants() const override {
    // dE/dt = -d v^2 <= 0 (d >= 0 is enforced): a growing energy is a blown-up run.
    return {{"energy", "E = 1/2 m v^2 + 1/2 k x^2 (conserved for d = 0, non-increasing for d > 0)",
             d_ == 0 ? InvariantKind::conserved : InvariantKind::nonincreasing}};
  }
  void evaluate_invariants(ConstVec y, Vec out) const noexcept override {
    out[0] = 0.5 * m_ * y[1] * y[1] + 0.5 * k_ * y[0] * y[0];
  }
  bool has_exact_solution() const noexcept override { return true; }
  Status exact_solution(double t, Vec y) const noexcept override {
    const auto [x, v] = damped_oscillator::flow(m_, d_, k_, x0_, v0_, t);
    y[0] = x;
    y[1] = v;
    return Status::ok;
  }
  bool has_jacobian() const noexcept override { return true; }
  Status jacobian(double, ConstVec, MatRef J) noexcept override {
    J << 0.0, 1.0, -k_ / m_, -d_ / m_;
    return Status::ok;
  }

 private:
  Status do_generator(double, ConstVec y, Vec xi) noexcept override { return do_vector_field(0.0, y, xi); }
  Status do_vector_field(double, ConstVec y, Vec dy) noexcept override {
    const double x = y[0], v = y[1];
    dy[0] = v;
    dy[1] = -(d_ * v + k_ * x) / m_;
    return Status::ok;
  }

  double m_, d_, k_, x0_, v0_;
};

class OscillatorType final : public sdk::ModelTypeBase<OscillatorType> {
 public:
  std::string summary() const override {
    return "damped linear oscillator m x'' + d x' + k x = 0 in R^2 under translations (classical counterpart of rotating_ball)";
  }
  std::vector<SettingSpec> parameters() const override {
    return {{"m", "1", "kg", "mass (positive)"},
            {"d", "0", "N s/m", "damping coefficient (>= 0)"},
            {"k", "1", "N/m", "stiffness (>= 0)"},
            {"x0", "0.5", "m", "initial position"},
            {"v0", "0", "m/s", "initial velocity"}};
  }
  std::string conventions() const override { return conventions_text; }
  std::unique_ptr<sdk::Model> make(const Settings& p) const {
    const double m = p.number("m"), d = p.number("d"), k = p.number("k");
    if (!(m > 0)) throw Error(fmt::format("parameter 'm': mass {} must be positive", m));
    if (!(d >= 0)) throw Error(fmt::format("parameter 'd': damping {} must be >= 0", d));
    if (!(k >= 0)) throw Error(fmt::format("parameter 'k': stiffness {} must be >= 0", k));
    return std::make_unique<Oscillator>(m, d, k, p.number("x0"), p.number("v0"));
  }
};

}  // namespace

}  // namespace liesim::oscillator

LIESIM_PLUGIN(model, "oscillator", "0.2.0", "damped linear oscillator in R^2 (test equation of seed 003)",
              liesim::oscillator::OscillatorType)
