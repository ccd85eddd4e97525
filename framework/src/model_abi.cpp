// Which ABI minor each model object was built for, so that hooks added by a later minor are
// only called on objects that have them (the vtable of an older plugin ends before them).
#include <liesim/model.hpp>
#include <liesim/plugin.hpp>

#include <atomic>
#include <cstdint>
#include <mutex>
#include <unordered_map>

namespace liesim {

namespace {
std::mutex mutex;
std::unordered_map<const Model*, int>& minors() {
  static std::unordered_map<const Model*, int> m;
  return m;
}
// Changes with every record and forget, so that a thread's cached answer is never stale.
std::atomic<std::uint64_t> generation{0};

int abi_minor_of(const Model* model) noexcept {
  // Solvers ask once per Jacobian evaluation, from several study threads: answer from a
  // per-thread cache while nothing was recorded or forgotten, without taking the lock.
  thread_local const Model* cached_model = nullptr;
  thread_local int cached_minor = LIESIM_ABI_MINOR;
  thread_local std::uint64_t cached_generation = ~std::uint64_t{0};
  const std::uint64_t g = generation.load(std::memory_order_acquire);
  if (model == cached_model && g == cached_generation) return cached_minor;
  int minor = LIESIM_ABI_MINOR;
  {
    std::lock_guard<std::mutex> lock(mutex);
    const auto it = minors().find(model);
    if (it != minors().end()) minor = it->second;
  }
  cached_model = model;
  cached_minor = minor;
  cached_generation = g;  // read before the lookup: a later change makes the next call look again
  return minor;
}
}  // namespace

void record_model_abi_minor(const Model* model, int abi_minor) {
  std::lock_guard<std::mutex> lock(mutex);
  minors()[model] = abi_minor;
  generation.fetch_add(1, std::memory_order_release);
}

void forget_model_abi_minor(const Model* model) {
  std::lock_guard<std::mutex> lock(mutex);
  minors().erase(model);
  generation.fetch_add(1, std::memory_order_release);
}

DaeFormulation* Model::dae_formulation() noexcept { return abi_minor_of(this) >= 1 ? dae() : nullptr; }

bool Model::has_vector_field_jacobian() const noexcept { return abi_minor_of(this) >= 2 && has_jacobian(); }

}  // namespace liesim
