// Table files (TOML, read with toml++): exact fractions, strict keys, the claimed orders checked.
#include <liesim/sdk/lie_order_conditions.hpp>
#include <liesim/sdk/order_conditions.hpp>
#include <liesim/sdk/status.hpp>
#include <liesim/sdk/tableau_file.hpp>

#include <boost/multiprecision/cpp_int.hpp>
#include <fmt/format.h>
// toml++ compiled into this file (header-only), its symbols hidden as in study/src/study_file.cpp (the study library).
#define TOML_HEADER_ONLY 1
#pragma GCC visibility push(hidden)
#include <toml++/toml.h>
#pragma GCC visibility pop

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>

namespace liesim {

namespace {

using boost::multiprecision::cpp_int;

/// p/q (p, q > 0) rounded to the nearest double, ties to even: the quotient scaled to 53 bits by a
/// power of two, its remainder deciding the last bit. (Dividing two doubles would round p and q
/// first when they exceed 2^53, as the published rationals of high-order pairs do.)
double rounded_quotient(const cpp_int& p, const cpp_int& q) {
  long shift = 53 - (static_cast<long>(msb(p)) - static_cast<long>(msb(q)));  // p 2^shift / q near 2^53
  for (;;) {
    const cpp_int num = shift >= 0 ? cpp_int(p << shift) : p;
    const cpp_int den = shift >= 0 ? q : cpp_int(q << -shift);
    cpp_int quotient = num / den;
    const cpp_int remainder = num - quotient * den;
    if (quotient >= (cpp_int(1) << 53)) {  // one bit too many: scale down once more
      --shift;
      continue;
    }
    if (quotient < (cpp_int(1) << 52)) {
      ++shift;
      continue;
    }
    const int half = cpp_int(remainder * 2).compare(den);
    if (half > 0 || (half == 0 && (quotient & 1) != 0)) ++quotient;
    return std::ldexp(quotient.convert_to<double>(), static_cast<int>(-shift));
  }
}

/// Digits with an optional sign, as a big integer (false if not that).
bool parse_integer(std::string_view s, cpp_int& out, bool& negative) {
  negative = false;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s.empty() || s.size() > 4000) return false;
  out = 0;
  for (char ch : s) {
    if (ch < '0' || ch > '9') return false;
    out = out * 10 + (ch - '0');
  }
  return true;
}

/// The coefficient at node `n` (a TOML float, integer or string).
double coefficient(const toml::node& n, const std::string& what) {
  if (const auto* f = n.as_floating_point()) {
    if (!std::isfinite(f->get())) throw Error(fmt::format("{} is not finite ({})", what, f->get()));
    return f->get();
  }
  if (const auto* i = n.as_integer()) return static_cast<double>(i->get());
  if (const auto* s = n.as_string()) return parse_coefficient(s->get(), what);
  throw Error(fmt::format("{} must be a number or a fraction as a string (\"37/378\")", what));
}

/// Where a table's keys are: the source and the line of a node.
std::string at(const std::string& source, const toml::node& n) { return fmt::format("{}:{}", source, n.source().begin.line); }

/// A TOML array of coefficients.
std::vector<double> coefficients(const std::string& source, const toml::table& t, const std::string& key, bool required) {
  const toml::node* n = t.get(key);
  if (n == nullptr) {
    if (required) throw Error(fmt::format("{}: the table has no '{}' (an array of numbers)", source, key));
    return {};
  }
  const toml::array* a = n->as_array();
  if (a == nullptr) throw Error(fmt::format("{}: '{}' must be an array of numbers", at(source, *n), key));
  std::vector<double> out;
  for (std::size_t k = 0; k < a->size(); ++k) out.push_back(coefficient(*a->get(k), fmt::format("{}: {}[{}]", at(source, *n), key, k + 1)));
  return out;
}

int integer_key(const std::string& source, const toml::table& t, const std::string& key, bool required) {
  const toml::node* n = t.get(key);
  if (n == nullptr) {
    if (required) throw Error(fmt::format("{}: the table has no '{}' (an integer)", source, key));
    return 0;
  }
  const auto* i = n->as_integer();
  if (i == nullptr || i->get() < 1 || i->get() > 1000)
    throw Error(fmt::format("{}: '{}' must be a positive integer", at(source, *n), key));
  return static_cast<int>(i->get());
}

/// The strictly lower triangle A: s - 1 rows (rows 2..s, row i with i - 1 numbers) or s rows with
/// an empty first row.
std::vector<double> lower_triangle(const std::string& source, const toml::table& t, int s) {
  const toml::node* n = t.get("A");
  if (n == nullptr) throw Error(fmt::format("{}: the table has no 'A' (its rows: the strictly lower triangle)", source));
  const toml::array* rows = n->as_array();
  if (rows == nullptr) throw Error(fmt::format("{}: 'A' must be an array of rows", at(source, *n)));
  const int given = static_cast<int>(rows->size());
  const int first = given == s ? 0 : 1;  // index of the stage of rows[0]
  if (given != s && given != s - 1)
    throw Error(fmt::format("{}: 'A' has {} rows; a table of {} stages (the length of b) needs {} (rows 2..{}, the strictly lower triangle)",
                            at(source, *n), given, s, s - 1, s));
  std::vector<double> A(static_cast<std::size_t>(s) * s, 0.0);
  for (int r = 0; r < given; ++r) {
    const int i = first + r;
    const toml::array* row = rows->get(r)->as_array();
    if (row == nullptr) throw Error(fmt::format("{}: row {} of 'A' must be an array of numbers", at(source, *rows->get(r)), i + 1));
    if (static_cast<int>(row->size()) != i)
      throw Error(fmt::format("{}: row {} of 'A' has {} numbers; an explicit method's row {} has {} (a_{},1 .. a_{},{})",
                              at(source, *rows->get(r)), i + 1, row->size(), i + 1, i, i + 1, i + 1, i));
    for (int j = 0; j < i; ++j)
      A[static_cast<std::size_t>(i) * s + j] = coefficient(*row->get(j), fmt::format("{}: a_{},{}", at(source, *row->get(j)), i + 1, j + 1));
  }
  return A;
}

/// Sum of row i of A.
double row_sum(const RungeKuttaTable& t, int i) {
  double sum = 0;
  for (int j = 0; j < t.stages; ++j) sum += t.row(i)[j];
  return sum;
}

/// The first stage i whose node c_i is not the sum of row i of A (to round-off: 8 eps sum_j |a_ij|,
/// at least 1e-13); -1 when every node is.
int first_inconsistent_node(const RungeKuttaTable& t) {
  for (int i = 0; i < t.stages; ++i) {
    double size = 1;
    for (int j = 0; j < t.stages; ++j) size += std::abs(t.row(i)[j]);
    if (std::abs(t.c[i] - row_sum(t, i)) > std::max(1e-13, 8 * 2.220446049250313e-16 * size)) return i;
  }
  return -1;
}

/// Checks the conditions of orders 1..order for weights b; throws naming the first that fails.
void check_orders(const RungeKuttaTable& t, const std::vector<double>& b, int order, const std::string& weights,
                  const std::string& source, const std::string& what = "table") {
  const auto trees = rooted_trees(order);
  const auto g = stage_weights(trees, t.stages, t.A.data());
  for (int q = 1; q <= order; ++q) {
    const ConditionCheck worst = worst_condition(trees, g, b.data(), t.stages, q);
    const double tol = condition_tolerance(t.stages, t.A.data(), b.data(), q);
    if (worst.residual > tol)
      throw Error(fmt::format("{}: {} '{}' claims {} of order {}, but fails the order-{} condition of tree {}: {} "
                              "(it gives {:.17g}, off by {:.3g}; tolerance {:.3g}). Check the coefficients, or claim order {}",
                              source, what, t.name, weights, order, q, tree_text(trees, worst.tree), condition_text(trees, worst.tree),
                              worst.phi, worst.phi - worst.exact, tol, q - 1));
  }
}

/// The keys of each kind of table file, and how to run the other kind.
const std::set<std::string> runge_kutta_keys{"name", "order", "c", "A", "b", "b_embedded", "embedded_order"};
const std::set<std::string> commutator_free_keys{"name", "order", "c", "stages", "update", "update_embedded", "embedded_order"};

/// The TOML document of a table file, its keys among `allowed`; a file of the other kind is named as such.
toml::table parse_document(std::string_view text, const std::string& source, const std::set<std::string>& allowed) {
  toml::table doc;
  try {
    doc = toml::parse(text, source);
  } catch (const toml::parse_error& e) {
    throw Error(fmt::format("{}:{}: not valid TOML: {}", source, e.source().begin.line, e.description()));
  }
  const bool runge_kutta = &allowed == &runge_kutta_keys;
  if (runge_kutta && (doc.contains("update") || doc.contains("stages")))
    throw Error(fmt::format("{}: this is a commutator-free scheme (stages, update): run it with the method cf (docs/tableaux.md)", source));
  if (!runge_kutta && (doc.contains("A") || doc.contains("b")))
    throw Error(fmt::format("{}: this is a Runge–Kutta table (A, b): run it with the methods rk or rkmk; a commutator-free scheme "
                            "has 'stages' and 'update' (docs/tableaux.md)", source));
  for (const auto& [key, node] : doc)
    if (!allowed.contains(std::string(key.str())))
      throw Error(fmt::format("{}: unknown key '{}' ({})", at(source, node), key.str(),
                              runge_kutta ? "a table has name, order, c, A, b and optionally b_embedded and embedded_order"
                                          : "a scheme has name, order, c, stages, update and optionally update_embedded and embedded_order"));
  return doc;
}

std::string name_key(const std::string& source, const toml::table& doc) {
  const auto* name = doc.get("name") ? doc.get("name")->as_string() : nullptr;
  if (name == nullptr || name->get().empty()) throw Error(fmt::format("{}: the table needs a 'name' (a non-empty string)", source));
  return std::string(name->get());
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw Error(fmt::format("cannot read the table file '{}' ({})", path, std::strerror(errno)));
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

/// A list of exponentials at node n of a scheme of s stages: an array of exponentials, each an array
/// of at most `available` coefficients (of h f_1, h f_2, ...; missing ones are 0).
ExponentialList exponentials(const std::string& source, const toml::node& n, int s, int available, const std::string& what) {
  const toml::array* list = n.as_array();
  if (list == nullptr) throw Error(fmt::format("{}: {} must be an array of exponentials, each an array of numbers", at(source, n), what));
  ExponentialList l{static_cast<int>(list->size()), s, std::vector<double>(list->size() * static_cast<std::size_t>(s), 0.0)};
  for (std::size_t j = 0; j < list->size(); ++j) {
    const toml::array* e = list->get(j)->as_array();
    const std::string which = fmt::format("exponential {} of {}", j + 1, what);
    if (e == nullptr) throw Error(fmt::format("{}: {} must be an array of numbers (of h f_1, h f_2, ...)", at(source, *list->get(j)), which));
    if (static_cast<int>(e->size()) > available)
      throw Error(fmt::format("{}: {} has {} numbers; it may use f_1 .. f_{} only ({} numbers at most: an explicit scheme)",
                              at(source, *list->get(j)), which, e->size(), available, available));
    for (std::size_t k = 0; k < e->size(); ++k)
      l.alpha[j * s + k] = coefficient(*e->get(k), fmt::format("{}: {}, coefficient {}", at(source, *e->get(k)), which, k + 1));
  }
  return l;
}

/// Checks the exponentials `result` of scheme s for the Lie group order `order` on the generic problem.
void check_lie_order(const CommutatorFreeTable& s, const ExponentialList& result, int order, const std::string& what,
                     const std::string& source) {
  const LieOrderFailure f = first_failing_order(s, result, order);
  if (f.order == 0) return;
  throw Error(fmt::format("{}: scheme '{}' claims {} of order {}, but fails a commutator-free order condition of order {}: its "
                          "consistent Butcher table meets the classical conditions, the order or split of its exponentials does "
                          "not (on the generic test problem the local error's h^{} coefficient is {:.3g}, tolerance {:.3g}). "
                          "Check the coefficients and the order of the exponentials (the first acts first), or claim order {}",
                          source, s.name, what, order, f.order, f.order, f.coefficient, f.tolerance, f.order - 1));
}

}  // namespace

double parse_coefficient(std::string_view text, const std::string& what) {
  std::string s(text);
  s.erase(0, s.find_first_not_of(" \t"));
  s.erase(s.find_last_not_of(" \t") + 1);
  const auto slash = s.find('/');
  if (slash != std::string::npos) {
    cpp_int p, q;
    bool neg_p = false, neg_q = false;
    if (!parse_integer(std::string_view(s).substr(0, slash), p, neg_p) || !parse_integer(std::string_view(s).substr(slash + 1), q, neg_q) ||
        neg_q || q == 0)
      throw Error(fmt::format("{}: '{}' is not a fraction P/Q of integers with Q > 0", what, s));
    if (p == 0) return 0.0;
    const double v = rounded_quotient(p, q);
    if (!std::isfinite(v) || v == 0.0) throw Error(fmt::format("{}: '{}' is out of the range of a double", what, s));
    return neg_p ? -v : v;
  }
  // A decimal: digits, sign, point and exponent only (strtod would also take hex, "inf" and "nan").
  if (s.find_first_not_of("0123456789+-.eE") != std::string::npos)
    throw Error(fmt::format("{}: '{}' is not a number (a fraction \"P/Q\", an integer or a decimal)", what, s));
  errno = 0;
  char* end = nullptr;
  const double v = s.empty() ? 0.0 : std::strtod(s.c_str(), &end);
  if (s.empty() || end != s.c_str() + s.size() || errno == ERANGE || !std::isfinite(v))
    throw Error(fmt::format("{}: '{}' is not a number (a fraction \"P/Q\", an integer or a decimal)", what, s));
  return v;
}

RungeKuttaTable parse_tableau(std::string_view text, const std::string& source) {
  const toml::table doc = parse_document(text, source, runge_kutta_keys);
  RungeKuttaTable t;
  t.name = name_key(source, doc);
  t.order = integer_key(source, doc, "order", true);
  t.b = coefficients(source, doc, "b", true);
  t.stages = static_cast<int>(t.b.size());
  if (t.stages < 1) throw Error(fmt::format("{}: 'b' is empty; a table has at least one stage", source));
  t.c = coefficients(source, doc, "c", true);
  if (static_cast<int>(t.c.size()) != t.stages)
    throw Error(fmt::format("{}: 'c' has {} numbers and 'b' {}: one node and one weight per stage", source, t.c.size(), t.stages));
  t.A = lower_triangle(source, doc, t.stages);
  t.b_hat = coefficients(source, doc, "b_embedded", false);
  t.embedded_order = integer_key(source, doc, "embedded_order", false);
  if (t.b_hat.empty() != (t.embedded_order == 0))
    throw Error(fmt::format("{}: give both 'b_embedded' and 'embedded_order' (an embedded pair), or neither", source));
  if (t.b_hat.empty()) t.b_hat.assign(t.stages, 0.0);
  else if (static_cast<int>(t.b_hat.size()) != t.stages)
    throw Error(fmt::format("{}: 'b_embedded' has {} numbers and 'b' {}", source, t.b_hat.size(), t.stages));
  check_tableau(t, source);
  return t;
}

RungeKuttaTable read_tableau_file(const std::string& path) { return parse_tableau(read_text(path), path); }

namespace {
/// The file of option `tableau`; an error naming `method` when there is none.
std::string table_file(const Settings& options, const std::string& method) {
  if (!options.has("tableau") || options.text("tableau").empty())
    throw Error(fmt::format("method '{}' runs a coefficient table read from a file: give --tableau FILE (option tableau=FILE; the "
                            "shipped tables are in share/liesim/tableaux, the format in docs/tableaux.md)", method));
  return options.text("tableau");
}
}  // namespace

RungeKuttaTable method_table(const char* compiled, const Settings& options, const std::string& method) {
  if (compiled != nullptr) return runge_kutta_table(*find_butcher(compiled));
  return read_tableau_file(table_file(options, method));
}

CommutatorFreeTable method_scheme(const char* compiled, const Settings& options, const std::string& method) {
  if (compiled != nullptr) return commutator_free_table(*find_commutator_free(compiled));
  return read_commutator_free_file(table_file(options, method));
}

CommutatorFreeTable parse_commutator_free(std::string_view text, const std::string& source) {
  const toml::table doc = parse_document(text, source, commutator_free_keys);
  CommutatorFreeTable t;
  t.name = name_key(source, doc);
  t.order = integer_key(source, doc, "order", true);
  t.c = coefficients(source, doc, "c", true);
  t.stages = static_cast<int>(t.c.size());
  if (t.stages < 1) throw Error(fmt::format("{}: 'c' is empty; a scheme has at least one stage (one node each)", source));
  const toml::node* stages = doc.get("stages");
  const toml::array* rows = stages ? stages->as_array() : nullptr;
  if (rows == nullptr)
    throw Error(fmt::format("{}: the scheme needs 'stages': for each stage 2..s its exponentials (the first acting first on y_n), "
                            "each an array of coefficients of h f_1, h f_2, ...", source));
  const int given = static_cast<int>(rows->size());
  if (given != t.stages && given != t.stages - 1)
    throw Error(fmt::format("{}: 'stages' has {} entries; a scheme of {} stages (the length of c) needs {} (stages 2..{}; Y_1 = y_n)",
                            at(source, *stages), given, t.stages, t.stages - 1, t.stages));
  const int first = given == t.stages ? 0 : 1;
  if (first == 1) t.stage.push_back(ExponentialList{0, t.stages, {}});
  for (int r = 0; r < given; ++r)
    t.stage.push_back(exponentials(source, *rows->get(r), t.stages, first + r, fmt::format("stage {}", first + r + 1)));
  if (t.stage[0].count != 0) throw Error(fmt::format("{}: stage 1 must have no exponentials (Y_1 = y_n): give []", at(source, *rows->get(0))));
  const toml::node* update = doc.get("update");
  if (update == nullptr) throw Error(fmt::format("{}: the scheme needs 'update': the exponentials of y_(n+1)", source));
  t.update = exponentials(source, *update, t.stages, t.stages, "the update");
  t.embedded_order = integer_key(source, doc, "embedded_order", false);
  const toml::node* embedded = doc.get("update_embedded");
  if ((embedded == nullptr) != (t.embedded_order == 0))
    throw Error(fmt::format("{}: give both 'update_embedded' and 'embedded_order' (an embedded pair), or neither", source));
  t.embedded = embedded ? exponentials(source, *embedded, t.stages, t.stages, "the embedded update") : ExponentialList{0, t.stages, {}};
  check_commutator_free(t, source);
  return t;
}

CommutatorFreeTable read_commutator_free_file(const std::string& path) { return parse_commutator_free(read_text(path), path); }

void check_commutator_free(const CommutatorFreeTable& t, const std::string& source) {
  if (t.order > max_commutator_free_order || t.embedded_order > max_commutator_free_order)
    throw Error(fmt::format("{}: scheme '{}' claims order {}; the commutator-free conditions are checked to order {} only", source,
                            t.name, std::max(t.order, t.embedded_order), max_commutator_free_order));
  const RungeKuttaTable consistent = consistent_table(t);
  if (const int i = first_inconsistent_node(consistent); i >= 0)
    throw Error(fmt::format("{}: scheme '{}': node c_{} = {:.17g} is not the sum of stage {}'s coefficients over its exponentials "
                            "({:.17g})", source, t.name, i + 1, t.c[i], i + 1, row_sum(consistent, i)));
  const std::string what = "the consistent Butcher table of scheme";
  check_orders(consistent, consistent.b, t.order, "its update", source, what);
  check_lie_order(t, t.update, t.order, "its update", source);
  if (t.embedded_order > 0) {
    check_orders(consistent, consistent.b_hat, t.embedded_order, "its embedded update", source, what);
    check_lie_order(t, t.embedded, t.embedded_order, "its embedded update", source);
    if (t.embedded.alpha == t.update.alpha && t.embedded.count == t.update.count)
      throw Error(fmt::format("{}: scheme '{}': update_embedded equals update, so it estimates no error", source, t.name));
  }
}

void check_tableau(const RungeKuttaTable& t, const std::string& source) {
  if (t.order > max_checked_order || t.embedded_order > max_checked_order)
    throw Error(fmt::format("{}: table '{}' claims order {}; orders above {} are not checked", source, t.name,
                            std::max(t.order, t.embedded_order), max_checked_order));
  if (const int i = first_inconsistent_node(t); i >= 0)
    throw Error(fmt::format("{}: table '{}': node c_{} = {:.17g} is not the sum of row {} of A ({:.17g}): c_i = sum_j a_ij", source,
                            t.name, i + 1, t.c[i], i + 1, row_sum(t, i)));
  check_orders(t, t.b, t.order, "b", source);
  if (t.embedded_order > 0) {
    check_orders(t, t.b_hat, t.embedded_order, "b_embedded", source);
    if (t.b_hat == t.b) throw Error(fmt::format("{}: table '{}': b_embedded equals b, so it estimates no error", source, t.name));
  }
}

}  // namespace liesim
