/* c_pendulum: a liesim model plugin in plain C99 (no C++ anywhere) — the spherical pendulum on
 * TS^2 under SE(3), the same system, parameters and conventions as the C++ model template
 * (plugins/templates/model/model.cpp). The plugin tests run both under several integrators and
 * compare the results.
 *
 * The same file, compiled with TEST_FAULT set, makes the misbehaving plugins of the loading tests
 * (see the end of the file). */
#define _POSIX_C_SOURCE 200809L /* fork() and pause() for the misbehaving builds */
#include <liesim/plugin.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef PLUGIN_NAME
#define PLUGIN_NAME "c_pendulum"
#endif

#define FAULT_NONE 0
#define FAULT_ENTRY_FAILS 1  /* the entry point logs why and returns NULL */
#define FAULT_NEWER_MAJOR 2  /* the table says it was built for ABI major + 1 */
#define FAULT_NEWER_MINOR 3  /* the table says it was built for ABI minor + 1 */
#define FAULT_CREATE_FAILS 4 /* create() logs why and returns LIESIM_FATAL */
#define FAULT_NO_ENTRY 5     /* exports no entry point at all */
#define FAULT_CRASH_LOAD 6   /* crashes (SIGSEGV) while the library is being loaded */
/* The misbehaving plugins of the fault-isolation corpus (tests/plugins/corpus.cmake): */
#define FAULT_NULL_PREPARE 7      /* the table has no prepare() */
#define FAULT_NULL_ACT_EXP 8      /* the table has no act_exp() */
#define FAULT_HUGE_SIZE 9         /* info states n = 10^9 */
#define FAULT_NEGATIVE_SIZE 10    /* info states n = -6 */
#define FAULT_BAD_UTF8 11         /* the summary is not UTF-8 */
#define FAULT_NULL_NAMES 12       /* info gives no state names */
#define FAULT_PROJECT_FLAG 13     /* LIESIM_MODEL_CAN_PROJECT without project() */
#define FAULT_CRASH_CREATE 14     /* SIGSEGV in create() */
#define FAULT_ABORT_CREATE 15     /* abort() in create() */
#define FAULT_EXIT_CREATE 16      /* exit(3) in create() */
#define FAULT_HANG_CREATE 17      /* create() never returns */
#define FAULT_FORK_CREATE 18      /* create() forks a process that holds liesim's pipes and sleeps, then crashes */
#define FAULT_CRASH_PREPARE 19    /* SIGSEGV in prepare() */
#define FAULT_HUGE_ALLOC 20       /* prepare() writes through a failed 2^62-byte malloc */
#define FAULT_CRASH_STEP 21       /* SIGSEGV in f and F after t = 0.05 */
#define FAULT_EXIT_STEP 22        /* exit(3) in f and F after t = 0.05 */
#define FAULT_HANG_STEP 23        /* f and F never return after t = 0.05 */
#define FAULT_ABORT_STEP 24       /* abort() in f and F after t = 0.05 */
#define FAULT_EXIT_LOAD 25        /* exit(3) while the library is loaded */
#define FAULT_HANG_LOAD 26        /* never finishes loading */
#define FAULT_FORK_LOAD 27        /* forks a sleeping process while loaded (and works) */
#define FAULT_CRASH_INFO 28       /* SIGSEGV in info() */
#define FAULT_BAD_UTF8_NAMES 29   /* a state name is not UTF-8 */
#define FAULT_FORK_STEP 30        /* f and F fork a sleeping process, then crash, after t = 0.05 */
#ifndef TEST_FAULT
#define TEST_FAULT FAULT_NONE
#endif

static const liesim_host* host = NULL;

static void say(void* context, liesim_log_level level, const char* message) {
  if (host != NULL && host->log != NULL) host->log(context, level, message);
}

/* ---- Misbehaviour on demand (the corpus) ---------------------------------------------------- */

