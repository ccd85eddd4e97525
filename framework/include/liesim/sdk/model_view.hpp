// A model instance as its callers see it (the kernel, and integrator plugins through the SDK): a
// C++ view over the C model table of liesim/plugin.h. Header-only: every call is inline, counts
// its work in the host's counters and makes one indirect call into the model plugin.
// Names: each XView here is the caller's face of the SDK's X (liesim/sdk/model.hpp), which a model
// plugin implements behind the table: ModelView of sdk::Model, MechanicalSystemView of
// sdk::MechanicalSystem, and so on.
#pragma once
#include <liesim/plugin.h>
#include <liesim/sdk/scene.hpp>
#include <liesim/sdk/stats.hpp>
#include <liesim/sdk/status.hpp>
#include <liesim/sdk/types.hpp>

#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

namespace liesim {

/// What the exact flow does to an invariant (ABI 2.5): only a conserved or non-increasing one is
/// checked for divergence (invariant_bound.hpp).
enum class InvariantKind : std::int32_t {
  monitored = LIESIM_INVARIANT_MONITORED,         ///< reported only: forced, anti-damped, or not known
  conserved = LIESIM_INVARIANT_CONSERVED,         ///< constant along the exact flow
  nonincreasing = LIESIM_INVARIANT_NONINCREASING  ///< never grows along the exact flow (dissipated)
};

/// "monitored", "conserved" or "non-increasing" (liesim describe, messages).
inline const char* kind_name(InvariantKind k) noexcept {
  return k == InvariantKind::conserved ? "conserved" : k == InvariantKind::nonincreasing ? "non-increasing" : "monitored";
}

/// A named quantity the model reports beside the state: a conserved one (energy, Casimir), a
/// constraint residual that stays 0, or one whose change the model documents (kind).
struct InvariantInfo {
  std::string name;  ///< column name, e.g. "energy", "q1_norm_minus_1"
  std::string doc;   ///< meaning and formula
  InvariantKind kind = InvariantKind::monitored;  ///< what the exact flow does to it (ABI 2.5)
  double scale = 0.0;  ///< s >= 0: changes are measured against max(|I0|, s) (ABI 2.5)
};

/// A named quantity of (t, y) written beside the state (ABI 2.4): a tracking error, a desired
/// trajectory, a force; not expected to be conserved.
struct ObservableInfo {
  std::string name;  ///< column name, e.g. "tracking_error"
  std::string unit;  ///< e.g. "m"; "" when dimensionless
  std::string doc;   ///< meaning and formula
};

class ModelView;

/// The homogeneous space (M, G, psi) of a model instance: n embedding coordinates, dim g = d.
class HomogeneousSpaceView {
 public:
  /// Number of embedding coordinates n of a point of M.
  int point_size() const noexcept { return n_; }
  /// Dimension d of the Lie algebra g.
  int algebra_dim() const noexcept { return d_; }
  /// out = psi(exp(xi), y): the action of the exponential of xi in g on the point y.
  Status act_exp(ConstVec xi, ConstVec y, Vec out) const noexcept {
    ++c_->exps;
    return to_status(api_->act_exp(m_, xi.data(), y.data(), out.data()));
  }
  /// out = dexpinv_u(v), right-trivialised inverse derivative of exp.
  Status dexpinv(ConstVec u, ConstVec v, Vec out) const noexcept {
    ++c_->dexpinv_calls;
    return to_status(api_->dexpinv(m_, u.data(), v.data(), out.data()));
  }
  /// out = [a, b], the Lie bracket of g.
  Status bracket(ConstVec a, ConstVec b, Vec out) const noexcept {
    ++c_->brackets;
    return to_status(api_->bracket(m_, a.data(), b.data(), out.data()));
  }
  /// out = psi_*(xi)|_y, the infinitesimal generator (a tangent vector at y in R^n).
  Status generator(ConstVec xi, ConstVec y, Vec out) const noexcept {
    return to_status(api_->space_generator(m_, xi.data(), y.data(), out.data()));
  }
  /// Orthogonal projection of a point of R^n onto M (in place); fatal where the space has none.
  Status project(Vec y) const noexcept {
    ++c_->projections;
    return can_project() ? to_status(api_->project(m_, y.data())) : Status::fatal;
  }
  /// Whether dexpinv is a closed form (true) or only a truncated series.
  bool has_exact_dexpinv() const noexcept { return (flags_ & LIESIM_MODEL_EXACT_DEXPINV) != 0; }
  /// Whether project() is available.
  bool can_project() const noexcept { return (flags_ & LIESIM_MODEL_CAN_PROJECT) != 0; }
  /// Distance between two points of M (the model's; Euclidean in R^n unless it says otherwise).
  double distance(ConstVec a, ConstVec b) const noexcept { return api_->distance(m_, a.data(), b.data()); }

