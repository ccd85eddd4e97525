/* The liesim plugin boundary, in C (C99): the only thing a host and a plugin share.
 *
 * A plugin is a shared library named liesim_NAME.so that exports one function,
 *     const liesim_plugin* liesim_plugin_entry(const liesim_host* host);
 * The host passes its table (ABI version, logger); the plugin returns its own table, which starts
 * with its size and ABI version. Everything after that crosses as C types: opaque handles,
 * double buffers, C strings and one JSON metadata document. No C++ type, exception or allocation
 * crosses: whatever a side allocates, the same side frees (instances through their destroy call).
 *
 * Versions: a plugin built for ABI MAJOR.x loads into every host MAJOR.y with y >= x. Capabilities
 * added by a later minor are trailing members of a table, present when the table's `size` covers
 * them (see LIESIM_HAS_MEMBER); a host never reads past the size a plugin states, and a plugin
 * never reads past the size a host states. A new major is an incompatible boundary.
 *
 * Buffers: the lengths of the double buffers of an instance call are fixed when the instance is
 * created and stated in its info (point_size n, algebra_dim d, invariant_count, dae_size, ...).
 * Matrices are column-major.
 *
 * Status: every call that can fail returns LIESIM_OK, LIESIM_RECOVERABLE (retry with a smaller step)
 * or LIESIM_FATAL (the run cannot continue), in the style of SUNDIALS and FMI, and writes its
 * message through the host's logger with the context the host gave when the object was created. */
#ifndef LIESIM_PLUGIN_H
#define LIESIM_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ABI version. The major changes only with an incompatible boundary; the minor when trailing
 * members are added. 2.0: the C boundary; 2.1: DAE formulation and exact Jacobian of a model;
 * 2.2: mechanical description of a model (in R^m, or a rigid body), diagnostics of a method;
 * 2.3: Hamiltonian description of a model on a cotangent bundle T*G (symplectic Lie group methods),
 * Riemannian metric of a model's manifold (geodesic methods); 2.4: observables of a model (named
 * quantities with units written beside the state, e.g. a controller's tracking error); 2.5: the
 * kind and scale of each invariant (which ones the exact flow conserves or dissipates: the host
 * ends a run whose checked invariant grows past its bound as diverged); 2.6: dense output of a
 * kernel-driven stepper (the state inside its last step, for output at requested times and events);
 * 2.7: events located by a self-controlled solver's own root finding (SUNDIALS' CVodeRootInit, ...),
 * and solvers whose dynamics choose their steps driven one step at a time by the host; 2.8: how a
 * model looks (a scene of bodies and their poses at (t, y), for the viewer and strobe figures); 2.9:
 * a method's metadata as its options complete it (the orders of a coefficient table read from a file). */
#ifndef LIESIM_ABI_MAJOR
#define LIESIM_ABI_MAJOR 2
#endif
#ifndef LIESIM_ABI_MINOR
#define LIESIM_ABI_MINOR 9
#endif

#define LIESIM_STR2_(x) #x
#define LIESIM_STR_(x) LIESIM_STR2_(x)
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define LIESIM_ENDIAN_ "be"
#else
#define LIESIM_ENDIAN_ "le"
#endif
/* What must match between a host and a plugin: the ABI major and the data layout (pointer and
 * double sizes, byte order). Compiler, C++ library and liesim version do not matter. */
#define LIESIM_BUILD_TOKEN                                                                  \
  "abi" LIESIM_STR_(LIESIM_ABI_MAJOR) ";ptr" LIESIM_STR_(__SIZEOF_POINTER__) ";double" \
  LIESIM_STR_(__SIZEOF_DOUBLE__) ";" LIESIM_ENDIAN_

/* Name of the one exported symbol. */
#define LIESIM_PLUGIN_ENTRY_NAME "liesim_plugin_entry"

#if defined(_WIN32)
#define LIESIM_EXPORT __declspec(dllexport)
#else
#define LIESIM_EXPORT __attribute__((visibility("default")))
#endif

/* Whether a table whose first member is `uint32_t size` contains MEMBER. */
#define LIESIM_HAS_MEMBER(table, type, member) \
  ((table) != NULL && (table)->size >= offsetof(type, member) + sizeof((table)->member))

