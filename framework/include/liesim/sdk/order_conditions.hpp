// Butcher's order conditions from rooted trees [Butcher 1963; Hairer–Nørsett–Wanner I, §II.2]:
// an explicit or implicit Runge–Kutta method (c, A, b) has order p iff Phi(t) = 1/gamma(t) for every
// rooted tree t with at most p vertices, where Phi(t) = sum_i b_i g_t(i) is the elementary weight and
// gamma(t) the density. RKMK inherits the order of its tableau [Munthe-Kaas 1999], so these conditions
// are the Lie group ones of RKMK too (with dexpinv exact, or its series kept to ad^(p-2)).
#pragma once
#include <string>
#include <vector>

namespace liesim {

/// A rooted tree: the multiset of its root's subtrees, as indices into the list of all trees
/// (non-increasing, so every tree has exactly one representation).
struct RootedTree {
  int order;                  ///< number of vertices |t|
  std::vector<int> children;  ///< subtrees of the root (indices of earlier trees)
  double gamma;               ///< density gamma(t) = |t| prod gamma(children)
};

/// All rooted trees with up to `max_order` vertices, grouped by order (1, 1, 2, 4, 9, 20, 48, 115,
/// 286, ... of each order, OEIS A000081).
std::vector<RootedTree> rooted_trees(int max_order);

/// The tree in bracket notation: "τ" for the single vertex, "[t1 t2 ...]" for a root with subtrees.
std::string tree_text(const std::vector<RootedTree>& trees, int index);

/// The condition of a tree written out, e.g. "sum b_i c_i a_ij c_j = 1/8".
std::string condition_text(const std::vector<RootedTree>& trees, int index);

/// The stage vectors g_t(i) = prod_children (A g_c)(i) of every tree for a tableau with `stages`
/// stages and coefficients a(i, j) = A[i * stages + j] (row-major, s x s).
std::vector<std::vector<double>> stage_weights(const std::vector<RootedTree>& trees, int stages, const double* A);

/// One order condition checked against weights b.
struct ConditionCheck {
  int tree = -1;         ///< index of the worst tree (-1 if the order has no tree: never)
  double phi = 0;        ///< Phi(t)
  double exact = 0;      ///< 1/gamma(t)
  double residual = 0;   ///< |Phi(t) - 1/gamma(t)|, or |gamma(t) Phi(t) - 1| if relative
};

/// The worst condition among the trees of exactly `order` vertices (`relative`: by the error
/// relative to 1/gamma, which tells whether an order is exact: optimal pairs have tiny leading
/// error coefficients, e.g. Verner 8(7): |Phi - 1/gamma| <= 4e-7 at order 9 but |gamma Phi - 1| = 1e-2).
ConditionCheck worst_condition(const std::vector<RootedTree>& trees, const std::vector<std::vector<double>>& g, const double* b,
                               int stages, int order, bool relative = false);

/// The round-off a condition of order q may show with weights b when the coefficients are the
/// exact ones rounded to double: eps times the size of its terms, kappa = sum_i |b_i| max_i sum_j |a_ij|
/// (Verner's pairs have |b_i| ~ 175, so their conditions hold to ~1e-11, not 1e-16); at least 1e-13.
double condition_tolerance(int stages, const double* A, const double* b, int q);

}  // namespace liesim