 private:
  friend class ModelView;
  const liesim_model_api* api_ = nullptr;
  liesim_model* m_ = nullptr;
  liesim_counters* c_ = nullptr;
  int n_ = 0;
  int d_ = 0;
  std::uint32_t flags_ = 0;
};

/// A model's differential-algebraic formulation G(t, x, x') = 0 (for DAE solvers such as IDA).
class DaeFormulationView {
 public:
  /// Number of DAE unknowns.
  int size() const noexcept { return size_; }
#if LIESIM_ABI_MINOR >= 1  // the DAE members of the model table (ABI 2.1)
  /// id_i = 1 for a differential component, 0 for an algebraic one.
  void differential_components(Vec id) const noexcept { api_->dae_differential_components(m_, id.data()); }
  /// Consistent initial values (x, x') for the model state y0 at t0.
  Status initial_values(double t0, ConstVec y0, Vec x, Vec xdot) noexcept {
    return to_status(api_->dae_initial_values(m_, t0, y0.data(), x.data(), xdot.data()));
  }
  /// The residual r = G(t, x, x').
  Status residual(double t, ConstVec x, ConstVec xdot, Vec r) noexcept {
    return to_status(api_->dae_residual(m_, t, x.data(), xdot.data(), r.data()));
  }
  /// The model state y of the DAE point (x, x').
  void to_state(ConstVec x, ConstVec xdot, Vec y) const noexcept { api_->dae_to_state(m_, x.data(), xdot.data(), y.data()); }
  /// Number of constraint residuals reported by constraints().
  int constraint_count() const noexcept { return constraints_; }
  /// Constraint residuals at x (0 on the constraint manifold).
  void constraints(ConstVec x, Vec c) const noexcept { api_->dae_constraints(m_, x.data(), c.data()); }
#endif
  /// Message of the last non-ok status (the model's).
  std::string last_error() const;

 private:
  friend class ModelView;
  const liesim_model_api* api_ = nullptr;
  liesim_model* m_ = nullptr;
  const ModelView* model_ = nullptr;
  int size_ = 0;
  int constraints_ = 0;
};

/// A model's mechanical description (ABI 2.2), for variational methods: state [q, v], q in R^m,
/// L(t, q, v) = 1/2 v^T M v - U(t, q) with constant M, non-conservative force f(t, q, v).
class MechanicalSystemView {
 public:
  /// Number m of configuration coordinates.
  int dof() const noexcept { return m_dof_; }
#if LIESIM_ABI_MINOR >= 2
  /// M (m x m).
  void mass_matrix(MatRef M) const noexcept { api_->mech_mass_matrix(m_, M.data()); }
  /// U(t, q), dU/dq and dU/dt (counted as one F evaluation: with its force(), the work of one F).
  Status potential(double t, ConstVec q, double& U, Vec dU_dq, double& dU_dt) const noexcept {
    ++c_->F_evals;
    return to_status(api_->mech_potential(m_, t, q.data(), &U, dU_dq.data(), &dU_dt));
  }
  /// f(t, q, v).
  Status force(double t, ConstVec q, ConstVec v, Vec f) const noexcept {
    return to_status(api_->mech_force(m_, t, q.data(), v.data(), f.data()));
  }
#endif

