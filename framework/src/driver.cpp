// Integration loops shared by every method (fixed step, adaptive step, self-controlled solvers).
#include <liesim/host/driver.hpp>

#include "divergence.hpp"
#include "events.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>

namespace liesim {

std::vector<SettingSpec> step_control_options() {
  return {
      {"error_norm", "wrms", "", "local error norm: wrms (weighted RMS with rtol/atol, accept err <= 1) or l2 (2-norm, accept err < atol)"},
      {"theta", "0.85", "", "safety factor in h_new = theta (tol/err)^(1/(p_low+1)) h"},
      {"h0", "", "s", "initial step size (default: the Hairer-Norsett-Wanner estimate from two evaluations of the field)"},
      {"h_min", "0", "s", "smallest step size; a smaller one ends the run with an error"},
      {"h_max", "inf", "s", "largest step size"},
      {"max_steps", "1000000", "", "accepted + rejected steps allowed before the run ends with an error"},
      {"max_growth", "inf", "", "largest ratio h_new / h (inf = unlimited, as in the papers)"},
      {"exponent", "", "", "controller exponent alpha = 1/k (default 1/(p_low+1); the papers' code used 1/4 for DOPRI 5(4))"},
      {"controller", "i", "",
       "step-size controller: i (the papers' h_new = theta (tol/err)^alpha h), pi (Gustafsson's PI.3.4), h211b "
       "(Soderlind's H211b filter) or pid (Soderlind's H312b filter); all share theta, max_growth, h_min, h_max and the "
       "rejection rule, aim at the error eps = theta^(1/alpha) tol where the I rule keeps h, and take the I rule after "
       "a rejection (integrators/README.md)"},
      {"pi_beta1", "", "",
       "controller=pi: h_new = (eps/err_n)^(pi_beta1 alpha) (err_(n-1)/eps)^(pi_beta2 alpha) h (default 0.7, "
       "Gustafsson's PI.3.4)"},
      {"pi_beta2", "", "", "controller=pi: the exponent of err_(n-1)/eps in units of alpha (default 0.4; 0 <= pi_beta2 < pi_beta1)"},
      {"controller_b", "", "",
       "controller=h211b or pid: the filter's b (default 4 for h211b, 8 for pid, as Soderlind recommends; > 0)"},
  };
}

std::vector<SettingSpec> step_control_options(const std::vector<SettingSpec>& family) {
  return kernel_options(step_control_options(), family);
}

std::vector<SettingSpec> kernel_options(std::vector<SettingSpec> kernel, const std::vector<SettingSpec>& family) {
  std::vector<SettingSpec> out;
  for (auto& s : kernel) {
    bool shadowed = false;
    for (const auto& f : family) shadowed = shadowed || f.name == s.name;
    if (!shadowed) out.push_back(std::move(s));
  }
  return out;
}

namespace {
double number_or_inf(const Settings& s, const std::string& key) {
  const std::string& t = s.text(key);
  if (t == "inf") return std::numeric_limits<double>::infinity();
  return s.positive(key);
}
/// The controller options: a parameter of a controller other than the chosen one is refused.
void parse_controller(const Settings& o, ControllerOptions& c) {
  if (o.has("controller")) {
    const std::string name = detail::trim(o.text("controller"));
    const auto& names = controller_names();
    const auto it = std::find(names.begin(), names.end(), name);
    if (it == names.end())
      throw Error(fmt::format("step-control option 'controller': unknown controller '{}'; known: {}", name, fmt::join(names, ", ")));
    c.kind = static_cast<ControllerKind>(it - names.begin());
  }
  const char* chosen = controller_name(c.kind);
  const auto only_for = [&](const char* key, std::initializer_list<ControllerKind> kinds) {
    if (!o.has(key)) return false;
    for (const ControllerKind k : kinds)
      if (k == c.kind) return true;
    std::vector<std::string> names;
    for (const ControllerKind k : kinds) names.push_back(fmt::format("controller={}", controller_name(k)));
    throw Error(fmt::format("step-control option '{}' applies to {} only (this run has controller={})", key,
                            fmt::join(names, " or "), chosen));
  };
  if (only_for("pi_beta1", {ControllerKind::pi})) c.pi_beta1 = o.positive("pi_beta1");
  if (only_for("pi_beta2", {ControllerKind::pi})) {
    c.pi_beta2 = o.number("pi_beta2");
    if (c.pi_beta2 < 0) throw Error(fmt::format("step-control option 'pi_beta2' must be >= 0 (got {})", c.pi_beta2));
  }
  if (c.kind == ControllerKind::pi && !(c.pi_beta2 < c.pi_beta1))
    throw Error(fmt::format("step-control options pi_beta1 = {} and pi_beta2 = {}: pi_beta1 - pi_beta2, the PI controller's "
                            "integral gain, must be positive (Gustafsson's PI.3.4: pi_beta1 = 0.7, pi_beta2 = 0.4)",
                            c.pi_beta1, c.pi_beta2));
  if (only_for("controller_b", {ControllerKind::h211b, ControllerKind::pid})) c.b = o.positive("controller_b");
}
}  // namespace

StepControl parse_step_control(const Settings& o, StepControl c) {
  if (o.has("error_norm")) c.norm = o.choice("error_norm", {"wrms", "l2"}) == "l2" ? ErrorNorm::l2 : ErrorNorm::wrms;
  if (o.has("theta")) {
    c.theta = o.positive("theta");
    if (c.theta > 1) throw Error(fmt::format("option 'theta' must be in (0, 1] (got {})", c.theta));
  }
  if (o.has("h0")) c.h0 = o.positive("h0");
  if (o.has("h_min")) {
    c.h_min = o.number("h_min");
    if (c.h_min < 0) throw Error("option 'h_min' must be >= 0");
  }
  if (o.has("h_max")) c.h_max = number_or_inf(o, "h_max");
  if (o.has("max_steps")) c.max_steps = o.integer("max_steps", 1, 1L << 50);
  if (o.has("max_growth")) {
    c.max_growth = number_or_inf(o, "max_growth");
    if (c.max_growth <= 1) throw Error("option 'max_growth' must be > 1");
  }
  if (o.has("exponent")) c.exponent = o.positive("exponent");
  parse_controller(o, c.controller);
  return c;
}

double error_norm(const StepControl& c, ErrorSpace space, ConstVec err, ConstVec y, ConstVec y_new) {
  if (c.norm == ErrorNorm::l2) return err.norm();
  // Weighted RMS of an embedding error: w_i = rtol max(|y_i|, |y_new,i|) + atol. (Algebra errors
  // reach here already mapped to the embedding by the driver: see integrate().)
  (void)space;
  double sum = 0.0;
  const Eigen::Index n = err.size();
  for (Eigen::Index i = 0; i < n; ++i) {
    const double w = c.rtol * std::max(std::abs(y[i]), std::abs(y_new[i])) + c.atol;
    sum += (err[i] / w) * (err[i] / w);
  }
  return std::sqrt(sum / static_cast<double>(std::max<Eigen::Index>(n, 1)));
}

namespace {

using Clock = std::chrono::steady_clock;

/// Common bookkeeping of a run: counters, timing, the failure path.
struct RunState {
  ModelView& model;
  RunResult result;
  Clock::time_point start = Clock::now();
  double cpu_start = thread_cpu_seconds();

