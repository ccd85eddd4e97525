// Coefficient tables read from files (liesim/sdk/tableau_file.hpp, methods rk and rkmk): exact
// fractions, the shipped files equal to the compiled-in tables bit for bit, wrong tables refused
// naming the condition, and runs from the shipped files bit-identical to the compiled-in methods.
#include "common.hpp"

#include <liesim/sdk/order_conditions.hpp>
#include <liesim/sdk/status.hpp>
#include <liesim/sdk/tableau_file.hpp>

#include <cmath>
#include <cstring>
#include <string>

using namespace liesim;
using namespace liesim::test;
using namespace liesim::test::methods;

namespace {

/// A table text with the given lines after a valid two-stage header (Heun's method).
std::string heun_with(const std::string& replace_key, const std::string& line) {
  std::string out;
  for (const std::string& l : {std::string("name = \"H\""), std::string("order = 2"), std::string("c = [0, 1]"), std::string("A = [[1]]"),
                               std::string("b = [0.5, 0.5]")}) {
    if (!replace_key.empty() && l.rfind(replace_key + " =", 0) == 0) continue;
    out += l + "\n";
  }
  return out + line + "\n";
}

}  // namespace

TEST_CASE("coefficients: exact fractions correctly rounded, decimals, integers; malformed numbers refused") {
  CHECK(parse_coefficient("37/378", "x") == 37.0 / 378.0);
  CHECK(parse_coefficient("-2187/6784", "x") == -2187.0 / 6784.0);
  CHECK(parse_coefficient(" 1/3 ", "x") == 1.0 / 3.0);
  CHECK(parse_coefficient("0/7", "x") == 0.0);
  CHECK(parse_coefficient("0.06", "x") == 0.06);
  CHECK(parse_coefficient("-12", "x") == -12.0);
  // Beyond 2^53 the numerator is not a double: the quotient is rounded once, ties to even.
  CHECK(parse_coefficient("9007199254740993/1", "x") == 9007199254740992.0);   // 2^53 + 1: tie, to even
  CHECK(parse_coefficient("9007199254740995/1", "x") == 9007199254740996.0);   // 2^53 + 3: tie, to even
  CHECK(parse_coefficient("18014398509481985/2", "x") == 9007199254740992.0);  // (2^54 + 1)/2 = 2^53 + 1/2
  CHECK(parse_coefficient("1180591620717411303425/1180591620717411303424", "x") == 1.0);  // 1 + 2^-70
  CHECK(parse_coefficient("3541774862152233910272/1180591620717411303424", "x") == 3.0);
  // 1/3 with 30-digit numerator and denominator: the nearest double to 1/3.
  CHECK(parse_coefficient("333333333333333333333333333333/999999999999999999999999999999", "x") == 1.0 / 3.0);
  // 2/3 - 1 ulp region: the correctly rounded value of 6004799503160661/9007199254740992 is exact.
  CHECK(parse_coefficient("6004799503160661/9007199254740992", "x") == std::ldexp(6004799503160661.0, -53));
  for (const char* bad : {"1/0", "a/b", "1.5/2", "1/-2", "", "nan", "1e999", "1/2/3", "0x10"}) {
    CAPTURE(bad);
    const std::string e = error_of([&] { parse_coefficient(bad, "table.toml:3: b[1]"); });
    CHECK(contains(e, "table.toml:3: b[1]"));
  }
}

TEST_CASE("the shipped table files are the compiled-in tables, bit for bit") {
  const std::pair<const char*, const char*> files[] = {
      {"euler.toml", "EULER_1_1"},           {"heun_euler.toml", "HEUN_EULER_2_2_1"},
      {"kutta3.toml", "KUTTA_3_3"},          {"rk4.toml", "CLASSICAL_RK_4_4"},
      {"bogacki_shampine32.toml", "BOGACKI_SHAMPINE_4_3_2"}, {"dormand_prince54.toml", "DORMAND_PRINCE_7_5_4"},
      {"verner65.toml", "VERNER_9_6_5"},     {"verner87.toml", "VERNER_13_8_7"}};
  int explicit_tables = 0;
  for (const ButcherTableau& t : butcher_tableaux()) explicit_tables += is_explicit(t) ? 1 : 0;
  CHECK(explicit_tables == static_cast<int>(std::size(files)));  // every explicit table has its file
  for (const auto& entry : files) {
    const char* file = entry.first;  // (clang 14 cannot capture a structured binding in INFO)
    const char* name = entry.second;
    INFO("file: " << file);
    const RungeKuttaTable read = read_tableau_file(shipped_dir + file);
    const RungeKuttaTable compiled = runge_kutta_table(*find_butcher(name));
    CHECK(read.name == compiled.name);
    CHECK(read.stages == compiled.stages);
    CHECK(read.order == compiled.order);
    CHECK(read.embedded_order == compiled.embedded_order);
    // Bitwise (== would let -0.0 equal 0.0).
    auto same_bits = [](const std::vector<double>& a, const std::vector<double>& b) {
      return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
    };
    CHECK(same_bits(read.c, compiled.c));
    CHECK(same_bits(read.A, compiled.A));
    CHECK(same_bits(read.b, compiled.b));
    CHECK(same_bits(read.b_hat, compiled.b_hat));
  }
}

