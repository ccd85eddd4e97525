// What the plugins on the search path offer, as JSON documents: `liesim list --json`,
// `liesim describe NAME --json`, and the Python package's models(), integrators() and describe().
#pragma once
#include <liesim/host/registry.hpp>

#include <map>
#include <memory>
#include <string>
#include <utility>

namespace liesim {

/// Every plugin file of the registry's search path, each probed in a child process: models,
/// integrator families with their methods, files that failed to load (with the reason) and names
/// offered by more than one file.
std::string list_json(const Registry& registry);

/// A model (parameters, conventions, and the state layout, invariants, observables and
/// capabilities of its instance with `params`) or an integrator method (order, options,
/// diagnostics). Throws liesim::Error for an unknown name, for parameters the model refuses and
/// for parameters given to a method.
std::string describe_json(const Registry& registry, const std::string& name, const std::map<std::string, std::string>& params = {});

/// The instance `describe` shows: the model with `params`. With parameters the user asks about that
/// instance, so a refusal throws liesim::Error; with defaults it leaves null and the reason in `error`.
std::unique_ptr<ModelView> described_instance(const LoadedPlugin& plugin, const std::map<std::string, std::string>& params, std::string& error);

/// The method `describe NAME` shows; throws liesim::Error for a name that is neither a model nor a
/// method (listing both) and for parameters given to a method.
std::pair<const LoadedPlugin*, MethodInfo> described_method(const Registry& registry, const std::string& name,
                                                           const std::map<std::string, std::string>& params);

/// An instance of a model plugin with `params` (defaults for the rest), or null with the reason in `error`.
std::unique_ptr<ModelView> model_instance(const LoadedPlugin& plugin, std::string& error, const std::map<std::string, std::string>& params = {});

}  // namespace liesim
