// The model adapter: turns a C++ model type (liesim/sdk/model.hpp) into the C model table of
// liesim/plugin.h. Header-only and compiled into the plugin; exceptions stop here and become
// LIESIM_FATAL with their message written through the host's logger.
#pragma once
#include <liesim/sdk/adapter.hpp>
#include <liesim/sdk/model.hpp>

#include <memory>
#include <string>
#include <vector>

namespace liesim::sdk::detail {

/// What a liesim_model* points to: the author's model, its host context and its C metadata.
struct ModelInstance {
  std::unique_ptr<Model> model;
  void* context = nullptr;
  int n = 0;
  int d = 0;
  int dae_size = 0;
  int dae_constraints = 0;
  DaeFormulation* dae = nullptr;
  MechanicalSystem* mech = nullptr;
  int dof = 0;
  RigidBodySystem* rb = nullptr;
  HamiltonianSystem* ham = nullptr;
  const RiemannianMetric* riem = nullptr;
  int ham_k = 0;
  int ham_group = 0;
  std::vector<std::string> names, invariant_names, invariant_docs, observable_names, observable_units, observable_docs;
  std::vector<std::int32_t> invariant_kinds;
  std::vector<double> invariant_scales;
  std::vector<const char*> name_ptrs, invariant_name_ptrs, invariant_doc_ptrs, observable_name_ptrs, observable_unit_ptrs,
      observable_doc_ptrs;
  Scene scene;  // ABI 2.8, with its C form below
#if LIESIM_ABI_MINOR >= 8
  std::vector<liesim_scene_body> scene_bodies;
  std::vector<const char*> scene_path_ptrs;
#endif
};

inline ModelInstance* instance(liesim_model* m) noexcept { return reinterpret_cast<ModelInstance*>(m); }

/// Log the model's message after a failed hook.
inline liesim_status report(ModelInstance* s, Status status, const char* what) noexcept {
  if (status != Status::ok) {
    const std::string& why = s->model->last_error();
    log(s->context, LIESIM_LOG_ERROR, why.empty() ? what : why.c_str());
  }
  return to_c(status);
}
inline liesim_status report_dae(ModelInstance* s, Status status, const char* what) noexcept {
  if (status != Status::ok) {
    try {
      const std::string why = s->dae->last_error();
      log(s->context, LIESIM_LOG_ERROR, why.empty() ? what : why.c_str());
    } catch (...) {
      log(s->context, LIESIM_LOG_ERROR, what);
    }
  }
  return to_c(status);
}

/// Wrap an author's model instance for the C table (`context`: the host's, for messages).
inline liesim_model* adopt(std::unique_ptr<Model> m, void* context) {
  auto s = std::make_unique<ModelInstance>();
  s->context = context;
  s->n = m->size();
  s->d = m->space().algebra_dim();
  s->names = m->state_names();
  if (static_cast<int>(s->names.size()) != s->n)
    throw Error("the model names " + std::to_string(s->names.size()) + " state components but has " + std::to_string(s->n));
  for (const auto& i : m->invariants()) {
    s->invariant_names.push_back(i.name);
    s->invariant_docs.push_back(i.doc);
    s->invariant_kinds.push_back(static_cast<std::int32_t>(i.kind));
    s->invariant_scales.push_back(i.scale);
  }
  for (const auto& x : s->names) s->name_ptrs.push_back(x.c_str());
  for (const auto& x : s->invariant_names) s->invariant_name_ptrs.push_back(x.c_str());
  for (const auto& x : s->invariant_docs) s->invariant_doc_ptrs.push_back(x.c_str());
  for (const auto& o : m->observables()) {
    s->observable_names.push_back(o.name);
    s->observable_units.push_back(o.unit);
    s->observable_docs.push_back(o.doc);
  }
  for (const auto& x : s->observable_names) s->observable_name_ptrs.push_back(x.c_str());
  for (const auto& x : s->observable_units) s->observable_unit_ptrs.push_back(x.c_str());
  for (const auto& x : s->observable_docs) s->observable_doc_ptrs.push_back(x.c_str());
#if LIESIM_ABI_MINOR >= 8
  s->scene = m->scene();
  for (const auto& b : s->scene.bodies)
    s->scene_bodies.push_back({b.name.c_str(), static_cast<std::int32_t>(b.shape), b.color, {b.size[0], b.size[1], b.size[2]}});
  for (const auto& p : s->scene.paths)
    for (const std::string* name : {&p.x, &p.y, &p.z}) s->scene_path_ptrs.push_back(name->c_str());
#endif
  s->dae = m->dae();
  if (s->dae) {
    s->dae_size = s->dae->size();
    s->dae_constraints = s->dae->constraint_count();
  }
  s->mech = m->mechanics();
  if (s->mech) {
    s->dof = s->mech->dof();
    if (2 * s->dof != s->n)
      throw Error("the model's mechanical description has " + std::to_string(s->dof) + " coordinates q, so its state [q, v] needs " +
                  std::to_string(2 * s->dof) + " components, not " + std::to_string(s->n));
  }
  s->rb = m->rigid_body();
  s->ham = m->hamiltonian();
  s->riem = m->riemannian();
  if (s->ham) {
    s->ham_k = s->ham->algebra_dim();
    s->ham_group = s->ham->group_size();
    if (s->ham_k <= 0 || s->ham_group < 0)
      throw Error("the model's Hamiltonian description has dim g = " + std::to_string(s->ham_k) + " and " +
                  std::to_string(s->ham_group) + " group numbers; both must be positive (group numbers 0 for a reduced system)");
  }
  s->model = std::move(m);
  return reinterpret_cast<liesim_model*>(s.release());
}

/// The C functions of a model instance (every model type shares them).
struct ModelFunctions {
  static void destroy(liesim_model* m) noexcept { delete instance(m); }
  static void info(liesim_model* m, liesim_model_info* i) noexcept {
    const ModelInstance* s = instance(m);
    const Model& model = *s->model;
    std::uint32_t flags = 0;
    if (model.space().has_exact_dexpinv()) flags |= LIESIM_MODEL_EXACT_DEXPINV;
    if (model.space().can_project()) flags |= LIESIM_MODEL_CAN_PROJECT;
    if (model.has_exact_solution()) flags |= LIESIM_MODEL_EXACT_SOLUTION;
#if LIESIM_ABI_MINOR >= 1
    if (model.has_jacobian()) flags |= LIESIM_MODEL_JACOBIAN;
    if (s->dae) flags |= LIESIM_MODEL_DAE;
#endif
#if LIESIM_ABI_MINOR >= 2
    if (s->mech) flags |= LIESIM_MODEL_MECHANICAL;
    if (s->rb) flags |= LIESIM_MODEL_RIGID_BODY;
#endif
#if LIESIM_ABI_MINOR >= 3
    if (s->ham) flags |= LIESIM_MODEL_HAMILTONIAN;
    if (s->riem) flags |= LIESIM_MODEL_RIEMANNIAN;
#endif
    // Fill what both sides know: the host's struct may be older (smaller) or newer than ours.
    liesim_model_info mine{};
    mine.size = sizeof(liesim_model_info);
    mine.flags = flags;
    mine.point_size = s->n;
    mine.algebra_dim = s->d;
    mine.invariant_count = static_cast<int32_t>(s->invariant_names.size());
    mine.dae_size = s->dae_size;
    mine.dae_constraint_count = s->dae_constraints;
    mine.state_names = s->name_ptrs.data();
    mine.invariant_names = s->invariant_name_ptrs.data();
    mine.invariant_docs = s->invariant_doc_ptrs.data();
#if LIESIM_ABI_MINOR >= 4
    mine.observable_count = static_cast<int32_t>(s->observable_names.size());
    mine.observable_names = s->observable_name_ptrs.data();
    mine.observable_units = s->observable_unit_ptrs.data();
    mine.observable_docs = s->observable_doc_ptrs.data();
#endif
#if LIESIM_ABI_MINOR >= 5
    mine.invariant_kinds = s->invariant_kinds.data();
    mine.invariant_scales = s->invariant_scales.data();
#endif
    const std::uint32_t size = i->size < mine.size ? i->size : mine.size;
    std::memcpy(static_cast<void*>(i), &mine, size);
    i->size = size;
  }
  static liesim_status prepare(liesim_model* m) noexcept {
    ModelInstance* s = instance(m);
    return guarded(s->context, [&] {
      s->model->prepare();
      return LIESIM_OK;
    });
  }
  static void initial_state(liesim_model* m, double* y) noexcept {
    ModelInstance* s = instance(m);
    try {
      s->model->initial_state(out(y, s->n));
    } catch (...) {
      log(s->context, LIESIM_LOG_ERROR, "initial_state threw an exception");
    }
  }
  LIESIM_SDK_HOT static liesim_status generator(liesim_model* m, double t, const double* y, double* xi) noexcept {
    ModelInstance* s = instance(m);
    return report(s, s->model->generator(t, in(y, s->n), out(xi, s->d)), "the generator f failed");
  }
  LIESIM_SDK_HOT static liesim_status vector_field(liesim_model* m, double t, const double* y, double* dy) noexcept {
    ModelInstance* s = instance(m);
    return report(s, s->model->vector_field(t, in(y, s->n), out(dy, s->n)), "the vector field F failed");
  }
  LIESIM_SDK_HOT static liesim_status act_exp(liesim_model* m, const double* xi, const double* y, double* o) noexcept {
    ModelInstance* s = instance(m);
    return report(s, s->model->space().act_exp(in(xi, s->d), in(y, s->n), out(o, s->n)), "act_exp failed");
  }
  LIESIM_SDK_HOT static liesim_status dexpinv(liesim_model* m, const double* u, const double* v, double* o) noexcept {
    ModelInstance* s = instance(m);
    return report(s, s->model->space().dexpinv(in(u, s->d), in(v, s->d), out(o, s->d)), "dexpinv failed");
  }
  LIESIM_SDK_HOT static liesim_status bracket(liesim_model* m, const double* a, const double* b, double* o) noexcept {
    ModelInstance* s = instance(m);
    return report(s, s->model->space().bracket(in(a, s->d), in(b, s->d), out(o, s->d)), "bracket failed");
  }
  LIESIM_SDK_HOT static liesim_status space_generator(liesim_model* m, const double* xi, const double* y, double* o) noexcept {
    ModelInstance* s = instance(m);
    return report(s, s->model->space().generator(in(xi, s->d), in(y, s->n), out(o, s->n)), "the action's generator failed");
  }
  LIESIM_SDK_HOT static liesim_status project(liesim_model* m, double* y) noexcept {
    ModelInstance* s = instance(m);
    return report(s, s->model->space().project(out(y, s->n)), "the space has no projection");
  }
  LIESIM_SDK_HOT static double distance(liesim_model* m, const double* a, const double* b) noexcept {
    ModelInstance* s = instance(m);
    return s->model->space().distance(in(a, s->n), in(b, s->n));
  }
  LIESIM_SDK_HOT static void invariants(liesim_model* m, const double* y, double* o) noexcept {
    ModelInstance* s = instance(m);
    s->model->evaluate_invariants(in(y, s->n), out(o, static_cast<int>(s->invariant_names.size())));
  }
#if LIESIM_ABI_MINOR >= 4
  static liesim_status observables(liesim_model* m, double t, const double* y, double* o) noexcept {
    ModelInstance* s = instance(m);
    return report(s, s->model->evaluate_observables(t, in(y, s->n), out(o, static_cast<int>(s->observable_names.size()))),
                  "the observables failed");
  }
#endif
#if LIESIM_ABI_MINOR >= 8
  static void scene(liesim_model* m, liesim_scene* o) noexcept {
    const ModelInstance* s = instance(m);
    liesim_scene mine{};
    mine.size = sizeof(liesim_scene);
    mine.body_count = static_cast<int32_t>(s->scene_bodies.size());
    mine.bodies = s->scene_bodies.data();
    for (int k = 0; k < 3; ++k) mine.up[k] = s->scene.up[k];
    mine.ground = s->scene.ground;
    mine.extent = s->scene.extent;
    mine.path_count = static_cast<int32_t>(s->scene.paths.size());
    mine.path_observables = s->scene_path_ptrs.data();
    const std::uint32_t size = o->size < mine.size ? o->size : mine.size;
    std::memcpy(static_cast<void*>(o), &mine, size);
    o->size = size;
  }
  static liesim_status scene_poses(liesim_model* m, double t, const double* y, double* poses) noexcept {
    ModelInstance* s = instance(m);
    return report(s, s->model->scene_poses(t, in(y, s->n), out(poses, pose_size * static_cast<int>(s->scene_bodies.size()))),
                  "the scene's poses failed");
  }
#endif
  static liesim_status check_state(liesim_model* m, const double* y) noexcept {
    ModelInstance* s = instance(m);
    return guarded(s->context, [&] {
      const std::string why = s->model->check_state(in(y, s->n));
      if (why.empty()) return LIESIM_OK;
      log_error(s->context, why);
      return LIESIM_FATAL;
    });
  }
  static liesim_status exact_solution(liesim_model* m, double t, double* y) noexcept {
    ModelInstance* s = instance(m);
    return report(s, s->model->exact_solution(t, out(y, s->n)), "no exact solution for these parameters");
  }
#if LIESIM_ABI_MINOR >= 1
  static liesim_status jacobian(liesim_model* m, double t, const double* y, double* J) noexcept {
    ModelInstance* s = instance(m);
    Eigen::Map<Eigen::MatrixXd> jac(J, s->n, s->n);
    return report(s, s->model->jacobian(t, in(y, s->n), jac), "the model has no Jacobian");
  }
  static void dae_differential_components(liesim_model* m, double* id) noexcept {
    ModelInstance* s = instance(m);
    s->dae->differential_components(out(id, s->dae_size));
  }
  static liesim_status dae_initial_values(liesim_model* m, double t0, const double* y0, double* x, double* xdot) noexcept {
    ModelInstance* s = instance(m);
    return report_dae(s, s->dae->initial_values(t0, in(y0, s->n), out(x, s->dae_size), out(xdot, s->dae_size)),
                      "no consistent initial values");
  }
  static liesim_status dae_residual(liesim_model* m, double t, const double* x, const double* xdot, double* r) noexcept {
    ModelInstance* s = instance(m);
    return report_dae(s, s->dae->residual(t, in(x, s->dae_size), in(xdot, s->dae_size), out(r, s->dae_size)),
                      "the DAE residual failed");
  }
  static void dae_to_state(liesim_model* m, const double* x, const double* xdot, double* y) noexcept {
    ModelInstance* s = instance(m);
    s->dae->to_state(in(x, s->dae_size), in(xdot, s->dae_size), out(y, s->n));
  }
  static void dae_constraints(liesim_model* m, const double* x, double* c) noexcept {
    ModelInstance* s = instance(m);
    s->dae->constraints(in(x, s->dae_size), out(c, s->dae_constraints));
  }
#endif
#if LIESIM_ABI_MINOR >= 2
  static void mech_mass_matrix(liesim_model* m, double* M) noexcept {
    ModelInstance* s = instance(m);
    Eigen::Map<Eigen::MatrixXd> mass(M, s->dof, s->dof);
    s->mech->mass_matrix(mass);
  }
  LIESIM_SDK_HOT static liesim_status mech_potential(liesim_model* m, double t, const double* q, double* U, double* dU_dq,
                                                     double* dU_dt) noexcept {
    ModelInstance* s = instance(m);
    return report(s, s->mech->potential(t, in(q, s->dof), *U, out(dU_dq, s->dof), *dU_dt), "the potential failed");
  }
  LIESIM_SDK_HOT static liesim_status mech_force(liesim_model* m, double t, const double* q, const double* v, double* f) noexcept {
    ModelInstance* s = instance(m);
    return report(s, s->mech->force(t, in(q, s->dof), in(v, s->dof), out(f, s->dof)), "the force failed");
  }
  static int32_t rb_translation(liesim_model* m) noexcept { return instance(m)->rb->translation(); }
  static void rb_inertia(liesim_model* m, double* J, double* M) noexcept {
    RigidBodySystem::Matrix3 j, mass = RigidBodySystem::Matrix3::Zero();
    const RigidBodySystem* rb = instance(m)->rb;
    rb->inertia(j, mass);
    Eigen::Map<Eigen::Matrix3d> j_out(J);
    j_out = j;
    if (M && rb->translation() == 3) {
      Eigen::Map<Eigen::Matrix3d> m_out(M);
      m_out = mass;
    }
  }
  LIESIM_SDK_HOT static liesim_status rb_potential(liesim_model* m, double t, const double* R, const double* x, double* U,
                                                   double* moment, double* dU_dx) noexcept {
    ModelInstance* s = instance(m);
    const bool translation = s->rb->translation() == 3;
    const RigidBodySystem::RowMajor3 r = Eigen::Map<const RigidBodySystem::RowMajor3>(R);
    const Eigen::Vector3d position = translation ? Eigen::Vector3d(Eigen::Map<const Eigen::Vector3d>(x)) : Eigen::Vector3d::Zero();
    Eigen::Vector3d mo, g = Eigen::Vector3d::Zero();
    const Status st = s->rb->potential(t, r, position, *U, mo, g);
    Eigen::Map<Eigen::Vector3d> moment_out(moment);
    moment_out = mo;
    if (translation && dU_dx) {
      Eigen::Map<Eigen::Vector3d> grad_out(dU_dx);
      grad_out = g;
    }
    return report(s, st, "the potential failed");
  }
  static void rb_from_state(liesim_model* m, const double* y, double* R, double* x, double* Omega, double* v) noexcept {
    ModelInstance* s = instance(m);
    RigidBodySystem::RowMajor3 r;
    Eigen::Vector3d p = Eigen::Vector3d::Zero(), w, u = Eigen::Vector3d::Zero();
    s->rb->from_state(in(y, s->n), r, p, w, u);
    Eigen::Map<RigidBodySystem::RowMajor3> r_out(R);
    Eigen::Map<Eigen::Vector3d> w_out(Omega);
    r_out = r;
    w_out = w;
    if (s->rb->translation() == 3) {
      Eigen::Map<Eigen::Vector3d> x_out(x), v_out(v);
      x_out = p;
      v_out = u;
    }
  }
  static void rb_to_state(liesim_model* m, const double* R, const double* x, const double* Omega, const double* v, double* y) noexcept {
    ModelInstance* s = instance(m);
    const bool translation = s->rb->translation() == 3;
    const RigidBodySystem::RowMajor3 r = Eigen::Map<const RigidBodySystem::RowMajor3>(R);
    const Eigen::Vector3d p = translation ? Eigen::Vector3d(Eigen::Map<const Eigen::Vector3d>(x)) : Eigen::Vector3d::Zero();
    const Eigen::Vector3d u = translation ? Eigen::Vector3d(Eigen::Map<const Eigen::Vector3d>(v)) : Eigen::Vector3d::Zero();
    s->rb->to_state(r, p, Eigen::Map<const Eigen::Vector3d>(Omega), u, out(y, s->n));
  }
  LIESIM_SDK_HOT static liesim_status rb_forces(liesim_model* m, double t, const double* R, const double* x, const double* Omega,
                                                const double* v, double* torque, double* force) noexcept {
    ModelInstance* s = instance(m);
    const bool translation = s->rb->translation() == 3;
    const RigidBodySystem::RowMajor3 r = Eigen::Map<const RigidBodySystem::RowMajor3>(R);
    const Eigen::Vector3d p = translation ? Eigen::Vector3d(Eigen::Map<const Eigen::Vector3d>(x)) : Eigen::Vector3d::Zero();
    const Eigen::Vector3d u = translation ? Eigen::Vector3d(Eigen::Map<const Eigen::Vector3d>(v)) : Eigen::Vector3d::Zero();
    Eigen::Vector3d tau, f = Eigen::Vector3d::Zero();
    const Status st = s->rb->forces(t, r, p, Eigen::Map<const Eigen::Vector3d>(Omega), u, tau, f);
    Eigen::Map<Eigen::Vector3d> tau_out(torque);
    tau_out = tau;
    if (translation && force) {
      Eigen::Map<Eigen::Vector3d> f_out(force);
      f_out = f;
    }
    return report(s, st, "the forces failed");
  }
#endif
#if LIESIM_ABI_MINOR >= 3
  static int32_t ham_dims(liesim_model* m, int32_t* group_size) noexcept {
    const ModelInstance* s = instance(m);
    *group_size = s->ham_group;
    return s->ham_k;
  }
  static void ham_from_state(liesim_model* m, const double* y, double* g, double* mu) noexcept {
    ModelInstance* s = instance(m);
    double none = 0.0;
    s->ham->from_state(in(y, s->n), out(s->ham_group ? g : &none, s->ham_group), out(mu, s->ham_k));
  }
  static void ham_to_state(liesim_model* m, const double* g, const double* mu, double* y) noexcept {
    ModelInstance* s = instance(m);
    const double none = 0.0;
    s->ham->to_state(in(s->ham_group ? g : &none, s->ham_group), in(mu, s->ham_k), out(y, s->n));
  }
  LIESIM_SDK_HOT static liesim_status ham_gradient(liesim_model* m, double t, const double* g, const double* mu, double* dH_dmu,
                                                   double* dH_dg) noexcept {
    ModelInstance* s = instance(m);
    const double none = 0.0;
    return report(s, s->ham->gradient(t, in(s->ham_group ? g : &none, s->ham_group), in(mu, s->ham_k), out(dH_dmu, s->ham_k),
                                      out(dH_dg, s->ham_k)),
                  "the Hamiltonian's gradient failed");
  }
  static void ham_exp_mult(liesim_model* m, const double* xi, const double* g, double* o) noexcept {
    ModelInstance* s = instance(m);
    if (s->ham_group) s->ham->exp_mult(in(xi, s->ham_k), in(g, s->ham_group), out(o, s->ham_group));
  }
  static void ham_coadjoint(liesim_model* m, const double* xi, const double* mu, double* o) noexcept {
    ModelInstance* s = instance(m);
    s->ham->coadjoint(in(xi, s->ham_k), in(mu, s->ham_k), out(o, s->ham_k));
  }
  static void ham_dexp_dual(liesim_model* m, const double* xi, const double* mu, double* o) noexcept {
    ModelInstance* s = instance(m);
    s->ham->dexp_dual(in(xi, s->ham_k), in(mu, s->ham_k), out(o, s->ham_k));
  }
  static void ham_dexpinv_dual(liesim_model* m, const double* xi, const double* mu, double* o) noexcept {
    ModelInstance* s = instance(m);
    s->ham->dexpinv_dual(in(xi, s->ham_k), in(mu, s->ham_k), out(o, s->ham_k));
  }
  LIESIM_SDK_HOT static liesim_status riem_exp(liesim_model* m, const double* p, const double* v, double* o) noexcept {
    ModelInstance* s = instance(m);
    return report(s, s->riem->exp(in(p, s->n), in(v, s->n), out(o, s->n)), "the Riemannian exponential failed");
  }
  static liesim_status riem_log(liesim_model* m, const double* p, const double* q, double* v) noexcept {
    ModelInstance* s = instance(m);
    return report(s, s->riem->log(in(p, s->n), in(q, s->n), out(v, s->n)), "the Riemannian logarithm failed (cut locus?)");
  }
  static double riem_distance(liesim_model* m, const double* p, const double* q) noexcept {
    ModelInstance* s = instance(m);
    return s->riem->distance(in(p, s->n), in(q, s->n));
  }
  static int32_t riem_sphere_blocks(liesim_model* m) noexcept { return instance(m)->riem->sphere_blocks(); }
#endif

