/* The C99 callers of liesim/lie.h (lie_h_c99.c), declared for test_lie_c_api.cpp. */
#ifndef LIESIM_TEST_LIE_H_C99_H
#define LIESIM_TEST_LIE_H_C99_H
#include <liesim/plugin.h>
#ifdef __cplusplus
extern "C" {
#endif
struct c99_so3_out {
  double hat[9], vee[3], exp[9], log[3], act_exp[3], dexp[3], dexpinv[3], bracket[3];
  liesim_status dexpinv_status;
};
struct c99_se3_out {
  double hat[16], exp[12], log[6], act_exp[3], dexp[6], dexpinv[6], bracket[6];
  double ts2_act_exp[6], ts2_generator[6], ts2_project[6], coadjoint_act_exp[6], coadjoint_generator[6];
  liesim_status dexpinv_status;
};
/* Every SO(3) function at (u, v), and log at R_in (row-major). */
void c99_so3(const double u[3], const double v[3], const double R_in[9], struct c99_so3_out* o);
/* Every SE(3) function at (xi, eta) (act_exp moves the point eta[0..2]; the actions move eta), log at g_in. */
void c99_se3(const double xi[6], const double eta[6], const double g_in[12], struct c99_se3_out* o);
#ifdef __cplusplus
}
#endif
#endif
