/* liesim/lie.h — the kernel's Lie group operations for plugins written in C (C99).
 *
 * The same code as the C++ headers liesim/lie/so3.hpp, se3.hpp and actions.hpp: each function
 * below is one call of the C++ template it names (framework/src/lie_c_api.cpp), with the same
 * closed forms, the same Taylor series and the same series switch points, so a C model gets
 * results bit for bit equal to a C++ model's. The functions live in the kernel library
 * (libliesim.so); link the CMake target liesim::c_sdk, which needs no C++ package:
 *     find_package(liesim CONFIG REQUIRED COMPONENTS c_sdk)
 *     liesim_add_plugin(my_model C SOURCES model.c)       (or: target_link_libraries(t PRIVATE liesim::c_sdk))
 *
 * Conventions (those of liesim/lie/README.md and docs/design.md):
 *  - plain double arrays; outputs may alias inputs (every input is read before an output is written);
 *  - 3x3 and 4x4 matrices ROW-MAJOR: R[3*i + j] = R_ij (as points of SO(3) in a model's state;
 *    note that the Jacobians of liesim/plugin.h are column-major);
 *  - so(3) = R^3 with hat(w) v = w x v, [a, b] = a x b;
 *  - se(3) = R^6 ordered ROTATION FIRST: xi = (u, v), u rotational (xi[0..2]), v translational
 *    (xi[3..5]); [(A, a), (B, b)] = (A x B, A x b - B x a);
 *  - an element of SE(3) is 12 doubles g = (R row-major, r): the matrix [[R, r], [0, 1]],
 *    (R1, r1)(R2, r2) = (R1 R2, R1 r2 + r1);
 *  - left actions; right-trivialised dexp: d/dt exp(u(t)) = dexp_u(u'(t)) exp(u(t)),
 *    dexp_u = (e^z - 1)/z and dexpinv_u = z/(e^z - 1) at z = ad_u (exact closed forms here);
 *  - status (liesim/plugin.h): functions that can fail return LIESIM_OK, LIESIM_RECOVERABLE or
 *    LIESIM_FATAL; the others cannot fail and return nothing. */
#ifndef LIESIM_LIE_H
#define LIESIM_LIE_H

#include <liesim/plugin.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Version of this C API (functions are only ever added; a later version keeps the earlier ones). */
#define LIESIM_LIE_C_API_VERSION 1

#if defined(_WIN32)
#define LIESIM_LIE_API
#else
#define LIESIM_LIE_API __attribute__((visibility("default")))
#endif

/* ---- SO(3), so(3) = R^3 ------------------------------------------------------------------- */

/* W = hat(w) = [[0, -w3, w2], [w3, 0, -w1], [-w2, w1, 0]] (row-major 3x3). */
LIESIM_LIE_API void liesim_so3_hat(const double w[3], double W[9]);
/* w = vee(W) = (W32, W13, W21) of the skew part of W. */
LIESIM_LIE_API void liesim_so3_vee(const double W[9], double w[3]);
/* R = exp(hat u) (Rodrigues), row-major 3x3. */
LIESIM_LIE_API void liesim_so3_exp(const double u[3], double R[9]);
/* u = log(R), |u| <= pi (via the unit quaternion; robust near 0 and pi). R row-major, a rotation. */
LIESIM_LIE_API void liesim_so3_log(const double R[9], double u[3]);
/* out = exp(u) p = p + (sin a/a) u x p + ((1 - cos a)/a^2) u x (u x p), a = |u| (no matrix formed). */
LIESIM_LIE_API void liesim_so3_act_exp(const double u[3], const double p[3], double out[3]);
/* out = dexp_u(v) = v + ((1 - cos a)/a^2) u x v + ((a - sin a)/a^3) u x (u x v) (= V(u) v). */
LIESIM_LIE_API void liesim_so3_dexp(const double u[3], const double v[3], double out[3]);
/* out = dexpinv_u(v) = v - 1/2 u x v + ((1 - (a/2) cot(a/2))/a^2) u x (u x v).
 * Returns LIESIM_OK for |u| < 2 pi, LIESIM_RECOVERABLE for |u| >= 2 pi (dexp_u is singular: take a
 * smaller step), LIESIM_FATAL for a non-finite u; out is written in every case. */