 private:
  friend class ModelView;
  const liesim_model_api* api_ = nullptr;
  liesim_model* m_ = nullptr;
  liesim_counters* c_ = nullptr;
  int m_dof_ = 0;
};

/// A rigid body's mechanical description (ABI 2.2), for Lie group variational integrators:
/// (R, x) in SO(3) x R^3 (or SO(3)), body velocities (Omega, v), L = 1/2 Omega^T J Omega +
/// 1/2 v^T M v - U(t, R, x). R is row-major, as in states.
class RigidBodySystemView {
 public:
  using RowMajor3 = Eigen::Matrix<double, 3, 3, Eigen::RowMajor>;
  /// 0 (a fixed point: SO(3)) or 3 (SO(3) x R^3).
  int translation() const noexcept { return translation_; }
#if LIESIM_ABI_MINOR >= 2
  /// J, and M when translation() is 3 (else M is left as it is).
  void inertia(Eigen::Matrix3d& J, Eigen::Matrix3d& M) const noexcept { api_->rb_inertia(m_, J.data(), M.data()); }
  /// U, the body moment -grad_L U and dU/dx (counted as one F evaluation).
  Status potential(double t, const RowMajor3& R, const Eigen::Vector3d& x, double& U, Eigen::Vector3d& moment,
                   Eigen::Vector3d& dU_dx) const noexcept {
    ++c_->F_evals;
    return to_status(api_->rb_potential(m_, t, R.data(), x.data(), &U, moment.data(), dU_dx.data()));
  }
  /// (R, x, Omega, v) of a state, and back.
  void from_state(ConstVec y, RowMajor3& R, Eigen::Vector3d& x, Eigen::Vector3d& Omega, Eigen::Vector3d& v) const noexcept {
    api_->rb_from_state(m_, y.data(), R.data(), x.data(), Omega.data(), v.data());
  }
  void to_state(const RowMajor3& R, const Eigen::Vector3d& x, const Eigen::Vector3d& Omega, const Eigen::Vector3d& v, Vec y) const noexcept {
    api_->rb_to_state(m_, R.data(), x.data(), Omega.data(), v.data(), y.data());
  }
  /// The non-conservative body torque and spatial force.
  Status forces(double t, const RowMajor3& R, const Eigen::Vector3d& x, const Eigen::Vector3d& Omega, const Eigen::Vector3d& v,
                Eigen::Vector3d& torque, Eigen::Vector3d& force) const noexcept {
    return to_status(api_->rb_forces(m_, t, R.data(), x.data(), Omega.data(), v.data(), torque.data(), force.data()));
  }
#endif

 private:
  friend class ModelView;
  const liesim_model_api* api_ = nullptr;
  liesim_model* m_ = nullptr;
  liesim_counters* c_ = nullptr;
  int translation_ = 0;
};

/// A model's Hamiltonian description on T*G = G x g* (ABI 2.3), right-trivialised, for symplectic
/// Lie group integrators: (g, mu) with g packed as group_size() numbers (0: reduced), mu in
/// g* = R^k; g' = dH/dmu . g, mu' = -R_g^* dH/dg - ad*_{dH/dmu} mu.
class HamiltonianSystemView {
 public:
  /// k = dim g.
  int algebra_dim() const noexcept { return k_; }
  /// Numbers of a packed group element (0: a reduced system, the state holds mu only).
  int group_size() const noexcept { return group_; }
#if LIESIM_ABI_MINOR >= 3
  /// (g, mu) of a state, and back (g unused when group_size() is 0).
  void from_state(ConstVec y, Vec g, Vec mu) const noexcept { api_->ham_from_state(m_, y.data(), g.data(), mu.data()); }
  void to_state(ConstVec g, ConstVec mu, Vec y) const noexcept { api_->ham_to_state(m_, g.data(), mu.data(), y.data()); }
  /// dH/dmu and R_g^* dH/dg (counted as one generator evaluation: the work of f).
  Status gradient(double t, ConstVec g, ConstVec mu, Vec dH_dmu, Vec dH_dg) const noexcept {
    ++c_->f_evals;
    return to_status(api_->ham_gradient(m_, t, g.data(), mu.data(), dH_dmu.data(), dH_dg.data()));
  }
  /// out = exp(xi) g (counted as an exponential).
  void exp_mult(ConstVec xi, ConstVec g, Vec out) const noexcept {
    ++c_->exps;
    api_->ham_exp_mult(m_, xi.data(), g.data(), out.data());
  }
  /// out = Ad*_{exp(xi)} mu.
  void coadjoint(ConstVec xi, ConstVec mu, Vec out) const noexcept { api_->ham_coadjoint(m_, xi.data(), mu.data(), out.data()); }
  /// out = dexp*_xi mu, and dexpinv*_xi mu.
  void dexp_dual(ConstVec xi, ConstVec mu, Vec out) const noexcept { api_->ham_dexp_dual(m_, xi.data(), mu.data(), out.data()); }
  void dexpinv_dual(ConstVec xi, ConstVec mu, Vec out) const noexcept { api_->ham_dexpinv_dual(m_, xi.data(), mu.data(), out.data()); }
#endif