#include <signal.h>
#include <unistd.h>
#define FAULT_IS(x) (TEST_FAULT == (x))
static void misbehave(int crash, int abort_it, int exit_it, int hang, int fork_it) {
  if (fork_it && fork() == 0)
    for (;;) pause();
  if (crash || fork_it) {
    volatile int* volatile nowhere = NULL;
    *nowhere = 1;
  }
  if (abort_it) abort();
  if (exit_it) exit(3);
  if (hang)
    for (;;) pause();
}
#define STEP_FAULT(t)                                                                                               \
  do {                                                                                                              \
    if ((t) > 0.05)                                                                                                 \
      misbehave(FAULT_IS(FAULT_CRASH_STEP), FAULT_IS(FAULT_ABORT_STEP), FAULT_IS(FAULT_EXIT_STEP), FAULT_IS(FAULT_HANG_STEP), \
                FAULT_IS(FAULT_FORK_STEP));                                                                         \
  } while (0)

/* ---- 3-vectors -------------------------------------------------------------------------------- */

static void cross(const double* a, const double* b, double* out) {
  const double x = a[1] * b[2] - a[2] * b[1];
  const double y = a[2] * b[0] - a[0] * b[2];
  const double z = a[0] * b[1] - a[1] * b[0];
  out[0] = x;
  out[1] = y;
  out[2] = z;
}
static double dot(const double* a, const double* b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
static double norm(const double* a) { return sqrt(dot(a, a)); }

/* Coefficients of exp, dexp and dexpinv on so(3)/se(3) as functions of alpha = |u|: closed forms,
 * and Taylor series in alpha^2 near 0 (where the closed forms cancel). */
static double horner(const double* c, int count, double x) {
  double s = 0.0;
  int k;
  for (k = count - 1; k >= 0; --k) s = s * x + c[k];
  return s;
}
/* sin(a)/a */
static double coeff_sinc(double a) {
  static const double c[] = {1.0, -1.0 / 6, 1.0 / 120, -1.0 / 5040, 1.0 / 362880, -1.0 / 39916800};
  return a < 1e-2 ? horner(c, 6, a * a) : sin(a) / a;
}
/* (1 - cos a)/a^2 */
static double coeff_one_minus_cos(double a) {
  static const double c[] = {1.0 / 2, -1.0 / 24, 1.0 / 720, -1.0 / 40320, 1.0 / 3628800, -1.0 / 479001600};
  double h;
  if (a < 1e-2) return horner(c, 6, a * a);
  h = sin(0.5 * a) / a;
  return 2.0 * h * h;
}
/* (a - sin a)/a^3 */
static double coeff_alpha_minus_sin(double a) {
  static const double c[] = {1.0 / 6, -1.0 / 120, 1.0 / 5040, -1.0 / 362880, 1.0 / 39916800, -1.0 / 6227020800.0,
                             1.0 / 1307674368000.0, -1.0 / 355687428096000.0, 1.0 / 121645100408832000.0};
  return a < 0.5 ? horner(c, 9, a * a) : (a - sin(a)) / (a * a * a);
}
/* Bernoulli coefficients |B_2k|/(2k)!, k = 1..10: (1 - (a/2)cot(a/2))/a^2 = sum_k c_k a^(2k-2). */
static const double bernoulli_c[10] = {1.0 / 12,
                                       1.0 / 720,
                                       1.0 / 30240,
                                       1.0 / 1209600,
                                       1.0 / 47900160,
                                       691.0 / 1307674368000.0,
                                       1.0 / 74724249600.0,
                                       3617.0 / 10670622842880000.0,
                                       43867.0 / 5109094217170944000.0,
                                       174611.0 / 802857662698291200000.0};
/* g2(a) = (1 - (a/2) cot(a/2))/a^2 */
static double coeff_dexpinv_g2(double a) {
  double s;
  if (a < 0.5) return horner(bernoulli_c, 10, a * a);
  s = 0.5 * a;
  return (1.0 - s * cos(s) / sin(s)) / (a * a);
}
/* g2'(a)/a = sum_{k>=2} (2k-2) c_k a^(2k-4) */
static double coeff_dexpinv_g2_tilde(double a) {
  double c[9];
  double s, sn;
  int k;
  if (a < 1.5) {
    for (k = 2; k <= 10; ++k) c[k - 2] = (2.0 * k - 2.0) * bernoulli_c[k - 1];
    return horner(c, 9, a * a);
  }
  s = 0.5 * a;
  sn = sin(s);
  return (s * cos(s) / sn + s * s / (sn * sn) - 2.0) / (a * a * a * a);
}

/* exp(u) p (Rodrigues, without the matrix). */
static void so3_act_exp(const double* u, const double* p, double* out) {
  const double a = norm(u);
  const double A = coeff_sinc(a), B = coeff_one_minus_cos(a);
  double up[3], uup[3];
  int i;
  cross(u, p, up);
  cross(u, up, uup);
  for (i = 0; i < 3; ++i) out[i] = p[i] + A * up[i] + B * uup[i];
}
/* dexp_u(v) = v + (1 - cos a)/a^2 u x v + (a - sin a)/a^3 u x (u x v), the V(u) v of exp on SE(3). */
static void so3_dexp(const double* u, const double* v, double* out) {
  const double a = norm(u);
  const double B = coeff_one_minus_cos(a), C = coeff_alpha_minus_sin(a);
  double uv[3], uuv[3];
  int i;
  cross(u, v, uv);
  cross(u, uv, uuv);
  for (i = 0; i < 3; ++i) out[i] = v[i] + B * uv[i] + C * uuv[i];
}

/* ---- The model -------------------------------------------------------------------------------- */

/* Conventions (as the template's): state y = (q, w) in R^6, q the unit rod direction, w the
 * angular velocity, q' = w x q; se(3) = R^6 ordered rotation first, then translation,
 * xi = (u, v); left action (A, a).(q, w) = (A q, A w + a x A q); right-trivialised dexpinv. */
static const char* const state_names[6] = {"q_x", "q_y", "q_z", "w_x", "w_y", "w_z"};
static const char* const bad_state_names[6] = {"q_\xc3\x28", "q_y", "q_z", "w_x", "w_y", "w_z"};
static const char* const invariant_names[3] = {"energy", "q_norm_minus_1", "q_dot_w"};
static const char* const invariant_docs[3] = {"E = 1/2 m L^2 |w x q|^2 + m g L q_z, J (conserved)",
                                              "|q| - 1 (stays on S^2)", "q . w (tangency)"};

struct liesim_model {
  void* context;
  double m, L, gvec[3];
  double y0[6];
  char message[256];
};

/* "" if |q| = 1 and q . w = 0 within 1e-12, else the violation (written to `why`). */
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

/* Parse `count` comma-separated finite numbers; 0 on success, else a message in `why`. */
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
  misbehave(FAULT_IS(FAULT_CRASH_CREATE), FAULT_IS(FAULT_ABORT_CREATE), FAULT_IS(FAULT_EXIT_CREATE), FAULT_IS(FAULT_HANG_CREATE),
            FAULT_IS(FAULT_FORK_CREATE));
#if TEST_FAULT == FAULT_CREATE_FAILS
  (void)count, (void)keys, (void)values;
  say(context, LIESIM_LOG_ERROR, "cannot create the model: deliberate failure in create (test plugin)");
  return LIESIM_FATAL;
#endif
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
    if (fabs(qn - 1.0) > 1e-12)
      for (i = 0; i < 3; ++i) q0[i] /= qn;
    char off[160];
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
  s->gvec[0] = 0.0;
  s->gvec[1] = 0.0;
  s->gvec[2] = -g;
  for (i = 0; i < 3; ++i) {
    s->y0[i] = q0[i];
    s->y0[3 + i] = w0[i];
  }
  *out = s;
  return LIESIM_OK;
}

