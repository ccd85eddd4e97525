// Value types that describe integrator methods, shared by the SDK (which writes them into the
// metadata document) and the host (which reads them back).
#pragma once
#include <string>
#include <vector>

namespace liesim {

/// Where an embedded pair measures its local error estimate (LIESIM_ERROR_* in liesim/plugin.h).
enum class ErrorSpace {
  none = 0,       ///< no error estimate (fixed step only)
  embedding = 1,  ///< difference y_new - y_hat of two points in R^n (classical pairs; commutator-free pairs, measured with the space's distance under l2)
  algebra = 2     ///< difference of two Lie algebra increments sigma - sigma_hat (RKMK pairs)
};

/// A quantity a method reports of its own after every step (ABI 2.2): a discrete energy, the step
/// size its dynamics chose, the residual of one of its equations.
struct DiagnosticInfo {
  std::string name;        ///< column name, e.g. "discrete_energy"
  std::string doc;         ///< meaning and formula
  bool conserved = false;  ///< the method conserves it: reported with a drift, like an invariant
};

/// Description of one method of a family, as `liesim list` prints it.
struct MethodInfo {
  std::string name;         ///< e.g. "rkmk4"
  std::string summary;      ///< one line
  int order = 0;            ///< order of the main method
  int embedded_order = 0;   ///< order of the embedded (auxiliary) method, 0 if none
  bool lie_group = false;   ///< advances on M through the action (true) or in R^n (false)
  bool self_controlled = false;  ///< has its own step control and output (e.g. SUNDIALS)
  std::vector<DiagnosticInfo> diagnostics;  ///< what the method reports after every step (ABI 2.2)
  bool needs_mechanics = false;  ///< runs only models with a description beyond f and F (`needs` names it; true for every non-empty `needs`)
  std::string needs;             ///< that description: "mechanical" (a Lagrangian or a rigid body, ABI 2.2), "hamiltonian" (on T*G), "riemannian" (a metric: exp, log, distance; ABI 2.3), or empty
  /// Order q of the interpolant inside a step of a kernel-driven method (dense output, ABI 2.6:
  /// local error O(h^(q+1))); 0 when the method does not state it (then its order: the step is
  /// repeated with theta h), and for self-controlled solvers (whose interpolants vary with the step).
  int dense_order = 0;
};

/// Step-size settings given to a self-controlled solver.
struct SolverTolerances {
  double rtol = 0.0;      ///< relative tolerance (0 with a fixed step)
  double atol = 0.0;      ///< absolute tolerance
  double fixed_step = 0;  ///< > 0: take this fixed step instead of adapting
};

}  // namespace liesim
