// What a model plugin's author writes against: the space (M, G, psi), the model (f, F, invariants,
// optional DAE formulation and Jacobian) and its type (parameters, conventions, creation). These
// classes live inside the plugin; the adapter (liesim/sdk/model_plugin.hpp) turns them into the C
// table of liesim/plugin.h, so none of them crosses the boundary.
#pragma once
#include <liesim/lie/cotangent.hpp>
#include <liesim/sdk/model_view.hpp>
#include <liesim/sdk/riemannian.hpp>
#include <liesim/sdk/scene.hpp>
#include <liesim/sdk/settings.hpp>
#include <liesim/sdk/status.hpp>
#include <liesim/sdk/types.hpp>

#include <memory>
#include <string>
#include <vector>

namespace liesim {

namespace sdk {

/// A manifold M (embedded in R^n) with a transitive left action psi of a Lie group G, dim g = d.
/// Public calls are non-virtual and forward to the private `do_*` hooks.
class HomogeneousSpace {
 public:
  HomogeneousSpace(int point_size, int algebra_dim) : n_(point_size), d_(algebra_dim) {}
  virtual ~HomogeneousSpace() = default;
  HomogeneousSpace(const HomogeneousSpace&) = delete;
  HomogeneousSpace& operator=(const HomogeneousSpace&) = delete;

  /// Number of embedding coordinates n of a point of M.
  int point_size() const noexcept { return n_; }
  /// Dimension d of the Lie algebra g.
  int algebra_dim() const noexcept { return d_; }

  /// out = psi(exp(xi), y): the action of the exponential of xi in g on the point y.
  Status act_exp(ConstVec xi, ConstVec y, Vec out) const noexcept { return do_act_exp(xi, y, out); }
  /// out = dexpinv_u(v), right-trivialised inverse derivative of exp (exact where the algebra has a closed form).
  Status dexpinv(ConstVec u, ConstVec v, Vec out) const noexcept { return do_dexpinv(u, v, out); }
  /// out = [a, b], the Lie bracket of g.
  Status bracket(ConstVec a, ConstVec b, Vec out) const noexcept { return do_bracket(a, b, out); }
  /// out = psi_*(xi)|_y, the infinitesimal generator (a tangent vector at y in R^n).
  Status generator(ConstVec xi, ConstVec y, Vec out) const noexcept { return do_generator(xi, y, out); }
  /// Orthogonal projection of a point of R^n onto M (in place); fatal where the space has none.
  Status project(Vec y) const noexcept { return do_project(y); }
  /// Whether dexpinv is a closed form (true) or only the truncated Bernoulli series is available.
  virtual bool has_exact_dexpinv() const noexcept { return true; }
  /// Whether project() is available.
  virtual bool can_project() const noexcept { return false; }
  /// Distance between two points of M: commutator-free error estimates under error_norm=l2 and
  /// the studies' distance_final use it (default: Euclidean in R^n). Must not allocate.
  virtual double distance(ConstVec a, ConstVec b) const noexcept { return (a - b).norm(); }

 private:
  virtual Status do_act_exp(ConstVec xi, ConstVec y, Vec out) const noexcept = 0;
  virtual Status do_dexpinv(ConstVec u, ConstVec v, Vec out) const noexcept = 0;
  virtual Status do_bracket(ConstVec a, ConstVec b, Vec out) const noexcept = 0;
  virtual Status do_generator(ConstVec xi, ConstVec y, Vec out) const noexcept = 0;
  virtual Status do_project(Vec) const noexcept { return Status::fatal; }