static void destroy(liesim_model* s) { free(s); }

static void info(liesim_model* s, liesim_model_info* i) {
  /* Fill only what the host's struct has room for (it may be older than ours). */
  liesim_model_info mine;
  const uint32_t size = i->size < sizeof mine ? i->size : (uint32_t)sizeof mine;
  (void)s;
  misbehave(FAULT_IS(FAULT_CRASH_INFO), 0, 0, 0, 0);
  memset(&mine, 0, sizeof mine);
  mine.size = size;
  mine.flags = LIESIM_MODEL_EXACT_DEXPINV | LIESIM_MODEL_CAN_PROJECT;
  mine.point_size = FAULT_IS(FAULT_HUGE_SIZE) ? 1000000000 : FAULT_IS(FAULT_NEGATIVE_SIZE) ? -6 : 6;
  mine.algebra_dim = 6;
  mine.invariant_count = 3;
  mine.state_names = FAULT_IS(FAULT_NULL_NAMES) ? NULL : FAULT_IS(FAULT_BAD_UTF8_NAMES) ? bad_state_names : state_names;
  mine.invariant_names = invariant_names;
  mine.invariant_docs = invariant_docs;
  memcpy(i, &mine, size);
}

static liesim_status prepare(liesim_model* s) {
  (void)s;
  misbehave(FAULT_IS(FAULT_CRASH_PREPARE), 0, 0, 0, 0);
  if (FAULT_IS(FAULT_HUGE_ALLOC)) {
    /* Through a volatile pointer, so that the compiler cannot drop the allocation. */
    void* (*volatile allocate)(size_t) = malloc;
    volatile double* huge = (volatile double*)allocate((size_t)1 << 62);
    huge[0] = 1.0; /* NULL: SIGSEGV */
    free((void*)huge);
  }
  return LIESIM_OK;
}