typedef int32_t liesim_status;
#define LIESIM_OK 0
#define LIESIM_RECOVERABLE 1
#define LIESIM_FATAL (-1)

typedef int32_t liesim_log_level;
#define LIESIM_LOG_INFO 0
#define LIESIM_LOG_WARNING 1
#define LIESIM_LOG_ERROR 2

/* ---------------------------------------------------------------------------------------------
 * The host. */

typedef struct liesim_host {
  uint32_t size;       /* sizeof(liesim_host) as the host was built */
  uint32_t abi_major;  /* the host's LIESIM_ABI_MAJOR */
  uint32_t abi_minor;  /* the host's LIESIM_ABI_MINOR */
  uint32_t reserved;
  /* Write a message. `context` is the one the host gave with the object the message is about
   * (NULL for messages about the plugin as a whole). An ERROR message explains the status of the
   * call that returns next; it names the problem and what would fix it. */
  void (*log)(void* context, liesim_log_level level, const char* message);
} liesim_host;

/* Evaluation counters, owned by the host and incremented by the caller of a model function
 * (the host or an integrator plugin), never by the model. */
typedef struct liesim_counters {
  int64_t f_evals;       /* generator evaluations f: M -> g */
  int64_t F_evals;       /* embedded vector field evaluations F: R^n -> R^n (variational methods: potential gradients) */
  int64_t exps;          /* exponentials applied through the action */
  int64_t dexpinv_calls; /* dexpinv evaluations */
  int64_t brackets;      /* Lie brackets */
  int64_t projections;   /* projections onto the manifold */
  int64_t newton_iters;  /* Newton iterations of implicit kernel-driven methods */
  int64_t newton_fails;  /* Newton convergence failures of implicit kernel-driven methods */
} liesim_counters;

/* ---------------------------------------------------------------------------------------------
 * Models. A model plugin's metadata document (liesim_plugin.metadata_json) is
 *   {"summary": "...", "conventions": "SPACE ...",
 *    "parameters": [{"name": "N", "default": "2", "unit": "", "doc": "..."}, ...]}
 * The host validates the user's parameters against it and passes the ones the user gave to
 * create() as text; the plugin applies its defaults. */

typedef struct liesim_model liesim_model; /* an instance, opaque */

#define LIESIM_MODEL_EXACT_DEXPINV 1u  /* dexpinv is a closed form (else a truncated series) */
#define LIESIM_MODEL_CAN_PROJECT 2u    /* project() is available */
#define LIESIM_MODEL_EXACT_SOLUTION 4u /* exact_solution() is available for these parameters */
#define LIESIM_MODEL_JACOBIAN 8u       /* jacobian() is available (ABI 2.1) */
#define LIESIM_MODEL_DAE 16u           /* the dae_* functions are available (ABI 2.1) */
#define LIESIM_MODEL_MECHANICAL 32u    /* the mech_* functions are available (ABI 2.2) */
#define LIESIM_MODEL_RIGID_BODY 64u    /* the rb_* functions are available (ABI 2.2) */
#define LIESIM_MODEL_HAMILTONIAN 128u  /* the ham_* functions are available (ABI 2.3) */
#define LIESIM_MODEL_RIEMANNIAN 256u   /* the riem_* functions are available (ABI 2.3) */

/* What the exact flow does to an invariant (ABI 2.5; liesim_model_info.invariant_kinds). The host
 * checks a conserved or non-increasing one for divergence: with I0 its value at t0 and s its scale,
 * the run ends as diverged when |I - I0| (conserved) or I - I0 (non-increasing) passes
 * invariant_bound * max(|I0|, s) (docs/design.md, "The driver"). */
#define LIESIM_INVARIANT_MONITORED 0     /* reported only: forced, anti-damped, or not known */
#define LIESIM_INVARIANT_CONSERVED 1     /* constant along the exact flow (energy, Casimir, constraint residual) */
#define LIESIM_INVARIANT_NONINCREASING 2 /* never grows along the exact flow (a dissipated energy) */

