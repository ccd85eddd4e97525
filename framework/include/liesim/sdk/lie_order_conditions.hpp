// The order of a commutator-free (or Crouch–Grossman) scheme as a Lie group method. Its consistent
// Butcher table meeting the classical conditions is necessary, not sufficient: the exponentials'
// order and split add conditions from order 3 on [Owren, J. Phys. A 39 (2006)] (1, 1, 3, 8
// conditions at orders 1-4 in all [Munthe-Kaas & Krogstad, FGCS 19 (2003)]). They are checked on
// a generic problem instead of listed: Y' = f(Y) Y on GL(3), f a cubic polynomial of Y's entries
// with fixed pseudo-random coefficients, where the local error's Taylor coefficients, computed
// exactly in truncated power series of h, vanish to order p exactly when the scheme has order p
// (the elementary differentials of the problem up to order 4 being independent).
#pragma once
#include <liesim/sdk/tableau.hpp>

namespace liesim {

/// Highest order of a commutator-free scheme whose conditions are checked (the test problem's
/// field is cubic: order 5 would need its fourth derivatives).
inline constexpr int max_commutator_free_order = 4;

/// The first failing order of a scheme's result, with the size of the local error's coefficient.
struct LieOrderFailure {
  int order = 0;            ///< q: the local error's h^q coefficient is not 0 (0: none up to the order asked)
  double coefficient = 0;   ///< its largest entry in absolute value
  double tolerance = 0;     ///< what counts as 0
};

/// Whether the exponentials `result` (the update or the embedded update) of scheme `s` give a
/// local error O(h^(p+1)) on the generic problem: the first q <= p whose coefficient is not 0.
/// p <= max_commutator_free_order.
LieOrderFailure first_failing_order(const CommutatorFreeTable& s, const ExponentialList& result, int p);

}  // namespace liesim