  double factor;  ///< option diverged_factor
  double bound;   ///< a state norm beyond this is a blown-up run (divergence.hpp)
  double bound_squared;  ///< bound^2, or the largest double when that is not finite (so that inf fails)
  InvariantBound invariants;
  /// Accepted steps until the invariants are checked next (never, for a model that declares no
  /// kinds or with invariant_bound = inf): the per-step cost is one decrement and one branch.
  long until_check;

  RunState(ModelView& m, ConstVec y0, double t0, const DivergenceBounds& d)
      : model(m), factor(d.state_factor), bound(d.state_factor * std::max(1.0, y0.norm())),
        bound_squared(std::isfinite(bound * bound) ? bound * bound : std::numeric_limits<double>::max()),
        invariants(m, y0, d.invariant_bound),
        until_check(invariants.active() ? invariant_check_every : std::numeric_limits<long>::max()) {
    model.counters() = Counters{};
    result.y = y0;
    result.t = t0;
  }
  /// True when y is finite and within the bound, in one pass over y: the squared norm is NaN or
  /// inf for a non-finite y (or one whose square overflows), and fails the comparison. When false,
  /// the caller tells the cases apart (allFinite, then check_bounded): off the step path.
  bool finite_and_bounded(ConstVec y) const noexcept { return y.squaredNorm() <= bound_squared; }
  /// End the run as diverged when the accepted state y at t has blown up.
  void check_bounded(double t, ConstVec y) {
    if (y.norm() > bound)  // (stableNorm in the message: the plain norm may overflow)
      fail(fmt::format("{}{}: |y| = {:.3g} passed {:g} max(1, |y0|) = {:.3g} (the method is unstable here: a smaller step or "
                       "tolerance)", diverged_prefix, t, y.stableNorm(), factor, bound));
  }
  /// End the run as diverged when a checked invariant at the accepted state y at t passed its
  /// bound: every invariant_check_every calls, and always when `now` (an output, the end).
  void check_invariants(double t, const Eigen::VectorXd& y, bool now) {
    if (--until_check > 0 && !now) return;
    check_invariants_now(t, y);
  }
  /// Out of the step loop's way (rarely called: every invariant_check_every steps, and at the end).
  [[gnu::noinline, gnu::cold]] void check_invariants_now(double t, const Eigen::VectorXd& y) {
    if (!invariants.active()) {
      until_check = std::numeric_limits<long>::max();
      return;
    }
    until_check = invariant_check_every;
    const std::string why = invariants.check(t, y);
    if (!why.empty()) fail(why);
  }
  /// Hook run before the result is final (self-controlled solvers add their statistics).
  std::function<void(Stats&)> before_finish;
  void finish() {
    result.stats.counters = model.counters();
    // Newton iterations of kernel-driven implicit methods; solvers add theirs in before_finish.
    result.stats.nonlinear_iters = result.stats.counters.newton_iters;
    result.stats.nonlinear_conv_fails = result.stats.counters.newton_fails;
    if (before_finish) before_finish(result.stats);
    result.stats.wall_time_s = std::chrono::duration<double>(Clock::now() - start).count();
    result.stats.cpu_time_s = thread_cpu_seconds() - cpu_start;
  }
  [[noreturn]] void fail(const std::string& why) {
    finish();
    throw RunFailure(why, result);
  }
  /// Run `work` (dense output, event location) with its model evaluations counted in
  /// Stats::output_evals, not in the counters: the work of a run does not depend on its sampling.
  template <class Work>
  void uncounted(Work&& work) {
    const Counters before = model.counters();
    work();
    const Counters& after = model.counters();
    result.stats.output_evals += (after.f_evals - before.f_evals) + (after.F_evals - before.F_evals);
    model.counters() = before;
  }
  /// End the run at a terminal event's state (t, y): the run's result, its last output, checked.
  void stop_at_event(double t, ConstVec y, Observer& observer) {
    result.y = y;
    result.t = t;
    observer.on_output(t, result.y);
    check_invariants(t, result.y, true);
  }
  void accept(double h) {
    Stats& s = result.stats;
    s.h_min_used = s.steps == 0 ? h : std::min(s.h_min_used, h);
    s.h_max_used = std::max(s.h_max_used, h);
    ++s.steps;
  }
};

std::string describe_status(Status s, const std::string& detail) {
  const char* kind = s == Status::recoverable ? "recoverable failure" : "fatal failure";
  return detail.empty() ? std::string(kind) : fmt::format("{}: {}", kind, detail);
}

std::string step_failure_detail(ModelView& model, StepperView& stepper) {
  std::string d = stepper.last_error();
  if (d.empty()) d = model.last_error();
  return d;
}

/// A stepper's dense output inside its accepted step from (t, y) with size h to y_new (`work`:
/// scratch of the error estimate's size).
struct StepperDense final : StepInterpolant {
  ModelView& model;
  StepperView& stepper;
  double t, h;
  Eigen::Ref<const Eigen::VectorXd> y, y_new;  // (views of the loop's vectors, not copies)
  Vec work;
  StepperDense(ModelView& m, StepperView& s, double t0, double step, ConstVec y0, ConstVec y1, Vec w)
      : model(m), stepper(s), t(t0), h(step), y(y0), y_new(y1), work(w) {}
  Status at(double theta, Vec out) noexcept override { return stepper.interpolate(t, h, y, y_new, theta, out, work); }
  std::string failure() const override { return step_failure_detail(model, stepper); }
};

/// A solver's own interpolant inside its last step, from t with size h (solvers the host steps).
struct SolverDense final : StepInterpolant {
  SolverView& solver;
  double t, h;
  SolverDense(SolverView& s, double t0, double step) : solver(s), t(t0), h(step) {}
  Status at(double theta, Vec out) noexcept override { return solver.interpolate(theta >= 1.0 ? t + h : t + theta * h, out); }
  std::string failure() const override { return solver.last_error(); }
};

/// Output at requested times inside accepted steps (RunSpec::output_times): the dense output, with
/// its model evaluations counted in Stats::output_evals instead of the counters.
struct DenseOutput {
  const std::vector<double>& times;
  std::size_t next = 0;
  Eigen::VectorXd y_out;