 private:
  friend class ModelView;
  const liesim_model_api* api_ = nullptr;
  liesim_model* m_ = nullptr;
  liesim_counters* c_ = nullptr;
  int k_ = 0;
  int group_ = 0;
};

/// A Riemannian metric on M (ABI 2.3), for geodesic methods: exp_p, log_p and d, points and
/// tangent vectors in embedding coordinates.
class RiemannianMetricView {
 public:
  /// b > 0 when M is a product of b unit spheres (n / b coordinates each); else 0.
  int sphere_blocks() const noexcept { return spheres_; }
#if LIESIM_ABI_MINOR >= 3
  /// out = exp_p(v) (counted as an exponential).
  Status exp(ConstVec p, ConstVec v, Vec out) const noexcept {
    ++c_->exps;
    return to_status(api_->riem_exp(m_, p.data(), v.data(), out.data()));
  }
  /// v = log_p(q).
  Status log(ConstVec p, ConstVec q, Vec v) const noexcept { return to_status(api_->riem_log(m_, p.data(), q.data(), v.data())); }
  /// d(p, q).
  double distance(ConstVec p, ConstVec q) const noexcept { return api_->riem_distance(m_, p.data(), q.data()); }
#endif

 private:
  friend class ModelView;
  const liesim_model_api* api_ = nullptr;
  liesim_model* m_ = nullptr;
  liesim_counters* c_ = nullptr;
  int spheres_ = 0;
};

/// A model instance: phase space M with its action, generator f: M -> g, embedded field F.
class ModelView {
 public:
  /// A view of an instance owned elsewhere (what an integrator plugin receives).
  explicit ModelView(const liesim_model_ref& ref) : ref_(ref) { bind(); }
  /// An owned instance with its own counters; `release` destroys it (the host's loader).
  ModelView(const liesim_model_api* api, liesim_model* instance, const char* (*last_error)(void*), void* host_context,
        std::function<void()> release)
      : release_(std::move(release)) {
    ref_.size = sizeof(liesim_model_ref);
    ref_.api = api;
    ref_.instance = instance;
    ref_.counters = &own_;
    ref_.last_error = last_error;
    ref_.host_context = host_context;
    bind();
  }
  ~ModelView() {
    if (release_) release_();
  }
  ModelView(const ModelView&) = delete;
  ModelView& operator=(const ModelView&) = delete;

  /// The C reference to hand to an integrator plugin.
  const liesim_model_ref& ref() const noexcept { return ref_; }

  /// The homogeneous space (manifold, group, action).
  const HomogeneousSpaceView& space() const noexcept { return space_; }
  /// Size n of a state vector (embedding coordinates).
  int size() const noexcept { return space_.n_; }

