// Model: a mechanical system written once, usable by Lie group and classical methods alike.
#pragma once
#include <liesim/settings.hpp>
#include <liesim/space.hpp>

#include <memory>
#include <string>
#include <vector>

namespace liesim {

/// A named quantity the model expects to be conserved (or a constraint residual that stays 0).
struct InvariantInfo {
  std::string name;  ///< column name, e.g. "energy", "q1_norm_minus_1"
  std::string doc;   ///< meaning and formula
};

/// A differential-algebraic formulation of a model in redundant coordinates x (for DAE solvers
/// such as IDA): residual G(t, x, x') = 0, with a map back to the model's state layout so that
/// errors are compared on the same state.
class DaeFormulation {
 public:
  virtual ~DaeFormulation() = default;
  /// Number of DAE unknowns.
  virtual int size() const noexcept = 0;
  /// id_i = 1 for a differential component, 0 for an algebraic one.
  virtual void differential_components(Vec id) const noexcept = 0;
  /// Consistent initial values (x, x') for the model state y0 at t0.
  virtual Status initial_values(double t0, ConstVec y0, Vec x, Vec xdot) noexcept = 0;
  /// The residual r = G(t, x, x').
  virtual Status residual(double t, ConstVec x, ConstVec xdot, Vec r) noexcept = 0;
  /// The model state y (layout of Model::state_names) of the DAE point (x, x').
  virtual void to_state(ConstVec x, ConstVec xdot, Vec y) const noexcept = 0;
  /// Number of constraint residuals reported by constraints().
  virtual int constraint_count() const noexcept = 0;
  /// Constraint residuals at x (0 on the constraint manifold).
  virtual void constraints(ConstVec x, Vec c) const noexcept = 0;
  /// Message of the last non-ok status.
  virtual std::string last_error() const { return {}; }
};

/// A model instance: phase space M with its action, generator f: M -> g, embedded field F.
/// Public calls are non-virtual (they count work); models implement the private hooks.
class Model {
 public:
  explicit Model(std::unique_ptr<HomogeneousSpace> space) : space_(std::move(space)) {
    space_->attach_counters(&counters_);
  }
  virtual ~Model() = default;
  Model(const Model&) = delete;
  Model& operator=(const Model&) = delete;

  /// The homogeneous space (manifold, group, action).
  const HomogeneousSpace& space() const noexcept { return *space_; }
  /// Size n of a state vector (embedding coordinates).
  int size() const noexcept { return space_->point_size(); }

  /// xi = f(t, y) in g with F|_y = psi_*(f(y))|_y [Munthe-Kaas; thesis (2.2.3)].
  Status generator(double t, ConstVec y, Vec xi) noexcept {
    ++counters_.f_evals;
    return do_generator(t, y, xi);
  }
  /// dy = F(t, y), the same vector field in embedding coordinates, for classical solvers.
  Status vector_field(double t, ConstVec y, Vec dy) noexcept {
    ++counters_.F_evals;
    return do_vector_field(t, y, dy);
  }

  /// The initial state given by the parameters.
  virtual void initial_state(Vec y) const = 0;
  /// Names of the n state components in layout order (CSV column names).
  virtual std::vector<std::string> state_names() const = 0;
  /// The invariants and constraint residuals reported for this model.
  virtual std::vector<InvariantInfo> invariants() const { return {}; }
  /// Values of the invariants at y (out has invariants().size() entries).
  virtual void evaluate_invariants(ConstVec y, Vec out) const noexcept { (void)y; (void)out; }
  /// "" if y lies on M within the model's stated tolerance, else a message naming the violation.
  virtual std::string check_state(ConstVec y) const { (void)y; return {}; }
  /// Whether an exact solution is known for these parameters.
  virtual bool has_exact_solution() const noexcept { return false; }
  /// The exact solution at time t (only where has_exact_solution()).
  virtual Status exact_solution(double t, Vec y) const noexcept { (void)t; (void)y; return Status::fatal; }

  /// Message of the last non-ok status returned by a hook.
  const std::string& last_error() const noexcept { return last_error_; }
  /// Evaluation counters of this instance.
  Counters& counters() noexcept { return counters_; }

 protected:
  /// Record why a hook failed and return `s`.
  Status fail(Status s, const char* why) noexcept {
    try { last_error_ = why; } catch (...) {}
    return s;
  }