LIESIM_LIE_API liesim_status liesim_so3_dexpinv(const double u[3], const double v[3], double out[3]);
/* out = [a, b] = a x b. */
LIESIM_LIE_API void liesim_so3_bracket(const double a[3], const double b[3], double out[3]);

/* ---- SE(3), se(3) = R^6 rotation first -------------------------------------------------------- */

/* X = hat(u, v) = [[hat u, v], [0, 0]] (row-major 4x4). */
LIESIM_LIE_API void liesim_se3_hat(const double xi[6], double X[16]);
/* g = exp(u, v) = (exp(hat u), V(u) v), V(u) = so(3) dexp_u; g = (R row-major, r), 12 doubles. */
LIESIM_LIE_API void liesim_se3_exp(const double xi[6], double g[12]);
/* xi = log(R, r) = (u, V(u)^-1 r), u = so(3) log(R). */
LIESIM_LIE_API void liesim_se3_log(const double g[12], double xi[6]);
/* out = exp(xi) p = R p + r with (R, r) = exp(xi): the rigid motion of a point p of R^3. */
LIESIM_LIE_API void liesim_se3_act_exp(const double xi[6], const double p[3], double out[3]);
/* out = dexp_xi(eta) (exact, the phi(ad) formula). */
LIESIM_LIE_API void liesim_se3_dexp(const double xi[6], const double eta[6], double out[6]);
/* out = dexpinv_xi(eta) (exact, the phi(ad) formula). Status as liesim_so3_dexpinv, for the
 * rotational part |u| of xi. */
LIESIM_LIE_API liesim_status liesim_se3_dexpinv(const double xi[6], const double eta[6], double out[6]);
/* out = [(A, a), (B, b)] = (A x B, A x b - B x a). */
LIESIM_LIE_API void liesim_se3_bracket(const double x[6], const double y[6], double out[6]);

/* ---- Actions of SE(3) used by the shipped models ---------------------------------------------- */

/* SE(3) on TS^2 = {(q, w) : |q| = 1, q . w = 0} in R^6 (the spherical pendulum, each link of
 * pendulum_chain): (A, a).(q, w) = (A q, A w + a x A q). Keeps |q| and q . w. */
/* out = exp(xi).m, with the rotation applied by Rodrigues on vectors. */
LIESIM_LIE_API void liesim_se3_ts2_act_exp(const double xi[6], const double m[6], double out[6]);
/* out = psi_*(u, v)|_(q,w) = (u x q, u x w + v x q). */
LIESIM_LIE_API void liesim_se3_ts2_generator(const double xi[6], const double m[6], double out[6]);
/* m <- the orthogonal projection onto TS^2: q <- q/|q|, w <- w - (q . w) q. */
LIESIM_LIE_API void liesim_se3_ts2_project(double m[6]);

/* Coadjoint action of SE(3) on se(3)* = {(Pi, Gamma)} (heavy top, underwater vehicle):
 * (R, r).(Pi, Gamma) = (R Pi + r x R Gamma, R Gamma). Keeps |Gamma| and Pi . Gamma. */
/* out = exp(xi).m. */
LIESIM_LIE_API void liesim_se3_coadjoint_act_exp(const double xi[6], const double m[6], double out[6]);
/* out = psi_*(u, v)|_(Pi,Gamma) = (u x Pi + v x Gamma, u x Gamma). */
LIESIM_LIE_API void liesim_se3_coadjoint_generator(const double xi[6], const double m[6], double out[6]);

#ifdef __cplusplus
}
#endif

#endif /* LIESIM_LIE_H */
