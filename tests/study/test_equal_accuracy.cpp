// Equal-accuracy matching: the fewest equal steps that reach a target error.
#include <liesim/sdk/status.hpp>
#include <liesim/study/equal_accuracy.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

using namespace liesim::study;

namespace {
// The smallest n with C n^-p <= target (the answer the search must find): the closed-form root,
// then checked against its neighbours as the search's error function computes them.
long brute_force(double C, double p, double target) {
  auto e = [&](long n) { return C * std::pow(static_cast<double>(n), -p); };
  long n = std::max(1L, static_cast<long>(std::ceil(std::pow(C / target, 1.0 / p))));
  while (n > 1 && e(n - 1) <= target) --n;
  while (e(n) > target) ++n;
  return n;
}
}  // namespace

TEST_CASE("the search finds the smallest step count for a power-law error, from below and from above") {
  for (const double p : {1.0, 4.0, 5.0})
    for (const double target : {1e-3, 3.7e-6, 1e-9})
      for (const long n0 : {3L, 60L, 5000L}) {
        const double C = 2.5;
        int calls = 0;
        const auto r = steps_for_error([&](long n) { ++calls; return C * std::pow(static_cast<double>(n), -p); }, n0,
                                       static_cast<int>(p), target, 100000000000L);
        CAPTURE(p);
        CAPTURE(target);
        CAPTURE(n0);
        const long expected = brute_force(C, p, target);
        CHECK(r.steps == expected);
        CHECK(r.error <= target);
        CHECK(r.evaluations == calls);   // every run counted, none repeated
        CHECK(calls <= 12);              // the error model's root, not a scan or a bisection
      }
}

TEST_CASE("a wrong order in the error model only costs runs, not the answer") {
  // True order 5, searched as order 2 (and as 8).
  for (const int assumed : {2, 8}) {
    const auto r = steps_for_error([](long n) { return 7.0 * std::pow(static_cast<double>(n), -5.0); }, 50, assumed, 1e-8, 10000000L);
    CHECK(r.steps == brute_force(7.0, 5.0, 1e-8));
  }
}

TEST_CASE("failed runs count as too coarse; the answer is minimal next to them") {
  // Runs with fewer than 40 steps fail (a blow-up); the error is tiny once they work.
  const auto r = steps_for_error([](long n) { return n < 40 ? std::numeric_limits<double>::infinity() : 1e-12; }, 10, 4, 1e-6, 1000000L);
  CHECK(r.steps == 40);
  const auto nan = steps_for_error([](long n) { return n < 17 ? std::nan("") : 1e-3 / n; }, 100, 1, 1e-4, 1000000L);
  CHECK(nan.steps == 17);
}

TEST_CASE("an unreachable target names max_steps; a bad target is refused") {
  try {
    (void)steps_for_error([](long n) { return 1.0 / static_cast<double>(n); }, 10, 1, 1e-9, 1000);
    FAIL("expected an error");
  } catch (const liesim::Error& e) {
    CHECK(std::string(e.what()).find("1000 equal steps (max_steps) give error 0.001, above the target 1e-09; raise the option max_steps") != std::string::npos);
  }
  CHECK_THROWS_AS(steps_for_error([](long) { return 1.0; }, 10, 1, 0.0, 1000), liesim::Error);
  CHECK_THROWS_AS(steps_for_error([](long) { return 1.0; }, 10, 1, std::numeric_limits<double>::infinity(), 1000), liesim::Error);
}

TEST_CASE("an error that levels off above the target, or runs that all fail, end the search with the reason") {
  // Round-off (or a reference's own error) as a floor at 1e-9: the target 5e-10 cannot be reached.
  int calls = 0;
  try {
    (void)steps_for_error([&](long n) { ++calls; return std::max(3.0 * std::pow(static_cast<double>(n), -4.0), 1e-9); }, 10, 4,
                          5e-10, 1000000);
    FAIL("expected an error");
  } catch (const liesim::Error& e) {
    CHECK(std::string(e.what()).find("the error levels off at about 1e-09") != std::string::npos);
  }
  CHECK(calls <= 12);  // a few runs past the floor, not a crawl to max_steps
  // Every run fails (e.g. Newton never converges): said as such, not "raise max_steps".
  try {
    (void)steps_for_error([](long) { return std::numeric_limits<double>::infinity(); }, 10, 4, 1e-6, 100000);
    FAIL("expected an error");
  } catch (const liesim::Error& e) {
    CHECK(std::string(e.what()).find("every run failed, from 10 up to 100000 equal steps") != std::string::npos);
  }
}
