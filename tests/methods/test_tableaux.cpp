// The shipped coefficient tables: Butcher order conditions from rooted trees (liesim/sdk/order_conditions.hpp).
#include <liesim/sdk/order_conditions.hpp>
#include <liesim/sdk/tableau.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

using namespace liesim;

namespace {

using Tree = RootedTree;

/// The stage vectors of every tree for a compiled-in table (liesim/sdk/order_conditions.hpp).
struct Weights {
  int stages;
  std::vector<std::vector<double>> g;  // per tree
};

Weights stage_weights(const ButcherTableau& tab, const std::vector<Tree>& trees) {
  const RungeKuttaTable r = runge_kutta_table(tab);
  return {tab.stages, liesim::stage_weights(trees, tab.stages, r.A.data())};
}

/// Largest |Phi(t) - 1/gamma(t)| over the trees of exactly order `order` (`relative`: the largest
/// |gamma(t) Phi(t) - 1|, the error relative to the exact value).
double residual(const double* b, const Weights& w, const std::vector<Tree>& trees, int order, bool relative = false) {
  return worst_condition(trees, w.g, b, w.stages, order, relative).residual;
}

constexpr int max_tree_order = 9;    // order 8 tables are checked to be exactly order 8
constexpr double satisfied = 1e-13;  // conditions hold to round-off of the coefficients
constexpr double violated = 1e-6;    // a condition beyond the order fails clearly (relative to 1/gamma)

/// Round-off allowed in the conditions of order q with weights `b` (condition_tolerance).
double tolerance(const ButcherTableau& t, const double* b, int q) {
  const RungeKuttaTable r = runge_kutta_table(t);
  return condition_tolerance(t.stages, r.A.data(), b, q);
}

/// Checks the table's structure, its order conditions up to `order` and the failure at order + 1.
void check_tableau(const ButcherTableau& t, int order, int embedded_order, int classical_limit) {
  INFO("tableau: " << std::string(t.name));
  REQUIRE(t.stages >= 1);
  REQUIRE(t.stages <= max_stages);
  const auto trees = rooted_trees(max_tree_order);
  const Weights w = stage_weights(t, trees);

  // Explicit tables: A strictly lower triangular; every table: unused rows and columns zero.
  const bool expl = is_explicit(t);
  CHECK(expl == (std::string(t.name).rfind("GAUSS", 0) != 0));
  for (int i = 0; i < max_stages; ++i)
    for (int j = 0; j < max_stages; ++j)
      if ((expl && j >= i) || i >= t.stages || j >= t.stages) {
        CAPTURE(i);
        CAPTURE(j);
        CHECK(t.A[i][j] == 0.0);
      }
  // Row-sum condition c_i = sum_j a_ij.
  for (int i = 0; i < t.stages; ++i) {
    double sum = 0;
    for (int j = 0; j < t.stages; ++j) sum += t.A[i][j];
    CAPTURE(i);
    CHECK(std::abs(t.c[i] - sum) <= satisfied);
  }

  const int checked = std::min(order, classical_limit);
  for (int q = 1; q <= checked; ++q) {
    CAPTURE(q);
    const double tol = tolerance(t, t.b, q);
    CAPTURE(tol);
    CHECK(residual(t.b, w, trees, q) <= tol);
  }
  if (checked == order) {
    // The stated order is exact: some condition of order p + 1 fails. Relative to 1/gamma: the
    // optimal pairs have tiny leading error coefficients (Verner 8(7): |Phi - 1/gamma| <= 4e-7 at
    // order 9, but |gamma Phi - 1| = 1e-2).
    CHECK(residual(t.b, w, trees, order + 1, true) > violated);
  }

  bool any_hat = false;
  for (int i = 0; i < max_stages; ++i) any_hat = any_hat || t.b_hat[i] != 0.0;
  CHECK(any_hat == (embedded_order > 0));
  if (embedded_order > 0) {
    INFO("embedded weights");
    const int checked_hat = std::min(embedded_order, classical_limit);
    for (int q = 1; q <= checked_hat; ++q) {
      CAPTURE(q);
      const double tol = tolerance(t, t.b_hat, q);
      CAPTURE(tol);
      CHECK(residual(t.b_hat, w, trees, q) <= tol);
    }
    if (checked_hat == embedded_order) CHECK(residual(t.b_hat, w, trees, embedded_order + 1, true) > violated);
  }
}

}  // namespace