static void initial_state(liesim_model* s, double* y) { memcpy(y, s->y0, sizeof s->y0); }

/* h = w' = (q x g_vec) / L */
static void angular_acceleration(const liesim_model* s, const double* q, double* h) {
  int i;
  cross(q, s->gvec, h);
  for (i = 0; i < 3; ++i) h[i] /= s->L;
}

/* f(q, w) = (w, q x h) */
static liesim_status generator(liesim_model* s, double t, const double* y, double* xi) {
  double h[3];
  STEP_FAULT(t);
  angular_acceleration(s, y, h);
  memcpy(xi, y + 3, 3 * sizeof(double));
  cross(y, h, xi + 3);
  return LIESIM_OK;
}

/* F(q, w) = (w x q, h) */
static liesim_status vector_field(liesim_model* s, double t, const double* y, double* dy) {
  STEP_FAULT(t);
  cross(y + 3, y, dy);
  angular_acceleration(s, y, dy + 3);
  return LIESIM_OK;
}

/* exp(u, v).(q, w) = (exp(u) q, exp(u) w + V(u) v x exp(u) q) */
static liesim_status act_exp(liesim_model* s, const double* xi, const double* y, double* out) {
  double Aq[3], Aw[3], a[3], aAq[3];
  int i;
  (void)s;
  so3_act_exp(xi, y, Aq);
  so3_dexp(xi, xi + 3, a);
  so3_act_exp(xi, y + 3, Aw);
  cross(a, Aq, aAq);
  for (i = 0; i < 3; ++i) {
    out[i] = Aq[i];
    out[3 + i] = Aw[i] + aAq[i];
  }
  return LIESIM_OK;
}

/* [(A, a), (B, b)] = (A x B, A x b - B x a) */
static liesim_status bracket(liesim_model* s, const double* x, const double* y, double* out) {
  double Ab[3], Ba[3];
  int i;
  (void)s;
  cross(x, y + 3, Ab);
  cross(y, x + 3, Ba);
  cross(x, y, out);
  for (i = 0; i < 3; ++i) out[3 + i] = Ab[i] - Ba[i];
  return LIESIM_OK;
}

/* dexpinv_(A,a)(B, b) = (C, c) with phi0 = 1, g1 = -1/2, g1~ = 0, g2, g2~ at alpha = |A|:
 * C = B + g1 A x B + g2 A x (A x B),
 * c = b + g1 (a x B + A x b) + rho g2~ A x (A x B) + g2 (a x (A x B) + A x (a x B) + A x (A x b)). */