  /// xi = f(t, y) in g with F|_y = psi_*(f(y))|_y [Munthe-Kaas; thesis (2.2.3)].
  Status generator(double t, ConstVec y, Vec xi) noexcept {
    ++ref_.counters->f_evals;
    return to_status(ref_.api->generator(ref_.instance, t, y.data(), xi.data()));
  }
  /// dy = F(t, y), the same vector field in embedding coordinates, for classical solvers.
  Status vector_field(double t, ConstVec y, Vec dy) noexcept {
    ++ref_.counters->F_evals;
    return to_status(ref_.api->vector_field(ref_.instance, t, y.data(), dy.data()));
  }

  /// The initial state given by the parameters.
  void initial_state(Vec y) const noexcept { ref_.api->initial_state(ref_.instance, y.data()); }
  /// Names of the n state components in layout order (CSV column names).
  std::vector<std::string> state_names() const { return {info_.state_names, info_.state_names + size()}; }
  /// The invariants and constraint residuals reported for this model.
  std::vector<InvariantInfo> invariants() const {
    std::vector<InvariantInfo> out;
    for (int k = 0; k < info_.invariant_count; ++k) out.push_back({info_.invariant_names[k], info_.invariant_docs[k]});
#if LIESIM_ABI_MINOR >= 5
    // A plugin older than 2.5 fills a shorter info: its invariants stay monitored.
    if (LIESIM_HAS_MEMBER(&info_, liesim_model_info, invariant_scales)) {
      for (int k = 0; k < info_.invariant_count; ++k) {
        if (info_.invariant_kinds) out[k].kind = static_cast<InvariantKind>(info_.invariant_kinds[k]);
        if (info_.invariant_scales) out[k].scale = info_.invariant_scales[k];
      }
    }
#endif
    return out;
  }
  /// Number of invariants.
  int invariant_count() const noexcept { return info_.invariant_count; }
  /// Values of the invariants at y (out has invariant_count() entries).
  void evaluate_invariants(ConstVec y, Vec out) const noexcept { ref_.api->invariants(ref_.instance, y.data(), out.data()); }
  /// The observables of this model (none for a plugin built for ABI < 2.4).
  std::vector<ObservableInfo> observables() const {
    std::vector<ObservableInfo> out;
#if LIESIM_ABI_MINOR >= 4
    for (int k = 0; k < observable_count_; ++k)
      out.push_back({info_.observable_names[k], info_.observable_units[k] ? info_.observable_units[k] : "", info_.observable_docs[k]});
#endif
    return out;
  }
  /// Number of observables.
  int observable_count() const noexcept { return observable_count_; }
  /// Values of the observables at (t, y) (out has observable_count() entries); on failure they are
  /// NaN and the status says why (last_error()).
  Status evaluate_observables(double t, ConstVec y, Vec out) const noexcept {
#if LIESIM_ABI_MINOR >= 4
    if (observable_count_ == 0) return Status::ok;
    const Status s = to_status(ref_.api->observables(ref_.instance, t, y.data(), out.data()));
    if (s != Status::ok) out.setConstant(std::numeric_limits<double>::quiet_NaN());
    return s;
#else
    (void)t, (void)y, (void)out;
    return Status::ok;
#endif
  }
  /// How the model looks (no bodies for a plugin built for ABI < 2.8 or a model with no picture).
  Scene scene() const {
    Scene out;
#if LIESIM_ABI_MINOR >= 8
    if (!scene_api_) return out;
    liesim_scene c{};
    c.size = sizeof(liesim_scene);
    c.ground = std::numeric_limits<double>::quiet_NaN();
    c.extent = 1.0;
    c.up[2] = 1.0;
    ref_.api->scene(ref_.instance, &c);
    // A scene that does not hold together is the plugin's error, said as such (never read past its arrays).
    if (c.body_count < 0 || c.body_count > 100000 || (c.body_count > 0 && c.bodies == nullptr) || c.path_count < 0 ||
        c.path_count > 100000 || (c.path_count > 0 && c.path_observables == nullptr))
      throw Error("the model's scene is malformed (" + std::to_string(c.body_count) + " bodies, " + std::to_string(c.path_count) +
                  " paths, or no array for them): a defect of its plugin");
    for (int k = 0; k < c.body_count; ++k) {
      const liesim_scene_body& b = c.bodies[k];
      out.bodies.push_back({b.name ? b.name : "", static_cast<Shape>(b.shape), {b.size[0], b.size[1], b.size[2]}, b.color});
    }
    out.up = {c.up[0], c.up[1], c.up[2]};
    out.ground = c.ground;
    out.extent = c.extent;
    for (int k = 0; k < c.path_count; ++k) {
      const char* const* p = c.path_observables + 3 * k;
      out.paths.push_back({p[0] ? p[0] : "", p[1] ? p[1] : "", p[2] ? p[2] : ""});
    }
#endif
    return out;
  }
  /// The poses of scene().bodies at (t, y), pose_size numbers per body (plugin.h's layout).
  Status scene_poses(double t, ConstVec y, Vec out) const noexcept {
#if LIESIM_ABI_MINOR >= 8
    if (scene_api_) return to_status(ref_.api->scene_poses(ref_.instance, t, y.data(), out.data()));
#endif
    (void)t, (void)y, (void)out;
    return Status::ok;
  }
  /// "" if y lies on M within the model's stated tolerance, else a message naming the violation.
  std::string check_state(ConstVec y) const {
    if (ref_.api->check_state(ref_.instance, y.data()) == LIESIM_OK) return {};
    std::string why = last_error();
    return why.empty() ? "the state is not on the model's manifold" : why;
  }
  /// Whether an exact solution is known for these parameters.
  bool has_exact_solution() const noexcept { return (info_.flags & LIESIM_MODEL_EXACT_SOLUTION) != 0; }
  /// The exact solution at time t (only where has_exact_solution()).
  Status exact_solution(double t, Vec y) const noexcept {
    return has_exact_solution() ? to_status(ref_.api->exact_solution(ref_.instance, t, y.data())) : Status::fatal;
  }
  /// Allocate the model's workspaces (before a run; never per step).
  Status prepare() noexcept { return to_status(ref_.api->prepare(ref_.instance)); }