TEST_CASE("rooted trees are generated with the right counts and densities") {
  const auto trees = rooted_trees(max_tree_order);
  // Number of rooted trees with n vertices (OEIS A000081): 1, 1, 2, 4, 9, 20, 48, 115, 286.
  const int expected[] = {0, 1, 1, 2, 4, 9, 20, 48, 115, 286};
  for (int n = 1; n <= max_tree_order; ++n) {
    CAPTURE(n);
    CHECK(std::count_if(trees.begin(), trees.end(), [n](const Tree& t) { return t.order == n; }) == expected[n]);
  }
  // Sum over trees of order n of n!/(gamma(t) sigma(t)) = n^(n-1) would need symmetries; instead
  // check a few densities: the bushy tree of order n has gamma = n, the tall tree n!.
  double tall = 1, gamma_max = 0, gamma_min = 1e300;
  for (const Tree& t : trees)
    if (t.order == 5) {
      gamma_max = std::max(gamma_max, t.gamma);
      gamma_min = std::min(gamma_min, t.gamma);
    }
  for (int k = 1; k <= 5; ++k) tall *= k;
  CHECK(gamma_max == tall);
  CHECK(gamma_min == 5.0);
  // Children lists are canonical: no two trees are the same.
  for (std::size_t a = 0; a < trees.size(); ++a)
    for (std::size_t b = a + 1; b < trees.size(); ++b) CHECK_FALSE(trees[a].children == trees[b].children);
}

TEST_CASE("every Butcher tableau satisfies its order conditions, and its order is exact") {
  REQUIRE(butcher_tableaux().size() >= 6);
  for (const ButcherTableau& t : butcher_tableaux()) {
    REQUIRE(t.order <= max_tree_order - 1);
    check_tableau(t, t.order, t.embedded_order, max_tree_order);
    CHECK(find_butcher(t.name) == &t);
  }
}

TEST_CASE("Verner's 6(5) and 8(7) pairs: every condition up to the order holds, the next one fails") {
  // Checked above with all the tables; here the figures, and the embedded orders spelled out.
  const auto trees = rooted_trees(max_tree_order);
  for (const char* name : {"VERNER_9_6_5", "VERNER_13_8_7"}) {
    const ButcherTableau* t = find_butcher(name);
    REQUIRE(t != nullptr);
    const std::string label = name;
    INFO("tableau: " << label);
    const Weights w = stage_weights(*t, trees);
    for (const bool embedded : {false, true}) {
      const double* b = embedded ? t->b_hat : t->b;
      const int p = embedded ? t->embedded_order : t->order;
      double worst = 0, worst_tol = 0;
      for (int q = 1; q <= p; ++q) {
        worst = std::max(worst, residual(b, w, trees, q));
        worst_tol = std::max(worst_tol, tolerance(*t, b, q));
      }
      const double next = residual(b, w, trees, p + 1, true);
      MESSAGE(label << std::string(embedded ? " embedded" : " main") << ": order " << p << ", max |Phi - 1/gamma| up to order " << p
                   << " = " << worst << " (allowed " << worst_tol << "), max |gamma Phi - 1| at order " << p + 1 << " = " << next);
      CHECK(worst <= worst_tol);
      CHECK(next > violated);
    }
  }
  CHECK(find_butcher("VERNER_9_6_5")->order == 6);
  CHECK(find_butcher("VERNER_9_6_5")->embedded_order == 5);
  CHECK(find_butcher("VERNER_13_8_7")->order == 8);
  CHECK(find_butcher("VERNER_13_8_7")->embedded_order == 7);
}

TEST_CASE("the order check detects a wrong coefficient") {
  // Perturbing one coefficient of RK4 by 1e-3 breaks an order condition.
  ButcherTableau t = *find_butcher("CLASSICAL_RK_4_4");
  const auto trees = rooted_trees(4);
  t.A[3][2] += 1e-3;
  t.c[3] += 1e-3;
  const Weights w = stage_weights(t, trees);
  double worst = 0;
  for (int q = 1; q <= 4; ++q) worst = std::max(worst, residual(t.b, w, trees, q));
  CHECK(worst > violated);
}

