// Commutator-free (and Crouch–Grossman) schemes read from files (liesim/sdk/tableau_file.hpp, method
// cf): the shipped files equal to the compiled-in schemes bit for bit, the commutator-free order
// conditions checked at load on the generic problem (liesim/sdk/lie_order_conditions.hpp), wrong
// schemes refused naming the condition, runs from the files bit-identical to the compiled-in methods.
#include "common.hpp"

#include <liesim/sdk/lie_order_conditions.hpp>
#include <liesim/sdk/status.hpp>
#include <liesim/sdk/tableau_file.hpp>

#include <cstring>
#include <string>

using namespace liesim;
using namespace liesim::test;
using namespace liesim::test::methods;

namespace {

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {  // (== would let -0.0 equal 0.0)
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0);
}

bool same(const ExponentialList& a, const ExponentialList& b) {
  return a.count == b.count && a.stages == b.stages && same_bits(a.alpha, b.alpha);
}

/// CF4 [Celledoni–Marthinsen–Owren 2003] as a file text, with its update and its stage 4 as given.
std::string cf4_with(const std::string& stage4, const std::string& update) {
  return "name = \"CF4_VARIANT\"\norder = 4\nc = [0, \"1/2\", \"1/2\", 1]\nstages = [[[\"1/2\"]], [[0, \"1/2\"]], " + stage4 +
         "]\nupdate = " + update + "\n";
}
const std::string cf4_stage4 = R"([["1/2"], ["-1/2", 0, 1]])";
const std::string cf4_update = R"([["1/4", "1/6", "1/6", "-1/12"], ["-1/12", "1/6", "1/6", "1/4"]])";

}  // namespace

TEST_CASE("the shipped scheme files are the compiled-in commutator-free schemes, bit for bit; each meets its orders") {
  const std::pair<const char*, const char*> files[] = {{"cf4.toml", "CF4_4_4"},
                                                       {"cf32a.toml", "CF_A_3_3_2"},
                                                       {"cf32b.toml", "CF_B_3_3_2"},
                                                       {"cf43.toml", "CF4_AUX3_5_4_3"},
                                                       {"cg3.toml", "CROUCH_GROSSMAN_3_3"}};
  CHECK(commutator_free_schemes().size() == std::size(files));  // every compiled-in scheme has its file
  for (const auto& entry : files) {
    const char* file = entry.first;  // (clang 14 cannot capture a structured binding in INFO)
    INFO("file: " << file);
    const CommutatorFreeTable read = read_commutator_free_file(shipped_dir + file);
    const CommutatorFreeTable compiled = commutator_free_table(*find_commutator_free(entry.second));
    CHECK(read.name == compiled.name);
    CHECK(read.stages == compiled.stages);
    CHECK(read.order == compiled.order);
    CHECK(read.embedded_order == compiled.embedded_order);
    CHECK(same_bits(read.c, compiled.c));
    REQUIRE(read.stage.size() == compiled.stage.size());
    for (std::size_t r = 0; r < read.stage.size(); ++r) CHECK(same(read.stage[r], compiled.stage[r]));
    CHECK(same(read.update, compiled.update));
    CHECK(same(read.embedded, compiled.embedded));
    // The compiled-in scheme meets the commutator-free conditions of its orders, and not of one more
    // (each is exactly of its order on the generic problem).
    check_commutator_free(compiled, entry.second);
    CHECK(first_failing_order(compiled, compiled.update, compiled.order).order == 0);
    if (compiled.order < max_commutator_free_order)
      CHECK(first_failing_order(compiled, compiled.update, compiled.order + 1).order == compiled.order + 1);
    if (compiled.embedded_order > 0)
      CHECK(first_failing_order(compiled, compiled.embedded, compiled.embedded_order + 1).order == compiled.embedded_order + 1);
  }
}

