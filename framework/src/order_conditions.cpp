// Rooted trees, their elementary weights and densities (see order_conditions.hpp).
#include <liesim/sdk/order_conditions.hpp>

#include <algorithm>
#include <cmath>

namespace liesim {

std::vector<RootedTree> rooted_trees(int max_order) {
  std::vector<RootedTree> trees{{1, {}, 1.0}};
  for (int n = 2; n <= max_order; ++n) {
    const int known = static_cast<int>(trees.size());  // every tree of order < n
    std::vector<int> children;
    // Choose children with non-increasing index and total order n - 1.
    auto extend = [&](auto&& self, int remaining, int max_index) -> void {
      if (remaining == 0) {
        double gamma = n;
        for (int c : children) gamma *= trees[c].gamma;
        trees.push_back({n, children, gamma});
        return;
      }
      for (int i = max_index; i >= 0; --i) {
        if (trees[i].order > remaining) continue;
        children.push_back(i);
        self(self, remaining - trees[i].order, i);
        children.pop_back();
      }
    };
    extend(extend, n - 1, known - 1);
  }
  return trees;
}

std::string tree_text(const std::vector<RootedTree>& trees, int index) {
  const RootedTree& t = trees[index];
  if (t.children.empty()) return "τ";
  std::string s = "[";
  for (std::size_t k = 0; k < t.children.size(); ++k) s += (k ? " " : "") + tree_text(trees, t.children[k]);
  return s + "]";
}

namespace {

/// The factors of tree `index` at summation index `v` (c_v^m for leaf children, a_vw ... for the
/// others), naming new indices from `next`.
std::string factors(const std::vector<RootedTree>& trees, int index, char v, char& next) {
  std::string s;
  int leaf_count = 0;
  for (int c : trees[index].children) leaf_count += trees[c].children.empty() ? 1 : 0;
  if (leaf_count > 0) s += std::string(" c_") + v + (leaf_count > 1 ? "^" + std::to_string(leaf_count) : "");
  for (int c : trees[index].children) {
    if (trees[c].children.empty()) continue;
    const char w = next++;
    s += std::string(" a_") + v + w + factors(trees, c, w, next);
  }
  return s;
}

}  // namespace

std::string condition_text(const std::vector<RootedTree>& trees, int index) {
  char next = 'j';
  const long long gamma = static_cast<long long>(trees[index].gamma);
  return "sum b_i" + factors(trees, index, 'i', next) + (gamma == 1 ? " = 1" : " = 1/" + std::to_string(gamma));
}

std::vector<std::vector<double>> stage_weights(const std::vector<RootedTree>& trees, int stages, const double* A) {
  std::vector<std::vector<double>> g;
  g.reserve(trees.size());
  for (const RootedTree& t : trees) {
    std::vector<double> v(stages, 1.0);
    for (int c : t.children)
      for (int i = 0; i < stages; ++i) {
        double a = 0;
        for (int j = 0; j < stages; ++j) a += A[i * stages + j] * g[c][j];
        v[i] *= a;
      }
    g.push_back(std::move(v));
  }
  return g;
}

ConditionCheck worst_condition(const std::vector<RootedTree>& trees, const std::vector<std::vector<double>>& g, const double* b,
                               int stages, int order, bool relative) {
  ConditionCheck worst;
  for (std::size_t k = 0; k < trees.size(); ++k) {
    if (trees[k].order != order) continue;
    double phi = 0;
    for (int i = 0; i < stages; ++i) phi += b[i] * g[k][i];
    const double exact = 1.0 / trees[k].gamma;
    const double r = relative ? std::abs(phi / exact - 1.0) : std::abs(phi - exact);
    if (worst.tree < 0 || r > worst.residual) worst = {static_cast<int>(k), phi, exact, r};
  }
  return worst;
}

double condition_tolerance(int stages, const double* A, const double* b, int q) {
  double weights = 0, rows = 1;
  for (int i = 0; i < stages; ++i) {
    weights += std::abs(b[i]);
    double row = 0;
    for (int j = 0; j < stages; ++j) row += std::abs(A[i * stages + j]);
    rows = std::max(rows, row);
  }
  constexpr double eps = 2.220446049250313e-16;
  return std::max(1e-13, 8.0 * q * eps * weights * rows);
}

}  // namespace liesim