TEST_CASE("commutator-free schemes: the consistent Butcher tableau satisfies the classical conditions") {
  REQUIRE(commutator_free_schemes().size() >= 5);
  for (const CommutatorFreeScheme& s : commutator_free_schemes()) {
    INFO("scheme: " << std::string(s.name));
    CHECK(find_commutator_free(s.name) == &s);
    REQUIRE(s.stages <= max_stages);
    CHECK(s.stage[0].count == 0);  // Y_1 = y_n
    for (int r = 0; r < s.stages; ++r) {
      REQUIRE(s.stage[r].count <= max_exponentials);
      // An exponential of stage r uses only f_1 .. f_{r-1} (explicit).
      for (int j = 0; j < s.stage[r].count; ++j)
        for (int k = r; k < max_stages; ++k) CHECK(s.stage[r].alpha[j][k] == 0.0);
    }
    CHECK((s.embedded.count > 0) == (s.embedded_order > 0));
    const ButcherTableau t = consistent_butcher(s);
    CHECK(t.stages == s.stages);
    // The classical conditions up to order 3 (the Lie conditions are checked by convergence).
    check_tableau(t, s.order, s.embedded_order, 3);
    // Applied to an abelian group (translations of R^n) a CF method IS its consistent RK method,
    // so the classical conditions must hold to the full order as well.
    const auto trees = rooted_trees(max_tree_order);
    const Weights w = stage_weights(t, trees);
    for (int q = 1; q <= s.order; ++q) {
      CAPTURE(q);
      CHECK(residual(t.b, w, trees, q) <= satisfied);
    }
    for (int q = 1; q <= s.embedded_order; ++q) {
      CAPTURE(q);
      CHECK(residual(t.b_hat, w, trees, q) <= satisfied);
    }
  }
}

TEST_CASE("Casas-Owren commutators sit on RK4 and reference earlier stages only") {
  const ButcherTableau* rk4 = find_butcher("CLASSICAL_RK_4_4");
  REQUIRE(rk4 != nullptr);
  const auto terms = casas_owren_rkmk4_commutators();
  REQUIRE(terms.size() == 2);
  for (const CommutatorTerm& c : terms) {
    CHECK(c.row >= 1);
    CHECK(c.row <= rk4->stages);
    CHECK(c.i < c.row);
    CHECK(c.j < c.row);
    CHECK(c.i != c.j);
  }
  // Stage 3: 1/2 K2 - 1/8 [K1, K2]; update: 1/6 (... - 1/2 [K1, K4]) [thesis §1.4.1].
  CHECK(terms[0].row == 2);
  CHECK(terms[0].coefficient == doctest::Approx(-1.0 / 8));
  CHECK(terms[1].row == 4);
  CHECK(terms[1].coefficient == doctest::Approx(-1.0 / 12));
}

TEST_CASE("continuous extensions: b_i(1) = b_i, the order conditions in theta hold to their order, the next fails") {
  const auto trees = rooted_trees(6);
  int checked = 0;
  for (const ButcherTableau& t : butcher_tableaux()) {
    const ContinuousExtension* e = continuous_extension(t);
    if (e == nullptr) continue;
    ++checked;
    INFO("tableau: " << std::string(t.name) << ", interpolant order " << e->order);
    REQUIRE(e->degree <= max_dense_degree);
    for (int i = 0; i < t.stages; ++i) CHECK(std::abs(e->weight(i, 1.0) - t.b[i]) < satisfied);
    const Weights w = stage_weights(t, trees);
    // Phi_t(b(theta)) = theta^|t| / gamma(t) for every tree t with |t| <= order [HNW I, Theorem II.6.1].
    double beyond = 0;
    for (const double theta : {0.25, 0.5, 0.8, 1.0}) {
      CAPTURE(theta);
      double b[max_stages] = {};
      for (int i = 0; i < t.stages; ++i) b[i] = e->weight(i, theta);
      for (std::size_t k = 0; k < trees.size(); ++k) {
        if (trees[k].order > e->order + 1) continue;
        double phi = 0;
        for (int i = 0; i < t.stages; ++i) phi += b[i] * w.g[k][i];
        const double exact = std::pow(theta, trees[k].order) / trees[k].gamma;
        if (trees[k].order <= e->order) {
          CAPTURE(trees[k].order);
          CHECK(std::abs(phi - exact) < satisfied);
        } else if (theta < 1.0) {
          beyond = std::max(beyond, std::abs(phi - exact) / exact);
        }
      }
    }
    CHECK(beyond > violated);  // the stated order is the interpolant's exact order
  }
  CHECK(checked == 6);
  // Verner's pairs and the implicit tables ship none (they interpolate by a step of theta h).
  CHECK(continuous_extension(*find_butcher("VERNER_9_6_5")) == nullptr);
}