 private:
  virtual Status do_generator(double t, ConstVec y, Vec xi) noexcept = 0;
  /// Default embedded field: F|_y = psi_*(f(t, y))|_y, evaluated through the space. Models
  /// override it where the direct formula is cheaper. (Must not allocate: uses scratch_.)
  virtual Status do_vector_field(double t, ConstVec y, Vec dy) noexcept {
    if (scratch_.size() != space_->algebra_dim()) return fail(Status::fatal, "vector_field: workspace not prepared");
    Status s = do_generator(t, y, scratch_);
    if (s != Status::ok) return s;
    return space_->generator(scratch_, y, dy);
  }

 protected:
  /// Scratch algebra vector used by the default vector field; allocated by prepare().
  Eigen::VectorXd scratch_;

 public:
  /// Allocate the model's workspaces (called by the kernel before a run; never per step).
  virtual void prepare() { scratch_.resize(space_->algebra_dim()); }

  /// The DAE formulation for a solver to use: dae(), or nullptr when the model comes from a plugin
  /// built for ABI minor 0, whose objects do not have the dae() hook. Solvers call this, not dae().
  DaeFormulation* dae_formulation() noexcept;

  // ABI 1.1 additions: appended after every virtual function of ABI 1.0 (see docs/design.md).

  /// The model's differential-algebraic formulation, or nullptr where it has none (ABI 1.1).
  virtual DaeFormulation* dae() noexcept { return nullptr; }

  /// Whether the model provides the Jacobian of F for implicit solvers; with the non-virtual
  /// wrappers below, solvers use the model's own Jacobian where it exists (ABI 1.2). Solvers call
  /// has_vector_field_jacobian() and vector_field_jacobian(), not these hooks.
  virtual bool has_jacobian() const noexcept { return false; }
  /// J = dF/dy (t, y), n x n: the Jacobian of the embedded vector field, exact, for every y in R^n
  /// where F is defined (solvers evaluate it off M too). Default: none (Status::fatal).
  virtual Status jacobian(double t, ConstVec y, MatRef J) noexcept {
    (void)t;
    (void)y;
    (void)J;
    return Status::fatal;
  }

  /// Whether vector_field_jacobian() is available: has_jacobian() on objects from plugins built
  /// for ABI minor >= 2 (an older plugin's vtable ends before that slot).
  bool has_vector_field_jacobian() const noexcept;
  /// J = dF/dy (t, y) through the model's hook; Status::fatal where there is none. (SUNDIALS
  /// solvers report their Jacobian evaluations as Stats::jac_evals; the kernel-driven implicit_rk
  /// makes s of them per Newton iteration, Stats::nonlinear_iters, and reports no jac_evals.)
  Status vector_field_jacobian(double t, ConstVec y, MatRef J) noexcept {
    return has_vector_field_jacobian() ? jacobian(t, y, J) : Status::fatal;
  }

 private:
  std::unique_ptr<HomogeneousSpace> space_;
  Counters counters_;
  std::string last_error_;
};

/// Record the ABI minor of the plugin that created `model` (the kernel's run preparation does
/// this); models never recorded are taken to be built for this kernel's ABI.
void record_model_abi_minor(const Model* model, int abi_minor);
/// Forget a recorded model (before it is destroyed).
void forget_model_abi_minor(const Model* model);

/// The plugin-side factory of a model: its documentation and parameters, and instance creation.
class ModelType {
 public:
  virtual ~ModelType() = default;
  /// One-line summary.
  virtual std::string summary() const = 0;
  /// Declared parameters with defaults, units and meaning.
  virtual std::vector<SettingSpec> parameters() const = 0;
  /// The convention block: SPACE / GROUP / ACTION / GENERATOR / EMBEDDING / INVARIANTS / PARAMETERS / SOURCE.
  virtual std::string conventions() const = 0;
  /// Create an instance; on invalid parameters returns nullptr and sets `error` (never throws).
  virtual Model* create(const Settings& parameters, std::string& error) const noexcept = 0;
};

/// Helper base for model plugins: implement `make` (which may throw liesim::Error); the
/// exception is caught inside the plugin and returned as text, so none crosses the boundary.
template <class Derived>
class ModelTypeBase : public ModelType {
 public:
  Model* create(const Settings& parameters, std::string& error) const noexcept final {
    try {
      return static_cast<const Derived*>(this)->make(parameters).release();
    } catch (const std::exception& e) {
      error = e.what();
    } catch (...) {
      error = "unknown error while creating the model";
    }
    return nullptr;
  }
};

}  // namespace liesim
