// The plugin ABI: version numbers, build token, the descriptor and the exported entry point.
#pragma once
#include <liesim/integrator.hpp>
#include <liesim/model.hpp>
#include <liesim/version.hpp>

#include <boost/config.hpp>
#include <boost/dll/alias.hpp>

#include <cstddef>
#include <cstring>

/// ABI major: bumped when the boundary changes incompatibly (a plugin must be rebuilt).
#ifndef LIESIM_ABI_MAJOR
#define LIESIM_ABI_MAJOR 1
#endif
/// ABI minor: bumped when the host gains backward-compatible features (older plugins still load).
/// 1.1: Model::dae() (the optional DaeFormulation hook for DAE solvers).
/// 1.2: Model::has_jacobian() and Model::jacobian() (the optional exact Jacobian of F).
#ifndef LIESIM_ABI_MINOR
#define LIESIM_ABI_MINOR 2
#endif

#define LIESIM_STR2(x) #x
#define LIESIM_STR(x) LIESIM_STR2(x)

/// Build token: everything that must match for C++ objects to cross the boundary safely
/// (compiler, C++ standard library, Eigen version and alignment, kernel version).
#ifndef LIESIM_BUILD_TOKEN
#define LIESIM_BUILD_TOKEN                                                                     \
  "gcc-" LIESIM_STR(__GNUC__) "." LIESIM_STR(__GNUC_MINOR__) ";libstdc++-" LIESIM_STR(         \
      _GLIBCXX_RELEASE) ";eigen-" LIESIM_STR(EIGEN_WORLD_VERSION) "." LIESIM_STR(              \
      EIGEN_MAJOR_VERSION) "." LIESIM_STR(EIGEN_MINOR_VERSION) ";align-" LIESIM_STR(           \
      EIGEN_MAX_STATIC_ALIGN_BYTES) ";kernel-" LIESIM_VERSION
#endif

namespace liesim {

/// What a plugin provides.
enum class PluginKind : int { model = 1, integrator = 2 };

/// The plain descriptor every plugin returns from its entry point (read before anything else).
struct PluginDescriptor {
  int abi_major;            ///< LIESIM_ABI_MAJOR the plugin was built with
  int abi_minor;            ///< LIESIM_ABI_MINOR the plugin was built with
  const char* build_token;  ///< LIESIM_BUILD_TOKEN the plugin was built with
  PluginKind kind;          ///< model or integrator family
  const char* name;         ///< model name, or integrator family name
  const char* version;      ///< the plugin's own version
  const char* summary;      ///< one line
  /// Creates the ModelType or IntegratorFamily; nullptr with a message in `error` on failure.
  void* (*factory)(char* error, std::size_t error_size) noexcept;
};

/// Signature of the exported entry point.
using PluginEntry = const PluginDescriptor*();

/// Name of the Boost.DLL alias every plugin exports.
inline constexpr const char* plugin_entry_name = "liesim_plugin";

namespace detail {
template <class T>
void* guarded_factory(char* error, std::size_t error_size) noexcept {
  try {
    return static_cast<void*>(new T());
  } catch (const std::exception& e) {
    std::strncpy(error, e.what(), error_size - 1);
  } catch (...) {
    std::strncpy(error, "unknown exception in plugin factory", error_size - 1);
  }
  error[error_size - 1] = '\0';
  return nullptr;
}
template <PluginKind K> struct kind_base;
template <> struct kind_base<PluginKind::model> { using type = ModelType; };
template <> struct kind_base<PluginKind::integrator> { using type = IntegratorFamily; };
}  // namespace detail

}  // namespace liesim

/// Declare a plugin: KIND is `model` or `integrator`, TYPE a default-constructible class derived
/// from liesim::ModelType or liesim::IntegratorFamily. Exports the entry point `liesim_plugin`.
#define LIESIM_PLUGIN(KIND, NAME, VERSION, SUMMARY, TYPE)                                        \
  namespace {                                                                                    \
  static_assert(std::is_base_of_v<liesim::detail::kind_base<liesim::PluginKind::KIND>::type, TYPE>, \
                "LIESIM_PLUGIN: TYPE does not derive from the interface of this KIND");          \
  const liesim::PluginDescriptor* liesim_plugin_descriptor() {                                   \
    static const liesim::PluginDescriptor d{LIESIM_ABI_MAJOR,       LIESIM_ABI_MINOR,            \
                                            LIESIM_BUILD_TOKEN,     liesim::PluginKind::KIND,    \
                                            NAME,                   VERSION,                     \
                                            SUMMARY,                &liesim::detail::guarded_factory<TYPE>}; \
    return &d;                                                                                   \
  }                                                                                              \
  }                                                                                              \
  BOOST_DLL_ALIAS(liesim_plugin_descriptor, liesim_plugin)