typedef struct liesim_model_info {
  uint32_t size;                      /* sizeof(liesim_model_info) as the plugin was built */
  uint32_t flags;                     /* LIESIM_MODEL_* */
  int32_t point_size;                 /* n: embedding coordinates of a point of M */
  int32_t algebra_dim;                /* d: dimension of the Lie algebra g */
  int32_t invariant_count;            /* number of invariants and constraint residuals */
  int32_t dae_size;                   /* unknowns of the DAE formulation (0: none) */
  int32_t dae_constraint_count;       /* constraint residuals of the DAE formulation */
  int32_t reserved;
  const char* const* state_names;     /* n names in layout order (CSV columns) */
  const char* const* invariant_names; /* invariant_count names */
  const char* const* invariant_docs;  /* invariant_count meanings and formulas */
#if LIESIM_ABI_MINOR >= 4
  /* ---- ABI 2.4: observables ---- quantities of (t, y) that a user plots beside the state (a
   * tracking error, a desired trajectory, a force): not expected to be conserved. */
  int32_t observable_count;            /* number of observables (0: none) */
  int32_t reserved2;
  const char* const* observable_names; /* observable_count column names */
  const char* const* observable_units; /* observable_count units ("" when dimensionless) */
  const char* const* observable_docs;  /* observable_count meanings and formulas */
#endif
#if LIESIM_ABI_MINOR >= 5
  /* ---- ABI 2.5: invariant kinds ---- NULL (every invariant monitored) or invariant_count
   * LIESIM_INVARIANT_* values; an older plugin's invariants are all monitored. */
  const int32_t* invariant_kinds;
  /* NULL (all 0) or invariant_count scales s >= 0, in the invariant's unit: the magnitude below
   * which a change is not relative to |I0| (1 for a constraint residual of a unit vector; a
   * characteristic energy for an energy whose I0 may be 0). */
  const double* invariant_scales;
#endif
} liesim_model_info;

#if LIESIM_ABI_MINOR >= 8
/* How a model looks (ABI 2.8). Sizes in the model's length unit. */
#define LIESIM_SHAPE_SPHERE 1   /* size[0]: radius */
#define LIESIM_SHAPE_BOX 2      /* size: full edge lengths along the body's x, y, z */
#define LIESIM_SHAPE_CYLINDER 3 /* size[0]: radius, size[1]: length along the body's z, centred */
#define LIESIM_SHAPE_CAPSULE 4  /* a cylinder (as above) with hemispherical caps */
#define LIESIM_SHAPE_AXES 5     /* the body's x, y, z axes, each size[0] long */
#define LIESIM_SHAPE_SEGMENT 6  /* a rod between two points; size[0]: radius (0: a line) */
#define LIESIM_SHAPE_ARROW 7    /* an arrow from its first point to its second; size[0]: shaft radius */

typedef struct liesim_scene_body {
  const char* name;
  int32_t shape;  /* LIESIM_SHAPE_* */
  uint32_t color; /* 0xRRGGBB */
  double size[3];
} liesim_scene_body;

typedef struct liesim_scene {
  uint32_t size; /* sizeof(liesim_scene) as its filler was built */
  int32_t body_count;
  const liesim_scene_body* bodies;
  double up[3];  /* the direction opposite to gravity (the viewer keeps it up) */
  double ground; /* height along `up` of a ground plane; NaN: none */
  double extent; /* the scene's length scale (camera distance, axes, spacing of runs) */
  int32_t path_count;
  int32_t reserved;
  /* 3 * path_count observable names: the x, y, z of each fixed polyline drawn (a desired trajectory) */
  const char* const* path_observables;
} liesim_scene;
#endif

