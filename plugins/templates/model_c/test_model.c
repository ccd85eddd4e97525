/* Tests of the example_c_model plugin, run by `ctest` (C99, no C++): the plugin's table, F equal to
 * psi_*(f) on M, the action keeping M, parameter validation, and Lie-Euler steps (the plugin's own
 * act_exp and generator) keeping (q, w) on TS^2. The plugin's source is compiled into this
 * program, so its static functions are called directly; `liesim run` is tested in CMakeLists.txt. */
#include "model.c"

#include <stdarg.h>

static int failures = 0, checks = 0;
static char last_error[512];

static void check(int ok, const char* format, ...) {
  va_list args;
  ++checks;
  if (ok) return;
  ++failures;
  fputs("FAILED: ", stdout);
  va_start(args, format);
  vprintf(format, args);
  va_end(args);
  fputc('\n', stdout);
}

static void test_log(void* context, liesim_log_level level, const char* message) {
  (void)context;
  if (level == LIESIM_LOG_ERROR) snprintf(last_error, sizeof last_error, "%s", message);
}

/* A uniform number in [-1, 1] (a fixed sequence: the tests are reproducible). */
static double uniform(void) { return 2.0 * rand() / (double)RAND_MAX - 1.0; }

/* A random point of TS^2: q on the sphere, w tangent at q. */
static void random_point(double* y) {
  double qn, qw;
  int i;
  do {
    for (i = 0; i < 6; ++i) y[i] = 3.0 * uniform();
    qn = norm(y);
  } while (qn < 0.1);
  for (i = 0; i < 3; ++i) y[i] /= qn;
  qw = dot(y, y + 3);
  for (i = 0; i < 3; ++i) y[3 + i] -= qw * y[i];
}

static liesim_model* make(int count, const char* const* keys, const char* const* values) {
  liesim_model* s = NULL;
  last_error[0] = '\0';
  if (model_api.create(NULL, count, keys, values, &s) != LIESIM_OK) return NULL;
  return s;
}

int main(void) {
  static const liesim_host test_host = {sizeof(liesim_host), LIESIM_ABI_MAJOR, LIESIM_ABI_MINOR, 0, test_log};
  const liesim_plugin* p = liesim_plugin_entry(&test_host);
  liesim_model* s;
  liesim_model_info i;
  double y[6], xi[6], F[6], Fpsi[6], out[6], inv0[3], inv[3];
  int k, j;

  /* 1. The table. */
  check(p != NULL && p->kind == LIESIM_KIND_MODEL && p->model == &model_api, "the entry point returns the model table");
  check(strcmp(p->name, PLUGIN_NAME) == 0, "the plugin is named " PLUGIN_NAME);

  /* 2. Default parameters: sizes, the initial state on M. */
  s = make(0, NULL, NULL);
  check(s != NULL, "default parameters are accepted (%s)", last_error);
  if (s == NULL) return 1;
  memset(&i, 0, sizeof i);
  i.size = sizeof i;
  model_api.info(s, &i);
  check(i.point_size == 6 && i.algebra_dim == 6 && i.invariant_count == 3, "n = 6, d = 6, 3 invariants");
  check(model_api.prepare(s) == LIESIM_OK, "prepare");
  model_api.initial_state(s, y);
  check(model_api.check_state(s, y) == LIESIM_OK, "the initial state lies on M");

  /* 3. F = psi_*(f(y))|_y at random points of M; exp(xi).y stays on M. */
  srand(1);
  for (k = 0; k < 50; ++k) {
    double diff = 0.0, size = 0.0;
    random_point(y);
    check(model_api.check_state(s, y) == LIESIM_OK, "random point %d lies on M", k);
    model_api.generator(s, 0.0, y, xi);
    model_api.space_generator(s, xi, y, Fpsi);
    model_api.vector_field(s, 0.0, y, F);
    for (j = 0; j < 6; ++j) {
      diff += (F[j] - Fpsi[j]) * (F[j] - Fpsi[j]);
      size += F[j] * F[j];
    }
    check(sqrt(diff) < 1e-12 * (1.0 + sqrt(size)), "F = psi_*(f) at point %d (difference %.3g)", k, sqrt(diff));
    for (j = 0; j < 6; ++j) xi[j] = uniform();
    model_api.act_exp(s, xi, y, out);
    model_api.invariants(s, out, inv);
    check(fabs(inv[1]) < 1e-14 && fabs(inv[2]) < 1e-13, "exp(xi).y stays on M (|q| - 1 = %.3g, q . w = %.3g)", inv[1], inv[2]);
  }

  /* 4. Invalid parameters are refused with a message naming the problem. */
  {
    static const char* const keys[][2] = {{"L", ""}, {"m", ""}, {"g", ""}, {"q0", ""}, {"q0", ""}, {"w0", "q0"}, {"mass", ""}};
    static const char* const values[][2] = {{"-1", ""}, {"abc", ""}, {"-9.81", ""}, {"0,0,0", ""},
                                            {"1,0", ""}, {"1,0,0", "1,0,0"}, {"1", ""}};
    static const int counts[] = {1, 1, 1, 1, 1, 2, 1};
    static const char* const expected[] = {"'L'", "'m'", "'g'", "'q0'", "'q0'", "q . w", "mass"};
    for (k = 0; k < 7; ++k) {
      liesim_model* bad = make(counts[k], keys[k], values[k]);
      check(bad == NULL && strstr(last_error, expected[k]) != NULL, "refused with %s in: %s", expected[k], last_error);
      if (bad != NULL) model_api.destroy(bad);
    }
  }

  /* 5. 2000 Lie-Euler steps y <- exp(h f(y)).y keep (q, w) on TS^2 to round-off. */
  model_api.initial_state(s, y);
  model_api.invariants(s, y, inv0);
  for (k = 0; k < 2000; ++k) {
    model_api.generator(s, k * 1e-3, y, xi);
    for (j = 0; j < 6; ++j) xi[j] *= 1e-3;
    model_api.act_exp(s, xi, y, y);
  }
  model_api.invariants(s, y, inv);
  check(fabs(inv[1]) < 1e-13 && fabs(inv[2]) < 1e-12, "Lie-Euler stays on TS^2 (|q| - 1 = %.3g, q . w = %.3g)", inv[1], inv[2]);
  check(fabs(inv[0] - inv0[0]) < 0.5, "Lie-Euler: energy drift %.3g (first order)", inv[0] - inv0[0]);
  model_api.destroy(s);

  printf("%s: %d checks, %d failed\n", PLUGIN_NAME, checks, failures);
  return failures == 0 ? 0 : 1;
}
