// Explicit Runge–Kutta tables and commutator-free schemes read at run time from TOML files
// (docs/tableaux.md), checked at load for the orders they claim: methods `rk` (classical) and `rkmk`
// (Lie group) run any Runge–Kutta table, `cf` any commutator-free (or Crouch–Grossman) scheme.
#pragma once
#include <liesim/sdk/settings.hpp>
#include <liesim/sdk/tableau.hpp>

#include <string>
#include <string_view>

namespace liesim {

/// Highest order whose conditions a table file may claim (1842 trees up to order 10).
inline constexpr int max_checked_order = 10;

/// A number of a table file: "P/Q" (integers of any length) correctly rounded to the nearest double,
/// or an integer or decimal; throws liesim::Error naming `what` if it is neither or not finite.
double parse_coefficient(std::string_view text, const std::string& what);

/// The table in `text` (TOML: name, order, c, A, b, optional b_embedded and embedded_order), checked
/// with check_tableau; `source` names it in messages (a file's path).
RungeKuttaTable parse_tableau(std::string_view text, const std::string& source);

/// The table in file `path` (parse_tableau).
RungeKuttaTable read_tableau_file(const std::string& path);

/// The table of an explicit method: the compiled-in table `compiled` when it is not null, else
/// the file of option `tableau` (methods rk and rkmk); an error naming `method` when there is none.
RungeKuttaTable method_table(const char* compiled, const Settings& options, const std::string& method);

/// Checks the row sums c_i = sum_j a_ij and Butcher's order conditions up to the claimed orders of b
/// and b_embedded; throws liesim::Error naming `source`, the failed condition (its tree and its sum)
/// and the values.
void check_tableau(const RungeKuttaTable& table, const std::string& source);

/// The commutator-free scheme in `text` (TOML: name, order, c, stages, update, optional
/// update_embedded and embedded_order), checked with check_commutator_free.
CommutatorFreeTable parse_commutator_free(std::string_view text, const std::string& source);

/// The scheme in file `path` (parse_commutator_free).
CommutatorFreeTable read_commutator_free_file(const std::string& path);

/// The scheme of a commutator-free method: the compiled-in scheme `compiled` when it is not null,
/// else the file of option `tableau` (method cf).
CommutatorFreeTable method_scheme(const char* compiled, const Settings& options, const std::string& method);

/// Checks a scheme: the nodes c_r = the sums of stage r's coefficients, the classical conditions of
/// its consistent Butcher table (named by tree, as check_tableau), then the commutator-free ones on
/// the generic problem (lie_order_conditions.hpp), for the update and the embedded update up to
/// their claimed orders (at most max_commutator_free_order); throws liesim::Error naming `source`.
void check_commutator_free(const CommutatorFreeTable& scheme, const std::string& source);

}  // namespace liesim