typedef struct liesim_model_api {
  uint32_t size; /* sizeof(liesim_model_api) as the plugin was built */
  uint32_t reserved;
  /* Create an instance from the parameters the user gave, as KEY/VALUE text (the plugin applies
   * its defaults); on failure log the reason with
   * `context` and return LIESIM_FATAL. The host keeps `context` alive until destroy(). */
  liesim_status (*create)(void* context, int32_t count, const char* const* keys, const char* const* values,
                          liesim_model** out);
  void (*destroy)(liesim_model* m);
  /* Sizes, names and flags; the strings stay valid until destroy(). */
  void (*info)(liesim_model* m, liesim_model_info* info);
  /* Allocate workspaces (called before a run, never per step). */
  liesim_status (*prepare)(liesim_model* m);
  /* y0 (n) given by the parameters. */
  void (*initial_state)(liesim_model* m, double* y);
  /* xi = f(t, y) in g (d), with F|_y = psi_*(f(t, y))|_y. */
  liesim_status (*generator)(liesim_model* m, double t, const double* y, double* xi);
  /* dy = F(t, y) (n), the same field in embedding coordinates. */
  liesim_status (*vector_field)(liesim_model* m, double t, const double* y, double* dy);
  /* out = psi(exp(xi), y) (n). */
  liesim_status (*act_exp)(liesim_model* m, const double* xi, const double* y, double* out);
  /* out = dexpinv_u(v) (d), right trivialised. */
  liesim_status (*dexpinv)(liesim_model* m, const double* u, const double* v, double* out);
  /* out = [a, b] (d). */
  liesim_status (*bracket)(liesim_model* m, const double* a, const double* b, double* out);
  /* out = psi_*(xi)|_y (n), the infinitesimal generator of the action. */
  liesim_status (*space_generator)(liesim_model* m, const double* xi, const double* y, double* out);
  /* Project y (n) onto M in place (LIESIM_MODEL_CAN_PROJECT). */
  liesim_status (*project)(liesim_model* m, double* y);
  /* Distance of two points of M (no allocation). */
  double (*distance)(liesim_model* m, const double* a, const double* b);
  /* Invariants at y (invariant_count values). */
  void (*invariants)(liesim_model* m, const double* y, double* out);
  /* LIESIM_OK when y lies on M within the model's tolerance; else log why and return LIESIM_FATAL. */
  liesim_status (*check_state)(liesim_model* m, const double* y);
  /* The exact solution at t (LIESIM_MODEL_EXACT_SOLUTION). */
  liesim_status (*exact_solution)(liesim_model* m, double t, double* y);
#if LIESIM_ABI_MINOR >= 1
  /* ---- ABI 2.1 ---- */
  /* J = dF/dy (t, y), n x n column-major, exact (LIESIM_MODEL_JACOBIAN). */
  liesim_status (*jacobian)(liesim_model* m, double t, const double* y, double* J);
  /* The DAE formulation G(t, x, x') = 0 in dae_size unknowns (LIESIM_MODEL_DAE). */
  void (*dae_differential_components)(liesim_model* m, double* id);
  liesim_status (*dae_initial_values)(liesim_model* m, double t0, const double* y0, double* x, double* xdot);
  liesim_status (*dae_residual)(liesim_model* m, double t, const double* x, const double* xdot, double* r);
  void (*dae_to_state)(liesim_model* m, const double* x, const double* xdot, double* y);
  void (*dae_constraints)(liesim_model* m, const double* x, double* c);
#endif
#if LIESIM_ABI_MINOR >= 2
  /* ---- ABI 2.2: the mechanical description (LIESIM_MODEL_MECHANICAL), for variational methods ----
   * Configuration q in R^m, m = point_size / 2, state layout [q, v] with v = dq/dt. Lagrangian
   * L(t, q, v) = 1/2 v^T M v - U(t, q) with a constant symmetric positive-definite mass matrix M, and
   * a non-conservative generalised force f(t, q, v) (Lagrange–d'Alembert: d/dt (M v) = -dU/dq + f).
   * The model's vector field must be the same system: F(t, [q, v]) = [v, M^-1 (-dU/dq + f)]. */
  /* M (m x m, column-major). */
  void (*mech_mass_matrix)(liesim_model* m, double* M);
  /* U(t, q), its gradient dU/dq (m) and its partial time derivative dU/dt. */
  liesim_status (*mech_potential)(liesim_model* m, double t, const double* q, double* U, double* dU_dq, double* dU_dt);
  /* f(t, q, v) (m): forcing, damping, any force not derived from U (zero for a conservative model). */
  liesim_status (*mech_force)(liesim_model* m, double t, const double* q, const double* v, double* f);
  /* ---- ABI 2.2: a rigid body's mechanical description (LIESIM_MODEL_RIGID_BODY), for Lie group
   * variational integrators ----
   * Configuration (R, x) in SO(3) x R^3: R the attitude (body -> space), x the position of the body's
   * reference point in space; body angular velocity Omega (R' = R hat(Omega)) and body velocity v
   * (x' = R v). L = 1/2 Omega^T J Omega + 1/2 v^T M v - U(t, R, x) with constant symmetric
   * positive-definite J and M. A body turning about a fixed point has no (x, v): rb_translation() is 0.
   * R is 9 values row-major; J and M are 3 x 3 (symmetric). */
  /* 0 (SO(3): a fixed point) or 3 (SO(3) x R^3). */
  int32_t (*rb_translation)(liesim_model* m);
  /* J, and M when rb_translation() is 3. */
  void (*rb_inertia)(liesim_model* m, double* J, double* M);
  /* U(t, R, x); the moment (body frame) M = -grad_L U, hat(M) = (dU/dR)^T R - R^T dU/dR; and dU/dx
   * (space frame; x and dU_dx unused when rb_translation() is 0). */
  liesim_status (*rb_potential)(liesim_model* m, double t, const double* R, const double* x, double* U, double* moment,
                                double* dU_dx);
  /* The state y in the model's layout, from and to (R, x, Omega, v). */
  void (*rb_from_state)(liesim_model* m, const double* y, double* R, double* x, double* Omega, double* v);
  void (*rb_to_state)(liesim_model* m, const double* R, const double* x, const double* Omega, const double* v, double* y);
  /* Non-conservative forces: the body torque and the spatial force at (t, R, x, Omega, v)
   * (dissipation; zero for a conservative body; force unused when rb_translation() is 0). */
  liesim_status (*rb_forces)(liesim_model* m, double t, const double* R, const double* x, const double* Omega, const double* v,
                             double* torque, double* force);
#endif
#if LIESIM_ABI_MINOR >= 3
  /* ---- ABI 2.3: a Hamiltonian system on a cotangent bundle (LIESIM_MODEL_HAMILTONIAN), for
   * symplectic Lie group integrators ----
   * T*G = G x g* by right trivialisation (E. Cokaj, thesis §2.3): a point (g, mu), g in a Lie group G
   * stored as group_size numbers, mu in g* = R^k, paired with g = R^k by the dot product. The
   * Hamiltonian's partial derivatives give the vector field (thesis (2.3.3), (2.3.5))
   *     g' = dH/dmu . g  (right translation),   mu' = -R_g^* dH/dg - ad*_{dH/dmu} mu,
   * which must be the model's own vector field F. A reduced system (H independent of g, the state
   * holds mu only) has group_size 0 and dH/dg = 0. The group operations are the model's:
   * exp (acting by left multiplication), Ad*, dexp* and its inverse, all on g = R^k. */
  /* k = dim g; *group_size = numbers of a group element (0: reduced). */
  int32_t (*ham_dims)(liesim_model* m, int32_t* group_size);
  /* (g, mu) of a state y, and back. */
  void (*ham_from_state)(liesim_model* m, const double* y, double* g, double* mu);
  void (*ham_to_state)(liesim_model* m, const double* g, const double* mu, double* y);
  /* dH/dmu (t, g, mu) in g, and R_g^* dH/dg in g*: <R_g^* dH/dg, xi> = d/ds H(t, exp(s xi) g, mu) at s = 0. */
  liesim_status (*ham_gradient)(liesim_model* m, double t, const double* g, const double* mu, double* dH_dmu, double* dH_dg);
  /* out = exp(xi) g (group_size numbers; unused when reduced). */
  void (*ham_exp_mult)(liesim_model* m, const double* xi, const double* g, double* out);
  /* out = Ad*_{exp(xi)} mu, with <Ad*_a mu, eta> = <mu, Ad_a eta>. */
  void (*ham_coadjoint)(liesim_model* m, const double* xi, const double* mu, double* out);
  /* out = dexp*_xi mu, with <dexp*_xi mu, eta> = <mu, dexp_xi eta> (dexp right-trivialised:
   * d/dt exp(s(t)) = dexp_s(s') exp(s)); and its inverse out = (dexp*_xi)^-1 mu = dexpinv*_xi mu. */
  void (*ham_dexp_dual)(liesim_model* m, const double* xi, const double* mu, double* out);
  void (*ham_dexpinv_dual)(liesim_model* m, const double* xi, const double* mu, double* out);
  /* ---- ABI 2.3: a Riemannian metric on M (LIESIM_MODEL_RIEMANNIAN), for geodesic methods ----
   * Points and tangent vectors in embedding coordinates (n numbers). The model's vector field F
   * is the field X of the geodesic methods (tangent to M). */
  /* out = exp_p(v), the Riemannian exponential (the geodesic from p with velocity v at time 1). */
  liesim_status (*riem_exp)(liesim_model* m, const double* p, const double* v, double* out);
  /* v = log_p(q), the initial velocity of the minimising geodesic from p to q (FATAL at the cut locus). */
  liesim_status (*riem_log)(liesim_model* m, const double* p, const double* q, double* v);
  /* d(p, q), the Riemannian distance. */
  double (*riem_distance)(liesim_model* m, const double* p, const double* q);
  /* b > 0 when M is a product of b unit spheres, each a block of n / b embedding coordinates (the
   * spherical midpoint method needs it); 0 otherwise. */
  int32_t (*riem_sphere_blocks)(liesim_model* m);
#endif
#if LIESIM_ABI_MINOR >= 4
  /* ---- ABI 2.4: observables (liesim_model_info.observable_count values) at (t, y); a failure
   * (LIESIM_FATAL with a message) makes the host write NaN for them, never ends a run. */
  liesim_status (*observables)(liesim_model* m, double t, const double* y, double* out);
#endif
#if LIESIM_ABI_MINOR >= 8
  /* ---- ABI 2.8: how the model looks (liesim view, liesim figure strobe) ----
   * scene(): the bodies and the scenery (the strings and arrays stay valid until destroy()); a
   * model with no physical picture leaves body_count 0. Filled like info(): the host's struct may
   * be older (smaller) or newer than the plugin's. scene_poses(): 7 numbers per body at (t, y), in
   * body order: for solid shapes the position of the body's centre and its orientation (body to
   * space) as a unit quaternion [x, y, z, qx, qy, qz, qw]; for LIESIM_SHAPE_SEGMENT and
   * LIESIM_SHAPE_ARROW the two end points [ax, ay, az, bx, by, bz, 0]. */
  void (*scene)(liesim_model* m, liesim_scene* out);
  liesim_status (*scene_poses)(liesim_model* m, double t, const double* y, double* poses);
#endif
} liesim_model_api;

