// Many short SUNDIALS integrations, successful and failing, for every SUNDIALS method: run under
// valgrind by CTest (test_sundials_leaks) to prove that nothing leaks (one SUNContext per run).
#include <support/plugins.hpp>

#include <doctest/doctest.h>

using namespace liesim;

TEST_CASE("many short SUNDIALS runs, successful and failing") {
  int runs = 0;
  {
    const LoadedPlugin& p = *test::registry().method("cvode_bdf").first;
    for (const auto& m : p.integrator->methods()) {
      CAPTURE(m.name);
      const bool dae = m.name == "ida";
      const bool proj = m.name == "cvode_bdf_proj";
      const std::string model = dae || proj ? "pendulum_chain" : "rigid_body";
      const std::map<std::string, std::string> params =
          dae ? std::map<std::string, std::string>{{"formulation", "cartesian_dae"}} : std::map<std::string, std::string>{};
      for (int k = 0; k < 10; ++k) {
        const auto out = test::run(model, params, m.name, 0.2 + 0.01 * k, 0.0, 1e-6, 1e-6);
        CHECK(out.stats.steps > 0);
        ++runs;
      }
      // The failure path frees everything too.
      CHECK_THROWS_AS(test::run(model, params, m.name, 5.0, 0.0, 1e-10, 1e-10, {{"max_steps", "3"}}), RunFailure);
    }
  }
  CHECK(runs >= 60);
}
