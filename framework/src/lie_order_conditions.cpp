// A commutator-free scheme's local error on the generic problem, in truncated power series of h.
#include <liesim/sdk/lie_order_conditions.hpp>

#include <Eigen/Core>

#include <array>
#include <cstdint>
#include <vector>

namespace liesim {

namespace {

constexpr int n = 3;  // GL(3) acting on itself by left multiplication
using Mat = Eigen::Matrix<double, n, n>;

/// A truncated power series in h with matrix coefficients, degrees 0..P.
struct Series {
  std::vector<Mat> c;
  explicit Series(int P, const Mat& constant = Mat::Zero()) : c(static_cast<std::size_t>(P) + 1, Mat::Zero()) { c[0] = constant; }
  int degree() const { return static_cast<int>(c.size()) - 1; }
};

Series product(const Series& a, const Series& b) {
  Series out(a.degree());
  for (int k = 0; k <= a.degree(); ++k)
    for (int i = 0; i <= k; ++i) out.c[k] += a.c[i] * b.c[k - i];
  return out;
}

std::vector<double> product(const std::vector<double>& a, const std::vector<double>& b) {
  std::vector<double> out(a.size(), 0.0);
  for (std::size_t k = 0; k < a.size(); ++k)
    for (std::size_t i = 0; i <= k; ++i) out[k] += a[i] * b[k - i];
  return out;
}

/// exp(X) for X with no constant term: sum of X^m / m! to the series' degree.
Series exponential(const Series& x) {
  const int P = x.degree();
  Series e(P, Mat::Identity()), term(P, Mat::Identity());
  for (int m = 1; m <= P; ++m) {
    term = product(term, x);
    for (Mat& t : term.c) t /= m;
    for (int k = 0; k <= P; ++k) e.c[k] += term.c[k];
  }
  return e;
}

/// Fixed pseudo-random numbers in [-1/2, 1/2) (splitmix64: the same on every platform).
struct Numbers {
  std::uint64_t state = 0x6c69657369ULL;
  double next() {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return static_cast<double>(z >> 11) * 0x1.0p-53 - 0.5;
  }
  Mat matrix() {
    Mat m;
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) m(i, j) = next();
    return m;
  }
};

/// The generic problem Y' = f(Y) Y: f(Y) = C + sum of matrices times products of one, two and three
/// linear functionals <L, Y> of Y (the field's derivatives to the third, as order 4 needs).
struct Problem {
  Mat y0, constant;
  std::vector<std::pair<Mat, std::vector<Mat>>> terms;  // (M, [L1, ..., Lk]): M <L1, Y> ... <Lk, Y>

  Problem() {
    Numbers r;
    y0 = Mat::Identity() + 0.5 * r.matrix();
    constant = r.matrix();
    for (int degree = 1; degree <= 3; ++degree)
      for (int k = 0; k < 3; ++k) {
        std::vector<Mat> L;
        const Mat M = r.matrix();
        for (int d = 0; d < degree; ++d) L.push_back(r.matrix());
        terms.emplace_back(M, L);
      }
  }
  /// f(Y) as a series.
  Series field(const Series& y) const {
    const int P = y.degree();
    Series out(P, constant);
    for (const auto& [M, L] : terms) {
      std::vector<double> s(static_cast<std::size_t>(P) + 1, 0.0);
      s[0] = 1.0;
      for (const Mat& l : L) {
        std::vector<double> linear(s.size());
        for (int k = 0; k <= P; ++k) linear[k] = (l.array() * y.c[k].array()).sum();
        s = product(s, linear);
      }
      for (int k = 0; k <= P; ++k) out.c[k] += s[k] * M;
    }
    return out;
  }
  /// The exact solution's series: Picard's iteration, one more correct degree per pass.
  Series exact(int P) const {
    Series y(P, y0);
    for (int pass = 0; pass <= P; ++pass) {
      const Series z = product(field(y), y);
      Series next(P, y0);
      for (int k = 0; k < P; ++k) next.c[k + 1] = z.c[k] / (k + 1);
      y = next;
    }
    return y;
  }
};

/// exp(h sum_k alpha_jk f_k) ... acting on y0, the first exponential first; F[k] = h f(Y_k).
Series apply(const ExponentialList& l, const std::vector<Series>& F, const Mat& y0, int P) {
  Series y(P, y0);
  for (int j = 0; j < l.count; ++j) {
    Series x(P);
    for (std::size_t k = 0; k < F.size(); ++k)
      if (l.row(j)[k] != 0.0)
        for (int d = 0; d <= P; ++d) x.c[d] += l.row(j)[k] * F[k].c[d];
    y = product(exponential(x), y);
  }
  return y;
}

}  // namespace

LieOrderFailure first_failing_order(const CommutatorFreeTable& s, const ExponentialList& result, int p) {
  const int P = p;
  static const Problem problem;
  std::vector<Series> F;  // h f(Y_r): f's series shifted one degree
  for (int r = 0; r < s.stages; ++r) {
    const Series f = problem.field(apply(s.stage[r], F, problem.y0, P));
    Series hf(P);
    for (int k = 0; k < P; ++k) hf.c[k + 1] = f.c[k];
    F.push_back(hf);
  }
  const Series method = apply(result, F, problem.y0, P);
  const Series exact = problem.exact(P);
  for (int q = 1; q <= P; ++q) {
    const double scale = 1.0 + exact.c[q].cwiseAbs().maxCoeff();
    const double tolerance = 1e-10 * scale;
    const double coefficient = (method.c[q] - exact.c[q]).cwiseAbs().maxCoeff();
    if (!(coefficient <= tolerance)) return {q, coefficient, tolerance};
  }
  return {};
}

}  // namespace liesim