  DenseOutput(const std::vector<double>& output_times, double t0, Eigen::Index n)
      : times(output_times), y_out(times.empty() ? 0 : n) {
    while (next < times.size() && times[next] <= t0) ++next;  // t0 is output anyway
  }
  bool active() const { return !times.empty(); }
  /// Output every requested time in (t, until] of the accepted step from t with size h to
  /// (t_new, y_new), `dense` its interpolant (until = t_new, or a terminal event's time).
  [[gnu::noinline]] void emit(RunState& run, StepInterpolant& dense, const std::string& who, Observer& observer, double t, double h,
                              double t_new, ConstVec y_new, double until) {
    if (next >= times.size() || times[next] > until) return;
    run.uncounted([&] { emit_until(run, dense, who, observer, t, h, t_new, y_new, until); });
  }

 private:
  void emit_until(RunState& run, StepInterpolant& dense, const std::string& who, Observer& observer, double t, double h, double t_new,
                  ConstVec y_new, double until) {
    for (; next < times.size() && times[next] <= until; ++next) {
      const double tau = times[next];
      if (tau == t_new) {
        observer.on_output(tau, y_new);
        continue;
      }
      const Status s = dense.at((tau - t) / h, y_out);
      if (s != Status::ok || !y_out.allFinite())
        run.fail(fmt::format("{}: the dense output at t = {} (inside the step from t = {} with h = {}) failed: {}", who,
                             tau, t, h, s != Status::ok ? describe_status(s, dense.failure()) : "non-finite state"));
      observer.on_output(tau, y_out);
    }
  }
};

/// Events inside accepted steps (events.hpp): located with their evaluations uncounted; true when
/// a terminal one ended the run (its state is the run's, output after the requested times before it).
[[gnu::noinline]] bool handle_events(RunState& run, EventLocator& events, DenseOutput& output, StepInterpolant& dense,
                                     const std::string& who, Observer& observer, double t, double h, double t_new, ConstVec y_new) {
  bool stop = false;
  std::string why;
  Status s = Status::ok;
  run.uncounted([&] { s = events.scan(dense, t, h, t_new, y_new, run.result.events, stop, why); });
  if (s != Status::ok) run.fail(fmt::format("{}: {}: {}", who, why, describe_status(s, dense.failure())));
  if (!stop) return false;
  const EventHit& hit = run.result.events.back();
  if (output.active()) output.emit(run, dense, who, observer, t, h, t_new, y_new, hit.t);
  run.accept(hit.t - t);
  run.stop_at_event(hit.t, hit.y, observer);
  return true;
}

/// Advance a solver with events to t_out (y_out: the state there), recording each event its root
/// finding returns at; true when a terminal one ended the run (its state is the run's).
[[gnu::noinline]] bool solver_events(RunState& run, SolverView& solver, const RunSpec& spec, Observer& observer, double t_out, Vec y_out,
                                     std::vector<int32_t>& found) {
  for (;;) {
    double t_reached = t_out;
    if (solver.advance_to_event(t_out, y_out, t_reached, found.data()) != Status::ok) run.fail(solver.last_error());
    if (std::none_of(found.begin(), found.end(), [](int32_t f) { return f != 0; })) return false;
    if (!y_out.allFinite()) run.fail(fmt::format("non-finite state at the event at t = {}", t_reached));
    bool stop = false;
    for (std::size_t k = 0; k < found.size(); ++k) {
      if (!found[k]) continue;
      run.result.events.push_back(EventHit{k, t_reached, y_out});
      stop = stop || spec.events[k].terminal;
    }
    if (stop) {
      run.stop_at_event(t_reached, y_out, observer);
      return true;
    }
    if (t_reached >= t_out) return false;
  }
}

/// What the step loops of a kernel-driven run share: the run, the stepper's proposal and error
/// estimate, its diagnostics, and the requested outputs and events inside accepted steps.
struct SteppedRun {
  ModelView& model;
  StepperView& stepper;
  const MethodInfo& method;
  const RunSpec& spec;
  Observer& observer;
  RunState run;
  Eigen::VectorXd y_new;
  Eigen::VectorXd err;
  Eigen::VectorXd diagnostics;
  DenseOutput dense;
  const bool dense_output;  // (hoisted: the step loops test it once per step)
  EventLocator events;
  const bool events_on;
  const std::string who;  // "method 'NAME'" (in messages)