  int n_;
  int d_;
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

/// The mechanical description of a model whose state is [q, v], q in R^m (ABI 2.2), for
/// variational integrators: L(t, q, v) = 1/2 v^T M v - U(t, q) with a constant symmetric
/// positive-definite mass matrix M, and a non-conservative generalised force f(t, q, v). The
/// model's vector field must be the same system, F = [v, M^-1 (-dU/dq + f)] (LagrangianModel
/// derives it). Calls must not allocate.
class MechanicalSystem {
 public:
  virtual ~MechanicalSystem() = default;
  /// Number m of configuration coordinates.
  virtual int dof() const noexcept = 0;
  /// M (m x m).
  virtual void mass_matrix(MatRef M) const noexcept = 0;
  /// U(t, q), dU/dq (m) and dU/dt.
  virtual Status potential(double t, ConstVec q, double& U, Vec dU_dq, double& dU_dt) noexcept = 0;
  /// f(t, q, v) (m); default: none (a conservative system).
  virtual Status force(double t, ConstVec q, ConstVec v, Vec f) noexcept {
    (void)t;
    (void)q;
    (void)v;
    f.setZero();
    return Status::ok;
  }
};

/// A rigid body's mechanical description (ABI 2.2), for Lie group variational integrators: the
/// configuration (R, x) in SO(3) x R^3 (or SO(3) alone for a body with a fixed point), body
/// velocities (Omega, v) with R' = R hat(Omega), x' = R v, and L = 1/2 Omega^T J Omega +
/// 1/2 v^T M v - U(t, R, x). Calls must not allocate.
class RigidBodySystem {
 public:
  using Matrix3 = Eigen::Matrix3d;
  using RowMajor3 = Eigen::Matrix<double, 3, 3, Eigen::RowMajor>;
  virtual ~RigidBodySystem() = default;
  /// 0 (SO(3)) or 3 (SO(3) x R^3).
  virtual int translation() const noexcept = 0;
  /// J, and M (left untouched when translation() is 0).
  virtual void inertia(Matrix3& J, Matrix3& M) const noexcept = 0;
  /// U(t, R, x), the body moment M = -grad_L U (hat(M) = (dU/dR)^T R - R^T dU/dR) and dU/dx (space).
  virtual Status potential(double t, const RowMajor3& R, const Eigen::Vector3d& x, double& U, Eigen::Vector3d& moment,
                           Eigen::Vector3d& dU_dx) noexcept = 0;
  /// (R, x, Omega, v) of a state in the model's layout, and back.
  virtual void from_state(ConstVec y, RowMajor3& R, Eigen::Vector3d& x, Eigen::Vector3d& Omega, Eigen::Vector3d& v) const noexcept = 0;
  virtual void to_state(const RowMajor3& R, const Eigen::Vector3d& x, const Eigen::Vector3d& Omega, const Eigen::Vector3d& v,
                        Vec y) const noexcept = 0;
  /// Non-conservative body torque and spatial force (dissipation); default none.
  virtual Status forces(double t, const RowMajor3& R, const Eigen::Vector3d& x, const Eigen::Vector3d& Omega, const Eigen::Vector3d& v,
                        Eigen::Vector3d& torque, Eigen::Vector3d& force) noexcept {
    (void)t, (void)R, (void)x, (void)Omega, (void)v;
    torque.setZero();
    force.setZero();
    return Status::ok;
  }
};

/// A Hamiltonian system on a cotangent bundle T*G = G x g* (ABI 2.3), right-trivialised, for
/// symplectic Lie group integrators (thesis of E. Cokaj §2.3): the state holds (g, mu), g in G
/// packed as group_size() numbers (0 for a reduced system whose H does not depend on g), mu in
/// g* = R^k. The vector field g' = dH/dmu . g, mu' = -R_g^* dH/dg - ad*_{dH/dmu} mu must be the
/// model's own. HamiltonianOn<G> supplies the group operations of a kernel group. Calls must not
/// allocate.
class HamiltonianSystem {
 public:
  virtual ~HamiltonianSystem() = default;
  /// k = dim g.
  virtual int algebra_dim() const noexcept = 0;
  /// Numbers of a packed group element; 0: reduced (the state holds mu only).
  virtual int group_size() const noexcept = 0;
  /// (g, mu) of a state in the model's layout, and back.
  virtual void from_state(ConstVec y, Vec g, Vec mu) const noexcept = 0;
  virtual void to_state(ConstVec g, ConstVec mu, Vec y) const noexcept = 0;
  /// dH/dmu in g and R_g^* dH/dg in g* (<R_g^* dH/dg, xi> = d/ds H(t, exp(s xi) g, mu) at s = 0).
  virtual Status gradient(double t, ConstVec g, ConstVec mu, Vec dH_dmu, Vec dH_dg) noexcept = 0;
  /// out = exp(xi) g.
  virtual void exp_mult(ConstVec xi, ConstVec g, Vec out) const noexcept = 0;
  /// out = Ad*_{exp(xi)} mu.
  virtual void coadjoint(ConstVec xi, ConstVec mu, Vec out) const noexcept = 0;
  /// out = dexp*_xi mu, and its inverse dexpinv*_xi mu.
  virtual void dexp_dual(ConstVec xi, ConstVec mu, Vec out) const noexcept = 0;
  virtual void dexpinv_dual(ConstVec xi, ConstVec mu, Vec out) const noexcept = 0;
};

/// The group operations of HamiltonianSystem for a group G of liesim/lie (SO3, Rn<N>, Product<...>),
/// from liesim/lie/cotangent.hpp; `reduced`: the state holds mu only (group_size() is 0).
template <class G>
class HamiltonianOn : public HamiltonianSystem {
 public:
  using Algebra = typename G::Algebra;
  explicit HamiltonianOn(bool reduced = false) : reduced_(reduced) {}
  int algebra_dim() const noexcept final { return G::dim; }
  int group_size() const noexcept final { return reduced_ ? 0 : lie::Packing<G>::size; }
  void exp_mult(ConstVec xi, ConstVec g, Vec out) const noexcept final { lie::exp_mult_packed<G>(Algebra(xi), g.data(), out.data()); }
  void coadjoint(ConstVec xi, ConstVec mu, Vec out) const noexcept final { out = lie::coadjoint_exp<G>(Algebra(xi), Algebra(mu)); }
  void dexp_dual(ConstVec xi, ConstVec mu, Vec out) const noexcept final { out = lie::dexp_dual<G>(Algebra(xi), Algebra(mu)); }
  void dexpinv_dual(ConstVec xi, ConstVec mu, Vec out) const noexcept final { out = lie::dexpinv_dual<G>(Algebra(xi), Algebra(mu)); }