  /// The model table without `create` (each type adds its own).
  static liesim_model_api api() noexcept {
    liesim_model_api t{};
    t.size = sizeof(liesim_model_api);
    t.destroy = &destroy;
    t.info = &info;
    t.prepare = &prepare;
    t.initial_state = &initial_state;
    t.generator = &generator;
    t.vector_field = &vector_field;
    t.act_exp = &act_exp;
    t.dexpinv = &dexpinv;
    t.bracket = &bracket;
    t.space_generator = &space_generator;
    t.project = &project;
    t.distance = &distance;
    t.invariants = &invariants;
    t.check_state = &check_state;
    t.exact_solution = &exact_solution;
#if LIESIM_ABI_MINOR >= 4
    t.observables = &observables;
#endif
#if LIESIM_ABI_MINOR >= 8
    t.scene = &scene;
    t.scene_poses = &scene_poses;
#endif
#if LIESIM_ABI_MINOR >= 1
    t.jacobian = &jacobian;
    t.dae_differential_components = &dae_differential_components;
    t.dae_initial_values = &dae_initial_values;
    t.dae_residual = &dae_residual;
    t.dae_to_state = &dae_to_state;
    t.dae_constraints = &dae_constraints;
#endif
#if LIESIM_ABI_MINOR >= 2
    t.mech_mass_matrix = &mech_mass_matrix;
    t.mech_potential = &mech_potential;
    t.mech_force = &mech_force;
    t.rb_translation = &rb_translation;
    t.rb_inertia = &rb_inertia;
    t.rb_potential = &rb_potential;
    t.rb_from_state = &rb_from_state;
    t.rb_to_state = &rb_to_state;
    t.rb_forces = &rb_forces;
#endif
#if LIESIM_ABI_MINOR >= 3
    t.ham_dims = &ham_dims;
    t.ham_from_state = &ham_from_state;
    t.ham_to_state = &ham_to_state;
    t.ham_gradient = &ham_gradient;
    t.ham_exp_mult = &ham_exp_mult;
    t.ham_coadjoint = &ham_coadjoint;
    t.ham_dexp_dual = &ham_dexp_dual;
    t.ham_dexpinv_dual = &ham_dexpinv_dual;
    t.riem_exp = &riem_exp;
    t.riem_log = &riem_log;
    t.riem_distance = &riem_distance;
    t.riem_sphere_blocks = &riem_sphere_blocks;
#endif
    return t;
  }
};

/// The C entry points of one model type `Type` (a default-constructible sdk::ModelType).
template <class Type>
struct ModelAdapter {
  static std::unique_ptr<Type>& type() {
    static std::unique_ptr<Type> t;
    return t;
  }
  static const char*& name() {
    static const char* n = "";
    return n;
  }