static liesim_status dexpinv(liesim_model* s, const double* xi, const double* eta, double* out) {
  const double* A = xi;
  const double* a = xi + 3;
  const double* B = eta;
  const double* b = eta + 3;
  const double alpha = norm(A);
  const double g1 = -0.5, g2 = coeff_dexpinv_g2(alpha), g2t = coeff_dexpinv_g2_tilde(alpha);
  const double rho = dot(A, a);
  double AB[3], AAB[3], aB[3], Ab[3], aAB[3], AaB[3], AAb[3];
  int i;
  (void)s;
  cross(A, B, AB);
  cross(A, AB, AAB);
  cross(a, B, aB);
  cross(A, b, Ab);
  cross(a, AB, aAB);
  cross(A, aB, AaB);
  cross(A, Ab, AAb);
  for (i = 0; i < 3; ++i) {
    out[i] = B[i] + g1 * AB[i] + g2 * AAB[i];
    out[3 + i] = b[i] + g1 * (aB[i] + Ab[i]) + (rho * g2t) * AAB[i] + g2 * (aAB[i] + AaB[i] + AAb[i]);
  }
  return LIESIM_OK;
}

/* psi_*(u, v)|_(q,w) = (u x q, u x w + v x q) */
static liesim_status space_generator(liesim_model* s, const double* xi, const double* y, double* out) {
  double vq[3];
  int i;
  (void)s;
  cross(xi, y, out);
  cross(xi, y + 3, out + 3);
  cross(xi + 3, y, vq);
  for (i = 0; i < 3; ++i) out[3 + i] += vq[i];
  return LIESIM_OK;
}

/* q <- q/|q|, w <- w - (q.w) q */
static liesim_status project(liesim_model* s, double* y) {
  const double qn = norm(y);
  double qw;
  int i;
  (void)s;
  for (i = 0; i < 3; ++i) y[i] /= qn;
  qw = dot(y, y + 3);
  for (i = 0; i < 3; ++i) y[3 + i] -= qw * y[i];
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
  cross(y + 3, y, wq);
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
  say(s->context, LIESIM_LOG_ERROR, "c_pendulum has no exact solution");
  return LIESIM_FATAL;
}

/* ---- The plugin table ------------------------------------------------------------------------- */

/* Designated initializers (C99): members this file does not name are NULL — here the ABI 2.1
 * jacobian and dae_* functions, which the flags do not announce. */
static const liesim_model_api model_api = {.size = sizeof(liesim_model_api),
                                           .create = create,
                                           .destroy = destroy,
                                           .info = info,
#if TEST_FAULT != FAULT_NULL_PREPARE
                                           .prepare = prepare,
#endif
                                           .initial_state = initial_state,
                                           .generator = generator,
                                           .vector_field = vector_field,
#if TEST_FAULT != FAULT_NULL_ACT_EXP
                                           .act_exp = act_exp,
#endif
                                           .dexpinv = dexpinv,
                                           .bracket = bracket,
                                           .space_generator = space_generator,
#if TEST_FAULT != FAULT_PROJECT_FLAG
                                           .project = project,
#endif
                                           .distance = distance,
                                           .invariants = invariants,
                                           .check_state = check_state,
                                           .exact_solution = exact_solution};

