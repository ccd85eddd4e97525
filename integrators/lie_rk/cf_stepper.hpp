// Commutator-free Lie group methods (and Crouch–Grossman) read from a CommutatorFreeTable
// [Celledoni–Marthinsen–Owren 2003; Curry–Owren 2019; thesis §2.2.2, §2.4.2].
#pragma once
#include <liesim/sdk/integrator.hpp>
#include <liesim/sdk/tableau.hpp>

namespace liesim::lie_rk {

/// Stepper for any commutator-free scheme; exponentials shared with an earlier stage are reused
/// (detected from the table: a stage whose exponential list starts with another stage's list
/// starts from that stage's point).
class CommutatorFreeStepper final : public sdk::Stepper {
 public:
  CommutatorFreeStepper(CommutatorFreeTable scheme, bool adaptive, bool embedded_solution);
  Status init(ModelView& model, std::string& error) noexcept override;
  ErrorSpace error_space() const noexcept override { return adaptive_ ? ErrorSpace::embedding : ErrorSpace::none; }
  Status step(double t, double h, ConstVec y, Vec y_new, Vec err) noexcept override;

  /// Index of the stage whose exponential product is the longest prefix of `p` (-1: none),
  /// and the number of exponentials it covers.
  static std::pair<int, int> reusable_prefix(const CommutatorFreeTable& s, const ExponentialList& p, int before);

 private:
  Status apply(const ExponentialList& p, int start_stage, int skip, double h, ConstVec y, Vec out) noexcept;

  CommutatorFreeTable scheme_;
  bool adaptive_;
  bool embedded_solution_;
  ModelView* model_ = nullptr;
  std::vector<std::pair<int, int>> stage_prefix_;
  std::pair<int, int> update_prefix_{-1, 0}, embedded_prefix_{-1, 0};
  Eigen::MatrixXd F_;   // d x s: f(Y_r)
  Eigen::MatrixXd Y_;   // n x s: stage points
  Eigen::VectorXd xi_, a_, b_, y_hat_;
};

}  // namespace liesim::lie_rk