  static liesim_status create(void* context, int32_t count, const char* const* keys, const char* const* values,
                              liesim_model** result) noexcept {
    *result = nullptr;
    return guarded(context, [&] {
      const Type& t = *type();
      const std::string model_name = name();
      const Settings p = settings_of(t.parameters(), count, keys, values, "parameter of model '" + model_name + "'");
      std::string error;
      std::unique_ptr<Model> m(t.create(p, error));
      if (!m) {
        log_error(context, error.empty() ? "the model refused its parameters" : error);
        return LIESIM_FATAL;
      }
      *result = adopt(std::move(m), context);
      return LIESIM_OK;
    });
  }

  static const liesim_model_api* api() noexcept {
    static const liesim_model_api a = [] {
      liesim_model_api t = ModelFunctions::api();
      t.create = &create;
      return t;
    }();
    return &a;
  }

  /// The plugin table (nullptr after logging why, when the type cannot be made).
  static const liesim_plugin* plugin(const liesim_host* h, const char* plugin_name, const char* version,
                                     const char* summary) noexcept {
    if (!accept_host(h, plugin_name)) return nullptr;
    static liesim_plugin table{};
    static std::string metadata;
    if (table.size != 0) return &table;
    name() = plugin_name;
    const liesim_status s = guarded(nullptr, [&] {
      type() = std::make_unique<Type>();
      const Type& t = *type();
      metadata = nlohmann::json{{"summary", t.summary()}, {"conventions", t.conventions()}, {"parameters", specs_json(t.parameters())}}.dump();
      return LIESIM_OK;
    });
    if (s != LIESIM_OK) return nullptr;
    table.abi_major = LIESIM_ABI_MAJOR;
    table.abi_minor = LIESIM_ABI_MINOR;
    table.kind = LIESIM_KIND_MODEL;
    table.build_token = LIESIM_BUILD_TOKEN;
    table.name = plugin_name;
    table.version = version;
    table.summary = summary;
    table.metadata_json = metadata.c_str();
    table.model = api();
    table.integrator = nullptr;
    table.size = sizeof(liesim_plugin);
    return &table;
  }
};

}  // namespace liesim::sdk::detail