  /// The DAE formulation for a DAE solver, or nullptr where the model has none.
  DaeFormulationView* dae() noexcept { return dae_.api_ ? &dae_ : nullptr; }
  /// The mechanical description for a variational method, or nullptr where the model has none.
  const MechanicalSystemView* mechanics() const noexcept { return mech_.api_ ? &mech_ : nullptr; }
  /// The rigid-body description for a Lie group variational method, or nullptr where there is none.
  const RigidBodySystemView* rigid_body() const noexcept { return rb_.api_ ? &rb_ : nullptr; }
  /// The Hamiltonian description on T*G for a symplectic Lie group method, or nullptr where there is none.
  const HamiltonianSystemView* hamiltonian() const noexcept { return ham_.api_ ? &ham_ : nullptr; }
  /// The Riemannian metric of M for a geodesic method, or nullptr where there is none.
  const RiemannianMetricView* riemannian() const noexcept { return riem_.api_ ? &riem_ : nullptr; }
  /// Whether vector_field_jacobian() is available (a model built for ABI >= 2.1 that provides it).
  bool has_vector_field_jacobian() const noexcept { return jacobian_ != nullptr; }
  /// J = dF/dy (t, y) through the model; Status::fatal where there is none.
  Status vector_field_jacobian(double t, ConstVec y, MatRef J) noexcept {
    return jacobian_ ? to_status(jacobian_(ref_.instance, t, y.data(), J.data())) : Status::fatal;
  }

  /// Message of the last non-ok status returned by the model.
  std::string last_error() const {
    const char* m = ref_.last_error ? ref_.last_error(ref_.host_context) : nullptr;
    return m ? m : "";
  }
  /// Evaluation counters of this instance (the host's).
  Counters& counters() noexcept { return *ref_.counters; }

