/* liesim/lie.h used from C99 (compiled -std=c99 -pedantic-errors): test_lie_c_api calls these
 * wrappers and checks them against the C++ templates, so the C declarations, the C calling code
 * and the exported symbols are all exercised. */
#include <liesim/lie.h>

#include "lie_h_c99.h"

void c99_so3(const double u[3], const double v[3], const double R_in[9], struct c99_so3_out* o) {
  liesim_so3_hat(u, o->hat);
  liesim_so3_vee(o->hat, o->vee);
  liesim_so3_exp(u, o->exp);
  liesim_so3_log(R_in, o->log);
  liesim_so3_act_exp(u, v, o->act_exp);
  liesim_so3_dexp(u, v, o->dexp);
  o->dexpinv_status = liesim_so3_dexpinv(u, v, o->dexpinv);
  liesim_so3_bracket(u, v, o->bracket);
}

void c99_se3(const double xi[6], const double eta[6], const double g_in[12], struct c99_se3_out* o) {
  liesim_se3_hat(xi, o->hat);
  liesim_se3_exp(xi, o->exp);
  liesim_se3_log(g_in, o->log);
  liesim_se3_act_exp(xi, eta, o->act_exp);
  liesim_se3_dexp(xi, eta, o->dexp);
  o->dexpinv_status = liesim_se3_dexpinv(xi, eta, o->dexpinv);
  liesim_se3_bracket(xi, eta, o->bracket);
  liesim_se3_ts2_act_exp(xi, eta, o->ts2_act_exp);
  liesim_se3_ts2_generator(xi, eta, o->ts2_generator);
  {
    int i;
    for (i = 0; i < 6; ++i) o->ts2_project[i] = eta[i];
  }
  liesim_se3_ts2_project(o->ts2_project);
  liesim_se3_coadjoint_act_exp(xi, eta, o->coadjoint_act_exp);
  liesim_se3_coadjoint_generator(xi, eta, o->coadjoint_generator);
}
