// CVODE (variable-order, variable-step BDF / Adams) as a liesim Solver.
#pragma once
#include "solver_base.hpp"

#include <sundials/sundials_linearsolver.h>
#include <sundials/sundials_matrix.h>
#include <sundials/sundials_nonlinearsolver.h>

namespace liesim::sundials {

/// cvode_bdf, cvode_adams (Newton + dense, DQ Jacobian), cvode_adams_fixedpoint (fixed-point
/// iteration), cvode_bdf_proj (BDF + projection onto the model's manifold after each step).
class CvodeSolver final : public SolverBase {
 public:
  CvodeSolver(Method method, Options options) : SolverBase(method, std::move(options)) {}
  ~CvodeSolver() override;

  Status init(ModelView& model, double t0, ConstVec y0, const SolverTolerances& tol, std::string& error) noexcept override;
  Status advance_to_event(double t_out, Vec y_out, double& t_reached, int32_t* found) noexcept override;
  void add_stats(Stats& stats) const noexcept override;

 private:
  std::string flag_name(int flag) const override;
  const char* module() const noexcept override { return "CVODE"; }
  bool init_roots(std::string& error) noexcept override;
  bool newton() const noexcept { return method_ != Method::cvode_adams_fixedpoint; }
  /// CVProjFn: corr = P(ycur) - ycur through HomogeneousSpace::project; err -> P(P(ycur) + err) - P(ycur).
  static int project(double t, N_Vector ycur, N_Vector corr, double eps, N_Vector err, void* self) noexcept;

  void* mem_ = nullptr;
  SUNMatrix A_ = nullptr;
  SUNLinearSolver LS_ = nullptr;
  SUNNonlinearSolver NLS_ = nullptr;
  Eigen::VectorXd work_;  ///< projection workspace (n)
};

}  // namespace liesim::sundials