static const char metadata[] =
    "{\"summary\": \"spherical pendulum on TS^2 under SE(3), written in C\","
    " \"conventions\": \"SPACE TS^2 = {(q, w) : |q| = 1, q . w = 0}; GROUP SE(3), se(3) = R^6 ordered rotation first, then "
    "translation: xi = (u, v); ACTION (A, a).(q, w) = (A q, A w + a x A q), left; dexpinv right-trivialised; EMBEDDING "
    "[q_x, q_y, q_z, w_x, w_y, w_z]; the same system as the C++ model template.\","
    " \"parameters\": ["
    "{\"name\": \"m\", \"default\": \"1\", \"unit\": \"kg\", \"doc\": \"mass at the end of the rod (positive)\"},"
    "{\"name\": \"L\", \"default\": \"1\", \"unit\": \"m\", \"doc\": \"rod length (positive)\"},"
    "{\"name\": \"g\", \"default\": \"9.81\", \"unit\": \"m/s^2\", \"doc\": \"gravitational acceleration along -e3 (>= 0)\"},"
    "{\"name\": \"q0\", \"default\": \"0.7071067811865476,0,0.7071067811865476\", \"unit\": \"\", \"doc\": \"initial "
    "direction of the rod (non-zero; normalised)\"},"
    "{\"name\": \"w0\", \"default\": \"0,1,0\", \"unit\": \"rad/s\", \"doc\": \"initial angular velocity (q0 . w0 = 0)\"}]}";

#if TEST_FAULT == FAULT_NEWER_MAJOR
#define TABLE_MAJOR (LIESIM_ABI_MAJOR + 1)
#else
#define TABLE_MAJOR LIESIM_ABI_MAJOR
#endif
#if TEST_FAULT == FAULT_NEWER_MINOR
#define TABLE_MINOR (LIESIM_ABI_MINOR + 1)
#else
#define TABLE_MINOR LIESIM_ABI_MINOR
#endif

static const liesim_plugin plugin = {.size = sizeof(liesim_plugin),
                                     .abi_major = TABLE_MAJOR,
                                     .abi_minor = TABLE_MINOR,
                                     .kind = LIESIM_KIND_MODEL,
                                     .build_token = LIESIM_BUILD_TOKEN,
                                     .name = PLUGIN_NAME,
                                     .version = "1.0.0",
#if TEST_FAULT == FAULT_BAD_UTF8
                                     .summary = "spherical pendulum \xff\xfe in C",
#else
                                     .summary = "spherical pendulum on TS^2 under SE(3), in C",
#endif
                                     .metadata_json = metadata,
                                     .model = &model_api};

#if TEST_FAULT == FAULT_CRASH_LOAD
#include <signal.h>
/* Runs when the library is loaded, before liesim can look at it (a GNU C constructor). */
__attribute__((constructor)) static void crash_on_load(void) { raise(SIGSEGV); }
#endif
#if TEST_FAULT == FAULT_EXIT_LOAD || TEST_FAULT == FAULT_HANG_LOAD || TEST_FAULT == FAULT_FORK_LOAD
__attribute__((constructor)) static void misbehave_on_load(void) {
  if (FAULT_IS(FAULT_FORK_LOAD)) {
    if (fork() == 0)
      for (;;) pause();
    return;
  }
  misbehave(0, 0, FAULT_IS(FAULT_EXIT_LOAD), FAULT_IS(FAULT_HANG_LOAD), 0);
}
#endif

#if TEST_FAULT != FAULT_NO_ENTRY
LIESIM_EXPORT const liesim_plugin* liesim_plugin_entry(const liesim_host* h) {
  host = h;
  if (h == NULL || h->abi_major != LIESIM_ABI_MAJOR) {
    char why[160];
    snprintf(why, sizeof why, PLUGIN_NAME " is built for liesim ABI %d.%d; the host has ABI %u", LIESIM_ABI_MAJOR,
             LIESIM_ABI_MINOR, h ? (unsigned)h->abi_major : 0u);
    say(NULL, LIESIM_LOG_ERROR, why);
    return NULL;
  }
#if TEST_FAULT == FAULT_ENTRY_FAILS
  say(NULL, LIESIM_LOG_WARNING, PLUGIN_NAME ": looking for its licence file");
  say(NULL, LIESIM_LOG_ERROR, PLUGIN_NAME ": no licence file found (deliberate failure of a test plugin)");
  return NULL;
#endif
  return &plugin;
}
#else
/* A library with liesim's file name but no entry point. */
LIESIM_EXPORT const void* not_an_entry_point(void) { return &plugin; }
#endif