/* A model instance as an integrator plugin receives it: owned by the host, valid until the
 * stepper or solver it was given to is destroyed. The caller increments `counters`. */
typedef struct liesim_model_ref {
  uint32_t size; /* sizeof(liesim_model_ref) as the host was built */
  uint32_t reserved;
  const liesim_model_api* api;
  liesim_model* instance;
  liesim_counters* counters;
  /* The model's last error message (after a call returned a status other than LIESIM_OK). */
  const char* (*last_error)(void* host_context);
  void* host_context;
} liesim_model_ref;

/* ---------------------------------------------------------------------------------------------
 * Integrators. An integrator plugin provides a family of methods; its metadata document is
 *   {"summary": "...",
 *    "methods": [{"name": "rkmk4", "summary": "...", "order": 4, "embedded_order": 0,
 *                 "lie_group": true, "self_controlled": false,
 *                 "options": [{"name": ..., "default": ..., "unit": ..., "doc": ...}]}, ...]}
 * A kernel-driven method makes steppers (the host chooses h); a self-controlled one makes
 * solvers (own step control and interpolation, e.g. SUNDIALS). */

typedef struct liesim_stepper liesim_stepper; /* opaque */
typedef struct liesim_solver liesim_solver;   /* opaque */

/* Where a stepper's error estimate lives. */
#define LIESIM_ERROR_NONE 0      /* no estimate: fixed step only */
#define LIESIM_ERROR_EMBEDDING 1 /* err has n entries: difference of two points of R^n */
#define LIESIM_ERROR_ALGEBRA 2   /* err has d entries: difference of two Lie algebra increments */

