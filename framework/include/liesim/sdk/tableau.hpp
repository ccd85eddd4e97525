// Methods as data: Butcher tableaux, commutator corrections and commutator-free schemes.
// RKMK, Crouch–Grossman/commutator-free and classical RK read the same tables.
#pragma once
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace liesim {

/// Largest number of stages of a compiled-in table (13: Verner's 8(7) pair). The tables never cross
/// the plugin boundary (liesim::methods is a static library compiled into each integrator plugin, and
/// plugin.h has no table), so this size is not part of the ABI; the explicit steppers read a
/// RungeKuttaTable of any size (a table file may have more stages).
inline constexpr int max_stages = 13;
/// Largest number of exponentials per stage of a commutator-free scheme.
inline constexpr int max_exponentials = 3;

/// A Runge–Kutta method (c, A, b), explicit or implicit, with optional embedded weights b_hat
/// (ARKODE naming: NAME_stages_order_embeddedorder).
struct ButcherTableau {
  std::string_view name;     ///< e.g. "DORMAND_PRINCE_7_5_4"
  int stages;                ///< s
  int order;                 ///< order p of the main method
  int embedded_order;        ///< order of b_hat, 0 if none
  double c[max_stages];      ///< nodes
  double A[max_stages][max_stages];  ///< coefficients (strictly lower triangular for explicit methods)
  double b[max_stages];      ///< main weights
  double b_hat[max_stages];  ///< embedded weights (all 0 if none)
};

/// Largest degree in theta of a continuous extension's weights.
inline constexpr int max_dense_degree = 4;

/// A continuous extension (dense output) of an explicit Runge–Kutta method [Hairer–Nørsett–Wanner I,
/// §II.6]: the weights b_i(theta) = sum_k B[i][k-1] theta^k give
///   u(theta) = y_n + h sum_i b_i(theta) k_i,  theta in [0, 1],  b_i(1) = b_i,
/// an approximation of y(t_n + theta h) of order `order` (local error O(h^(order+1))). Since the
/// step's own global error is O(h^p), order >= p - 1 keeps the interpolated values at the method's
/// global order p. RKMK applies the same weights in the Lie algebra: sigma(theta) = h sum_i
/// b_i(theta) k_i and y(t_n + theta h) ~ exp(sigma(theta)) . y_n, on the manifold to round-off.
/// Stages the step itself may skip (an FSAL stage f(y_{n+1})) are computed when first needed.
struct ContinuousExtension {
  const ButcherTableau* tableau;
  int order;   ///< order of the interpolant
  int degree;  ///< highest power of theta
  double B[max_stages][max_dense_degree];
  /// b_i(theta).
  constexpr double weight(int i, double theta) const {
    double w = 0.0;
    for (int k = degree; k >= 1; --k) w = (w + B[i][k - 1]) * theta;
    return w;
  }
};

/// The continuous extension shipped for a tableau (nullptr if none: such methods interpolate by
/// repeating the step with theta h, the trivial extension of order p).
const ContinuousExtension* continuous_extension(const ButcherTableau& tableau);

/// A term coef * [K_i, K_j] (K = h f(Y)) added to the algebra argument of stage `row`
/// (row == stages: the update). Used by RKMK schemes that replace dexpinv by commutators.
struct CommutatorTerm {
  int row;
  int i;
  int j;
  double coefficient;
};

/// A product of exponentials exp(h sum_k alpha[J-1][k] f_k) ... exp(h sum_k alpha[0][k] f_k),
/// the first row acting first.
struct ExponentialProduct {
  int count;                                       ///< number J of exponentials
  double alpha[max_exponentials][max_stages];      ///< coefficients of h f_k per exponential
};

/// A commutator-free Lie group method [Celledoni–Marthinsen–Owren 2003; thesis §2.2.2]:
/// Y_r = (product of exponentials) . y_n, f_r = f(Y_r); update and embedded update likewise.
/// Crouch–Grossman methods are the special case with one f per exponential.
struct CommutatorFreeScheme {
  std::string_view name;     ///< e.g. "CF4_4_4"
  int stages;
  int order;
  int embedded_order;        ///< 0 if none
  double c[max_stages];
  ExponentialProduct stage[max_stages];  ///< stage[0] is the empty product (Y_1 = y_n)
  ExponentialProduct update;
  ExponentialProduct embedded;           ///< count 0 if none
};

/// Exponentials of a commutator-free scheme as its stepper reads them, of any number and over any
/// number of stages: exponential j (j = 0 acting first) is exp(h sum_k alpha[j s + k] f_k).
struct ExponentialList {
  int count = 0;              ///< number J of exponentials (0: the identity)
  int stages = 0;             ///< s: coefficients per exponential
  std::vector<double> alpha;  ///< J x s, row-major
  const double* row(int j) const { return alpha.data() + static_cast<std::size_t>(j) * stages; }
};

/// A commutator-free (or Crouch–Grossman) scheme of any size, as the commutator-free stepper reads
/// it: a compiled-in CommutatorFreeScheme copied exactly (commutator_free_table), or a scheme read
/// from a file (tableau_file.hpp).
struct CommutatorFreeTable {
  std::string name;
  int stages = 0;
  int order = 0;
  int embedded_order = 0;            ///< 0 if none
  std::vector<double> c;             ///< nodes
  std::vector<ExponentialList> stage;  ///< stage[0] is empty (Y_1 = y_n)
  ExponentialList update;
  ExponentialList embedded;          ///< count 0 if none
};

/// A compiled-in scheme as a CommutatorFreeTable (every coefficient copied: the same doubles).
CommutatorFreeTable commutator_free_table(const CommutatorFreeScheme& scheme);

/// An explicit Runge–Kutta table of any number of stages, as the explicit steppers (classical RK,
/// RKMK) read it: a compiled-in ButcherTableau copied exactly (runge_kutta_table), or a table read
/// from a file (tableau_file.hpp).
struct RungeKuttaTable {
  std::string name;
  int stages = 0;
  int order = 0;
  int embedded_order = 0;                       ///< 0 if none
  std::vector<double> c;                        ///< nodes
  std::vector<double> A;                        ///< s x s, row-major
  std::vector<double> b;                        ///< main weights
  std::vector<double> b_hat;                    ///< embedded weights (all 0 if none)
  const ContinuousExtension* dense = nullptr;   ///< the compiled-in continuous extension, if any
  /// Row i of A (s numbers).
  const double* row(int i) const { return A.data() + static_cast<std::size_t>(i) * stages; }
};

/// A compiled-in table as a RungeKuttaTable (every coefficient copied: the same doubles), with its
/// continuous extension.
RungeKuttaTable runge_kutta_table(const ButcherTableau& tableau);

/// The stages a step without an error estimate needs: up to the last one with a non-zero weight
/// in `weights` (b, or b_hat for a method that advances with it). The main method of an FSAL pair
/// skips its last stage: Dormand–Prince 5 has b_7 = 0, so a fixed-step DOPRI5 step takes 6.
inline int stages_needed(const RungeKuttaTable& t, const std::vector<double>& weights) {
  int s = t.stages;
  while (s > 1 && weights[s - 1] == 0.0) --s;
  return s;
}

/// Whether a tableau is explicit (A strictly lower triangular).
bool is_explicit(const ButcherTableau& t);
/// All shipped Butcher tableaux (explicit and implicit).
std::span<const ButcherTableau> butcher_tableaux();
/// All shipped commutator-free schemes.
std::span<const CommutatorFreeScheme> commutator_free_schemes();
/// A Butcher tableau by name (nullptr if unknown).
const ButcherTableau* find_butcher(std::string_view name);
/// A commutator-free scheme by name (nullptr if unknown).
const CommutatorFreeScheme* find_commutator_free(std::string_view name);
/// The Casas–Owren commutator corrections of RKMK4 with two commutators (on CLASSICAL_RK_4_4).
std::span<const CommutatorTerm> casas_owren_rkmk4_commutators();
/// The classical Butcher tableau a commutator-free scheme is consistent with:
/// a_rk = sum_j alpha^k_{r,j}, b_k = sum_j beta^k_j (thesis §2.2.2).
ButcherTableau consistent_butcher(const CommutatorFreeScheme& scheme);
/// The same for a scheme of any size: its consistent explicit Runge–Kutta table (b_hat from the
/// embedded exponentials).
RungeKuttaTable consistent_table(const CommutatorFreeTable& scheme);

}  // namespace liesim
