// One run from names and text settings: what the command line, the studies and the tests share.
#pragma once
#include <liesim/host/driver.hpp>
#include <liesim/host/registry.hpp>

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace liesim {

/// A run as a user states it: names and KEY=VALUE settings.
struct RunRequest {
  std::string model;                              ///< model plugin name
  std::map<std::string, std::string> parameters;  ///< model parameters (others default)
  std::string method;                             ///< integrator method name
  std::map<std::string, std::string> options;     ///< family options and step-control options
  double t0 = 0.0;                                ///< initial time
  double t_end = 1.0;                             ///< final time
  double step = 0.0;                              ///< fixed step (> 0), or 0 for tolerances
  double rtol = 0.0;                              ///< relative tolerance (adaptive)
  double atol = 0.0;                              ///< absolute tolerance (adaptive)
  int solver_outputs = 100;                       ///< output times of self-controlled solvers (when output_times is empty)
  std::vector<double> output_times;               ///< output at exactly these times (RunSpec::output_times)
  std::vector<std::string> stop_when;             ///< terminal events "NAME<VALUE" / "NAME>VALUE" (RunSpec::events)
  std::vector<std::string> events;                ///< events recorded without stopping
  std::vector<double> y0;                         ///< initial state instead of the model's (empty: the model's)
};

/// A validated run, ready to execute: every name resolved, every setting parsed.
struct PreparedRun {
  const LoadedPlugin* model_plugin = nullptr;
  const LoadedPlugin* integrator_plugin = nullptr;
  MethodInfo method;
  Settings parameters;  ///< model parameters with defaults
  Settings options;     ///< family options with defaults
  Settings control;     ///< step-control options with defaults
  Settings divergence;  ///< divergence options with defaults (diverged_factor, invariant_bound)
  /// The model instance.
  std::unique_ptr<ModelView> model;
  RunSpec spec;
  Eigen::VectorXd y0;   ///< validated initial state
};

/// The kernel's options of a prepared run with their values: step control and divergence.
inline std::map<std::string, std::string> kernel_option_values(const PreparedRun& run) {
  std::map<std::string, std::string> out = run.control.values();
  for (const auto& kv : run.divergence.values()) out.insert(kv);
  return out;
}

/// "parameters N=3, L=2" or "its default parameters" (messages about a model instance).
std::string given_parameters(const std::map<std::string, std::string>& parameters);
/// Resolve and validate a request; throws liesim::Error naming the first problem and its fix.
PreparedRun prepare_run(const Registry& registry, const RunRequest& request);
/// The same with a model instance made in this process (a prototype: liesim::adopt_model) instead
/// of a model plugin: `request.model` names it in messages, `request.parameters` must be empty.
/// The run's `model_plugin` is null.
PreparedRun prepare_run(const Registry& registry, const RunRequest& request, std::unique_ptr<ModelView> model);
/// Integrate a prepared run; throws RunFailure with the partial result on failure.
RunResult execute(PreparedRun& run, Observer& observer);

}  // namespace liesim
