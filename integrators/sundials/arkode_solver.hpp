// ARKODE as a liesim Solver: ERKStep (explicit tables) and ARKStep (DIRK tables, Newton + dense).
#pragma once
#include "solver_base.hpp"

#include <sundials/sundials_linearsolver.h>
#include <sundials/sundials_matrix.h>

namespace liesim::sundials {

/// arkode_erk (ERKStep) and arkode_dirk (ARKStep, implicit part only); adaptive or fixed step.
/// Explicit tables hit by ERKStep's FSAL bug (TableInfo::erkstep_fsal_bug) run on ARKStep's
/// explicit part instead, which computes the same method correctly.
class ArkodeSolver final : public SolverBase {
 public:
  ArkodeSolver(Method method, Options options)
      : SolverBase(method, std::move(options)),
        kind_(method == Method::arkode_dirk ? Kind::arkstep_implicit
              : opt_.table_via_arkstep     ? Kind::arkstep_explicit
                                           : Kind::erkstep) {}
  ~ArkodeSolver() override;

  Status init(ModelView& model, double t0, ConstVec y0, const SolverTolerances& tol, std::string& error) noexcept override;
  Status advance_to_event(double t_out, Vec y_out, double& t_reached, int32_t* found) noexcept override;
  void add_stats(Stats& stats) const noexcept override;

 private:
  std::string flag_name(int flag) const override;
  const char* module() const noexcept override { return "ARKODE"; }
  bool init_roots(std::string& error) noexcept override;
  enum class Kind { erkstep, arkstep_explicit, arkstep_implicit };
  bool erk() const noexcept { return kind_ == Kind::erkstep; }

  Kind kind_;
  void* mem_ = nullptr;
  SUNMatrix A_ = nullptr;
  SUNLinearSolver LS_ = nullptr;
};

}  // namespace liesim::sundials
