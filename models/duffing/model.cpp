// The duffing plugin: q'' + delta q' + alpha q + beta q^3 = 0 as a Lagrangian system with a
// damping force (Sharma 2020, seed 001, §4.3.2; alpha = -1, beta = 2 per the notes' errata).
#include <liesim/sdk/plugin.hpp>
#include <liesim/sdk/lagrangian_model.hpp>

#include <fmt/format.h>

#include <cmath>
#include <utility>

namespace liesim::duffing {

namespace {

constexpr const char* conventions_text = R"(SPACE       R^2, state [q, v] of the Duffing oscillator q'' + delta q' + alpha q + beta q^3 = 0.
GROUP       (R^2, +), abelian: exp = identity, dexpinv = identity, bracket 0.
ACTION      translation a . (q, v) = (q + a1, v + a2); generator psi_*(xi)|_y = xi.
GENERATOR   f(q, v) = F(q, v) = (v, -delta v - alpha q - beta q^3).
EMBEDDING   state [q, v] in R^2; F as above.
MECHANICS   L(q, v) = 1/2 v^2 - U(q), U(q) = 1/2 alpha q^2 + 1/4 beta q^4; mass 1; damping force
            f = -delta v (Lagrange–d'Alembert). alpha = -1, beta = 2 is the double well with dissipation.
INVARIANTS  energy E = 1/2 v^2 + U(q) (conserved for delta = 0, dE/dt = -delta v^2).
            No exact solution: references are tight-tolerance runs of another method.
PARAMETERS  alpha, beta (stiffness coefficients), delta (damping), q0, v0.
SOURCE      H. A. Sharma, PhD thesis, Virginia Tech 2020 (seed 001), §4.3.2 and Figs 4.5–4.6; the text's
            alpha = 1, beta = 0.5 contradicts the captions and "double well with dissipation": the
            notes' errata take alpha = -1, beta = 2.)";

class Duffing final : public sdk::LagrangianModel {
 public:
  Duffing(double alpha, double beta, double delta, double q0, double v0)
      : sdk::LagrangianModel(Eigen::MatrixXd::Identity(1, 1)), alpha_(alpha), beta_(beta), delta_(delta), q0_(q0), v0_(v0) {}
  void initial_state(Vec y) const override {
    y[0] = q0_;
    y[1] = v0_;
  }
  Status potential(double, ConstVec q, double& U, Vec dU_dq, double& dU_dt) noexcept override {
    const double x = q[0], x2 = x * x;
    U = 0.5 * alpha_ * x2 + 0.25 * beta_ * x2 * x2;
    dU_dq[0] = alpha_ * x + beta_ * x2 * x;
    dU_dt = 0.0;
    return Status::ok;
  }
  Status force(double, ConstVec, ConstVec v, Vec f) noexcept override {
    f[0] = -delta_ * v[0];
    return Status::ok;
  }

 private:
  double alpha_, beta_, delta_, q0_, v0_;
};

class DuffingType final : public sdk::ModelTypeBase<DuffingType> {
 public:
  std::string summary() const override { return "Duffing oscillator q'' + delta q' + alpha q + beta q^3 = 0 (Lagrangian with damping; Sharma 2020)"; }
  std::vector<SettingSpec> parameters() const override {
    return {{"alpha", "-1", "1/s^2", "linear stiffness coefficient"},
            {"beta", "2", "1/(m^2 s^2)", "cubic stiffness coefficient"},
            {"delta", "0.05", "1/s", "damping coefficient (the thesis uses 0.025, 0.05, 0.1)"},
            {"q0", "0.5", "m", "initial position"},
            {"v0", "0", "m/s", "initial velocity"}};
  }
  std::string conventions() const override { return conventions_text; }
  std::unique_ptr<sdk::Model> make(const Settings& p) const {
    const double alpha = p.number("alpha"), beta = p.number("beta"), delta = p.number("delta"), q0 = p.number("q0"), v0 = p.number("v0");
    for (const auto& [name, v] :
         {std::pair<const char*, double>{"alpha", alpha}, {"beta", beta}, {"delta", delta}, {"q0", q0}, {"v0", v0}})
      if (!std::isfinite(v)) throw Error(fmt::format("parameter '{}' must be finite (got {})", name, v));
    return std::make_unique<Duffing>(alpha, beta, delta, q0, v0);
  }
};

}  // namespace

}  // namespace liesim::duffing

LIESIM_PLUGIN(model, "duffing", "0.1.0", "Duffing oscillator with damping (Lagrangian, Sharma 2020)", liesim::duffing::DuffingType)
