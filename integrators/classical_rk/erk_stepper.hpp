// Classical explicit Runge–Kutta on the embedded vector field F: R^n -> R^n, reading the same
// Butcher tables as RKMK (so that "same tableau, different method" comparisons are exact).
#pragma once
#include <liesim/sdk/integrator.hpp>
#include <liesim/sdk/tableau.hpp>

namespace liesim::classical_rk {

/// Explicit RK stepper in R^n; embedded pairs estimate the error in the embedding.
class ErkStepper final : public sdk::Stepper {
 public:
  ErkStepper(RungeKuttaTable tableau, bool adaptive, bool embedded_solution);
  Status init(ModelView& model, std::string& error) noexcept override;
  ErrorSpace error_space() const noexcept override { return adaptive_ ? ErrorSpace::embedding : ErrorSpace::none; }
  Status step(double t, double h, ConstVec y, Vec y_new, Vec err) noexcept override;
  /// The table's continuous extension where it has one (and the step advances with b), else the
  /// step repeated with theta h.
  Status interpolate(double t, double h, ConstVec y, ConstVec y_new, double theta, Vec out, Vec work) noexcept override;

 private:
  /// Stage i of the step from (t, y) with h, from the stages before it.
  Status stage(int i, double t, double h, ConstVec y) noexcept;

  RungeKuttaTable tab_;
  const ContinuousExtension* dense_;  ///< nullptr: interpolation repeats the step
  int computed_stages_ = 0;           ///< stages of the last step in K_ (the extension may need more)
  bool adaptive_;
  bool embedded_solution_;
  int used_stages_ = 0;  ///< stages a step computes (all, or those the update needs: stages_needed)
  std::vector<double> error_weights_;  ///< b - b_hat: the error estimate's weights
  std::vector<char> moves_;            ///< stage i has a non-zero A[i][j] (else Y_i = y_n)
  std::vector<double> dense_weights_;  ///< b_i(theta) of an interpolation
  ModelView* model_ = nullptr;
  Eigen::MatrixXd K_;  // n x s
  Eigen::VectorXd Y_;
};

}  // namespace liesim::classical_rk
