// example_integrator: a liesim integrator plugin — a family of table-driven Runge–Kutta–Munthe-Kaas
// (RKMK) methods: example_integrator_ssp3 (fixed step: RKMK with the three-stage SSP tableau of Shu
// and Osher, order 3) and example_integrator_bs32 (adaptive: the Bogacki–Shampine 3(2) pair in the
// Lie algebra, its error estimate the difference of the two algebra increments).
//
// A family lists its methods and options and creates steppers. The kernel drives a stepper: it
// chooses the step h, calls step(), checks the state and controls the step size from err (when
// the method has an embedded pair). A stepper sees the model only through its public interface:
// f = model.generator(t, y), the space's act_exp, dexpinv and bracket (Lie group methods), or
// F = model.vector_field(t, y) (classical methods). Adding a method is adding a table and a line
// in `methods_table` below.
#include <liesim/sdk/integrator.hpp>
#include <liesim/sdk/plugin.hpp>
#include <liesim/sdk/tableau.hpp>  // ButcherTableau; find_butcher("NAME") gives the shipped tables

#include <fmt/format.h>

#include <array>

namespace example_integrator {

using liesim::ConstVec;
using liesim::Status;
using liesim::Vec;

// --- Methods as data ---------------------------------------------------------------------------
/// SSPRK3 (Shu–Osher 1988): c = (0, 1, 1/2), a21 = 1, a31 = a32 = 1/4, b = (1/6, 1/6, 2/3).
/// Fields: name, stages, order, embedded order, c, A (strictly lower), b, b_hat (all 0: no pair).
constexpr liesim::ButcherTableau ssp3_tableau{
    "SSP_3_3", 3, 3, 0,
    {0.0, 1.0, 0.5},
    {{0.0}, {1.0}, {0.25, 0.25}},
    {1.0 / 6.0, 1.0 / 6.0, 2.0 / 3.0},
    {}};

/// Bogacki–Shampine 3(2) (1989): c = (0, 1/2, 3/4, 1), b = (2/9, 1/3, 4/9, 0) of order 3 and the
/// embedded b_hat = (7/24, 1/4, 1/3, 1/8) of order 2: an embedded pair makes the method adaptive.
constexpr liesim::ButcherTableau bs32_tableau{
    "BOGACKI_SHAMPINE_4_3_2", 4, 3, 2,
    {0.0, 0.5, 0.75, 1.0},
    {{0.0}, {0.5}, {0.0, 0.75}, {2.0 / 9.0, 1.0 / 3.0, 4.0 / 9.0}},
    {2.0 / 9.0, 1.0 / 3.0, 4.0 / 9.0, 0.0},
    {7.0 / 24.0, 0.25, 1.0 / 3.0, 0.125}};

/// One method of the family: its name (unique across all loaded families), summary and table.
struct Method {
  const char* name;
  const char* summary;
  const liesim::ButcherTableau* table;
};
const std::array<Method, 2> methods_table{{
    {"example_integrator_ssp3", "RKMK with the SSP(3,3) tableau of Shu–Osher, fixed step (template)", &ssp3_tableau},
    {"example_integrator_bs32", "RKMK with the Bogacki–Shampine 3(2) pair, adaptive (template)", &bs32_tableau},
}};

const Method* find_method(const std::string& name) {
  for (const auto& m : methods_table)
    if (name == m.name) return &m;
  return nullptr;
}

// --- The stepper ---------------------------------------------------------------------------------
/// How k_i = dexpinv_{u_i}(f_i) is formed.
enum class Dexpinv {
  exact,       ///< the space's dexpinv (closed form where the algebra has one)
  commutator,  ///< dexpinv_u(v) ~ v - 1/2 [u, v]: enough for order 3 (RKMK needs order p - 2)
};

/// RKMK for any explicit Butcher tableau [Munthe-Kaas 1999]: with y_n fixed,
///   u_i = h sum_j a_ij k_j,  Y_i = exp(u_i) . y_n,  k_i = dexpinv_{u_i}(f(t + c_i h, Y_i)),
///   y_{n+1} = exp(h sum_i b_i k_i) . y_n.
class RkmkStepper final : public liesim::sdk::Stepper {
 public:
  RkmkStepper(const liesim::ButcherTableau& table, Dexpinv mode) : tab_(table), mode_(mode) {}

  // Bind to the model and allocate every workspace: step() must not allocate.
  Status init(liesim::ModelView& model, std::string& error) noexcept override {
    try {
      model_ = &model;
      const int d = model.space().algebra_dim(), n = model.size();
      K_.setZero(d, tab_.stages);
      u_.setZero(d);
      f_.setZero(d);
      w_.setZero(d);
      sigma_.setZero(d);
      sigma_hat_.setZero(d);
      Y_.setZero(n);
      return Status::ok;
    } catch (const std::exception& e) {
      error = e.what();
      return Status::fatal;
    }
  }