TEST_CASE("a user's table is checked at load: Cash-Karp 5(4) passes, a transcription error is refused naming the condition") {
  const RungeKuttaTable ck = read_tableau_file(tables_dir + "cash_karp.toml");
  CHECK(ck.name == "CASH_KARP_6_5_4");
  CHECK(ck.stages == 6);
  CHECK(ck.order == 5);
  CHECK(ck.embedded_order == 4);
  CHECK(ck.row(5)[4] == 253.0 / 4096.0);

  const std::string wrong = error_of([] { read_tableau_file(tables_dir + "cash_karp_wrong.toml"); });
  MESSAGE(wrong);
  CHECK(contains(wrong, "cash_karp_wrong.toml"));
  CHECK(contains(wrong, "'CASH_KARP_WRONG' claims b of order 5"));
  CHECK(contains(wrong, "fails the order-3 condition of tree [[τ]]: sum b_i a_ij c_j = 1/6"));

  // Claiming more than the table has: RK4 as order 5 fails at order 5 (named), and the fix is said.
  std::string rk4 = "name = \"RK4\"\norder = 5\nc = [0, 0.5, 0.5, 1]\nA = [[0.5], [0, 0.5], [0, 0, 1]]\nb = [\"1/6\", \"1/3\", \"1/3\", \"1/6\"]\n";
  const std::string over = error_of([&] { parse_tableau(rk4, "rk4.toml"); });
  CHECK(contains(over, "fails the order-5 condition of tree"));
  CHECK(contains(over, "claim order 4"));
  // Every order-5 condition is named by its sum (the tall tree: sum b_i a_ij a_jk a_kl c_l = 1/120).
  const auto trees = rooted_trees(5);
  CHECK(trees.size() == 17);
  CHECK(condition_text(trees, 0) == "sum b_i = 1");
  CHECK(condition_text(trees, 2) == "sum b_i a_ij c_j = 1/6");
  CHECK(condition_text(trees, 3) == "sum b_i c_i^2 = 1/3");
  CHECK(tree_text(trees, 2) == "[[τ]]");
  CHECK(tree_text(trees, 3) == "[τ τ]");
  bool tall = false;
  for (int k = 0; k < static_cast<int>(trees.size()); ++k) tall = tall || condition_text(trees, k) == "sum b_i a_ij a_jk a_kl c_l = 1/120";
  CHECK(tall);
}

TEST_CASE("malformed table files are refused with the file, the line and the fix") {
  struct Case {
    std::string text;
    std::string says;
  };
  const Case cases[] = {
      {heun_with("", "extra = 1"), "unknown key 'extra'"},
      {heun_with("name", ""), "needs a 'name'"},
      {heun_with("order", ""), "no 'order'"},
      {heun_with("order", "order = 0"), "'order' must be a positive integer"},
      {heun_with("order", "order = 11"), "orders above 10 are not checked"},
      {heun_with("c", "c = [0]"), "'c' has 1 numbers and 'b' 2"},
      {heun_with("A", "A = [[1, 2]]"), "row 2 of 'A' has 2 numbers"},
      {heun_with("A", "A = [[1], [2], [3]]"), "needs 1 (rows 2..2"},
      {heun_with("A", "A = 3"), "'A' must be an array of rows"},
      {heun_with("b", "b = [0.5, \"x\"]"), "b[2]: 'x' is not a number"},
      {heun_with("b", "b = [0.5, true]"), "must be a number or a fraction"},
      {heun_with("b", "b = [0.5, nan]"), "is not finite"},
      {heun_with("", "b_embedded = [1, 0]"), "give both 'b_embedded' and 'embedded_order'"},
      {heun_with("", "b_embedded = [0.5, 0.5]\nembedded_order = 1"), "b_embedded equals b"},
      {heun_with("c", "c = [0, 0.9]"), "node c_2 = 0.90000000000000002 is not the sum of row 2 of A"},
      {heun_with("b", "b = [0.25, 0.75]"), "fails the order-2 condition of tree [τ]: sum b_i c_i = 1/2"},
      {"name = \"H\"\norder = [", "not valid TOML"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.text);
    const std::string e = error_of([&] { parse_tableau(c.text, "mine.toml"); });
    CAPTURE(e);
    CHECK(contains(e, "mine.toml"));
    CHECK(contains(e, c.says));
  }
  CHECK(contains(error_of([] { read_tableau_file("/nonexistent/table.toml"); }), "cannot read the table file '/nonexistent/table.toml'"));
  // s rows with an empty first row are the same table as s - 1 rows.
  const RungeKuttaTable a = parse_tableau(heun_with("A", "A = [[], [1]]"), "a.toml");
  CHECK(a.row(1)[0] == 1.0);
}