 private:
  void bind() {
    info_ = liesim_model_info{};
    info_.size = sizeof(liesim_model_info);
    ref_.api->info(ref_.instance, &info_);
    space_.api_ = ref_.api;
    space_.m_ = ref_.instance;
    space_.c_ = ref_.counters;
    space_.n_ = info_.point_size;
    space_.d_ = info_.algebra_dim;
    space_.flags_ = info_.flags;
#if LIESIM_ABI_MINOR >= 1
    const liesim_model_api* api = ref_.api;
    if ((info_.flags & LIESIM_MODEL_JACOBIAN) && LIESIM_HAS_MEMBER(api, liesim_model_api, jacobian))
      jacobian_ = api->jacobian;
    if ((info_.flags & LIESIM_MODEL_DAE) && LIESIM_HAS_MEMBER(api, liesim_model_api, dae_constraints)) {
      dae_.api_ = api;
      dae_.m_ = ref_.instance;
      dae_.model_ = this;
      dae_.size_ = info_.dae_size;
      dae_.constraints_ = info_.dae_constraint_count;
    }
#endif
#if LIESIM_ABI_MINOR >= 2
    if ((info_.flags & LIESIM_MODEL_MECHANICAL) && LIESIM_HAS_MEMBER(api, liesim_model_api, mech_force) && info_.point_size % 2 == 0) {
      mech_.api_ = api;
      mech_.m_ = ref_.instance;
      mech_.m_dof_ = info_.point_size / 2;
      mech_.c_ = ref_.counters;
    }
    if ((info_.flags & LIESIM_MODEL_RIGID_BODY) && LIESIM_HAS_MEMBER(api, liesim_model_api, rb_forces)) {
      rb_.api_ = api;
      rb_.m_ = ref_.instance;
      rb_.c_ = ref_.counters;
      rb_.translation_ = api->rb_translation(ref_.instance);
    }
#endif
#if LIESIM_ABI_MINOR >= 3
    if ((info_.flags & LIESIM_MODEL_HAMILTONIAN) && LIESIM_HAS_MEMBER(api, liesim_model_api, ham_dexpinv_dual)) {
      int32_t group = 0;
      const int32_t k = api->ham_dims(ref_.instance, &group);
      if (k > 0 && group >= 0) {
        ham_.api_ = api;
        ham_.m_ = ref_.instance;
        ham_.c_ = ref_.counters;
        ham_.k_ = k;
        ham_.group_ = group;
      }
    }
    if ((info_.flags & LIESIM_MODEL_RIEMANNIAN) && LIESIM_HAS_MEMBER(api, liesim_model_api, riem_sphere_blocks)) {
      riem_.api_ = api;
      riem_.m_ = ref_.instance;
      riem_.c_ = ref_.counters;
      riem_.spheres_ = api->riem_sphere_blocks(ref_.instance);
    }
#endif
#if LIESIM_ABI_MINOR >= 4
    // A plugin older than 2.4 fills a shorter info (its size says so) and has no observables call.
    if (LIESIM_HAS_MEMBER(&info_, liesim_model_info, observable_docs) && LIESIM_HAS_MEMBER(api, liesim_model_api, observables) &&
        info_.observable_count > 0 && api->observables != nullptr)
      observable_count_ = info_.observable_count;
#endif
#if LIESIM_ABI_MINOR >= 8
    scene_api_ = LIESIM_HAS_MEMBER(api, liesim_model_api, scene_poses) && api->scene != nullptr && api->scene_poses != nullptr;
#endif
  }

  liesim_model_ref ref_{};
  liesim_counters own_{};
  liesim_model_info info_{};
  int observable_count_ = 0;
  bool scene_api_ = false;
  HomogeneousSpaceView space_;
  DaeFormulationView dae_;
  MechanicalSystemView mech_;
  RigidBodySystemView rb_;
  HamiltonianSystemView ham_;
  RiemannianMetricView riem_;
  liesim_status (*jacobian_)(liesim_model*, double, const double*, double*) = nullptr;
  std::function<void()> release_;
};

inline std::string DaeFormulationView::last_error() const { return model_ ? model_->last_error() : std::string(); }

}  // namespace liesim
