// Counts heap allocations (malloc family, hence operator new and Eigen too) while enabled.
// The definitions replace glibc's malloc for the whole test process, plugins included.
#pragma once
#include <cstddef>

namespace liesim::test {
/// Number of allocations since the last reset while counting was on.
long allocations();
/// Start counting from zero.
void start_counting_allocations();
/// Stop counting.
void stop_counting_allocations();

/// Allocations made while `f()` runs.
template <class F>
long allocations_during(F&& f) {
  start_counting_allocations();
  f();
  stop_counting_allocations();
  return allocations();
}
}  // namespace liesim::test