/* What a solver can do (ABI 2.7, solver_capabilities). */
#define LIESIM_SOLVER_ONE_STEP 1u /* solver_step / solver_interpolate: the host drives its steps */

/* Statistics a solver adds to the run's (counters are kept separately). */
typedef struct liesim_solver_stats {
  int64_t steps;
  int64_t rejected_steps;
  int64_t rhs_evals_jac;        /* F evaluations spent on difference-quotient Jacobians */
  int64_t jac_evals;
  int64_t nonlinear_iters;
  int64_t nonlinear_conv_fails;
  double h_min_used;
  double h_max_used;
} liesim_solver_stats;

typedef struct liesim_integrator_api {
  uint32_t size; /* sizeof(liesim_integrator_api) as the plugin was built */
  uint32_t reserved;
  /* A stepper for `method` with the options the user gave, as KEY/VALUE text (the plugin applies
   * its defaults); on failure log the reason with `context`. */
  liesim_status (*create_stepper)(void* context, const char* method, int32_t count, const char* const* keys,
                                  const char* const* values, liesim_stepper** out);
  void (*stepper_destroy)(liesim_stepper* s);
  /* Bind to a model and allocate every workspace (the only place a stepper allocates). */
  liesim_status (*stepper_init)(liesim_stepper* s, const liesim_model_ref* model);
  /* LIESIM_ERROR_*. */
  int32_t (*stepper_error_space)(liesim_stepper* s);
  /* One step of size h from (t, y) to y_new; err = main - embedded solution (see error space). */
  liesim_status (*stepper_step)(liesim_stepper* s, double t, double h, const double* y, double* y_new, double* err);

  liesim_status (*create_solver)(void* context, const char* method, int32_t count, const char* const* keys,
                                 const char* const* values, liesim_solver** out);
  void (*solver_destroy)(liesim_solver* s);
  /* Bind to a model, set (t0, y0) and the tolerances (rtol, atol), or fixed_step > 0. */
  liesim_status (*solver_init)(liesim_solver* s, const liesim_model_ref* model, double t0, const double* y0,
                               double rtol, double atol, double fixed_step);
  /* Advance to t_out and write the (interpolated) state there. */
  liesim_status (*solver_advance)(liesim_solver* s, double t_out, double* y_out);
  /* Add the solver's statistics. */
  void (*solver_stats)(liesim_solver* s, liesim_solver_stats* stats);
#if LIESIM_ABI_MINOR >= 2
  /* ---- ABI 2.2: diagnostics ----
   * A method may list quantities of its own in its metadata entry,
   *   "diagnostics": [{"name": "discrete_energy", "doc": "...", "conserved": true}, ...],
   * e.g. a discrete energy, the step size its dynamics chose, the residuals of its equations. The
   * host writes them beside the model's invariants; a "conserved" one also gets a drift, measured
   * from its value after the first step. */
  /* Their values after the last step (as many as the metadata lists). */
  void (*stepper_diagnostics)(liesim_stepper* s, double* out);
  void (*solver_diagnostics)(liesim_solver* s, double* out);
  /* Report every internal step the solver accepts: step(context, t_new, h, y_new) right after the
   * step (solver_diagnostics then gives that step's values). NULL stops the reports. */
  void (*solver_on_step)(liesim_solver* s, void (*step)(void* context, double t, double h, const double* y), void* context);
#endif
#if LIESIM_ABI_MINOR >= 6
  /* ---- ABI 2.6: dense output ----
   * The state at t + theta h, theta in [0, 1], inside the step just taken from (t, y) to y_new:
   * the host calls it after an accepted step and before the next step (for output at requested
   * times and for events). It may evaluate the model and use `work` (as many doubles as the
   * step's error estimate: n, or d for algebra errors) as scratch; it must not change what the next
   * step computes. A method states the order q of its interpolant (local error O(h^(q+1))) in its
   * metadata entry, "dense_order": q. NULL (or a plugin older than 2.6): the host repeats the step
   * from (t, y) with theta h, the trivial continuous extension of the method's own order. */
  liesim_status (*stepper_interpolate)(liesim_stepper* s, double t, double h, const double* y, const double* y_new, double theta,
                                       double* out, double* work);
#endif
#if LIESIM_ABI_MINOR >= 7
  /* ---- ABI 2.7: events located by a solver ----
   * After solver_init: `count` event functions g_k(t, y), all computed by one call
   * g(context, t, y, g_out) (0: ok; nonzero: failure, the solver then fails), each located where it
   * crosses zero in its direction (directions[k] = +1: rising, -1: falling), by the solver's own root
   * finding on its own interpolant. LIESIM_FATAL (the reason logged) if the method cannot locate
   * events. NULL (or a plugin older than 2.7): the host refuses events for the plugin's solvers. */
  liesim_status (*solver_set_events)(liesim_solver* s, int32_t count, const int32_t* directions,
                                     int32_t (*g)(void* context, double t, const double* y, double* g_out), void* context);
  /* solver_advance that stops at the first event located before t_out: the state there in y_out,
   * its time in *t_reached (t_out when no event), found[k] = 1 for each event k located there, else 0. */
  liesim_status (*solver_advance_events)(liesim_solver* s, double t_out, double* y_out, double* t_reached, int32_t* found);
  /* ---- ABI 2.7: solvers stepped by the host ----
   * LIESIM_SOLVER_* flags of this solver (after solver_init). With LIESIM_SOLVER_ONE_STEP (a solver
   * whose own dynamics choose its steps, e.g. an energy-preserving variational integrator), the
   * host drives it as it drives a stepper: solver_step takes one step from where the solver is (of
   * the size it chooses; it may pass the run's end) to *t_new, y_new, and solver_interpolate gives
   * the state at any t inside that last step (its ends exactly); the host then outputs at requested
   * times and locates events on that interpolant, as for kernel-driven methods. */
  uint32_t (*solver_capabilities)(liesim_solver* s);
  liesim_status (*solver_step)(liesim_solver* s, double* t_new, double* y_new);
  liesim_status (*solver_interpolate)(liesim_solver* s, double t, double* y);
#endif
#if LIESIM_ABI_MINOR >= 9
  /* ---- ABI 2.9: methods that their options complete ----
   * The metadata entry of `method` as the options make it, e.g. the orders of a method that runs a
   * coefficient table read from a file (option "tableau"): JSON of the shape of a "methods" entry,
   * written by calling write(sink, json) once before returning LIESIM_OK; on failure (a table that
   * does not meet the order it claims) log the reason with `context`. The host calls it once per
   * run, before creating steppers. NULL (or a plugin older than 2.9): the listed entry holds for every
   * option. */
  liesim_status (*method_resolved)(void* context, const char* method, int32_t count, const char* const* keys,
                                   const char* const* values, void (*write)(void* sink, const char* json), void* sink);
#endif
} liesim_integrator_api;