TEST_CASE("the commutator-free conditions: a scheme whose consistent Butcher table is right can still fail, and is refused naming the order") {
  // The user's scheme passes: Kutta's table with the update split in two exponentials.
  const CommutatorFreeTable user = read_commutator_free_file(tables_dir + "cf3_kutta.toml");
  CHECK(user.name == "CF3_KUTTA");
  CHECK(user.order == 3);
  CHECK(user.embedded_order == 2);
  CHECK(user.update.count == 2);

  // One exponential of the same weights: the classical conditions hold, the order-3 Lie one does not.
  const std::string one = error_of([] { read_commutator_free_file(tables_dir + "cf3_kutta_wrong.toml"); });
  MESSAGE(one);
  CHECK(contains(one, "cf3_kutta_wrong.toml"));
  CHECK(contains(one, "scheme 'CF3_KUTTA_ONE_EXPONENTIAL' claims its update of order 3, but fails a commutator-free order condition of order 3"));
  CHECK(contains(one, "its consistent Butcher table meets the classical conditions"));
  CHECK(contains(one, "or claim order 2"));

  // CF4's two update exponentials in the other order: the same consistent table, order 2 as a Lie method.
  const std::string swapped_update =
      error_of([] { parse_commutator_free(cf4_with(cf4_stage4, R"([["-1/12", "1/6", "1/6", "1/4"], ["1/4", "1/6", "1/6", "-1/12"]])"), "s.toml"); });
  CHECK(contains(swapped_update, "fails a commutator-free order condition of order 3"));
  // Stage 4's two exponentials in the other order: only an order-4 condition fails.
  const std::string swapped_stage = error_of([] { parse_commutator_free(cf4_with(R"([["-1/2", 0, 1], ["1/2"]])", cf4_update), "s.toml"); });
  CHECK(contains(swapped_stage, "fails a commutator-free order condition of order 4"));
  CHECK(contains(swapped_stage, "or claim order 3"));
  // CF4 as written passes.
  CHECK(parse_commutator_free(cf4_with(cf4_stage4, cf4_update), "s.toml").order == 4);
  // RK4's weights in one exponential per stage and update (a naive "Lie RK4"): order 2.
  const std::string naive = error_of([] {
    parse_commutator_free("name = \"NAIVE\"\norder = 4\nc = [0, 0.5, 0.5, 1]\nstages = [[[0.5]], [[0, 0.5]], [[0, 0, 1]]]\n"
                          "update = [[\"1/6\", \"1/3\", \"1/3\", \"1/6\"]]\n", "naive.toml");
  });
  CHECK(contains(naive, "fails a commutator-free order condition of order 3"));
  // A classical failure is named by its tree, as for a Runge–Kutta table.
  const std::string classical =
      error_of([] { parse_commutator_free(cf4_with(cf4_stage4, R"([["1/4", "1/6", "1/6", "-1/12"], ["-1/12", "1/6", "1/5", "1/4"]])"), "c.toml"); });
  CHECK(contains(classical, "the consistent Butcher table of scheme 'CF4_VARIANT' claims its update of order 4, but fails the order-1 condition of tree τ"));
}

