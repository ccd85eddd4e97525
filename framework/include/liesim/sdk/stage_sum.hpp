// The linear combinations of a Runge–Kutta step, out = base + sum_j w_j K_j over the stages K_j
// (columns of K) whose weight is not zero, in as few passes over the vectors as possible: up to
// four columns are added in one pass (one Eigen expression), so that RK4's stage sums take one
// pass each and its update one pass, where adding the columns one at a time took five.
// The sum is formed left to right, as the one-at-a-time loop did: results are bit-identical.
#pragma once
#include <liesim/tableau.hpp>

#include <Eigen/Core>

#include <algorithm>

namespace liesim::sdk {

namespace detail {

/// The (column, weight) pairs with a non-zero weight, weights times h.
struct StageTerms {
  int column[max_stages];
  double weight[max_stages];
  int count = 0;
};

/// stages <= max_stages, the size of every table (tableau.hpp).
inline StageTerms stage_terms(const double* w, int stages, double h) noexcept {
  StageTerms t;
  for (int j = 0; j < stages; ++j)
    if (w[j] != 0.0) {
      t.column[t.count] = j;
      t.weight[t.count] = h * w[j];
      ++t.count;
    }
  return t;
}

/// out = lead + the r <= 4 terms from `first` of t, in one pass, summed left to right (lead may be
/// out itself: out = out + w0 K0 + ..., not out += (w0 K0 + ...), which rounds differently).
template <class Out, class Lead, class K>
inline void assign(Out& out, const Lead& lead, const K& k, const StageTerms& t, int first, int r) noexcept {
  const int* c = t.column + first;
  const double* w = t.weight + first;
  switch (r) {
    case 0: out = lead; break;
    case 1: out = lead + w[0] * k.col(c[0]); break;
    case 2: out = lead + w[0] * k.col(c[0]) + w[1] * k.col(c[1]); break;
    case 3: out = lead + w[0] * k.col(c[0]) + w[1] * k.col(c[1]) + w[2] * k.col(c[2]); break;
    default: out = lead + w[0] * k.col(c[0]) + w[1] * k.col(c[1]) + w[2] * k.col(c[2]) + w[3] * k.col(c[3]); break;
  }
}

/// out = out + the terms of t from `first` on, four per pass.
template <class Out, class K>
inline void add_rest(Out& out, const K& k, const StageTerms& t, int first) noexcept {
  for (int q = first; q < t.count; q += 4) assign(out, out, k, t, q, std::min(4, t.count - q));
}

}  // namespace detail

/// out = base + h * sum_{j < stages} w[j] K.col(j), skipping zero weights; stages <= max_stages.
/// out must not alias K; it may be base itself. Returns the number of terms (non-zero weights).
template <class Out, class Base, class K>
inline int stage_sum(Out&& out, const Base& base, const K& k, const double* w, int stages, double h) noexcept {
  const detail::StageTerms t = detail::stage_terms(w, stages, h);
  detail::assign(out, base, k, t, 0, std::min(4, t.count));  // base + w0 K0 + ... + w3 K3
  detail::add_rest(out, k, t, 4);
  return t.count;
}

/// out = h * sum_{j < stages} w[j] K.col(j), skipping zero weights (zero when every weight is);
/// stages <= max_stages. out must not alias K. Returns the number of terms (non-zero weights).
template <class Out, class K>
inline int stage_sum(Out&& out, const K& k, const double* w, int stages, double h) noexcept {
  const detail::StageTerms t = detail::stage_terms(w, stages, h);
  if (t.count == 0) {
    out.setZero();
    return 0;
  }
  detail::assign(out, t.weight[0] * k.col(t.column[0]), k, t, 1, std::min(3, t.count - 1));  // w0 K0 + ... + w3 K3
  detail::add_rest(out, k, t, std::min(4, t.count));
  return t.count;
}

}  // namespace liesim::sdk