/* ---------------------------------------------------------------------------------------------
 * The plugin table. */

#define LIESIM_KIND_MODEL 1
#define LIESIM_KIND_INTEGRATOR 2

typedef struct liesim_plugin {
  uint32_t size;      /* sizeof(liesim_plugin) as the plugin was built */
  uint32_t abi_major; /* LIESIM_ABI_MAJOR the plugin was built for */
  uint32_t abi_minor; /* LIESIM_ABI_MINOR the plugin was built for */
  int32_t kind;       /* LIESIM_KIND_* */
  const char* build_token;   /* LIESIM_BUILD_TOKEN */
  const char* name;          /* model name or integrator family name; the file is liesim_NAME.so */
  const char* version;       /* the plugin's own version */
  const char* summary;       /* one line */
  const char* metadata_json; /* the document described above for the kind */
  const liesim_model_api* model;           /* kind == LIESIM_KIND_MODEL */
  const liesim_integrator_api* integrator; /* kind == LIESIM_KIND_INTEGRATOR */
} liesim_plugin;

/* The entry point: returns the plugin's table (static storage), or NULL after logging why (e.g.
 * the host's ABI major is not the plugin's). Called once per load. */
typedef const liesim_plugin* (*liesim_plugin_entry_fn)(const liesim_host* host);

#ifdef __cplusplus
}
#endif

#endif /* LIESIM_PLUGIN_H */