  // Without an embedded pair: fixed step only (the kernel refuses --rtol/--atol). With one, err is
  // the difference of two increments in the Lie algebra (d numbers); the kernel controls h from it.
  liesim::ErrorSpace error_space() const noexcept override {
    return tab_.embedded_order > 0 ? liesim::ErrorSpace::algebra : liesim::ErrorSpace::none;
  }

  Status step(double t, double h, ConstVec y, Vec y_new, Vec err) noexcept override {
    const liesim::HomogeneousSpaceView& space = model_->space();
    Status s = Status::ok;
    for (int i = 0; i < tab_.stages; ++i) {
      u_.setZero();
      for (int j = 0; j < i; ++j)
        if (tab_.A[i][j] != 0.0) u_.noalias() += (h * tab_.A[i][j]) * K_.col(j);
      if ((s = space.act_exp(u_, y, Y_)) != Status::ok) return fail(s, "act_exp");
      if ((s = model_->generator(t + tab_.c[i] * h, Y_, f_)) != Status::ok) return fail(s, "the model's generator");
      if (mode_ == Dexpinv::exact) {
        if ((s = space.dexpinv(u_, f_, K_.col(i))) != Status::ok) return fail(s, "dexpinv");
      } else {
        if ((s = space.bracket(u_, f_, w_)) != Status::ok) return fail(s, "bracket");
        K_.col(i) = f_ - 0.5 * w_;
      }
    }
    sigma_.setZero();
    for (int i = 0; i < tab_.stages; ++i)
      if (tab_.b[i] != 0.0) sigma_.noalias() += (h * tab_.b[i]) * K_.col(i);
    if ((s = space.act_exp(sigma_, y, y_new)) != Status::ok) return fail(s, "act_exp");
    if (tab_.embedded_order > 0) {
      // The embedded solution would be exp(h sum_i b_hat_i k_i) . y: compare the two increments.
      sigma_hat_.setZero();
      for (int i = 0; i < tab_.stages; ++i)
        if (tab_.b_hat[i] != 0.0) sigma_hat_.noalias() += (h * tab_.b_hat[i]) * K_.col(i);
      err = sigma_ - sigma_hat_;
    }
    return Status::ok;
  }

  std::string last_error() const override { return error_; }

 private:
  /// Keep the reason (the model's own message where it has one) and return s.
  Status fail(Status s, const char* where) noexcept {
    try {
      error_ = fmt::format("example_integrator: {} failed: {}", where, model_->last_error());
    } catch (...) {
    }
    return s;
  }

  const liesim::ButcherTableau& tab_;
  Dexpinv mode_;
  liesim::ModelView* model_ = nullptr;
  Eigen::MatrixXd K_;  // d x s stage derivatives
  Eigen::VectorXd u_, f_, w_, sigma_, sigma_hat_, Y_;
  std::string error_;
};

// --- The family ----------------------------------------------------------------------------------
class Family final : public liesim::sdk::IntegratorFamily {
 public:
  std::string summary() const override { return "table-driven RKMK methods (liesim plugin template)"; }

  std::vector<liesim::MethodInfo> methods() const override {
    std::vector<liesim::MethodInfo> out;
    // name, summary, order, embedded order (0: fixed step only), Lie group method, self-controlled
    for (const auto& m : methods_table)
      out.push_back({m.name, fmt::format("{} [{}]", m.summary, m.table->name), m.table->order, m.table->embedded_order, true, false});
    return out;
  }

  // The family's options (`--option KEY=VALUE`); the kernel adds its step-control options.
  std::vector<liesim::SettingSpec> options(const std::string& method) const override {
    if (!find_method(method)) return {};
    return {{"dexpinv", "exact", "", "dexpinv evaluation: exact (the space's) or commutator (v - 1/2 [u, v], order 3 suffices)"}};
  }

  // Never throws across the boundary: errors are returned as text.
  liesim::sdk::Stepper* create_stepper(const std::string& method, const liesim::Settings& options,
                                  std::string& error) const noexcept override {
    try {
      const Method* m = find_method(method);
      if (!m) throw liesim::Error(fmt::format("example_integrator has no method '{}'", method));
      const Dexpinv mode = options.choice("dexpinv", {"exact", "commutator"}) == "exact" ? Dexpinv::exact : Dexpinv::commutator;
      return new RkmkStepper(*m->table, mode);
    } catch (const std::exception& e) {
      error = e.what();
      return nullptr;
    }
  }
};

}  // namespace example_integrator

// The entry point: kind, family name, plugin version, one-line summary, family type.
LIESIM_PLUGIN(integrator, "example_integrator", "0.1.0", "table-driven RKMK methods (template)",
              example_integrator::Family)
