// Counts heap allocations while enabled: a replacement of malloc/calloc/realloc that forwards to
// glibc, or, under AddressSanitizer (whose malloc it cannot replace), the sanitizer's hooks.
#include "allocation_counter.hpp"

#include <atomic>
#include <cstdlib>

namespace {
std::atomic<bool> counting{false};
std::atomic<long> count{0};
void note() {
  if (counting.load(std::memory_order_relaxed)) count.fetch_add(1, std::memory_order_relaxed);
}
}  // namespace

// GCC says __SANITIZE_ADDRESS__, clang __has_feature(address_sanitizer).
#if defined(__SANITIZE_ADDRESS__)
#define LIESIM_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LIESIM_TEST_ASAN 1
#endif
#endif

#if defined(LIESIM_TEST_ASAN)
// Under AddressSanitizer malloc belongs to the sanitizer: count through its allocation hooks.
extern "C" int __sanitizer_install_malloc_and_free_hooks(void (*)(const volatile void*, std::size_t), void (*)(const volatile void*));
namespace {
void on_malloc(const volatile void*, std::size_t) { note(); }
void on_free(const volatile void*) {}
[[maybe_unused]] const int hooks_installed = __sanitizer_install_malloc_and_free_hooks(&on_malloc, &on_free);
}  // namespace
#else
extern "C" {
void* __libc_malloc(std::size_t);
void* __libc_calloc(std::size_t, std::size_t);
void* __libc_realloc(void*, std::size_t);
void* __libc_memalign(std::size_t, std::size_t);
}

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
#endif

namespace liesim::test {
long allocations() { return count.load(); }
void start_counting_allocations() {
  count = 0;
  counting = true;
}
void stop_counting_allocations() { counting = false; }
}  // namespace liesim::test
