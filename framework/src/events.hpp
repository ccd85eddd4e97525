// Events of a kernel-driven run: g(t, y) = (a state component, an invariant or an observable) - value changes
// sign in the event's direction inside an accepted step; the time is located by the Illinois
// method (regula falsi with the retained end's value halved) on the method's dense output.
#pragma once
#include <liesim/host/driver.hpp>
#include <liesim/host/integrator.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace liesim {

/// The state inside the last accepted step from t with size h, at t + theta h (theta in [0, 1]):
/// a stepper's dense output or a solver's own interpolant; and why it failed.
class StepInterpolant {
 public:
  virtual Status at(double theta, Vec out) noexcept = 0;
  virtual std::string failure() const = 0;

 protected:
  ~StepInterpolant() = default;
};

class EventLocator {
 public:
  /// Events of `spec` on `model` (none: inactive, no cost per step).
  EventLocator(const std::vector<EventSpec>& events, ModelView& model);
  bool active() const noexcept { return !events_.empty(); }
  /// g at the run's start; throws liesim::Error if the model's observables fail there.
  void begin(double t0, ConstVec y0);
  /// For a solver's own root finding (Solver::set_events): each event's direction (+1 rising, -1
  /// falling), and g of every event at (t, y) through a C callback (`self`: this locator; 0 ok).
  const std::vector<int32_t>& directions() const noexcept { return directions_; }
  /// The first event as the user wrote it (for messages).
  const std::string& first_text() const { return events_.front().text; }
  static int32_t g(void* self, double t, const double* y, double* g_out) noexcept;
  /// After an accepted step from t with size h to (t_new, y_new), `dense` its interpolant: append
  /// the events inside it to `hits` in time order, up to and including the first terminal one (then
  /// `stop`). The interpolation's model evaluations are the caller's to account for. On failure,
  /// `error` says why.
  Status scan(StepInterpolant& dense, double t, double h, double t_new, ConstVec y_new, std::vector<EventHit>& hits, bool& stop,
              std::string& error);

 private:
  /// g of every event at (t, y) into `g`.
  Status evaluate(double t, ConstVec y, Vec g) noexcept;
  /// g of event k alone.
  Status evaluate_one(std::size_t k, double t, ConstVec y, double& g) noexcept;
  /// g of event k at y, with the observables (where it needs them) already in observables_.
  double g_of(std::size_t k, ConstVec y) const noexcept {
    const EventSpec& e = events_[k];
    const double v = e.state_index >= 0       ? y[e.state_index]
                     : e.invariant_index >= 0 ? invariants_[e.invariant_index]
                                              : observables_[e.observable_index];
    return v - e.value;
  }

  const std::vector<EventSpec>& events_;
  ModelView& model_;
  Eigen::VectorXd g0_, g1_, invariants_, observables_, y_theta_;
  std::vector<int32_t> directions_;
  bool invariants_needed_ = false, observables_needed_ = false;
};

/// Hand `events` to a solver's own root finding (Solver::set_events; nothing for a solver the host
/// steps); throws liesim::Error naming the solver (`who`, e.g. "method 'x'") and the methods that
/// locate events if it cannot.
void set_solver_events(SolverView& solver, EventLocator& events, const std::string& who);

}  // namespace liesim
