// liesim/lie.h (the C API of the Lie group operations) against the C++ templates it wraps:
// bit-identical results on random inputs, at tiny angles and on both sides of every series switch
// point, called from C99 code (lie_h_c99.c); outputs may alias inputs; dexpinv's status; the
// functions are exported from the kernel library with C linkage.
#include "lie_h_c99.h"

#include "liesim/lie.h"
#include "liesim/lie/actions.hpp"
#include "liesim/lie/se3.hpp"
#include "liesim/lie/so3.hpp"

#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <dlfcn.h>
#include <numbers>
#include <random>
#include <string>
#include <vector>

using namespace liesim::lie;

namespace {

/// Bitwise equality of n doubles (NaN payloads and signed zeros included).
bool same_bits(const double* a, const double* b, int n) {
  for (int i = 0; i < n; ++i)
    if (std::bit_cast<std::uint64_t>(a[i]) != std::bit_cast<std::uint64_t>(b[i])) return false;
  return true;
}
template <class V>
bool same(const V& expected, const double* got) {
  const Eigen::Matrix<double, V::RowsAtCompileTime, 1> e = expected;
  return same_bits(e.data(), got, static_cast<int>(e.size()));
}
/// A matrix against row-major storage.
template <class M>
bool same_rows(const M& m, const double* got) {
  const Eigen::Matrix<double, M::RowsAtCompileTime, M::ColsAtCompileTime, Eigen::RowMajor> r = m;
  return same_bits(r.data(), got, static_cast<int>(r.size()));
}

/// Rotation angles to test: 0, tiny, both sides of each switch point and series tier, random.
std::vector<double> angles() {
  std::vector<double> a{0.0, 1e-300, 1e-160, 1e-20, 1e-12, 1e-9, 1e-8, 1e-6, 1e-4, 1e-3};
  for (double s : {coeff::Sinc::series_switch, coeff::AlphaMinusSin::series_switch, coeff::DexpinvG2::series_switch,
                   coeff::OneMinusCosTilde::series_switch, coeff::AlphaMinusSinTilde::series_switch,
                   coeff::DexpinvG2Tilde::series_switch})
    for (double x : {std::nextafter(s, 0.0), s, std::nextafter(s, 10.0)}) a.push_back(x);
  for (double s : coeff::series_tiers)
    for (double x : {std::nextafter(s, 0.0), s, std::nextafter(s, 10.0)}) a.push_back(x);
  std::mt19937 rng(30);
  std::uniform_real_distribution<double> exponent(-10.0, std::log10(3.1));
  for (int k = 0; k < 200; ++k) a.push_back(std::pow(10.0, exponent(rng)));
  for (double x : {3.0, 3.14159, std::numbers::pi, 5.0, 6.2}) a.push_back(x);
  return a;
}

struct Sample {
  Eigen::Vector3d u, v;
  Eigen::Matrix<double, 6, 1> xi, eta;
};

/// For each angle, a random axis of that length and random other vectors.
std::vector<Sample> samples() {
  std::mt19937 rng(7);
  std::normal_distribution<double> normal;
  std::vector<Sample> out;
  for (double a : angles()) {
    Sample s;
    Eigen::Vector3d axis(normal(rng), normal(rng), normal(rng));
    s.u = a * axis.normalized();
    s.v = Eigen::Vector3d(normal(rng), normal(rng), normal(rng));
    s.xi << s.u, normal(rng), normal(rng), normal(rng);
    s.eta << normal(rng), normal(rng), normal(rng), normal(rng), normal(rng), normal(rng);
    out.push_back(s);
  }
  return out;
}

}  // namespace

TEST_CASE("lie.h SO(3) from C99 equals liesim::lie::SO3 bit for bit") {
  int checked = 0;
  for (const Sample& s : samples()) {
    const Eigen::Matrix3d R = SO3::exp(s.u);
    double R_rows[9];
    Eigen::Map<Eigen::Matrix<double, 3, 3, Eigen::RowMajor>> R_map(R_rows);
    R_map = R;
    c99_so3_out o{};
    c99_so3(s.u.data(), s.v.data(), R_rows, &o);
    const double angle = s.u.norm();
    INFO("angle " << angle);
    CHECK(same_rows(SO3::hat(s.u), o.hat));
    CHECK(same(SO3::vee(SO3::hat(s.u)), o.vee));
    CHECK(same_rows(R, o.exp));
    CHECK(same(SO3::log(R), o.log));
    CHECK(same(SO3::act_exp(s.u, s.v), o.act_exp));
    CHECK(same(SO3::dexp(s.u, s.v), o.dexp));
    CHECK(same(SO3::dexpinv(s.u, s.v), o.dexpinv));
    CHECK(o.dexpinv_status == (angle < 2 * std::numbers::pi ? LIESIM_OK : LIESIM_RECOVERABLE));
    CHECK(same(SO3::bracket(s.u, s.v), o.bracket));
    ++checked;
  }
  CHECK(checked > 200);
}

