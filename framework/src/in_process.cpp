// In-process SDK objects through the C tables of the SDK's adapters.
#include <liesim/host/in_process.hpp>
#include <liesim/host/plugin_context.hpp>
#include <liesim/sdk/integrator_plugin.hpp>
#include <liesim/sdk/model_plugin.hpp>

namespace liesim {

namespace {
/// This process's adapters log to this process's host.
void attach_host() {
  static const bool attached = [] {
    sdk::detail::host() = host_table();
    return true;
  }();
  (void)attached;
}
const liesim_integrator_api& integrator_api() {
  static const liesim_integrator_api api = sdk::detail::IntegratorFunctions::api();
  return api;
}
}  // namespace

std::unique_ptr<ModelView> adopt_model(std::unique_ptr<sdk::Model> model) {
  attach_host();
  static const liesim_model_api api = sdk::detail::ModelFunctions::api();
  auto context = std::make_unique<PluginContext>("model");
  liesim_model* instance = sdk::detail::adopt(std::move(model), context.get());
  PluginContext* ctx = context.release();
  return std::make_unique<ModelView>(&api, instance, &plugin_context_last_error, ctx, [instance, ctx] {
    api.destroy(instance);
    delete ctx;
  });
}

std::unique_ptr<StepperView> adopt_stepper(std::unique_ptr<sdk::Stepper> stepper, int diagnostics) {
  attach_host();
  auto context = std::make_unique<PluginContext>("stepper");
  liesim_stepper* s = sdk::detail::adopt(std::move(stepper), context.get(), diagnostics);
  return std::make_unique<StepperView>(&integrator_api(), s, std::move(context), nullptr, diagnostics);
}

std::unique_ptr<SolverView> adopt_solver(std::unique_ptr<sdk::Solver> solver, int diagnostics) {
  attach_host();
  auto context = std::make_unique<PluginContext>("solver");
  liesim_solver* s = sdk::detail::adopt(std::move(solver), context.get(), diagnostics);
  return std::make_unique<SolverView>(&integrator_api(), s, std::move(context), nullptr, diagnostics);
}

}  // namespace liesim
