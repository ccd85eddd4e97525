// Stepping allocates no heap memory per step: the allocations of a run do not grow with its length.
#include "allocation_counter.hpp"

#include <support/run_allocations.hpp>

#include <doctest/doctest.h>

using namespace liesim;
using test::allocations_of_run;


TEST_CASE("the counter sees allocations") {
  test::start_counting_allocations();
  Eigen::VectorXd v(100);
  v.setZero();
  // The buffer escapes (an empty asm that reads it): clang may otherwise elide the malloc/free
  // pair of an unused vector (it did at -O1 under ASan), and the counter would rightly see none.
  asm volatile("" : : "r"(v.data()) : "memory");
  test::stop_counting_allocations();
  CHECK(test::allocations() >= 1);
}

TEST_CASE("no heap allocation per step, for every method, on the pendulum chain and the rigid body") {
  int methods = 0;
  for (const auto& p : test::registry().plugins()) {
    if (!p.integrator) continue;
    for (const auto& m : p.integrator->methods()) {
      // SUNDIALS allocates inside its own difference-quotient Jacobian (N_VCloneEmpty per
      // Jacobian evaluation); that is outside liesim and is excluded here (see docs/design.md).
      if (m.self_controlled) continue;
      if (m.needs_mechanics) continue;  // variational methods: tests/variational (models with a Lagrangian)
      ++methods;
      for (const auto& [model, params] : std::vector<std::pair<std::string, std::map<std::string, std::string>>>{
               {"pendulum_chain", {{"N", "3"}}}, {"rigid_body", {}}}) {
        CAPTURE(m.name);
        const std::string& model_name = model;  // clang 14 cannot capture a structured binding
        CAPTURE(model_name);
        // Same set-up, one run four times longer: every allocation must belong to the set-up.
        const long short_run = allocations_of_run(model, params, m, 0.5, 0.01);
        const long long_run = allocations_of_run(model, params, m, 2.0, 0.01);
        CHECK(long_run == short_run);
      }
    }
  }
  CHECK(methods >= 23);  // every shipped family was loaded (23 kernel-driven methods)
}

TEST_CASE("no heap allocation per step for the variational, symplectic, geodesic and generalized-alpha methods (and the adaptive ones' own steps)") {
  // Each method on every model with the description it needs (a Lagrangian in R^n, a rigid body,
  // a damped rigid body, a Hamiltonian on T*G, a Riemannian metric): the ones it accepts, at least one.
  using Cases = std::vector<std::pair<std::string, std::map<std::string, std::string>>>;
  const Cases models{{"double_well", {}},
                     {"harmonic_oscillator", {{"zeta", "0.02"}, {"F0", "0.5"}, {"omega", "1.5"}}},
                     {"rigid_pendulum", {{"start", "inverted"}}},
                     {"heavy_top", {{"omega0", "0,2,0.5"}}},
                     {"trace_function", {{"eta", "0.05"}}},
                     {"sphere_flow", {{"field", "contractive"}}}};
  int methods = 0;
  for (const auto& p : test::registry().plugins()) {
    if (!p.integrator) continue;
    for (const auto& m : p.integrator->methods()) {
      if (!m.needs_mechanics) continue;
      ++methods;
      int accepted = 0;
      for (const auto& [model, params] : models) {
        CAPTURE(m.name);
        const std::string& model_name = model;  // clang 14 cannot capture a structured binding
        CAPTURE(model_name);
        long short_run = 0;
        try {
          short_run = allocations_of_run(model, params, m, 0.5, 0.01);
        } catch (const Error& e) {
          const std::string why = e.what();
          if (why.find("description") == std::string::npos && why.find("Riemannian metric") == std::string::npos) throw;
          continue;  // the model lacks the description this method needs
        }
        ++accepted;
        const long long_run = allocations_of_run(model, params, m, 2.0, 0.01);
        CHECK(long_run == short_run);
      }
      CAPTURE(m.name);
      CHECK(accepted >= 1);
    }
  }
  CHECK(methods == 17);  // 11 variational, slgi, 4 geodesic, lie_generalized_alpha
}