 private:
  bool reduced_;
};

/// A Riemannian metric on the model's manifold M (ABI 2.3), for geodesic methods: the
/// exponential, logarithm and distance, points and tangent vectors in embedding coordinates.
/// The model's F is the vector field X. liesim/sdk/riemannian.hpp has the unit sphere's. Calls must
/// not allocate.
class RiemannianMetric {
 public:
  virtual ~RiemannianMetric() = default;
  /// out = exp_p(v).
  virtual Status exp(ConstVec p, ConstVec v, Vec out) const noexcept = 0;
  /// v = log_p(q) (Status::fatal at the cut locus).
  virtual Status log(ConstVec p, ConstVec q, Vec v) const noexcept = 0;
  /// d(p, q).
  virtual double distance(ConstVec p, ConstVec q) const noexcept = 0;
  /// b > 0 when M is a product of b unit spheres of n / b coordinates each; else 0.
  virtual int sphere_blocks() const noexcept { return 0; }
};

/// The round metric of a product of `blocks` unit spheres, each a block of n / blocks embedding
/// coordinates (S^2: 3 numbers; (S^2)^N: 3N), from liesim/sdk/riemannian.hpp.
class SphereMetric final : public RiemannianMetric {
 public:
  SphereMetric(int point_size, int blocks) : k_(point_size / blocks), blocks_(blocks) {}
  Status exp(ConstVec p, ConstVec v, Vec out) const noexcept override {
    for (int b = 0; b < blocks_; ++b) riemannian::sphere_exp(p.segment(b * k_, k_), v.segment(b * k_, k_), out.segment(b * k_, k_));
    return Status::ok;
  }
  Status log(ConstVec p, ConstVec q, Vec v) const noexcept override {
    for (int b = 0; b < blocks_; ++b)
      if (!riemannian::sphere_log(p.segment(b * k_, k_), q.segment(b * k_, k_), v.segment(b * k_, k_))) return Status::fatal;
    return Status::ok;
  }
  /// The product metric: sqrt of the sum of squared block distances.
  double distance(ConstVec p, ConstVec q) const noexcept override {
    double d2 = 0.0;
    for (int b = 0; b < blocks_; ++b) d2 += std::pow(riemannian::sphere_distance(p.segment(b * k_, k_), q.segment(b * k_, k_)), 2);
    return std::sqrt(d2);
  }
  int sphere_blocks() const noexcept override { return blocks_; }

 private:
  int k_, blocks_;
};

/// A model instance: phase space M with its action, generator f: M -> g, embedded field F.
class Model {
 public:
  explicit Model(std::unique_ptr<HomogeneousSpace> space) : space_(std::move(space)) {}
  virtual ~Model() = default;
  Model(const Model&) = delete;
  Model& operator=(const Model&) = delete;

  /// The homogeneous space (manifold, group, action).
  const HomogeneousSpace& space() const noexcept { return *space_; }
  /// Size n of a state vector (embedding coordinates).
  int size() const noexcept { return space_->point_size(); }

