// The C API of the Lie group operations (liesim/lie.h): each function copies its inputs into
// fixed-size Eigen objects, calls the C++ template of liesim/lie/*.hpp and writes the result. No
// formula is repeated here: one code path, the same closed forms, series and switch points.
#include "liesim/lie.h"

#include "liesim/lie/actions.hpp"
#include "liesim/lie/se3.hpp"
#include "liesim/lie/so3.hpp"

#include <Eigen/Core>

#include <cmath>
#include <numbers>

namespace {

using liesim::lie::SE3;
using liesim::lie::SO3;
using RowMajor3 = Eigen::Matrix<double, 3, 3, Eigen::RowMajor>;
using RowMajor4 = Eigen::Matrix<double, 4, 4, Eigen::RowMajor>;
using Vec3 = Eigen::Vector3d;
using Vec6 = Eigen::Matrix<double, 6, 1>;

// Inputs are copied (not mapped), so outputs may alias them.
Vec3 vec3(const double* p) { return Eigen::Map<const Vec3>(p); }
Vec6 vec6(const double* p) { return Eigen::Map<const Vec6>(p); }
Eigen::Matrix3d mat3(const double* p) { return Eigen::Map<const RowMajor3>(p); }
template <class V>
void put(const V& v, double* out) {
  Eigen::Map<Eigen::Matrix<double, V::RowsAtCompileTime, 1>> target(out);
  target = v;
}
void put3x3(const Eigen::Matrix3d& m, double* out) {
  Eigen::Map<RowMajor3> target(out);
  target = m;
}

SE3::Element element(const double* g) { return {mat3(g), vec3(g + 9)}; }
void put_element(const SE3::Element& g, double* out) {
  put3x3(g.R, out);
  put(g.r, out + 9);
}

/// dexp_u is invertible for |u| < 2 pi (the closed forms of dexpinv are singular at 2 pi).
liesim_status dexpinv_status(const Vec3& u) {
  if (!u.allFinite()) return LIESIM_FATAL;
  return u.norm() < 2.0 * std::numbers::pi ? LIESIM_OK : LIESIM_RECOVERABLE;
}

}  // namespace

extern "C" {

void liesim_so3_hat(const double w[3], double W[9]) { put3x3(SO3::hat(vec3(w)), W); }
void liesim_so3_vee(const double W[9], double w[3]) { put(SO3::vee(mat3(W)), w); }
void liesim_so3_exp(const double u[3], double R[9]) { put3x3(SO3::exp(vec3(u)), R); }
void liesim_so3_log(const double R[9], double u[3]) { put(SO3::log(mat3(R)), u); }
void liesim_so3_act_exp(const double u[3], const double p[3], double out[3]) { put(SO3::act_exp(vec3(u), vec3(p)), out); }
void liesim_so3_dexp(const double u[3], const double v[3], double out[3]) { put(SO3::dexp(vec3(u), vec3(v)), out); }
liesim_status liesim_so3_dexpinv(const double u[3], const double v[3], double out[3]) {
  const Vec3 uu = vec3(u);
  put(SO3::dexpinv(uu, vec3(v)), out);
  return dexpinv_status(uu);
}
void liesim_so3_bracket(const double a[3], const double b[3], double out[3]) { put(SO3::bracket(vec3(a), vec3(b)), out); }

void liesim_se3_hat(const double xi[6], double X[16]) {
  Eigen::Map<RowMajor4> target(X);
  target = SE3::hat(vec6(xi));
}
void liesim_se3_exp(const double xi[6], double g[12]) { put_element(SE3::exp(vec6(xi)), g); }
void liesim_se3_log(const double g[12], double xi[6]) { put(SE3::log(element(g)), xi); }
void liesim_se3_act_exp(const double xi[6], const double p[3], double out[3]) {
  const SE3::Element g = SE3::exp(vec6(xi));
  put(Vec3(g.R * vec3(p) + g.r), out);
}
void liesim_se3_dexp(const double xi[6], const double eta[6], double out[6]) { put(SE3::dexp(vec6(xi), vec6(eta)), out); }
liesim_status liesim_se3_dexpinv(const double xi[6], const double eta[6], double out[6]) {
  const Vec6 x = vec6(xi);
  put(SE3::dexpinv(x, vec6(eta)), out);
  return dexpinv_status(x.head<3>());
}
void liesim_se3_bracket(const double x[6], const double y[6], double out[6]) { put(SE3::bracket(vec6(x), vec6(y)), out); }

void liesim_se3_ts2_act_exp(const double xi[6], const double m[6], double out[6]) {
  put(liesim::lie::SE3OnTS2::act_exp(vec6(xi), vec6(m)), out);
}
void liesim_se3_ts2_generator(const double xi[6], const double m[6], double out[6]) {
  put(liesim::lie::SE3OnTS2::generator(vec6(xi), vec6(m)), out);
}
void liesim_se3_ts2_project(double m[6]) {
  Vec6 p = vec6(m);
  liesim::lie::SE3OnTS2::project(p);
  put(p, m);
}

void liesim_se3_coadjoint_act_exp(const double xi[6], const double m[6], double out[6]) {
  put(liesim::lie::SE3Coadjoint::act_exp(vec6(xi), vec6(m)), out);
}
void liesim_se3_coadjoint_generator(const double xi[6], const double m[6], double out[6]) {
  put(liesim::lie::SE3Coadjoint::generator(vec6(xi), vec6(m)), out);
}

}  // extern "C"
