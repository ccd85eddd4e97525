// Replacement of malloc/calloc/realloc that forwards to glibc and counts while enabled.
#include "allocation_counter.hpp"

#include <atomic>
#include <cstdlib>

extern "C" {
void* __libc_malloc(std::size_t);
void* __libc_calloc(std::size_t, std::size_t);
void* __libc_realloc(void*, std::size_t);
void* __libc_memalign(std::size_t, std::size_t);
}

namespace {
std::atomic<bool> counting{false};
std::atomic<long> count{0};
void note() {
  if (counting.load(std::memory_order_relaxed)) count.fetch_add(1, std::memory_order_relaxed);
}
}  // namespace

extern "C" {
void* malloc(std::size_t n) {
  note();
  return __libc_malloc(n);
}
void* calloc(std::size_t k, std::size_t n) {
  note();
  return __libc_calloc(k, n);
}
void* realloc(void* p, std::size_t n) {
  note();
  return __libc_realloc(p, n);
}
void* memalign(std::size_t a, std::size_t n) {
  note();
  return __libc_memalign(a, n);
}
void* aligned_alloc(std::size_t a, std::size_t n) {
  note();
  return __libc_memalign(a, n);
}
int posix_memalign(void** p, std::size_t a, std::size_t n) {
  note();
  *p = __libc_memalign(a, n);
  return *p ? 0 : 12;
}
}

namespace liesim::test {
long allocations() { return count.load(); }
void start_counting_allocations() {
  count = 0;
  counting = true;
}
void stop_counting_allocations() { counting = false; }
}  // namespace liesim::test