TEST_CASE("malformed scheme files are refused with the file, the line and the fix") {
  const std::string head = "name = \"S\"\norder = 2\nc = [0, 0.5]\n";
  struct Case {
    std::string text;
    std::string says;
  };
  const Case cases[] = {
      {head + "stages = [[[0.5]]]\nupdate = [[0, 1]]\nextra = 1\n", "unknown key 'extra'"},
      {head + "stages = [[[0.5]]]\n", "needs 'update'"},
      {head + "update = [[0, 1]]\n", "needs 'stages'"},
      {head + "stages = [[[0.5, 1]]]\nupdate = [[0, 1]]\n", "exponential 1 of stage 2 has 2 numbers; it may use f_1 .. f_1 only"},
      {head + "stages = [[[0.5]], [[1]], [[1]]]\nupdate = [[0, 1]]\n", "'stages' has 3 entries; a scheme of 2 stages"},
      {head + "stages = [[[1]], [[0.5]]]\nupdate = [[0, 1]]\n", "exponential 1 of stage 1 has 1 numbers"},
      {head + "stages = [[0.5]]\nupdate = [[0, 1]]\n", "exponential 1 of stage 2 must be an array of numbers"},
      {head + "stages = [[[0.5]]]\nupdate = [[0, 1, 2]]\n", "exponential 1 of the update has 3 numbers"},
      {head + "stages = [[[0.4]]]\nupdate = [[0, 1]]\n", "node c_2 = 0.5 is not the sum of stage 2's coefficients"},
      {head + "stages = [[[0.5]]]\nupdate = [[0, \"x\"]]\n", "'x' is not a number"},
      {head + "stages = [[[0.5]]]\nupdate = [[0, 1]]\nupdate_embedded = [[1]]\n", "give both 'update_embedded' and 'embedded_order'"},
      {head + "stages = [[[0.5]]]\nupdate = [[0, 1]]\nupdate_embedded = [[0, 1]]\nembedded_order = 1\n", "update_embedded equals update"},
      {"name = \"S\"\norder = 5\nc = [0]\nstages = []\nupdate = [[1]]\n", "checked to order 4 only"},
      {"name = \"S\"\norder = 1\nc = [0, 1]\nA = [[1]]\nb = [0.5, 0.5]\n", "this is a Runge–Kutta table (A, b): run it with the methods rk or rkmk"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.text);
    const std::string e = error_of([&] { parse_commutator_free(c.text, "mine.toml"); });
    CAPTURE(e);
    CHECK(contains(e, "mine.toml"));
    CHECK(contains(e, c.says));
  }
  // And the other way round: a scheme given to rk/rkmk.
  CHECK(contains(error_of([] { read_tableau_file(shipped_dir + "cf4.toml"); }), "this is a commutator-free scheme (stages, update): run it with the method cf"));
  CHECK(contains(error_of([] { read_commutator_free_file("/nonexistent/scheme.toml"); }), "cannot read the table file '/nonexistent/scheme.toml'"));
}

TEST_CASE("cf from the shipped files gives the compiled-in methods' results bit for bit; it takes its orders from the file") {
  const Params pendulum = test::nonplanar_pendulum();
  auto with = [](const std::string& file) { return Options{{"tableau", shipped_dir + file}}; };
  CHECK(final_state("pendulum_chain", pendulum, "cf", 1.0, 0.01, with("cf4.toml")) == final_state("pendulum_chain", pendulum, "cf4", 1.0, 0.01));
  CHECK(final_state("pendulum_chain", pendulum, "cf", 1.0, 0.01, with("cg3.toml")) == final_state("pendulum_chain", pendulum, "cg3", 1.0, 0.01));
  // Adaptive: the same steps accepted and rejected, the same end state.
  for (const auto& pair : {std::pair{"cf43.toml", "cf43"}, std::pair{"cf32b.toml", "cf32b"}}) {
    INFO("file: " << pair.first);
    const auto from_file = run("pendulum_chain", pendulum, "cf", 2.0, 0, 1e-7, 1e-7, with(pair.first));
    const auto compiled = run("pendulum_chain", pendulum, pair.second, 2.0, 0, 1e-7, 1e-7);
    CHECK(from_file.y == compiled.y);
    CHECK(from_file.stats.steps == compiled.stats.steps);
    CHECK(from_file.stats.rejected_steps == compiled.stats.rejected_steps);
  }

  const auto [plugin, listed] = registry().method("cf");
  CHECK(listed.order == 0);  // until a scheme completes it
  const MethodInfo m = plugin->integrator->resolved(listed, Settings(plugin->integrator->options("cf"), with("cf43.toml"), "option"));
  CHECK(m.order == 4);
  CHECK(m.embedded_order == 3);
  CHECK(m.lie_group);
  CHECK(contains(m.summary, "CF4_AUX3_5_4_3"));
  CHECK(contains(error_of([&] { run("pendulum_chain", pendulum, "cf", 1.0, 0.01); }), "give --tableau FILE"));
  CHECK(contains(error_of([&] { run("pendulum_chain", pendulum, "cf", 1.0, 0.01, 0, 0, {{"tableau", tables_dir + "cf3_kutta_wrong.toml"}}); }),
                 "fails a commutator-free order condition of order 3"));
  CHECK(contains(error_of([&] { run("pendulum_chain", pendulum, "cf", 1.0, 0, 1e-6, 1e-6, with("cf4.toml")); }), "has no error estimate"));
  CHECK(contains(error_of([&] { run("pendulum_chain", pendulum, "cf", 1.0, 0.01, 0, 0, {{"tableau", user_table("rk")}}); }),
                 "this is a Runge–Kutta table"));
}