TEST_CASE("rk and rkmk from the shipped files give the compiled-in methods' results bit for bit") {
  const Params pendulum = test::nonplanar_pendulum();
  auto with = [](const std::string& file) { return Options{{"tableau", shipped_dir + file}}; };
  // Fixed steps.
  CHECK(final_state("pendulum_chain", pendulum, "rk", 1.0, 0.01, with("rk4.toml")) ==
        final_state("pendulum_chain", pendulum, "rk4", 1.0, 0.01));
  CHECK(final_state("pendulum_chain", pendulum, "rkmk", 1.0, 0.01, with("rk4.toml")) ==
        final_state("pendulum_chain", pendulum, "rkmk4", 1.0, 0.01));
  CHECK(final_state("pendulum_chain", pendulum, "rkmk", 1.0, 0.05, with("verner87.toml")) ==
        final_state("pendulum_chain", pendulum, "rkmk8", 1.0, 0.05));
  Options series = with("verner65.toml");
  series["dexpinv"] = "series";
  CHECK(final_state("pendulum_chain", pendulum, "rkmk", 1.0, 0.05, series) ==
        final_state("pendulum_chain", pendulum, "rkmk6", 1.0, 0.05, {{"dexpinv", "series"}}));
  // Adaptive: the same steps accepted and rejected, the same end state.
  const auto from_file = run("pendulum_chain", pendulum, "rkmk", 2.0, 0, 1e-8, 1e-8, with("dormand_prince54.toml"));
  const auto compiled = run("pendulum_chain", pendulum, "rkmk45", 2.0, 0, 1e-8, 1e-8);
  CHECK(from_file.y == compiled.y);
  CHECK(from_file.stats.steps == compiled.stats.steps);
  CHECK(from_file.stats.rejected_steps == compiled.stats.rejected_steps);
  const auto rk_file = run("pendulum_chain", pendulum, "rk", 2.0, 0, 1e-8, 1e-8, with("verner65.toml"));
  const auto rk_compiled = run("pendulum_chain", pendulum, "verner65", 2.0, 0, 1e-8, 1e-8);
  CHECK(rk_file.y == rk_compiled.y);
  CHECK(rk_file.stats.steps == rk_compiled.stats.steps);
}

TEST_CASE("rk and rkmk take their orders from the table, and refuse a missing or wrong one before running") {
  const auto [plugin, listed] = registry().method("rkmk");
  CHECK(listed.order == 0);  // until a table completes it
  const Settings options(plugin->integrator->options("rkmk"), {{"tableau", tables_dir + "cash_karp.toml"}}, "option");
  const MethodInfo m = plugin->integrator->resolved(listed, options);
  CHECK(m.order == 5);
  CHECK(m.embedded_order == 4);
  CHECK(m.lie_group);
  CHECK(contains(m.summary, "CASH_KARP_6_5_4"));

  const Params pendulum = test::nonplanar_pendulum();
  for (const char* method : {"rk", "rkmk"}) {
    CAPTURE(method);
    const std::string none = error_of([&] { run("pendulum_chain", pendulum, method, 1.0, 0.01); });
    CHECK(contains(none, "give --tableau FILE"));
    const std::string wrong =
        error_of([&] { run("pendulum_chain", pendulum, method, 1.0, 0.01, 0, 0, {{"tableau", tables_dir + "cash_karp_wrong.toml"}}); });
    CHECK(contains(wrong, "fails the order-3 condition of tree [[τ]]"));
    // A table without an embedded pair runs at a fixed step only.
    const std::string tolerances =
        error_of([&] { run("pendulum_chain", pendulum, method, 1.0, 0, 1e-6, 1e-6, {{"tableau", shipped_dir + "rk4.toml"}}); });
    CHECK(contains(tolerances, "has no error estimate"));
  }
}
