// liesim/lie/bernoulli.hpp — Bernoulli numbers and the truncated dexp / dexpinv series.
//
// Convention (see README.md): right-trivialised dexp, d/dt exp(u(t)) = dexp_u(u'(t)) exp(u(t)),
//   dexp_u    = (e^z - 1)/z |_{z = ad_u} = sum_k 1/(k+1)! ad_u^k          [thesis (2.2.7)]
//   dexpinv_u = z/(e^z - 1) |_{z = ad_u} = sum_k B_k/k! ad_u^k            [thesis (2.2.8)]
// with B_1 = -1/2, so dexpinv_u(v) = v - 1/2[u,v] + 1/12[u,[u,v]] - 1/720 ad_u^4 v + ...
// Used by RKMK methods (truncated at ad^(p-2)) and as a reference for the exact formulas.
#pragma once

#include <Eigen/Core>

#include <algorithm>
#include <array>
#include <cstddef>

namespace liesim::lie {

/// Highest order of the Bernoulli tables below (B_0 ... B_20).
inline constexpr int bernoulli_max_order = 20;

namespace detail {
/// Numerators and denominators of B_0..B_20 (B_1 = -1/2 convention).
inline constexpr std::array<double, 21> bernoulli_num = {
    1, -1, 1, 0, -1, 0, 1, 0, -1, 0, 5, 0, -691, 0, 7, 0, -3617, 0, 43867, 0, -174611};
inline constexpr std::array<double, 21> bernoulli_den = {
    1, 2, 6, 1, 30, 1, 42, 1, 30, 1, 66, 1, 2730, 1, 6, 1, 510, 1, 798, 1, 330};

/// k! as a double (exact for k <= 22).
constexpr double factorial(int k) {
  double f = 1.0;
  for (int i = 2; i <= k; ++i) f *= i;
  return f;
}

constexpr std::array<double, 21> make_bernoulli() {
  std::array<double, 21> b{};
  for (std::size_t k = 0; k <= 20; ++k) b[k] = bernoulli_num[k] / bernoulli_den[k];
  return b;
}

constexpr std::array<double, 21> make_bernoulli_over_factorial() {
  std::array<double, 21> b{};
  // den * k! is exact in double for k <= 20, so each entry is correctly rounded.
  for (std::size_t k = 0; k <= 20; ++k)
    b[k] = bernoulli_num[k] / (bernoulli_den[k] * factorial(static_cast<int>(k)));
  return b;
}

constexpr std::array<double, 21> make_inverse_factorial_shifted() {
  std::array<double, 21> c{};
  for (std::size_t k = 0; k <= 20; ++k) c[k] = 1.0 / factorial(static_cast<int>(k) + 1);
  return c;
}
}  // namespace detail

/// Bernoulli numbers B_k, k = 0..20, with B_1 = -1/2 (coefficients of z/(e^z-1) = sum B_k z^k/k!).
inline constexpr std::array<double, 21> bernoulli_numbers = detail::make_bernoulli();

/// B_k / k!, k = 0..20: the coefficients of z/(e^z - 1) = dexpinv [thesis (2.2.8)].
inline constexpr std::array<double, 21> bernoulli_over_factorial =
    detail::make_bernoulli_over_factorial();

/// 1/(k+1)!, k = 0..20: the coefficients of (e^z - 1)/z = dexp [thesis (2.2.7)].
inline constexpr std::array<double, 21> dexp_series_coefficients =
    detail::make_inverse_factorial_shifted();

namespace detail {
/// |B_2k|/(2k)! for k = 0..kmax: exact rationals for k <= 10, else 2 zeta(2k)/(2 pi)^(2k)
/// (zeta summed to 20 terms; truncation < 21^-22 relative). Used by the so(3)/se(3) series.
template <int kmax>
constexpr std::array<double, kmax + 1> make_abs_b2k_over_factorial() {
  std::array<double, kmax + 1> c{};
  constexpr double two_pi = 6.283185307179586476925286766559;
  for (std::size_t k = 0; k <= static_cast<std::size_t>(kmax); ++k) {
    if (2 * k <= 20) {
      const double b = bernoulli_over_factorial[2 * k];
      c[k] = b < 0 ? -b : b;
    } else {
      double zeta = 0.0;
      for (int n = 20; n >= 1; --n) {  // small terms first
        double p = 1.0;
        for (std::size_t j = 0; j < 2 * k; ++j) p /= n;
        zeta += p;
      }
      double tp = 1.0;
      for (std::size_t j = 0; j < 2 * k; ++j) tp /= two_pi;
      c[k] = 2.0 * zeta * tp;
    }
  }
  return c;
}
}  // namespace detail

namespace detail {
/// sum_{k=0}^{order} coeffs[k] ad_u^k v with ad_u w = G::bracket(u, w); order clamped to [0, 20].
template <class G>
typename G::Algebra series_static(const double* coeffs, const typename G::Algebra& u, const typename G::Algebra& v,
                                  int order) {
  order = std::clamp(order, 0, bernoulli_max_order);
  typename G::Algebra out = v;
  typename G::Algebra w = v;
  for (std::size_t k = 1; k <= static_cast<std::size_t>(order); ++k) {
    w = G::bracket(u, w);
    if (coeffs[k] != 0.0) out += coeffs[k] * w;
  }
  return out;
}
}  // namespace detail

/// Truncated dexpinv series: sum_{k=0}^{order} (B_k/k!) ad_u^k v, ad_u w = G::bracket(u, w)
/// [thesis (2.2.8)]. order is clamped to [0, 20].
template <class G>
typename G::Algebra dexpinv_series(const typename G::Algebra& u, const typename G::Algebra& v,
                                   int order) {
  return detail::series_static<G>(bernoulli_over_factorial.data(), u, v, order);
}

/// Truncated dexp series: sum_{k=0}^{order} 1/(k+1)! ad_u^k v [thesis (2.2.7)]. order <= 20.
template <class G>
typename G::Algebra dexp_series(const typename G::Algebra& u, const typename G::Algebra& v,
                                int order) {
  return detail::series_static<G>(dexp_series_coefficients.data(), u, v, order);
}

namespace detail {
template <class Bracket>
void series_runtime(const double* coeffs, Eigen::Ref<const Eigen::VectorXd> u,
                    Eigen::Ref<const Eigen::VectorXd> v, int order, Bracket&& bracket,
                    Eigen::Ref<Eigen::VectorXd> work1, Eigen::Ref<Eigen::VectorXd> work2,
                    Eigen::Ref<Eigen::VectorXd> out) {
  if (order > bernoulli_max_order) order = bernoulli_max_order;
  // A trailing zero coefficient (B_k = 0 for odd k >= 3) adds nothing: skip its bracket, so that
  // truncating at ad^(p-1) costs no more than at the last non-zero term (e.g. ad^4 for p = 6).
  while (order > 0 && coeffs[order] == 0.0) --order;
  out = v;
  if (order <= 0) return;
  work1 = v;
  Eigen::Ref<Eigen::VectorXd>* cur = &work1;
  Eigen::Ref<Eigen::VectorXd>* nxt = &work2;
  for (std::size_t k = 1; k <= static_cast<std::size_t>(order); ++k) {
    bracket(u, *cur, *nxt);  // nxt = [u, cur] = ad_u^k v
    if (coeffs[k] != 0.0) out += coeffs[k] * (*nxt);
    Eigen::Ref<Eigen::VectorXd>* t = cur;
    cur = nxt;
    nxt = t;
  }
}
}  // namespace detail

/// Run-time dexpinv series over flat buffers: out = sum_{k=0}^{order} (B_k/k!) ad_u^k v
/// [thesis (2.2.8)]. bracket(a, b, res) must write [a, b] into res (res never aliases a or b).
/// work1, work2 and out have the algebra's size and must not alias u, v or each other.
/// Allocates nothing. order is clamped to [0, 20].
template <class Bracket>
void dexpinv_series(Eigen::Ref<const Eigen::VectorXd> u, Eigen::Ref<const Eigen::VectorXd> v,
                    int order, Bracket&& bracket, Eigen::Ref<Eigen::VectorXd> work1,
                    Eigen::Ref<Eigen::VectorXd> work2, Eigen::Ref<Eigen::VectorXd> out) {
  detail::series_runtime(bernoulli_over_factorial.data(), u, v, order, bracket, work1, work2,
                         out);
}

/// Run-time dexp series over flat buffers: out = sum_{k=0}^{order} 1/(k+1)! ad_u^k v
/// [thesis (2.2.7)]; same buffer rules as the run-time dexpinv_series.
template <class Bracket>
void dexp_series(Eigen::Ref<const Eigen::VectorXd> u, Eigen::Ref<const Eigen::VectorXd> v,
                 int order, Bracket&& bracket, Eigen::Ref<Eigen::VectorXd> work1,
                 Eigen::Ref<Eigen::VectorXd> work2, Eigen::Ref<Eigen::VectorXd> out) {
  detail::series_runtime(dexp_series_coefficients.data(), u, v, order, bracket, work1, work2,
                         out);
}

}  // namespace liesim::lie
