// The kernel's integration loops: fixed step, adaptive step under a step-size controller
// (liesim/host/step_controller.hpp; the papers' I-controller by default), and self-controlled solvers. Statistics, output and error handling live here once for every method.
#pragma once
#include <liesim/host/integrator.hpp>
#include <liesim/host/observer.hpp>
#include <liesim/host/step_controller.hpp>

#include <limits>
#include <string>
#include <vector>

namespace liesim {

/// Norm of the local error estimate.
enum class ErrorNorm {
  l2,   ///< plain 2-norm of the difference, compared with tol = atol (as in the papers)
  wrms  ///< SUNDIALS-style weighted RMS with rtol/atol, compared with 1
};

/// Step-size control of adaptive kernel-driven methods (documented in integrators/README.md).
struct StepControl {
  double rtol = 0.0;                 ///< relative tolerance (wrms only)
  double atol = 0.0;                 ///< absolute tolerance; the tolerance tol for l2
  ErrorNorm norm = ErrorNorm::wrms;  ///< option error_norm
  double theta = 0.85;               ///< safety factor (option theta)
  double h0 = 0.0;                   ///< initial step; 0 = initial_step()'s estimate (option h0)
  double h_min = 0.0;                ///< smallest allowed step (option h_min)
  double h_max = std::numeric_limits<double>::infinity();       ///< option h_max
  long max_steps = 1000000;          ///< accepted + rejected steps allowed (option max_steps)
  double max_growth = std::numeric_limits<double>::infinity();  ///< cap on h_new / h (option max_growth)
  double exponent = 0.0;             ///< 0 = 1 / (p_low + 1) (option exponent)
  ControllerOptions controller;      ///< options controller, pi_beta1, pi_beta2, controller_b
};

/// When a run counts as blown up (options diverged_factor and invariant_bound; docs/design.md,
/// "The driver"): its state norm passes state_factor max(1, |y0|) at an accepted step, or an
/// invariant the model declares conserved (non-increasing) changes (grows) by more than
/// invariant_bound max(|I0|, s) at a check (every invariant_check_every accepted steps, every
/// output of a self-controlled solver, and the end).
struct DivergenceBounds {
  double state_factor = 1e6;     ///< option diverged_factor
  double invariant_bound = 1e3;  ///< option invariant_bound (inf: invariants not checked)
};

/// Accepted steps between two checks of the invariants (they cost about one field evaluation).
inline constexpr long invariant_check_every = 32;

/// An event: a state component or an observable of the model crossing a value in one direction,
/// g(t, y) = component - value (`--stop-when "q<0"`: g falls through 0; `"q>0"`: g rises through 0).
struct EventSpec {
  std::string name;          ///< the state column, invariant or observable, as given
  int state_index = -1;      ///< the state component, or -1
  int invariant_index = -1;  ///< the model's invariant (e.g. an energy, an objective's gap), or -1
  int observable_index = -1; ///< the observable, or -1
  double value = 0.0;
  int direction = -1;        ///< -1: falling below value ('<'), +1: rising above it ('>')
  bool terminal = true;      ///< stop the run at the event (else record it and go on)
  std::string text;          ///< as the user wrote it, e.g. "q<0"
};

/// An event located inside an accepted step (by the Illinois method on the dense output).
struct EventHit {
  std::size_t event = 0;  ///< index into RunSpec::events
  double t = 0.0;
  Eigen::VectorXd y;
};

/// What to integrate: time span and step size or step control.
struct RunSpec {
  double t0 = 0.0;             ///< initial time
  double t_end = 1.0;          ///< final time
  double step = 0.0;           ///< > 0: fixed step size
  StepControl control;         ///< used when step == 0
  int solver_outputs = 100;    ///< output times of self-controlled solvers (equally spaced) when output_times is empty
  /// Output at exactly these times (increasing, in [t0, t_end]; t0 is always output), from the
  /// method's dense output inside the steps (liesim/host/integrator.hpp, Stepper::interpolate) or the
  /// solver's interpolation. Empty: every accepted step of a kernel-driven method, solver_outputs
  /// equal intervals of a self-controlled solver.
  std::vector<double> output_times;
  /// Events: located inside the accepted steps of a kernel-driven method (to t_tol = 1e-13
  /// max(1, |t|) in time, on the method's dense output), or by a solver's own root finding (SUNDIALS:
  /// to about 100 u (|t| + |h|)); a terminal one ends the run at the event.
  std::vector<EventSpec> events;
  DivergenceBounds divergence;  ///< when the run ends as diverged
};

/// Result of a run (also attached to a RunFailure, holding what was computed before the failure).
struct RunResult {
  Stats stats;
  double t = 0.0;          ///< time reached (a terminal event's time)
  Eigen::VectorXd y;       ///< state at t
  std::vector<EventHit> events;  ///< the events located, in time order
};

/// A run that ended early; `partial` holds the statistics and the last good state.
class RunFailure : public Error {
 public:
  RunFailure(const std::string& what, RunResult partial) : Error(what), partial(std::move(partial)) {}
  RunResult partial;
};

/// The start of a RunFailure's message when the run diverged (its state or a checked invariant
/// passed its bound, DivergenceBounds), followed by the time; a study records such a run as
/// "diverged".
inline constexpr const char* diverged_prefix = "diverged at t = ";
/// Whether a run's failure message says it diverged.
inline bool diverged(const std::string& message) { return message.rfind(diverged_prefix, 0) == 0; }

/// The kernel's options for adaptive step control, as `liesim describe` lists them.
std::vector<SettingSpec> step_control_options();
/// The kernel's step-control options of a method whose family declares `family`: a name the
/// family declares itself is the family's (e.g. SLGI's `theta`), not the kernel's.
std::vector<SettingSpec> step_control_options(const std::vector<SettingSpec>& family);
/// The kernel's options `kernel` less those a family declares itself (`family`).
std::vector<SettingSpec> kernel_options(std::vector<SettingSpec> kernel, const std::vector<SettingSpec>& family);
/// Read the step control options (rtol/atol are set by the caller).
StepControl parse_step_control(const Settings& options, StepControl base);
/// The kernel's divergence options (every method has them): diverged_factor, invariant_bound.
std::vector<SettingSpec> divergence_options();
/// Read the divergence options.
DivergenceBounds parse_divergence(const Settings& options);

/// Integrate with a kernel-driven stepper; fixed step when spec.step > 0, else adaptive
/// (requires an embedded pair). Throws RunFailure on solver failure or non-finite state.
RunResult integrate(ModelView& model, StepperView& stepper, const MethodInfo& method, const RunSpec& spec,
                    ConstVec y0, Observer& observer);
/// n equally spaced output times t0 + k (t_end - t0) / n, k = 1 ... n (the last exactly t_end).
std::vector<double> equal_output_times(double t0, double t_end, long n);
/// The output grid t0 + k dt, k = 1, 2, ..., up to t_end (a time within 1e-9 dt of t_end is t_end).
std::vector<double> output_grid(double t0, double t_end, double dt);
/// Parse "NAME<VALUE" or "NAME>VALUE" against a model's state columns and observables; throws
/// liesim::Error naming the problem and the names there are.
EventSpec parse_event(const std::string& text, const ModelView& model, bool terminal);
/// Its syntax alone (name, direction, value; no model at hand: the indices stay -1).
EventSpec parse_event_text(const std::string& text, bool terminal);
/// Check spec.output_times: finite, increasing, inside [t0, t_end]; throws liesim::Error naming the
/// first bad time and the fix.
void check_output_times(const RunSpec& spec);
/// Integrate with a self-controlled solver, with output at spec.output_times (or spec.solver_outputs
/// equal intervals): one that locates events itself (SUNDIALS) advanced from output time to output
/// time, one whose dynamics choose its steps (Solver::one_step) stepped here like a stepper (output
/// and events on its interpolant). `method` names it in messages.
RunResult integrate(ModelView& model, SolverView& solver, const RunSpec& spec, ConstVec y0, Observer& observer, const std::string& method = {});

/// The default first step of an adaptive kernel-driven run, the starting step size algorithm of
/// Hairer, Nørsett & Wanner, Solving ODEs I, §II.4: with the controller's norm ||.|| (wrms scaled
/// by atol + rtol |y0_i|, or the 2-norm divided by atol), d0 = ||y0||, d1 = ||F(t0, y0)||,
/// h = 0.01 d0/d1 (1e-6 if either is below 1e-5), one Euler step y1 (for a Lie group method the
/// Lie-Euler step exp(h f(t0, y0)) . y0, which stays on M), d2 = ||F(t0 + h, y1) - F(t0, y0)|| / h,
/// h1 = (0.01 / max(d1, d2))^(1/(p+1)) (max(1e-6, 1e-3 h) if max(d1, d2) <= 1e-15);
/// the result is min(100 h, h1, h_max, t_end - t0). p is the method's order. Two evaluations of the
/// field, counted in the run's statistics. If the model refuses either evaluation, (t_end - t0)/100.
double initial_step(ModelView& model, const MethodInfo& method, const RunSpec& spec, ConstVec y0);

/// The local error norm used by the controller (exposed for tests).
double error_norm(const StepControl& c, ErrorSpace space, ConstVec err, ConstVec y, ConstVec y_new);

}  // namespace liesim
