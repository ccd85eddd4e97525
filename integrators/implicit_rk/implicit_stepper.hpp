// Implicit Runge–Kutta steps, classical (in R^n) or Munthe-Kaas (in the Lie algebra), solved by
// Newton's method on the stage equations.
#pragma once
#include <liesim/sdk/jacobian_option.hpp>
#include <liesim/sdk/newton.hpp>
#include <liesim/sdk/integrator.hpp>
#include <liesim/sdk/tableau.hpp>

#include <string>

namespace liesim::implicit_rk {

/// Implicit RK stepper for any (implicit) Butcher tableau.
///
/// Classical: K_i = F(t + c_i h, y_n + h sum_j a_ij K_j), y_{n+1} = y_n + h sum_i b_i K_i.
/// Lie group (implicit RKMK [Munthe-Kaas 1999]): u_i = h sum_j a_ij K_j,
/// K_i = dexpinv_{u_i}(f(t + c_i h, exp(u_i) . y_n)), y_{n+1} = exp(h sum_i b_i K_i) . y_n.
/// The stage equations G(K) = K - Phi(K) = 0 (s m unknowns, m = n or d) are solved by the
/// kernel's Newton method (liesim/sdk/newton.hpp) with the Jacobian recomputed every iteration: for
/// classical methods on a model with an exact dF/dy (Model::has_vector_field_jacobian),
/// dG_i/dK_j = delta_ij I - h a_ij dF/dy(Y_i); otherwise the kernel's forward differences.
class ImplicitRkStepper final : public sdk::Stepper {
 public:
  /// jacobian: option `jacobian` (classical methods; Lie group methods always use differences).
  ImplicitRkStepper(const ButcherTableau& tableau, bool lie_group, double newton_tol, int max_iters, JacobianSource jacobian);
  Status init(ModelView& model, std::string& error) noexcept override;
  ErrorSpace error_space() const noexcept override { return ErrorSpace::none; }
  Status step(double t, double h, ConstVec y, Vec y_new, Vec err) noexcept override;
  std::string last_error() const override { return error_; }

 private:
  Status residual(double t, double h, ConstVec y, ConstVec K, Vec G) noexcept;
  /// J = dG/dK at K from the model's dF/dy.
  Status stage_jacobian(double t, double h, ConstVec y, ConstVec K, MatRef J) noexcept;

  const ButcherTableau& tab_;
  bool lie_;
  Newton newton_;
  JacobianSource jacobian_;      // option jacobian
  bool model_jacobian_ = false;  // this run builds dG/dK from the model's dF/dy
  ModelView* model_ = nullptr;
  int m_ = 0;  // unknowns per stage
  Eigen::VectorXd K_, u_, f_, Y_, k_;
  Eigen::MatrixXd JF_;
  std::string error_;
};

}  // namespace liesim::implicit_rk
