// The double_well plugin: a particle in the double-well potential U(q) = 1/2 (q^4 - q^2)
// (Sharma 2020, seed 001, (3.38)–(3.39), (4.23)), given by its Lagrangian.
#include "double_well.hpp"

#include <liesim/sdk/plugin.hpp>
#include <liesim/sdk/lagrangian_model.hpp>

#include <fmt/format.h>

#include <cmath>
#include <utility>

namespace liesim::double_well {

namespace {

constexpr const char* conventions_text = R"(SPACE       R^2, state [q, v] (position, velocity) of m q'' - q + 2 q^3 = 0.
GROUP       (R^2, +), abelian: exp = identity, dexpinv = identity, bracket 0.
ACTION      translation a . (q, v) = (q + a1, v + a2); generator psi_*(xi)|_y = xi.
GENERATOR   f(q, v) = F(q, v) = (v, (q - 2 q^3)/m): Lie group methods are their classical counterparts.
EMBEDDING   state [q, v] in R^2; F as above.
MECHANICS   L(q, v) = 1/2 m v^2 - U(q), U(q) = 1/2 (q^4 - q^2); mass matrix M = m; no force. Wells at
            q = +-1/sqrt(2) (U = -1/8), barrier U(0) = 0: E = 0 is the separatrix.
INVARIANTS  energy E = 1/2 m v^2 + 1/2 (q^4 - q^2) (conserved). No exact solution: references are
            tight-tolerance runs of another method.
PARAMETERS  m > 0 (mass), q0, v0 (initial position and velocity).
SOURCE      H. A. Sharma, Structure-preserving numerical methods for engineering applications, PhD
            thesis, Virginia Tech 2020 (seed 001), (3.38)–(3.39) and (4.23); Kane, Marsden & Ortiz,
            J. Math. Phys. 40 (1999).)";

class DoubleWell final : public sdk::LagrangianModel {
 public:
  DoubleWell(double m, double q0, double v0) : sdk::LagrangianModel(Eigen::MatrixXd::Constant(1, 1, m)), q0_(q0), v0_(v0) {}
  void initial_state(Vec y) const override {
    y[0] = q0_;
    y[1] = v0_;
  }
  Status potential(double, ConstVec q, double& U, Vec dU_dq, double& dU_dt) noexcept override {
    double_well::potential(q[0], U, dU_dq[0]);
    dU_dt = 0.0;
    return Status::ok;
  }

 private:
  double q0_, v0_;
};

class DoubleWellType final : public sdk::ModelTypeBase<DoubleWellType> {
 public:
  std::string summary() const override { return "particle in the double-well potential 1/2 (q^4 - q^2) (Lagrangian; Sharma 2020)"; }
  std::vector<SettingSpec> parameters() const override {
    return {{"m", "1", "kg", "mass (positive)"}, {"q0", "0.5", "m", "initial position"}, {"v0", "0", "m/s", "initial velocity"}};
  }
  std::string conventions() const override { return conventions_text; }
  std::unique_ptr<sdk::Model> make(const Settings& p) const {
    const double m = p.number("m");
    if (!(m > 0) || !std::isfinite(m)) throw Error(fmt::format("parameter 'm': mass {} must be positive and finite", m));
    const double q0 = p.number("q0"), v0 = p.number("v0");
    for (const auto& [name, v] : {std::pair<const char*, double>{"q0", q0}, {"v0", v0}})
      if (!std::isfinite(v)) throw Error(fmt::format("parameter '{}' must be finite (got {})", name, v));
    return std::make_unique<DoubleWell>(m, q0, v0);
  }
};

}  // namespace

}  // namespace liesim::double_well

LIESIM_PLUGIN(model, "double_well", "0.1.0", "particle in a double-well potential (Lagrangian, Sharma 2020)",
              liesim::double_well::DoubleWellType)
