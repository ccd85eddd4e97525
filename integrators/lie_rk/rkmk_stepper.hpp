// Runge–Kutta–Munthe-Kaas: any explicit Butcher tableau applied to the dexpinv equation
// sigma' = dexpinv_sigma(f(exp(sigma) . y_n)) in the Lie algebra [Munthe-Kaas 1999; thesis §2.2.2].
#pragma once
#include <liesim/sdk/integrator.hpp>
#include <liesim/sdk/tableau.hpp>

namespace liesim::lie_rk {

/// How the stage derivatives k_i = dexpinv_{u_i}(f_i) are formed.
enum class DexpinvMode {
  exact,   ///< the space's closed form
  series,  ///< truncated Bernoulli series up to ad^order
  none     ///< k_i = f_i; the scheme's commutator terms replace dexpinv (Casas–Owren)
};

/// RKMK stepper reading an explicit table of any size, with optional commutator corrections
/// replacing dexpinv (Casas–Owren RKMK4: CommutatorTerm, on the table's stages).
class RkmkStepper final : public sdk::Stepper {
 public:
  /// `embedded_solution`: advance with b_hat instead of b (to measure the auxiliary method).
  RkmkStepper(RungeKuttaTable tableau, std::span<const CommutatorTerm> commutators, DexpinvMode mode, int series_order, bool adaptive,
              bool embedded_solution);
  Status init(ModelView& model, std::string& error) noexcept override;
  ErrorSpace error_space() const noexcept override { return adaptive_ ? ErrorSpace::algebra : ErrorSpace::none; }
  Status step(double t, double h, ConstVec y, Vec y_new, Vec err) noexcept override;
  /// The table's continuous extension in the Lie algebra, exp(h sum_i b_i(theta) k_i) . y_n (on M to
  /// round-off), where the table has one, the step advances with b and no commutator replaces
  /// dexpinv; else the step repeated with theta h.
  Status interpolate(double t, double h, ConstVec y, ConstVec y_new, double theta, Vec out, Vec work) noexcept override;
  std::string last_error() const override { return error_; }

 private:
  /// Stage derivative k_i of the step from (t, y) with h, from the stages before it.
  Status stage(int i, double t, double h, ConstVec y, const HomogeneousSpaceView& space) noexcept;
  Status stage_derivative(ConstVec u, ConstVec f, Vec k) noexcept;
  void add_commutators(int row, double h, Vec u) noexcept;

  RungeKuttaTable tab_;
  std::span<const CommutatorTerm> commutators_;  ///< empty: dexpinv
  DexpinvMode mode_;
  int series_order_;
  bool adaptive_;
  bool embedded_solution_;
  int used_stages_ = 0;  ///< stages a step computes (all, or those the update needs: stages_needed)
  const ContinuousExtension* dense_ = nullptr;  ///< nullptr: interpolation repeats the step
  int computed_stages_ = 0;  ///< stages of the last step in K_ (the extension may need more)
  ModelView* model_ = nullptr;
  Eigen::MatrixXd K_;                      // d x s stage derivatives
  Eigen::VectorXd u_, f_, Y_, sigma_, sigma_hat_, w1_, w2_;
  std::vector<double> dense_weights_;  ///< b_i(theta) of an interpolation
  std::string error_;
};

}  // namespace liesim::lie_rk
