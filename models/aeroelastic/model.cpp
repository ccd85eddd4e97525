// The aeroelastic plugin: a two-degree-of-freedom pitch-plunge wing section with a polynomial pitch
// spring and quasi-steady aerodynamics (Sharma 2020, seed 001, §4.3.3, (4.26)-(4.30) with the notes'
// corrections; the model of Shukla & Patil 2017), given by its Lagrangian and non-conservative forces.
#include <liesim/sdk/plugin.hpp>
#include <liesim/sdk/lagrangian_model.hpp>

#include <fmt/format.h>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

namespace liesim::aeroelastic {

namespace {

constexpr const char* conventions_text = R"(SPACE       R^4, state [h, alpha, h_dot, alpha_dot]: plunge h (m, positive downward) and pitch alpha (rad,
            nose up) of a flat-plate section about its elastic axis, and their rates.
GROUP       (R^4, +), abelian: exp = identity, dexpinv = identity, bracket 0.
ACTION      translation a . y = y + a; generator psi_*(xi)|_y = xi.
GENERATOR   f = F = (q_dot, M^-1 (-dU/dq + f(q, q_dot))): Lie group methods are their classical counterparts.
EMBEDDING   state in R^4; F as above.
MECHANICS   L = 1/2 m_T h_dot^2 + 1/2 I_alpha alpha_dot^2 + m_W x_alpha b h_dot alpha_dot - U,
            U = 1/2 k_h h^2 + 1/2 k_alpha0 alpha^2 + 1/3 k_alpha1 alpha^3 + 1/4 k_alpha2 alpha^4
            (thesis (4.26) with the notes' corrections: the factors 1/2 and b); mass matrix
            M = [[m_T, m_W x_alpha b], [m_W x_alpha b, I_alpha]]. Forces (quasi-steady, h positive down):
            f_h = -c_h h_dot - rho U^2 b C_La alpha_eff, f_alpha = -c_alpha alpha_dot + rho U^2 b^2 C_Ma alpha_eff,
            alpha_eff = alpha + h_dot/U + (1/2 - a) b alpha_dot/U. (The thesis' f_h = +rho U^2 b C_La alpha_eff
            with alpha_eff = alpha + h_dot/U would make the plunge's aerodynamic damping negative; the
            lift acts against a downward-positive h, as in Ko & Strganac.)
INVARIANTS  energy E = 1/2 q_dot^T M q_dot + U(q) (not conserved: damping and aerodynamic work; on the
            limit cycle it oscillates about a constant).
PARAMETERS  b, a, m_W, m_T, x_alpha, I_alpha, k_h, k_alpha0, k_alpha1, k_alpha2, c_h, c_alpha, rho, C_La, C_Ma, U,
            h0, alpha0, h_dot0, alpha_dot0.
SOURCE      H. A. Sharma, PhD thesis, Virginia Tech 2020 (seed 001) §4.3.3, Figs 4.7-4.10 (model of Shukla &
            Patil, Nonlinear Dyn. 88 (2017), parameters not printed). Defaults: the Texas A&M NATA section
            values of Ko, Strganac et al. (b, a, m_W, m_T, x_alpha, I_alpha, k_h, c_h, c_alpha, rho, C_La,
            C_Ma = (1/2 + a) C_La) and their pitch-stiffness polynomial 2.82 (1 - 22.1 alpha + 1315.5 alpha^2 ...)
            cut after alpha^2 (the thesis' form): k_alpha0 = 2.82, k_alpha1 = -62.322, k_alpha2 = 3709.71.
            Linear flutter speed U_f = 14.6068 m/s; U = 0.9 U_f = 13.1461 m/s (the thesis' setting).)";

/// Names, defaults, units and meanings of the parameters (order of PARAMETERS).
const std::vector<SettingSpec>& parameter_specs() {
  static const std::vector<SettingSpec> specs{
      {"b", "0.135", "m", "semichord"},
      {"a", "-0.6", "", "elastic axis position behind mid-chord, in semichords"},
      {"m_W", "2.049", "kg", "wing mass"},
      {"m_T", "12.387", "kg", "total mass in plunge"},
      {"x_alpha", "0.2466666666666667", "", "centre of mass behind the elastic axis, in semichords"},
      {"I_alpha", "0.053972", "kg m^2", "moment of inertia about the elastic axis"},
      {"k_h", "2844.4", "N/m", "plunge stiffness"},
      {"k_alpha0", "2.82", "N m/rad", "pitch stiffness k_alpha(alpha) = k_alpha0 + k_alpha1 alpha + k_alpha2 alpha^2"},
      {"k_alpha1", "-62.322", "N m/rad^2", "pitch stiffness, linear coefficient"},
      {"k_alpha2", "3709.71", "N m/rad^3", "pitch stiffness, quadratic coefficient"},
      {"c_h", "27.43", "kg/s", "plunge damping"},
      {"c_alpha", "0.036", "kg m^2/s", "pitch damping"},
      {"rho", "1.225", "kg/m^3", "air density"},
      {"C_La", "6.28", "1/rad", "lift-curve slope"},
      {"C_Ma", "-0.628", "1/rad", "moment-curve slope about the elastic axis, (1/2 + a) C_La"},
      {"U", "13.146149", "m/s", "free-stream speed (0.9 U_f, U_f = 14.6068 m/s with the defaults)"},
      {"h0", "0.01", "m", "initial plunge"},
      {"alpha0", "0.1", "rad", "initial pitch"},
      {"h_dot0", "0", "m/s", "initial plunge rate"},
      {"alpha_dot0", "0", "rad/s", "initial pitch rate"}};
  return specs;
}

struct Section {
  double b, a, m_W, m_T, x_alpha, I_alpha, k_h, k0, k1, k2, c_h, c_alpha, rho, C_La, C_Ma, U;
  double h0, alpha0, h_dot0, alpha_dot0;
};

Eigen::MatrixXd mass_of(const Section& s) {
  const double coupling = s.m_W * s.x_alpha * s.b;
  return (Eigen::MatrixXd(2, 2) << s.m_T, coupling, coupling, s.I_alpha).finished();
}

class Aeroelastic final : public sdk::LagrangianModel {
 public:
  explicit Aeroelastic(const Section& s) : sdk::LagrangianModel(mass_of(s)), s_(s) {}
  std::vector<std::string> state_names() const override { return {"h", "alpha", "h_dot", "alpha_dot"}; }
  void initial_state(Vec y) const override { y << s_.h0, s_.alpha0, s_.h_dot0, s_.alpha_dot0; }
  Status potential(double, ConstVec q, double& U, Vec dU_dq, double& dU_dt) noexcept override {
    const double h = q[0], al = q[1], al2 = al * al;
    U = 0.5 * s_.k_h * h * h + al2 * (0.5 * s_.k0 + al * (s_.k1 / 3 + 0.25 * s_.k2 * al));
    dU_dq[0] = s_.k_h * h;
    dU_dq[1] = (s_.k0 + s_.k1 * al + s_.k2 * al2) * al;
    dU_dt = 0.0;
    return Status::ok;
  }
  Status force(double, ConstVec q, ConstVec v, Vec f) noexcept override {
    const double alpha_eff = q[1] + v[0] / s_.U + (0.5 - s_.a) * s_.b * v[1] / s_.U;
    const double pressure = s_.rho * s_.U * s_.U;
    f[0] = -s_.c_h * v[0] - pressure * s_.b * s_.C_La * alpha_eff;
    f[1] = -s_.c_alpha * v[1] + pressure * s_.b * s_.b * s_.C_Ma * alpha_eff;
    return Status::ok;
  }

 private:
  Section s_;
};

class AeroelasticType final : public sdk::ModelTypeBase<AeroelasticType> {
 public:
  std::string summary() const override {
    return "pitch-plunge aeroelastic wing section with a polynomial pitch spring (Lagrangian with aerodynamic forces; Sharma 2020)";
  }
  std::vector<SettingSpec> parameters() const override { return parameter_specs(); }
  std::string conventions() const override { return conventions_text; }
  std::unique_ptr<sdk::Model> make(const Settings& p) const {
    std::vector<double> v;
    for (const auto& spec : parameter_specs()) {
      const double x = p.number(spec.name);
      if (!std::isfinite(x)) throw Error(fmt::format("parameter '{}' must be finite (got {})", spec.name, x));
      v.push_back(x);
    }
    const Section s{v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10], v[11], v[12], v[13], v[14], v[15],
                    v[16], v[17], v[18], v[19]};
    for (const auto& [name, x] : {std::pair<const char*, double>{"b", s.b}, {"m_W", s.m_W}, {"m_T", s.m_T}, {"I_alpha", s.I_alpha},
                                  {"rho", s.rho}, {"U", s.U}})
      if (!(x > 0)) throw Error(fmt::format("parameter '{}' must be positive (got {})", name, x));
    for (const auto& [name, x] : {std::pair<const char*, double>{"k_h", s.k_h}, {"c_h", s.c_h}, {"c_alpha", s.c_alpha}})
      if (x < 0) throw Error(fmt::format("parameter '{}' must not be negative (got {})", name, x));
    if (!(s.m_T * s.I_alpha > std::pow(s.m_W * s.x_alpha * s.b, 2)))
      throw Error(fmt::format("the mass matrix [[m_T, m_W x_alpha b], [m_W x_alpha b, I_alpha]] is not positive definite "
                              "(m_T I_alpha = {} <= (m_W x_alpha b)^2 = {}): raise I_alpha or m_T",
                              s.m_T * s.I_alpha, std::pow(s.m_W * s.x_alpha * s.b, 2)));
    return std::make_unique<Aeroelastic>(s);
  }
};

}  // namespace

}  // namespace liesim::aeroelastic

LIESIM_PLUGIN(model, "aeroelastic", "0.1.0", "pitch-plunge aeroelastic section with a polynomial pitch spring (Lagrangian, Sharma 2020)",
              liesim::aeroelastic::AeroelasticType)