TEST_CASE("lie.h SE(3) and its actions from C99 equal liesim::lie::SE3, SE3OnTS2, SE3Coadjoint bit for bit") {
  for (const Sample& s : samples()) {
    const SE3::Element g = SE3::exp(s.xi);
    double g12[12];
    Eigen::Map<Eigen::Matrix<double, 3, 3, Eigen::RowMajor>> g_R(g12);
    Eigen::Map<Eigen::Vector3d> g_r(g12 + 9);
    g_R = g.R;
    g_r = g.r;
    c99_se3_out o{};
    c99_se3(s.xi.data(), s.eta.data(), g12, &o);
    INFO("angle " << s.xi.head<3>().norm());
    CHECK(same_rows(SE3::hat(s.xi), o.hat));
    CHECK(same_rows(g.R, o.exp));
    CHECK(same(g.r, o.exp + 9));
    CHECK(same(SE3::log(g), o.log));
    const Eigen::Vector3d p = s.eta.head<3>();
    CHECK(same(Eigen::Vector3d(g.R * p + g.r), o.act_exp));
    CHECK(same(SE3::dexp(s.xi, s.eta), o.dexp));
    CHECK(same(SE3::dexpinv(s.xi, s.eta), o.dexpinv));
    CHECK(o.dexpinv_status == (s.xi.head<3>().norm() < 2 * std::numbers::pi ? LIESIM_OK : LIESIM_RECOVERABLE));
    CHECK(same(SE3::bracket(s.xi, s.eta), o.bracket));
    CHECK(same(SE3OnTS2::act_exp(s.xi, s.eta), o.ts2_act_exp));
    CHECK(same(SE3OnTS2::generator(s.xi, s.eta), o.ts2_generator));
    SE3OnTS2::Point m = s.eta;
    SE3OnTS2::project(m);
    CHECK(same(m, o.ts2_project));
    CHECK(same(SE3Coadjoint::act_exp(s.xi, s.eta), o.coadjoint_act_exp));
    CHECK(same(SE3Coadjoint::generator(s.xi, s.eta), o.coadjoint_generator));
  }
}

TEST_CASE("lie.h: outputs may alias inputs") {
  const Eigen::Vector3d u(0.3, -0.2, 0.1), v(1.0, 2.0, -0.5);
  double a[3] = {u.x(), u.y(), u.z()}, b[3] = {v.x(), v.y(), v.z()};
  liesim_so3_dexpinv(a, b, b);  // out = v
  CHECK(same(SO3::dexpinv(u, v), b));
  double c[3] = {u.x(), u.y(), u.z()};
  liesim_so3_act_exp(c, c, c);  // u, p and out the same array
  CHECK(same(SO3::act_exp(u, u), c));
  Eigen::Matrix<double, 6, 1> xi, eta;
  xi << 0.3, -0.2, 0.1, 1.0, 0.5, -2.0;
  eta << 0.0, 0.6, 0.8, 0.4, 0.0, 0.0;
  double x[6], m[6];
  Eigen::Map<Eigen::Matrix<double, 6, 1>> x_map(x), m_map(m);
  x_map = xi;
  m_map = eta;
  liesim_se3_ts2_act_exp(x, m, m);
  CHECK(same(SE3OnTS2::act_exp(xi, eta), m));
  liesim_se3_dexpinv(x, x, x);
  CHECK(same(SE3::dexpinv(xi, xi), x));
}

TEST_CASE("lie.h: dexpinv reports |u| >= 2 pi as recoverable and a non-finite u as fatal") {
  const double v[3] = {1.0, 0.0, 0.0};
  double out[3];
  const double ok[3] = {0.0, 0.0, 6.28};
  const double singular[3] = {0.0, 0.0, 2 * std::numbers::pi};
  const double nan[3] = {0.0, std::nan(""), 0.0};
  CHECK(liesim_so3_dexpinv(ok, v, out) == LIESIM_OK);
  CHECK(liesim_so3_dexpinv(singular, v, out) == LIESIM_RECOVERABLE);
  CHECK(liesim_so3_dexpinv(nan, v, out) == LIESIM_FATAL);
  const double xi[6] = {0.0, 0.0, 7.0, 100.0, 0.0, 0.0}, eta[6] = {1, 0, 0, 0, 0, 0};
  double out6[6];
  CHECK(liesim_se3_dexpinv(xi, eta, out6) == LIESIM_RECOVERABLE);
}

TEST_CASE("lie.h's functions are exported by the kernel library with C linkage") {
  for (const char* name : {"liesim_so3_hat", "liesim_so3_vee", "liesim_so3_exp", "liesim_so3_log", "liesim_so3_act_exp",
                           "liesim_so3_dexp", "liesim_so3_dexpinv", "liesim_so3_bracket", "liesim_se3_hat",
                           "liesim_se3_exp", "liesim_se3_log", "liesim_se3_act_exp", "liesim_se3_dexp",
                           "liesim_se3_dexpinv", "liesim_se3_bracket", "liesim_se3_ts2_act_exp",
                           "liesim_se3_ts2_generator", "liesim_se3_ts2_project", "liesim_se3_coadjoint_act_exp",
                           "liesim_se3_coadjoint_generator"}) {
    CAPTURE(name);
    void* symbol = ::dlsym(RTLD_DEFAULT, name);
    REQUIRE(symbol != nullptr);
    Dl_info info{};
    REQUIRE(::dladdr(symbol, &info) != 0);
    CHECK(std::string(info.dli_fname).find("libliesim.so") != std::string::npos);
  }
}
