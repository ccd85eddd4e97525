// IDA (variable-order, variable-step BDF for DAEs) on a model's differential-algebraic formulation.
#pragma once
#include "solver_base.hpp"

#include <sundials/sundials_linearsolver.h>
#include <sundials/sundials_matrix.h>
#include <sundials/sundials_nonlinearsolver.h>

namespace liesim::sundials {

/// ida: IDA on G(t, x, x') = 0 of Model::dae(), Newton + dense linear solver with SUNDIALS'
/// difference-quotient Jacobian, by default a new one at every step (option fresh_jacobian);
/// algebraic components (id = 0) are left out of the error test (IDASetSuppressAlg) and weighted
/// in the Newton test by the step size (weights()). Each output is IDA's solution at t_out mapped
/// to the model's state by DaeFormulation::to_state. Every residual evaluation is counted as one F
/// evaluation of the model.
class IdaSolver final : public SolverBase {
 public:
  explicit IdaSolver(Options options) : SolverBase(Method::ida, std::move(options)) {}
  ~IdaSolver() override;

  Status init(ModelView& model, double t0, ConstVec y0, const SolverTolerances& tol, std::string& error) noexcept override;
  Status advance_to_event(double t_out, Vec y_out, double& t_reached, int32_t* found) noexcept override;
  void add_stats(Stats& stats) const noexcept override;

  /// The DAE point x of the last output (after init: the consistent initial values).
  const Eigen::VectorXd& dae_point() const noexcept { return x_; }
  /// Its derivative x' (IDA's interpolant).
  const Eigen::VectorXd& dae_derivative() const noexcept { return xdot_; }

 private:
  std::string flag_name(int flag) const override;
  const char* module() const noexcept override { return "IDA"; }
  /// IDAResFn: r = G(t, x, x') through DaeFormulation::residual (0 ok, 1 recoverable, -1 fatal).
  static int residual(double t, N_Vector x, N_Vector xdot, N_Vector r, void* self) noexcept;
  /// IDAEwtFn: w_i = 1 / (rtol |x_i| + atol) for the differential components, and
  /// w_i = |h| / (rtol |x_i| + algebraic_atol) for the algebraic ones (h: the step IDA attempts
  /// next; before the first step h_ref_), so that an index-2 multiplier is measured by its impulse
  /// h z over a step, which the Newton iteration resolves independently of h (README.md, "ida").
  static int weights(N_Vector x, N_Vector w, void* self) noexcept;
  bool init_roots(std::string& error) noexcept override;
  /// IDARootFn: the events' functions at the model state of (x, x') (DaeFormulation::to_state).
  static int root(double t, N_Vector x, N_Vector xdot, double* g, void* self) noexcept;
  /// IDA's failure flags (its residual, not a vector field), then the common ones.
  std::string failure_hint(const std::string& name) const override;

  DaeFormulationView* dae_ = nullptr;
  void* mem_ = nullptr;
  SUNMatrix A_ = nullptr;
  SUNLinearSolver LS_ = nullptr;
  SUNNonlinearSolver NLS_ = nullptr;  ///< Newton with a new Jacobian at every step (fresh_jacobian)
  double rtol_ = 0.0;
  double h_ref_ = 0.0;  ///< step size of the algebraic weights before IDA's first step
  Eigen::VectorXd root_state_;  ///< the model state where root() evaluates the events
  Eigen::VectorXd x_, xdot_, id_, atol_;  ///< DAE point, its derivative, the differential marks, atol (per component)
  BorrowedVector xv_, xdotv_, idv_;
};

}  // namespace liesim::sundials
