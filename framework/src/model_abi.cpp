// Which ABI minor each model object was built for, so that hooks added by a later minor are
// only called on objects that have them (the vtable of an older plugin ends before them).
#include <liesim/model.hpp>
#include <liesim/plugin.hpp>

#include <mutex>
#include <unordered_map>

namespace liesim {

namespace {
std::mutex mutex;
std::unordered_map<const Model*, int>& minors() {
  static std::unordered_map<const Model*, int> m;
  return m;
}
int abi_minor_of(const Model* model) {
  std::lock_guard<std::mutex> lock(mutex);
  const auto it = minors().find(model);
  return it == minors().end() ? LIESIM_ABI_MINOR : it->second;
}
}  // namespace

void record_model_abi_minor(const Model* model, int abi_minor) {
  std::lock_guard<std::mutex> lock(mutex);
  minors()[model] = abi_minor;
}

void forget_model_abi_minor(const Model* model) {
  std::lock_guard<std::mutex> lock(mutex);
  minors().erase(model);
}

DaeFormulation* Model::dae_formulation() noexcept { return abi_minor_of(this) >= 1 ? dae() : nullptr; }

bool Model::has_vector_field_jacobian() const noexcept { return abi_minor_of(this) >= 2 && has_jacobian(); }

}  // namespace liesim