  /// xi = f(t, y) in g with F|_y = psi_*(f(y))|_y [Munthe-Kaas; thesis (2.2.3)].
  Status generator(double t, ConstVec y, Vec xi) noexcept { return do_generator(t, y, xi); }
  /// dy = F(t, y), the same vector field in embedding coordinates, for classical solvers.
  Status vector_field(double t, ConstVec y, Vec dy) noexcept { return do_vector_field(t, y, dy); }

  /// The initial state given by the parameters.
  virtual void initial_state(Vec y) const = 0;
  /// Names of the n state components in layout order (CSV column names).
  virtual std::vector<std::string> state_names() const = 0;
  /// The invariants and constraint residuals reported for this model.
  virtual std::vector<InvariantInfo> invariants() const { return {}; }
  /// Values of the invariants at y (out has invariants().size() entries).
  virtual void evaluate_invariants(ConstVec y, Vec out) const noexcept { (void)y; (void)out; }
  /// Quantities of (t, y) written beside the state and the invariants (ABI 2.4): name, unit, doc.
  virtual std::vector<ObservableInfo> observables() const { return {}; }
  /// Values of the observables at (t, y) (out has observables().size() entries); on failure return
  /// fail(Status::fatal, why): the host writes NaN for them and the run goes on.
  virtual Status evaluate_observables(double t, ConstVec y, Vec out) noexcept {
    (void)t;
    (void)y;
    (void)out;
    return Status::ok;
  }
  /// How the model looks (ABI 2.8): its bodies, in the order of scene_poses(), and the scenery.
  /// Default: no bodies (the model has no physical picture; liesim view says so).
  virtual Scene scene() const { return {}; }
  /// The poses of scene().bodies at (t, y): pose_size numbers per body (liesim/sdk/scene.hpp's
  /// set_pose and set_pose_points write them).
  virtual Status scene_poses(double t, ConstVec y, Vec out) noexcept {
    (void)t;
    (void)y;
    (void)out;
    return Status::ok;
  }
  /// "" if y lies on M within the model's stated tolerance, else a message naming the violation.
  virtual std::string check_state(ConstVec y) const { (void)y; return {}; }
  /// Whether an exact solution is known for these parameters.
  virtual bool has_exact_solution() const noexcept { return false; }
  /// The exact solution at time t (only where has_exact_solution()).
  virtual Status exact_solution(double t, Vec y) const noexcept { (void)t; (void)y; return Status::fatal; }

  /// Allocate the model's workspaces (called before a run; never per step).
  virtual void prepare() { scratch_.resize(space_->algebra_dim()); }

  /// The model's differential-algebraic formulation, or nullptr where it has none (ABI 2.1).
  virtual DaeFormulation* dae() noexcept { return nullptr; }
  /// Whether the model provides the exact Jacobian of F for implicit solvers (ABI 2.1).
  virtual bool has_jacobian() const noexcept { return false; }
  /// J = dF/dy (t, y), n x n: the Jacobian of the embedded vector field, exact, for every y in R^n
  /// where F is defined (solvers evaluate it off M too). Default: none (Status::fatal).
  virtual Status jacobian(double t, ConstVec y, MatRef J) noexcept {
    (void)t;
    (void)y;
    (void)J;
    return Status::fatal;
  }

  /// The model's mechanical description, or nullptr where it has none (ABI 2.2).
  virtual MechanicalSystem* mechanics() noexcept { return nullptr; }
  /// The model's rigid-body description, or nullptr where it has none (ABI 2.2).
  virtual RigidBodySystem* rigid_body() noexcept { return nullptr; }
  /// The model's Hamiltonian description on T*G, or nullptr where it has none (ABI 2.3).
  virtual HamiltonianSystem* hamiltonian() noexcept { return nullptr; }
  /// The Riemannian metric of M, or nullptr where the model states none (ABI 2.3).
  virtual const RiemannianMetric* riemannian() const noexcept { return nullptr; }

  /// Message of the last non-ok status returned by a hook.
  const std::string& last_error() const noexcept { return last_error_; }

 protected:
  /// Record why a hook failed and return `s`.
  Status fail(Status s, const char* why) noexcept {
    try { last_error_ = why; } catch (...) {}
    return s;
  }
  /// Scratch algebra vector used by the default vector field; allocated by prepare().
  Eigen::VectorXd scratch_;

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

  std::unique_ptr<HomogeneousSpace> space_;
  std::string last_error_;
};

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

/// Helper base for model types: implement `make` (which may throw liesim::Error); the exception
/// is caught inside the plugin and returned as text, so none crosses the boundary.
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

}  // namespace sdk
}  // namespace liesim
