// Models, steppers and solvers written against the SDK and made in this process (tests,
// prototypes), seen through the same C tables as a plugin's: the kernel uses them unchanged.
#pragma once
#include <liesim/host/integrator.hpp>
#include <liesim/sdk/model_view.hpp>
#include <liesim/sdk/integrator.hpp>
#include <liesim/sdk/model.hpp>

#include <memory>

namespace liesim {

/// Take ownership of `model` and return the host's view of it (its messages reach last_error()).
std::unique_ptr<ModelView> adopt_model(std::unique_ptr<sdk::Model> model);
/// Take ownership of a kernel-driven stepper and return the host's view of it (`diagnostics`: how
/// many values its diagnostics() writes).
std::unique_ptr<StepperView> adopt_stepper(std::unique_ptr<sdk::Stepper> stepper, int diagnostics = 0);
/// Take ownership of a self-controlled solver and return the host's view of it.
std::unique_ptr<SolverView> adopt_solver(std::unique_ptr<sdk::Solver> solver, int diagnostics = 0);

}  // namespace liesim
