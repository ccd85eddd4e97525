// The plugin SDK in one include: the C++ interfaces a plugin implements (liesim/sdk/model.hpp,
// liesim/sdk/integrator.hpp), their adapters to the C boundary (liesim/plugin.h) and the macro
// that exports the entry point.
#pragma once
#include <liesim/plugin.h>
#include <liesim/sdk/integrator_plugin.hpp>
#include <liesim/sdk/model_plugin.hpp>

#include <type_traits>

/// Declare a plugin: KIND is `model` or `integrator`, NAME its name (the library must be
/// liesim_NAME.so), TYPE a default-constructible class derived from liesim::sdk::ModelType or
/// liesim::sdk::IntegratorFamily. Exports the one entry point `liesim_plugin_entry` (extern "C").
#define LIESIM_PLUGIN(KIND, NAME, VERSION, SUMMARY, TYPE) LIESIM_PLUGIN_##KIND(NAME, VERSION, SUMMARY, TYPE)

#define LIESIM_PLUGIN_model(NAME, VERSION, SUMMARY, TYPE)                                               \
  static_assert(std::is_base_of_v<liesim::sdk::ModelType, TYPE>,                                        \
                "LIESIM_PLUGIN(model, ...): TYPE must derive from liesim::sdk::ModelType");             \
  extern "C" LIESIM_EXPORT const liesim_plugin* liesim_plugin_entry(const liesim_host* host) {          \
    return liesim::sdk::detail::ModelAdapter<TYPE>::plugin(host, NAME, VERSION, SUMMARY);               \
  }

#define LIESIM_PLUGIN_integrator(NAME, VERSION, SUMMARY, TYPE)                                          \
  static_assert(std::is_base_of_v<liesim::sdk::IntegratorFamily, TYPE>,                                 \
                "LIESIM_PLUGIN(integrator, ...): TYPE must derive from liesim::sdk::IntegratorFamily"); \
  extern "C" LIESIM_EXPORT const liesim_plugin* liesim_plugin_entry(const liesim_host* host) {          \
    return liesim::sdk::detail::IntegratorAdapter<TYPE>::plugin(host, NAME, VERSION, SUMMARY);          \
  }
