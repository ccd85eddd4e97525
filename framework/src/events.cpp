// Events: parsing "NAME<VALUE" / "NAME>VALUE" and locating sign changes inside accepted steps.
#include "events.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace liesim {

EventSpec parse_event(const std::string& text, const ModelView& model, bool terminal) {
  EventSpec e = parse_event_text(text, terminal);
  const auto states = model.state_names();
  for (std::size_t k = 0; k < states.size(); ++k)
    if (states[k] == e.name) e.state_index = static_cast<int>(k);
  std::vector<std::string> invariants, observables;
  for (const auto& i : model.invariants()) invariants.push_back(i.name);
  for (const auto& o : model.observables()) observables.push_back(o.name);
  if (e.state_index < 0)
    for (std::size_t k = 0; k < invariants.size(); ++k)
      if (invariants[k] == e.name) e.invariant_index = static_cast<int>(k);
  if (e.state_index < 0 && e.invariant_index < 0)
    for (std::size_t k = 0; k < observables.size(); ++k)
      if (observables[k] == e.name) e.observable_index = static_cast<int>(k);
  const auto listed = [](const std::vector<std::string>& names) {
    return names.empty() ? std::string("none") : fmt::format("{}", fmt::join(names, ", "));
  };
  if (e.state_index < 0 && e.invariant_index < 0 && e.observable_index < 0)
    throw Error(fmt::format("event '{}': '{}' is neither a state column ({}) nor an invariant ({}) nor an observable ({}) of the model",
                            text, e.name, fmt::join(states, ", "), listed(invariants), listed(observables)));
  return e;
}

void set_solver_events(SolverView& solver, EventLocator& events, const std::string& who) {
  if (solver.one_step()) return;  // the host steps it and locates the events on its interpolant
  std::string why;
  const auto count = static_cast<int32_t>(events.directions().size());
  if (solver.set_events(count, events.directions().data(), &EventLocator::g, &events, why) != Status::ok)
    throw Error(fmt::format("{} cannot locate the event '{}': {}; choose a kernel-driven method (e.g. rkmk45, dopri45: events on "
                            "its dense output) or a SUNDIALS solver (cvode_bdf, arkode_erk, ida: its own root finding)",
                            who, events.first_text(), why));
}

EventLocator::EventLocator(const std::vector<EventSpec>& events, ModelView& model)
    : events_(events), model_(model), g0_(events.size()), g1_(events.size()), y_theta_(events.empty() ? 0 : model.size()) {
  for (const auto& e : events) {
    invariants_needed_ = invariants_needed_ || e.invariant_index >= 0;
    observables_needed_ = observables_needed_ || e.observable_index >= 0;
    directions_.push_back(e.direction);
  }
  invariants_.resize(invariants_needed_ ? model.invariant_count() : 0);
  observables_.resize(observables_needed_ ? model.observable_count() : 0);
}

int32_t EventLocator::g(void* self, double t, const double* y, double* g_out) noexcept {
  auto* e = static_cast<EventLocator*>(self);
  const auto m = static_cast<Eigen::Index>(e->events_.size());
  return e->evaluate(t, Eigen::Map<const Eigen::VectorXd>(y, e->model_.size()), Eigen::Map<Eigen::VectorXd>(g_out, m)) == Status::ok ? 0 : 1;
}

Status EventLocator::evaluate(double t, ConstVec y, Vec g) noexcept {
  if (invariants_needed_) model_.evaluate_invariants(y, invariants_);
  if (observables_needed_) {
    const Status s = model_.evaluate_observables(t, y, observables_);
    if (s != Status::ok) return s;
  }
  for (std::size_t k = 0; k < events_.size(); ++k) g[static_cast<Eigen::Index>(k)] = g_of(k, y);
  return Status::ok;
}

Status EventLocator::evaluate_one(std::size_t k, double t, ConstVec y, double& g) noexcept {
  if (events_[k].invariant_index >= 0) model_.evaluate_invariants(y, invariants_);
  if (events_[k].observable_index >= 0) {
    const Status s = model_.evaluate_observables(t, y, observables_);
    if (s != Status::ok) return s;
  }
  g = g_of(k, y);
  return Status::ok;
}

void EventLocator::begin(double t0, ConstVec y0) {
  if (evaluate(t0, y0, g0_) != Status::ok)
    throw Error(fmt::format("the model's observables at t0 = {} failed: {}", t0, model_.last_error()));
}

Status EventLocator::scan(StepInterpolant& dense, double t, double h, double t_new, ConstVec y_new, std::vector<EventHit>& hits, bool& stop,
                          std::string& error) {
  stop = false;
  Status s = evaluate(t_new, y_new, g1_);
  if (s != Status::ok) {
    error = fmt::format("the model's observables at t = {} failed", t_new);
    return s;
  }
  // The crossings inside this step, each located: (theta, event).
  std::vector<std::pair<double, std::size_t>> found;
  const double t_tol = 1e-13 * std::max(1.0, std::abs(t_new));
  for (std::size_t k = 0; k < events_.size(); ++k) {
    const auto i = static_cast<Eigen::Index>(k);
    const double ga0 = g0_[i], gb0 = g1_[i];
    const bool crossed = events_[k].direction < 0 ? (ga0 >= 0 && gb0 < 0) : (ga0 <= 0 && gb0 > 0);
    if (!crossed) continue;
    // Illinois: the bracket [a, b] in theta keeps the sign change; b ends on the side past the
    // crossing, so the located state satisfies the event's condition.
    double a = 0.0, b = 1.0, ga = ga0, gb = gb0;
    int side = 0;
    for (int it = 0; it < 200 && (b - a) * h > t_tol; ++it) {
      double theta = b - gb * (b - a) / (gb - ga);
      if (!(theta > a && theta < b)) theta = 0.5 * (a + b);
      s = dense.at(theta, y_theta_);
      double g = 0.0;
      if (s == Status::ok) s = evaluate_one(k, t + theta * h, y_theta_, g);
      if (s != Status::ok) {
        error = fmt::format("locating event '{}' inside the step from t = {} with h = {}: the dense output or the model failed",
                            events_[k].text, t, h);
        return s;
      }
      const bool past = events_[k].direction < 0 ? g < 0 : g > 0;
      if (past) {
        b = theta;
        gb = g;
        if (side == -1) ga *= 0.5;
        side = -1;
      } else {
        a = theta;
        ga = g;
        if (side == +1) gb *= 0.5;
        side = +1;
      }
    }
    found.emplace_back(b, k);
  }
  g0_ = g1_;
  std::sort(found.begin(), found.end());
  for (const auto& [theta, k] : found) {
    EventHit hit;
    hit.event = k;
    hit.t = theta >= 1.0 ? t_new : t + theta * h;
    if (theta >= 1.0) {
      hit.y = y_new;
    } else {
      if ((s = dense.at(theta, y_theta_)) != Status::ok) {
        error = fmt::format("the dense output at event '{}' failed", events_[k].text);
        return s;
      }
      hit.y = y_theta_;
    }
    hits.push_back(std::move(hit));
    if (events_[k].terminal) {
      stop = true;
      // The run continues from the event's state: g there is past the crossing.
      if ((s = evaluate(hits.back().t, hits.back().y, g0_)) != Status::ok) return s;
      break;
    }
  }
  return Status::ok;
}

}  // namespace liesim