  SteppedRun(ModelView& m, StepperView& s, const MethodInfo& info, const RunSpec& sp, ConstVec y0, Observer& o)
      : model(m), stepper(s), method(info), spec(sp), observer(o), run(m, y0, sp.t0, sp.divergence), y_new(m.size()),
        err(Eigen::VectorXd::Zero(s.error_space() == ErrorSpace::algebra ? m.space().algebra_dim() : m.size())),
        diagnostics(s.diagnostic_count()), dense(sp.output_times, sp.t0, m.size()), dense_output(dense.active()),
        events(sp.events, m), events_on(events.active()), who(fmt::format("method '{}'", info.name)) {
    observer.on_output(run.result.t, run.result.y);
    if (events_on) events.begin(run.result.t, run.result.y);
  }
  void report_diagnostics() {
    if (diagnostics.size() == 0) return;
    stepper.diagnostics(diagnostics);
    observer.on_diagnostics(diagnostics);
  }
  [[noreturn, gnu::cold]] void step_failed(Status s, double t, double h) {
    run.fail(fmt::format("{} failed at t = {} with h = {}: {}", who, t, h, describe_status(s, step_failure_detail(model, stepper))));
  }
  /// Events and requested outputs inside the accepted step from (t, y) with size h to (t_new,
  /// y_new), on the stepper's dense output; true when a terminal event ended the run.
  bool inside_step(double h, double t_new) {
    const double t = run.result.t;
    StepperDense interpolant(model, stepper, t, h, run.result.y, y_new, err);
    if (events_on && handle_events(run, events, dense, interpolant, who, observer, t, h, t_new, y_new)) return true;
    if (dense_output) dense.emit(run, interpolant, who, observer, t, h, t_new, y_new, t_new);
    return false;
  }
  /// Make the accepted step to (t_new, y_new) the run's state; true when a terminal event inside
  /// it ended the run instead.
  bool advance(double h, double t_new, bool last) {
    if ((events_on || dense_output) && inside_step(h, t_new)) return true;
    run.result.y.swap(y_new);
    run.result.t = t_new;
    run.accept(h);
    if (!dense_output) observer.on_output(t_new, run.result.y);
    run.check_invariants(t_new, run.result.y, last);
    return false;
  }
  RunResult finished() {
    run.finish();
    return run.result;
  }
};

/// Fixed steps of spec.step from t0, the last one ending exactly at t_end.
RunResult fixed_steps(SteppedRun& r) {
  const RunSpec& spec = r.spec;
  const double T = spec.t_end;
  const double span = T - spec.t0;
  const double count = std::ceil(span / spec.step * (1 - 1e-12));
  if (spec.step > span * (1 + 1e-12))
    throw Error(fmt::format("the step size {} is larger than the time span {}: choose --step <= t_end - t0", spec.step, span));
  if (count > static_cast<double>(spec.control.max_steps))
    throw Error(fmt::format("{:.3g} fixed steps of h = {} exceed max_steps = {}: choose a larger step or raise the option max_steps",
                            count, spec.step, spec.control.max_steps));
  const long steps = std::max(1L, static_cast<long>(count));
  const Eigen::VectorXd& y = r.run.result.y;
  for (long k = 0; k < steps; ++k) {
    const double t = r.run.result.t;
    const double t_next = k + 1 == steps ? T : spec.t0 + static_cast<double>(k + 1) * spec.step;
    const double h = t_next - t;
    const Status s = r.stepper.step(t, h, y, r.y_new, r.err);
    if (s != Status::ok) r.step_failed(s, t, h);
    if (!r.run.finite_and_bounded(r.y_new)) {
      if (!r.y_new.allFinite())
        r.run.fail(fmt::format("non-finite state at t = {} ({}, h = {}); reduce the step size", t_next, r.who, h));
      r.run.check_bounded(t_next, r.y_new);
    }
    r.report_diagnostics();
    if (r.advance(h, t_next, k + 1 == steps)) break;
  }
  return r.finished();
}

/// How an adaptive step's error estimate is measured (StepControl::norm, the stepper's ErrorSpace).
/// With wrms, an algebra error sigma - sigma_hat is measured as the tangent vector it generates at
/// y_new, psi_*(sigma - sigma_hat)|_y_new, so that every component is weighted in the units of the
/// state it moves (with l2 it is measured in g, as in the papers). With l2, a Lie group pair that
/// returns two end points on M (commutator-free) is measured with the space's distance
/// d(y_new, y_hat), y_hat = y_new - err (default: the Euclidean norm).
struct ErrorMeasure {
  const StepControl& c;
  ErrorSpace space;
  bool map_to_embedding;
  bool on_manifold;
  Eigen::VectorXd tangent;
  Eigen::VectorXd y_hat;

