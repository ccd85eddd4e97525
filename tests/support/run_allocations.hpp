// Heap allocations of one whole run, for the no-allocation-per-step tests (the test must link
// tests/kernel/allocation_counter.cpp, which replaces malloc).
#pragma once
#include <kernel/allocation_counter.hpp>
#include <support/plugins.hpp>

#include <doctest/doctest.h>

#include <map>
#include <string>

namespace liesim::test {

/// Allocations made by one run (preparation excluded) of `method` over [0, t_end]: fixed steps h,
/// or rtol = atol = 1e-8 for a method with an embedded pair.
inline long allocations_of_run(const std::string& model, const std::map<std::string, std::string>& params,
                               const MethodInfo& method, double t_end, double h) {
  RunRequest q;
  q.model = model;
  q.parameters = params;
  q.method = method.name;
  q.t_end = t_end;
  if (takes_table(method.name)) q.options["tableau"] = user_table(method.name);  // rk, rkmk, cf: an adaptive pair from a file
  if (method.embedded_order > 0 || takes_table(method.name)) {
    q.rtol = 1e-8;
    q.atol = 1e-8;
  } else {
    q.step = h;
  }
  PreparedRun p = prepare_run(registry(), q);
  NullObserver obs;
  RunResult r;
  const long n = allocations_during([&] { r = execute(p, obs); });
  REQUIRE(r.stats.steps > 0);
  return n;
}

}  // namespace liesim::test
