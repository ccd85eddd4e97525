/* example_c_model: a liesim model plugin in C99 — the spherical pendulum on TS^2 under SE(3), the
 * same system, parameters and conventions as the shipped pendulum_chain with N = 1 (and the C++
 * model template). It is the template that `liesim new model NAME --lang c` copies: replace the
 * physics, keep the structure.
 *
 * The Lie group operations come from liesim/lie.h (the kernel's own code, in libliesim): the
 * exponential action, dexpinv, the bracket and the infinitesimal action are one call each.
 *
 * Conventions: state y = (q, w) in R^6, q the unit rod direction, w the angular velocity,
 * q' = w x q; se(3) = R^6 ordered rotation first, then translation, xi = (u, v); left action
 * (A, a).(q, w) = (A q, A w + a x A q); right-trivialised dexpinv. */
#include <liesim/lie.h>
#include <liesim/plugin.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PLUGIN_NAME "example_c_model"

static const liesim_host* host = NULL;

static void say(void* context, liesim_log_level level, const char* message) {
  if (host != NULL && host->log != NULL) host->log(context, level, message);
}

static double dot(const double* a, const double* b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
static double norm(const double* a) { return sqrt(dot(a, a)); }

static const char* const state_names[6] = {"q_x", "q_y", "q_z", "w_x", "w_y", "w_z"};
static const char* const invariant_names[3] = {"energy", "q_norm_minus_1", "q_dot_w"};
static const char* const invariant_docs[3] = {"E = 1/2 m L^2 |w x q|^2 + m g L q_z, J (conserved)",
                                              "|q| - 1 (stays on S^2)", "q . w (tangency)"};
/* The energy is conserved (checked for divergence); the constraint residuals are reported. */
static const int32_t invariant_kinds[3] = {LIESIM_INVARIANT_CONSERVED, LIESIM_INVARIANT_MONITORED,
                                           LIESIM_INVARIANT_MONITORED};

struct liesim_model {
  void* context;
  double m, L, gvec[3];
  double y0[6];
  double invariant_scales[3]; /* energy: g m L, the potential's range (E may be 0 at t0) */
  char message[256];
};

/* 0 if |q| = 1 and q . w = 0 within 1e-12, else 1 and the violation in `why`. */
static int state_problem(const double* q, const double* w, char* why, size_t size) {
  const double qn = norm(q), qw = dot(q, w), wn = norm(w);
  if (fabs(qn - 1.0) > 1e-12) {
    snprintf(why, size, "|q| = %.17g but must be 1 within 1e-12", qn);
    return 1;
  }
  if (fabs(qw) > 1e-12 * (wn > 1.0 ? wn : 1.0)) {
    snprintf(why, size, "q . w = %.3g but must be 0 (w is tangent to the sphere at q)", qw);
    return 1;
  }
  return 0;
}

/* Parse `count` comma-separated finite numbers; 0 on success, else 1 and a message in `why`. */
static int parse_numbers(const char* key, const char* text, double* out, int count, char* why, size_t size) {
  const char* p = text;
  int i;
  for (i = 0; i < count; ++i) {
    char* end = NULL;
    out[i] = strtod(p, &end);
    if (end == p || !isfinite(out[i])) {
      snprintf(why, size, "parameter '%s' = '%s': expected %d finite numbers separated by commas", key, text, count);
      return 1;
    }
    while (*end == ' ') ++end;
    if (i + 1 < count) {
      if (*end != ',') {
        snprintf(why, size, "parameter '%s' = '%s': expected %d numbers separated by commas", key, text, count);
        return 1;
      }
      ++end;
    } else if (*end != '\0') {
      snprintf(why, size, "parameter '%s' = '%s': expected exactly %d numbers", key, text, count);
      return 1;
    }
    p = end;
  }
  return 0;
}

static liesim_status create(void* context, int32_t count, const char* const* keys, const char* const* values,
                            liesim_model** out) {
  liesim_model* s;
  double m = 1.0, L = 1.0, g = 9.81;
  double q0[3] = {0.7071067811865476, 0.0, 0.7071067811865476}, w0[3] = {0.0, 1.0, 0.0};
  char why[256];
  int i, bad = 0;
  *out = NULL;
  for (i = 0; i < count && !bad; ++i) {
    const char* k = keys[i];
    if (strcmp(k, "m") == 0 || strcmp(k, "L") == 0 || strcmp(k, "g") == 0) {
      double* target = k[0] == 'm' ? &m : k[0] == 'L' ? &L : &g;
      bad = parse_numbers(k, values[i], target, 1, why, sizeof why);
    } else if (strcmp(k, "q0") == 0) {
      bad = parse_numbers(k, values[i], q0, 3, why, sizeof why);
    } else if (strcmp(k, "w0") == 0) {
      bad = parse_numbers(k, values[i], w0, 3, why, sizeof why);
    } else {
      snprintf(why, sizeof why, "unknown parameter '%s' (known: m, L, g, q0, w0)", k);
      bad = 1;
    }
  }
  if (!bad && !(m > 0)) bad = snprintf(why, sizeof why, "parameter 'm' = %g must be positive", m) > 0;
  if (!bad && !(L > 0)) bad = snprintf(why, sizeof why, "parameter 'L' = %g must be positive", L) > 0;
  if (!bad && g < 0) bad = snprintf(why, sizeof why, "parameter 'g' = %g must be >= 0 (gravity points along -e3)", g) > 0;
  if (!bad && !(norm(q0) > 0)) bad = snprintf(why, sizeof why, "parameter 'q0' must be a non-zero vector (the rod's direction)") > 0;
  if (!bad) {
    const double qn = norm(q0);
    char off[160];
    if (fabs(qn - 1.0) > 1e-12)
      for (i = 0; i < 3; ++i) q0[i] /= qn;
    if (state_problem(q0, w0, off, sizeof off)) bad = snprintf(why, sizeof why, "parameters 'q0'/'w0': %s", off) > 0;
  }
  if (bad) {
    say(context, LIESIM_LOG_ERROR, why);
    return LIESIM_FATAL;
  }
  s = (liesim_model*)calloc(1, sizeof *s);
  if (s == NULL) {
    say(context, LIESIM_LOG_ERROR, "out of memory");
    return LIESIM_FATAL;
  }
  s->context = context;
  s->m = m;
  s->L = L;
  s->gvec[2] = -g;
  s->invariant_scales[0] = g * m * L;
  for (i = 0; i < 3; ++i) {
    s->y0[i] = q0[i];
    s->y0[3 + i] = w0[i];
  }
  *out = s;
  return LIESIM_OK;
}

static void destroy(liesim_model* s) { free(s); }

static void info(liesim_model* s, liesim_model_info* i) {
  /* Fill only what the host's struct has room for (it may be older than this header's). */
  liesim_model_info mine;
  const uint32_t size = i->size < sizeof mine ? i->size : (uint32_t)sizeof mine;
  memset(&mine, 0, sizeof mine);
  mine.size = size;
  mine.flags = LIESIM_MODEL_EXACT_DEXPINV | LIESIM_MODEL_CAN_PROJECT;
  mine.point_size = 6;
  mine.algebra_dim = 6;
  mine.invariant_count = 3;
  mine.state_names = state_names;
  mine.invariant_names = invariant_names;
  mine.invariant_docs = invariant_docs;
  mine.invariant_kinds = invariant_kinds;
  mine.invariant_scales = s->invariant_scales;
  memcpy(i, &mine, size);
}

static liesim_status prepare(liesim_model* s) {
  (void)s;
  return LIESIM_OK;
}

static void initial_state(liesim_model* s, double* y) { memcpy(y, s->y0, sizeof s->y0); }

/* h = w', the angular acceleration, from Newton for the mass with the rod's tension tau:
 *   m x'' = m g_vec - tau q,  x = L q;  the rigid rod (q . q'' = -|q'|^2) gives
 *   tau = (m L |w x q|^2 + m q . g_vec)/|q|^2,  q'' = (g_vec - (tau/m) q)/L,  h = q x q''
 * (= (q x g_vec)/L on M; written as pendulum_chain computes it for N = 1, so that the two agree to
 * round-off). The so(3) bracket is the cross product. */
static void angular_acceleration(const liesim_model* s, const double* q, const double* w, double* h) {
  double v[3], qdd[3];
  int i;
  const double inv_m = 1.0 / s->m;
  double speed2, diag, rhs, tension;
  liesim_so3_bracket(w, q, v); /* q' = w x q */
  speed2 = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
  diag = -inv_m * dot(q, q);
  rhs = -s->L * speed2 - dot(q, s->gvec);
  tension = rhs / diag;
  for (i = 0; i < 3; ++i) qdd[i] = (s->gvec[i] - (tension / s->m) * q[i]) / s->L;
  liesim_so3_bracket(q, qdd, h);
}

/* f(q, w) = (w, q x h): psi_*(f)|_(q,w) = (w x q, w x w + (q x h) x q) = (q', h) since q . h = 0 */
static liesim_status generator(liesim_model* s, double t, const double* y, double* xi) {
  double h[3];
  (void)t;
  angular_acceleration(s, y, y + 3, h);
  memcpy(xi, y + 3, 3 * sizeof(double));
  liesim_so3_bracket(y, h, xi + 3);
  return LIESIM_OK;
}

/* F(q, w) = (w x q, h) */
static liesim_status vector_field(liesim_model* s, double t, const double* y, double* dy) {
  (void)t;
  liesim_so3_bracket(y + 3, y, dy);
  angular_acceleration(s, y, y + 3, dy + 3);
  return LIESIM_OK;
}

/* exp(xi).(q, w): the kernel's SE(3) action on TS^2 */
static liesim_status act_exp(liesim_model* s, const double* xi, const double* y, double* out) {
  (void)s;
  liesim_se3_ts2_act_exp(xi, y, out);
  return LIESIM_OK;
}

/* dexpinv_xi(eta), exact; LIESIM_RECOVERABLE past the singularity at |u| = 2 pi (a smaller step helps) */
static liesim_status dexpinv(liesim_model* s, const double* xi, const double* eta, double* out) {
  (void)s;
  return liesim_se3_dexpinv(xi, eta, out);
}

static liesim_status bracket(liesim_model* s, const double* x, const double* y, double* out) {
  (void)s;
  liesim_se3_bracket(x, y, out);
  return LIESIM_OK;
}

static liesim_status space_generator(liesim_model* s, const double* xi, const double* y, double* out) {
  (void)s;
  liesim_se3_ts2_generator(xi, y, out);
  return LIESIM_OK;
}

static liesim_status project(liesim_model* s, double* y) {
  (void)s;
  liesim_se3_ts2_project(y);
  return LIESIM_OK;
}

static double distance(liesim_model* s, const double* a, const double* b) {
  double sum = 0.0;
  int i;
  (void)s;
  for (i = 0; i < 6; ++i) sum += (a[i] - b[i]) * (a[i] - b[i]);
  return sqrt(sum);
}

static void invariants(liesim_model* s, const double* y, double* out) {
  double wq[3];
  liesim_so3_bracket(y + 3, y, wq);
  out[0] = 0.5 * s->m * s->L * s->L * dot(wq, wq) - s->m * s->L * s->gvec[2] * y[2];
  out[1] = norm(y) - 1.0;
  out[2] = dot(y, y + 3);
}

static liesim_status check_state(liesim_model* s, const double* y) {
  if (!state_problem(y, y + 3, s->message, sizeof s->message)) return LIESIM_OK;
  say(s->context, LIESIM_LOG_ERROR, s->message);
  return LIESIM_FATAL;
}

static liesim_status exact_solution(liesim_model* s, double t, double* y) {
  (void)t, (void)y;
  say(s->context, LIESIM_LOG_ERROR, PLUGIN_NAME " has no exact solution");
  return LIESIM_FATAL;
}

/* The table (C99 designated initializers): members not named are NULL, as the flags say. */
static const liesim_model_api model_api = {.size = sizeof(liesim_model_api),
                                           .create = create,
                                           .destroy = destroy,
                                           .info = info,
                                           .prepare = prepare,
                                           .initial_state = initial_state,
                                           .generator = generator,
                                           .vector_field = vector_field,
                                           .act_exp = act_exp,
                                           .dexpinv = dexpinv,
                                           .bracket = bracket,
                                           .space_generator = space_generator,
                                           .project = project,
                                           .distance = distance,
                                           .invariants = invariants,
                                           .check_state = check_state,
                                           .exact_solution = exact_solution};

static const char metadata[] =
    "{\"summary\": \"spherical pendulum on TS^2 under SE(3), written in C\","
    " \"conventions\": \"SPACE TS^2 = {(q, w) : |q| = 1, q . w = 0}; GROUP SE(3), se(3) = R^6 ordered rotation first, then "
    "translation: xi = (u, v); ACTION (A, a).(q, w) = (A q, A w + a x A q), left (liesim/lie.h); dexpinv right-trivialised; "
    "EMBEDDING [q_x, q_y, q_z, w_x, w_y, w_z]; the same system as pendulum_chain with N = 1.\","
    " \"parameters\": ["
    "{\"name\": \"m\", \"default\": \"1\", \"unit\": \"kg\", \"doc\": \"mass at the end of the rod (positive)\"},"
    "{\"name\": \"L\", \"default\": \"1\", \"unit\": \"m\", \"doc\": \"rod length (positive)\"},"
    "{\"name\": \"g\", \"default\": \"9.81\", \"unit\": \"m/s^2\", \"doc\": \"gravitational acceleration along -e3 (>= 0)\"},"
    "{\"name\": \"q0\", \"default\": \"0.7071067811865476,0,0.7071067811865476\", \"unit\": \"\", \"doc\": \"initial "
    "direction of the rod (non-zero; normalised)\"},"
    "{\"name\": \"w0\", \"default\": \"0,1,0\", \"unit\": \"rad/s\", \"doc\": \"initial angular velocity (q0 . w0 = 0)\"}]}";

static const liesim_plugin plugin = {.size = sizeof(liesim_plugin),
                                     .abi_major = LIESIM_ABI_MAJOR,
                                     .abi_minor = LIESIM_ABI_MINOR,
                                     .kind = LIESIM_KIND_MODEL,
                                     .build_token = LIESIM_BUILD_TOKEN,
                                     .name = PLUGIN_NAME,
                                     .version = "1.0.0",
                                     .summary = "spherical pendulum on TS^2 under SE(3), in C",
                                     .metadata_json = metadata,
                                     .model = &model_api};

LIESIM_EXPORT const liesim_plugin* liesim_plugin_entry(const liesim_host* h) {
  host = h;
  if (h == NULL || h->abi_major != LIESIM_ABI_MAJOR) {
    char why[160];
    snprintf(why, sizeof why, PLUGIN_NAME " is built for liesim ABI %d.%d; the host has ABI %u", LIESIM_ABI_MAJOR,
             LIESIM_ABI_MINOR, h ? (unsigned)h->abi_major : 0u);
    say(NULL, LIESIM_LOG_ERROR, why);
    return NULL;
  }
  return &plugin;
}