  ErrorMeasure(const StepControl& control, const MethodInfo& method, ErrorSpace s, Eigen::Index n)
      : c(control), space(s), map_to_embedding(c.norm != ErrorNorm::l2 && s == ErrorSpace::algebra),
        on_manifold(c.norm == ErrorNorm::l2 && method.lie_group && s == ErrorSpace::embedding),
        tangent(Eigen::VectorXd::Zero(map_to_embedding ? n : 0)), y_hat(Eigen::VectorXd::Zero(on_manifold ? n : 0)) {}

  double operator()(SteppedRun& r, ConstVec y) {
    if (map_to_embedding) {
      if (r.model.space().generator(r.err, r.y_new, tangent) != Status::ok)
        r.run.fail(fmt::format("{}: the space could not map the error estimate to the embedding", r.who));
      return error_norm(c, ErrorSpace::embedding, tangent, y, r.y_new);
    }
    if (on_manifold) {
      y_hat = r.y_new - r.err;
      return r.model.space().distance(r.y_new, y_hat);
    }
    return error_norm(c, space, r.err, y, r.y_new);
  }
};

/// The step h about to be tried at t (towards T): refused below h_min or round-off; a step that
/// would leave only a round-off sliver before T goes all the way.
double checked_step(SteppedRun& r, double t, double h, double T) {
  const StepControl& c = r.spec.control;
  // A step clipped to reach t_end may be shorter than h_min; any other step may not.
  if ((h < c.h_min && h < T - t) || h <= 4 * std::numeric_limits<double>::epsilon() * std::max(1.0, std::abs(t)))
    r.run.fail(fmt::format("step size {} fell below {} at t = {} ({}); the problem may be stiff or the tolerance too tight", h,
                           c.h_min > 0 ? "h_min = " + fmt::format("{}", c.h_min) : std::string("round-off level"), t, r.who));
  if (T - (t + h) <= 4 * std::numeric_limits<double>::epsilon() * std::max(1.0, std::abs(T))) return T - t;
  return h;
}

/// Steps chosen by the step-size controller from the embedded error estimate, to t_end.
RunResult adaptive_steps(SteppedRun& r, ConstVec y0) {
  const StepControl& c = r.spec.control;
  const bool l2 = c.norm == ErrorNorm::l2;
  if (!(c.atol > 0) || (!l2 && !(c.rtol >= 0)))
    throw Error("adaptive stepping needs --atol > 0 (and --rtol >= 0 with error_norm=wrms)");
  ErrorMeasure measure(c, r.method, r.stepper.error_space(), r.model.size());
  const int p_low = r.method.embedded_order > 0 ? std::min(r.method.order, r.method.embedded_order) : r.method.order;
  const double alpha = c.exponent > 0 ? c.exponent : 1.0 / (p_low + 1);
  // The controller (step_controller.cpp; by default the papers' I rule [seed 002 §4, thesis
  // (2.4.1)]: h_new = theta (tol/err)^alpha h, accept if err < tol; wrms accepts err <= 1).
  StepController controller(c.controller, c.theta, alpha, l2 ? c.atol : 1.0, l2);
  const double T = r.spec.t_end;
  const Eigen::VectorXd& y = r.run.result.y;
  double h = std::min({c.h0 > 0 ? c.h0 : initial_step(r.model, r.method, r.spec, y0), c.h_max, T - r.run.result.t});
  long attempts = 0;
  while (r.run.result.t < T) {
    const double t = r.run.result.t;
    if (++attempts > c.max_steps)
      r.run.fail(fmt::format("max_steps ({}) reached at t = {} ({}); raise the option max_steps or loosen the tolerance",
                             c.max_steps, t, r.who));
    h = checked_step(r, t, h, T);
    const bool last = h >= T - t;
    const Status s = r.stepper.step(t, h, y, r.y_new, r.err);
    if (s == Status::fatal) r.step_failed(s, t, h);
    double e = std::numeric_limits<double>::quiet_NaN();  // stays NaN when the model refused the step
    bool accepted = false;
    double factor = 0.25;  // after a recoverable failure of the model: retry with a quarter of h
    if (s == Status::ok) {
      e = measure(r, y);
      if (!std::isfinite(e) || !r.y_new.allFinite())
        r.run.fail(fmt::format("non-finite {} at t = {} with h = {} ({}); reduce h0 or the tolerance",
                               std::isfinite(e) ? "state" : "error estimate", t, h, r.who));
      const StepController::Decision d = controller.attempt(e, h);
      factor = d.factor;
      accepted = d.accepted;
    }
    if (accepted) r.report_diagnostics();
    r.observer.on_step(t, h, e, accepted);
    factor = std::min(factor, c.max_growth);
    if (accepted) {
      const double t_new = last ? T : t + h;
      r.run.check_bounded(t_new, r.y_new);
      if (r.advance(h, t_new, last)) break;
    } else {
      ++r.run.result.stats.rejected_steps;
    }
    h = std::min({factor * h, c.h_max, T - r.run.result.t});
  }
  return r.finished();
}

}  // namespace

RunResult integrate(ModelView& model, StepperView& stepper, const MethodInfo& method, const RunSpec& spec,
                    ConstVec y0, Observer& observer) {
  const Eigen::Index n = model.size();
  if (y0.size() != n) throw Error(fmt::format("initial state has {} components, the model expects {}", y0.size(), n));
  if (!(spec.t_end > spec.t0)) throw Error(fmt::format("t_end ({}) must be greater than t0 ({})", spec.t_end, spec.t0));
  check_output_times(spec);
  model.prepare();
  std::string init_error;
  if (stepper.init(model, init_error) != Status::ok)
    throw Error(fmt::format("method '{}' cannot run model: {}", method.name, init_error));
  const bool adaptive = spec.step <= 0;
  if (adaptive && stepper.error_space() == ErrorSpace::none)
    throw Error(fmt::format("method '{}' has no embedded error estimate: give a fixed step (--step H), or choose an adaptive method", method.name));
  if (!adaptive && !(std::isfinite(spec.step)))
    throw Error("the step size must be finite and positive");
  SteppedRun run(model, stepper, method, spec, y0, observer);
  return adaptive ? adaptive_steps(run, y0) : fixed_steps(run);
}

namespace {

/// A solver whose dynamics choose its steps, driven one step at a time (Solver::one_step): output
/// at the requested times (or solver_outputs equal intervals) and events on its interpolant, as for
/// a kernel-driven stepper; a step that passes t_end is cut there by the interpolant.
RunResult integrate_steps(RunState& run, SolverView& solver, const RunSpec& spec, EventLocator& events, Observer& observer,
                          const std::string& who) {
  ModelView& model = run.model;
  const Eigen::Index n = model.size();
  const double T = spec.t_end;
  double& t = run.result.t;
  Eigen::VectorXd& y = run.result.y;
  const bool events_on = events.active();
  if (events_on) events.begin(t, y);
  const std::vector<double> times =
      spec.output_times.empty() ? equal_output_times(spec.t0, T, std::max(1, spec.solver_outputs)) : spec.output_times;
  DenseOutput output(times, spec.t0, n);
  // The host counts the steps (an event ends the last one early, as for a stepper); the rest of the
  // statistics are the solver's.
  run.before_finish = [&](Stats& stats) {
    const Stats host = stats;
    solver.add_stats(stats);
    stats.steps = host.steps;
    stats.h_min_used = host.h_min_used;
    stats.h_max_used = host.h_max_used;
  };
  Eigen::VectorXd y_new(n), diagnostics(solver.diagnostic_count());
  observer.on_output(t, y);
  while (t < T) {
    double t_new = t;
    if (solver.step(t_new, y_new) != Status::ok) run.fail(solver.last_error());
    if (!(t_new > t) || !std::isfinite(t_new) || !y_new.allFinite())
      run.fail(fmt::format("{}: the step from t = {} ended at t = {} with {} state", who, t, t_new, y_new.allFinite() ? "a" : "a non-finite"));
    if (diagnostics.size() > 0) {
      solver.diagnostics(diagnostics);
      observer.on_diagnostics(diagnostics);
    }
    observer.on_step(t, t_new - t, std::numeric_limits<double>::quiet_NaN(), true);
    const double h_solver = t_new - t;  // the step the solver's dynamics chose (its statistics)
    if (t_new > T) {  // the part of the step inside the run: to t_end, by the interpolant
      if (solver.interpolate(T, y_new) != Status::ok) run.fail(solver.last_error());
      t_new = T;
    }
    run.check_bounded(t_new, y_new);
    const double h = t_new - t;
    SolverDense dense(solver, t, h);
    if (events_on && handle_events(run, events, output, dense, who, observer, t, h, t_new, y_new)) {
      run.finish();
      return run.result;
    }
    output.emit(run, dense, who, observer, t, h, t_new, y_new, t_new);
    y = y_new;
    t = t_new;
    run.accept(h_solver);
    run.check_invariants(t, y, t >= T);
  }
  run.finish();
  return run.result;
}

}  // namespace

RunResult integrate(ModelView& model, SolverView& solver, const RunSpec& spec, ConstVec y0, Observer& observer, const std::string& method) {
  const Eigen::Index n = model.size();
  if (y0.size() != n) throw Error(fmt::format("initial state has {} components, the model expects {}", y0.size(), n));
  if (!(spec.t_end > spec.t0)) throw Error(fmt::format("t_end ({}) must be greater than t0 ({})", spec.t_end, spec.t0));
  check_output_times(spec);
  model.prepare();
  SolverTolerances tol{spec.control.rtol, spec.control.atol, spec.step};
  std::string init_error;
  RunState run(model, y0, spec.t0, spec.divergence);
  if (solver.init(model, spec.t0, y0, tol, init_error) != Status::ok) throw Error(init_error);
  EventLocator events(spec.events, model);
  const std::string who = method.empty() ? "the solver" : fmt::format("method '{}'", method);  // (in messages)
  if (solver.one_step()) return integrate_steps(run, solver, spec, events, observer, who);
  // Events: located by the solver's own root finding (SUNDIALS: CVodeRootInit, ...).
  if (events.active()) set_solver_events(solver, events, who);
  std::vector<int32_t> found(spec.events.size(), 0);
  // Steps the solver reports (e.g. steps chosen by the dynamics) reach the observer as accepted
  // steps with their diagnostics, and become the run's last good state.
  struct StepReport {
    SolverView& solver;
    Observer& observer;
    RunResult& result;
    Eigen::VectorXd diagnostics;
    ~StepReport() { solver.on_step(nullptr, nullptr); }
    static void call(void* self, double t, double h, const double* y) {
      auto* r = static_cast<StepReport*>(self);
      if (r->diagnostics.size() > 0) {
        r->solver.diagnostics(r->diagnostics);
        r->observer.on_diagnostics(r->diagnostics);
      }
      r->observer.on_step(t - h, h, std::numeric_limits<double>::quiet_NaN(), true);
      r->result.t = t;
      r->result.y = Eigen::Map<const Eigen::VectorXd>(y, r->result.y.size());
    }
  } report{solver, observer, run.result, Eigen::VectorXd(solver.diagnostic_count())};
  solver.on_step(&StepReport::call, &report);
  observer.on_output(spec.t0, y0);
  // The requested times (t0 is output above), or solver_outputs equal intervals; then t_end.
  std::vector<double> times;
  for (const double tau : spec.output_times)
    if (tau > spec.t0) times.push_back(tau);
  if (spec.output_times.empty()) times = equal_output_times(spec.t0, spec.t_end, std::max(1, spec.solver_outputs));
  const bool end_requested = !times.empty() && times.back() == spec.t_end;
  if (!end_requested) times.push_back(spec.t_end);
  Eigen::VectorXd y_out(n);
  run.before_finish = [&](Stats& stats) { solver.add_stats(stats); };
  for (std::size_t k = 0; k < times.size(); ++k) {
    const double t_out = times[k];
    if (events.active()) {
      if (solver_events(run, solver, spec, observer, t_out, y_out, found)) {
        run.finish();
        return run.result;
      }
    } else if (solver.advance(t_out, y_out) != Status::ok) {
      run.fail(solver.last_error());
    }
    if (!y_out.allFinite()) run.fail(fmt::format("non-finite state at t = {}", t_out));
    run.check_bounded(t_out, y_out);
    run.result.y = y_out;
    run.result.t = t_out;
    if (end_requested || k + 1 < times.size()) observer.on_output(t_out, y_out);
    run.check_invariants(t_out, y_out, true);
  }
  run.finish();
  return run.result;
}

}  // namespace liesim
