// The linear combinations of a Runge–Kutta step, out = base + sum_j w_j K_j over the stages K_j
// (columns of K) whose weight is not zero, in as few passes over the vectors as possible: up to
// four columns are added in one pass (one Eigen expression), so that RK4's stage sums take one
// pass each and its update one pass, where adding the columns one at a time took five.
// The sum is formed left to right, as the one-at-a-time loop did: results are bit-identical.
#pragma once
#include <Eigen/Core>

#include <algorithm>

namespace liesim::sdk {

namespace detail {

/// Up to four (column, weight) pairs with a non-zero weight, weights times h: the terms of one pass.
struct StageTerms {
  int column[4];
  double weight[4];
  int count = 0;
};

/// The next up to `most` (<= 4) terms from column `j` on; `j` moves past them.
inline StageTerms next_terms(const double* w, int stages, double h, int& j, int most) noexcept {
  StageTerms t;
  for (; j < stages && t.count < most; ++j)
    if (w[j] != 0.0) {
      t.column[t.count] = j;
      t.weight[t.count] = h * w[j];
      ++t.count;
    }
  return t;
}

/// out = lead + the terms of t from `first` on (at most four), in one pass, summed left to right
/// (lead may be out itself: out = out + w0 K0 + ..., not out += (w0 K0 + ...), which rounds differently).
template <class Out, class Lead, class K>
inline void assign(Out& out, const Lead& lead, const K& k, const StageTerms& t, int first) noexcept {
  const int* c = t.column + first;
  const double* w = t.weight + first;
  switch (t.count - first) {
    case 0: out = lead; break;
    case 1: out = lead + w[0] * k.col(c[0]); break;
    case 2: out = lead + w[0] * k.col(c[0]) + w[1] * k.col(c[1]); break;
    case 3: out = lead + w[0] * k.col(c[0]) + w[1] * k.col(c[1]) + w[2] * k.col(c[2]); break;
    default: out = lead + w[0] * k.col(c[0]) + w[1] * k.col(c[1]) + w[2] * k.col(c[2]) + w[3] * k.col(c[3]); break;
  }
}

/// out = out + the remaining terms from column `j` on, four per pass; returns how many.
template <class Out, class K>
inline int add_rest(Out& out, const K& k, const double* w, int stages, double h, int j) noexcept {
  int n = 0;
  for (StageTerms t = next_terms(w, stages, h, j, 4); t.count > 0; t = next_terms(w, stages, h, j, 4)) {
    assign(out, out, k, t, 0);
    n += t.count;
  }
  return n;
}

}  // namespace detail

/// out = base + h * sum_{j < stages} w[j] K.col(j), skipping zero weights, any number of stages.
/// out must not alias K; it may be base itself. Returns the number of terms (non-zero weights).
template <class Out, class Base, class K>
inline int stage_sum(Out&& out, const Base& base, const K& k, const double* w, int stages, double h) noexcept {
  int j = 0;
  const detail::StageTerms first = detail::next_terms(w, stages, h, j, 4);
  detail::assign(out, base, k, first, 0);  // base + w0 K0 + ... + w3 K3
  return first.count + detail::add_rest(out, k, w, stages, h, j);
}

/// out = h * sum_{j < stages} w[j] K.col(j), skipping zero weights (zero when every weight is), any
/// number of stages. out must not alias K. Returns the number of terms (non-zero weights).
template <class Out, class K>
inline int stage_sum(Out&& out, const K& k, const double* w, int stages, double h) noexcept {
  int j = 0;
  const detail::StageTerms first = detail::next_terms(w, stages, h, j, 4);
  if (first.count == 0) {
    out.setZero();
    return 0;
  }
  detail::assign(out, first.weight[0] * k.col(first.column[0]), k, first, 1);  // w0 K0 + ... + w3 K3
  return first.count + detail::add_rest(out, k, w, stages, h, j);
}

}  // namespace liesim::sdk
