// Events: g(t, y) = (a state column, an invariant or an observable) - value crossing zero in a direction, located
// by the Illinois method on a kernel-driven method's dense output, or by a SUNDIALS solver's own
// root finding; checked against closed forms to 1e-10, with the documented limit and bad input.
#include "common.hpp"

#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <fstream>

using namespace liesim;
using namespace liesim::test;
using namespace liesim::test::methods;

namespace {

const double pi = std::acos(-1.0);

/// A run of `method` at rtol = atol = tol with the given terminal (stop_when) and recorded events.
RunResult run_events(const std::string& model, const Params& params, const std::string& method, double t_end, double tol,
                     std::vector<std::string> stop_when, std::vector<std::string> events = {}, Observer* observer = nullptr) {
  RunRequest q = request(model, params, method, t_end, 0.0, {});
  q.rtol = q.atol = tol;
  q.stop_when = std::move(stop_when);
  q.events = std::move(events);
  PreparedRun p = prepare_run(registry(), q);
  NullObserver null;
  return execute(p, observer ? *observer : null);
}

/// A multibody description written under the build tree; the model's parameters for it.
Params description(const std::string& name, const std::string& text) {
  const auto dir = std::filesystem::path(LIESIM_TEST_BINARY_DIR) / "test_events_files";
  std::filesystem::create_directories(dir);
  const auto path = dir / name;
  std::ofstream(path) << text;
  return {{"file", path.string()}};
}

}  // namespace

TEST_CASE("events: located on the dense output to 1e-10 against closed forms; a terminal one stops the run at the event") {
  // The oscillator q'' = -4 q from q = 1: q = cos 2t passes 0 (the "vertical") at t = pi/4 + k pi/2.
  const double pi = std::acos(-1.0);
  for (const char* method : {"rkmk45", "dopri45", "verner65"}) {
    CAPTURE(method);
    RunRequest q = request("harmonic_oscillator", {}, method, 5.0, 0.0, {});
    q.rtol = q.atol = 1e-12;
    q.stop_when = {"q<0"};
    q.output_times = {0.5, 0.7, 1.0, 2.0};
    Recorded points;
    PreparedRun p = prepare_run(registry(), q);
    const RunResult r = execute(p, points);
    REQUIRE(r.events.size() == 1);
    CHECK(std::abs(r.events[0].t - pi / 4) < 1e-10);
    CHECK(r.t == r.events[0].t);  // the run ends at the event, with the event's state
    CHECK(r.y == r.events[0].y);
    CHECK(r.y[0] < 0);             // past the crossing
    CHECK(r.y[0] > -1e-10);
    // Output at the requested times before the event, then the event; none after it.
    CHECK(points.times == std::vector<double>{0.0, 0.5, 0.7, r.t});
  }
  // Recorded events (not terminal), both directions, over several periods.
  RunRequest q = request("harmonic_oscillator", {}, "dopri45", 7.0, 0.0, {});
  q.rtol = q.atol = 1e-12;
  q.events = {"q<0", "q>0"};
  PreparedRun p = prepare_run(registry(), q);
  NullObserver null;
  const RunResult r = execute(p, null);
  CHECK(r.t == 7.0);
  REQUIRE(r.events.size() == 4);
  for (std::size_t k = 0; k < r.events.size(); ++k) {
    CAPTURE(k);
    CHECK(std::abs(r.events[k].t - (pi / 4 + static_cast<double>(k) * pi / 2)) < 1e-10);
    CHECK(r.events[k].event == k % 2);  // q<0, then q>0, alternately
  }
  // On S^2, the Killing field turns y about e3 (y1 = cos(lat) cos t from longitude 0): y1 < 0 first at
  // t = pi/2, by a Lie group method on the sphere.
  RunRequest s = request("sphere_flow", {{"field", "killing"}, {"c", "0.5"}, {"latitude", "20"}}, "rkmk45", 4.0, 0.0, {});
  s.rtol = s.atol = 1e-12;
  s.stop_when = {"y1<0"};
  PreparedRun ps = prepare_run(registry(), s);
  const RunResult rs = execute(ps, null);
  REQUIRE(rs.events.size() == 1);
  CHECK(std::abs(rs.t - pi / 2) < 1e-10);
  CHECK(std::abs(rs.y.norm() - 1.0) < 1e-14);
}

TEST_CASE("events on an invariant: the critically damped oscillator's energy falls below E(1.3) at t = 1.3, on the dense output and by CVODE") {
  // m = 1, d = 2, k = 1 from (1, 0): x = (1 + t) e^-t, v = -t e^-t, so E = ((1 + t)^2 + t^2) e^-2t / 2
  // decreases strictly (dE/dt = -2 v^2).
  const auto energy = [](double t) { return 0.5 * ((1 + t) * (1 + t) + t * t) * std::exp(-2 * t); };
  const std::string when = fmt::format("energy<{:.17g}", energy(1.3));
  const Params p{{"m", "1"}, {"d", "2"}, {"k", "1"}, {"x0", "1"}, {"v0", "0"}};
  for (const char* method : {"dopri45", "cvode_adams"}) {
    CAPTURE(method);
    const RunResult r = run_events("oscillator", p, method, 3.0, 1e-12, {when});
    REQUIRE(r.events.size() == 1);
    CHECK(std::abs(r.events[0].t - 1.3) < 1e-9);
    CHECK(r.t == r.events[0].t);
  }
}

TEST_CASE("events by SUNDIALS' root finding: the oscillator's crossings to 1e-10, terminal and recorded") {
  // q = cos 2t passes 0 at t = pi/4 + k pi/2 (falling first); v = -2 sin 2t passes -1 falling at pi/12.
  for (const char* method : {"cvode_bdf", "cvode_adams", "arkode_erk", "arkode_dirk"}) {
    CAPTURE(method);
    Recorded points;
    RunRequest q = request("harmonic_oscillator", {}, method, 5.0, 0.0, {});
    q.rtol = q.atol = 1e-12;
    q.stop_when = {"q<0"};
    q.events = {"v<-1"};
    q.output_times = {0.1, 0.5, 1.0};
    PreparedRun p = prepare_run(registry(), q);
    const RunResult r = execute(p, points);
    REQUIRE(r.events.size() == 2);
    CHECK(r.events[0].event == 1);  // v<-1 first, recorded; then q<0, which stops the run
    CHECK(std::abs(r.events[0].t - pi / 12) < 1e-10);
    CHECK(r.events[1].event == 0);
    CHECK(std::abs(r.events[1].t - pi / 4) < 1e-10);
    CHECK(r.t == r.events[1].t);  // the run ends at the event, with the event's state
    CHECK(r.y == r.events[1].y);
    CHECK(std::abs(r.y[0]) < 1e-10);
    CHECK(std::abs(r.y[1] + 2.0) < 1e-9);
    // Output at the requested times before the event, then the event; none after it.
    CHECK(points.times == std::vector<double>{0.0, 0.1, 0.5, r.t});
    CHECK(r.stats.steps > 0);
  }
  // Recorded events in both directions over several periods; the run reaches t_end.
  const RunResult r = run_events("harmonic_oscillator", {}, "cvode_bdf", 7.0, 1e-12, {}, {"q<0", "q>0"});
  CHECK(r.t == 7.0);
  REQUIRE(r.events.size() == 4);
  for (std::size_t k = 0; k < r.events.size(); ++k) {
    CAPTURE(k);
    CHECK(std::abs(r.events[k].t - (pi / 4 + static_cast<double>(k) * pi / 2)) < 1e-10);
    CHECK(r.events[k].event == k % 2);
  }
}

TEST_CASE("events: a pendulum passes the vertical and a falling, spinning body reaches the floor (closed forms, 1e-10)") {
  // A body on a revolute joint about y, centre of mass L = 1 below the pivot, released from rest at
  // q0 = 1 rad: a planar pendulum with omega0^2 = m g L / (I_yy + m L^2), which passes the vertical
  // (q = 0) after a quarter period, K(sin(q0/2)) / omega0 (K the complete elliptic integral).
  const Params pendulum = description("pendulum.toml", R"(gravity = [0.0, 0.0, -9.81]
[[body]]
name = "bob"
mass = 2.0
com = [0.0, 0.0, -1.0]
inertia = [0.05, 0.04, 0.03]
[[joint]]
name = "swing"
type = "revolute"
parent = "world"
child = "bob"
axis = [0.0, 1.0, 0.0]
q0 = 1.0
v0 = 0.0
)");
  const double omega0 = std::sqrt(2.0 * 9.81 * 1.0 / (0.04 + 2.0 * 1.0));
  const double t_vertical = std::comp_ellint_1(std::sin(0.5)) / omega0;
  // A free body thrown up from z = 2 with v = (0.5, 0, 1) while it spins about all three axes
  // (asymmetric inertia, so its attitude and body-frame velocity rotate): its centre of mass
  // follows the parabola z = 2 + t - g t^2 / 2, which reaches z = 0 at (1 + sqrt(1 + 4 g)) / g.
  const Params body = description("falling_body.toml", R"(gravity = [0.0, 0.0, -9.81]
[[body]]
name = "box"
mass = 3.0
com = [0.0, 0.0, 0.0]
inertia = [0.1, 0.2, 0.3]
[[joint]]
name = "drop"
type = "floating"
parent = "world"
child = "box"
position0 = [0.0, 0.0, 2.0]
velocity0 = [0.5, 0.0, 1.0]
omega0 = [1.0, 2.0, 3.0]
)");
  const double t_floor = (1.0 + std::sqrt(1.0 + 4.0 * 9.81)) / 9.81;
  for (const char* method : {"rkmk45", "cvode_bdf"}) {
    CAPTURE(method);
    const RunResult swing = run_events("multibody", pendulum, method, 2.0, 1e-12, {"swing.q<0"});
    REQUIRE(swing.events.size() == 1);
    CHECK(std::abs(swing.t - t_vertical) < 1e-10);
    const RunResult fall = run_events("multibody", body, method, 2.0, 1e-12, {"drop.z<0"});
    REQUIRE(fall.events.size() == 1);
    CHECK(std::abs(fall.t - t_floor) < 1e-10);
    CHECK(std::abs(fall.y[11]) < 1e-9);  // z at the event (the floating block: R (9), then x, y, z)
    CHECK(std::abs(fall.y[9] - 0.5 * t_floor) < 1e-9);
  }
}

TEST_CASE("events under IDA: the root finding on the DAE's state agrees with the dense output of dopri45") {
  // The double pendulum as point masses with length constraints (index 2, stabilised): the times the
  // first link passes the vertical, both ways, against a tight kernel-driven reference.
  const Params dae{{"formulation", "cartesian_dae"}};
  const RunResult ida = run_events("pendulum_chain", dae, "ida", 3.0, 1e-10, {}, {"q1_x<0", "q1_x>0"});
  const RunResult ref = run_events("pendulum_chain", dae, "dopri45", 3.0, 1e-13, {}, {"q1_x<0", "q1_x>0"});
  REQUIRE(ref.events.size() == 2);
  REQUIRE(ida.events.size() == ref.events.size());
  for (std::size_t k = 0; k < ref.events.size(); ++k) {
    CAPTURE(k);
    CHECK(ida.events[k].event == ref.events[k].event);
    CHECK(std::abs(ida.events[k].t - ref.events[k].t) < 1e-8);
  }
}

TEST_CASE("events: the limit (two crossings inside one step are missed), and bad events refused with the fix") {
  // v = -2 sin 2t is below -1.9 only for t in (0.626, 0.944): a step from 0.5 to 1.0 sees v above
  // -1.9 at both ends, and the event is missed (a documented limit: events are found where g changes
  // sign between accepted steps); at h = 0.1 it is found.
  RunRequest coarse = request("harmonic_oscillator", {}, "rk4", 1.0, 0.5, {});
  coarse.events = {"v<-1.9"};
  PreparedRun pc = prepare_run(registry(), coarse);
  NullObserver null;
  CHECK(execute(pc, null).events.empty());
  RunRequest fine = request("harmonic_oscillator", {}, "rk4", 1.0, 0.1, {});
  fine.events = {"v<-1.9"};
  PreparedRun pf = prepare_run(registry(), fine);
  const RunResult found = execute(pf, null);
  REQUIRE(found.events.size() == 1);
  CHECK(std::abs(found.events[0].t - 0.5 * std::asin(0.95)) < 1e-4);
  RunRequest bad = request("harmonic_oscillator", {}, "rk4", 1.0, 0.1, {});
  bad.stop_when = {"x<0"};
  CHECK_THROWS_WITH_AS(run(bad), doctest::Contains("'x' is neither a state column (q, v) nor an invariant (energy) nor an observable"), Error);
  bad.stop_when = {"q=0"};
  CHECK_THROWS_WITH_AS(run(bad), doctest::Contains("write NAME<VALUE"), Error);
  bad.stop_when = {"q<zero"};
  CHECK_THROWS_WITH_AS(run(bad), doctest::Contains("'zero' is not a finite number"), Error);
}

namespace {

/// Solvers on the oscillator q'' = -4 q that return its exact flow (q = cos 2t, v = -2 sin 2t).
struct ExactFlow {
  liesim::ModelView* model = nullptr;
  Status exact(double t, Vec y) const noexcept { return model->exact_solution(t, y); }
};
/// Advanced from output time to output time; no root finding.
struct ExactSolver final : sdk::Solver, ExactFlow {
  Status init(liesim::ModelView& m, double, ConstVec, const SolverTolerances&, std::string&) noexcept override {
    model = &m;
    return Status::ok;
  }
  Status advance(double t_out, Vec y_out) noexcept override { return exact(t_out, y_out); }
  void add_stats(Stats&) const noexcept override {}
};
/// Steps of 0.3 chosen by itself, with the exact flow as its interpolant: the host steps it.
struct ExactSteps final : sdk::SteppingSolver, ExactFlow {
  double t = 0.0;
  Status init(liesim::ModelView& m, double t0, ConstVec, const SolverTolerances&, std::string&) noexcept override {
    model = &m;
    t = t0;
    start_at(t0);
    return Status::ok;
  }
  Status step(double& t_new, Vec y_new) noexcept override {
    t += 0.3;
    t_new = t;
    return exact(t, y_new);
  }
  Status interpolate(double t_at, Vec y) noexcept override { return exact(t_at, y); }
  void add_stats(Stats& s) const noexcept override { s.steps += 1000; }  // (the host counts the steps itself)
};

RunResult integrate_exact(std::unique_ptr<sdk::Solver> solver, double t_end, std::vector<std::string> stop_when,
                          std::vector<double> output_times, Observer& observer) {
  const auto model = make_model("harmonic_oscillator");
  RunSpec spec;
  spec.t_end = t_end;
  spec.output_times = std::move(output_times);
  for (const auto& e : stop_when) spec.events.push_back(parse_event(e, *model, true));
  Eigen::VectorXd y0(2);
  model->initial_state(y0);
  const auto s = adopt_solver(std::move(solver));
  return integrate(*model, *s, spec, y0, observer, "exact");
}

}  // namespace

TEST_CASE("a solver the host steps (its dynamics choose h): outputs and events on its interpolant; one without root finding refuses events") {
  const double pi = std::acos(-1.0);
  NullObserver null;
  // Steps 0.3, 0.6, then the event at pi/4 inside the third: located on the exact interpolant.
  const RunResult r = integrate_exact(std::make_unique<ExactSteps>(), 2.0, {"q<0"}, {}, null);
  REQUIRE(r.events.size() == 1);
  CHECK(std::abs(r.t - pi / 4) < 1e-12);
  CHECK(r.y == r.events[0].y);
  CHECK(r.stats.steps == 3);  // counted by the host: the step to the event is the third
  // A step that passes t_end is cut there by the interpolant; outputs at exactly the requested times.
  Recorded points;
  const RunResult cut = integrate_exact(std::make_unique<ExactSteps>(), 1.0, {}, {0.1, 0.45, 0.9}, points);
  CHECK(cut.t == 1.0);
  CHECK(std::abs(cut.y[0] - std::cos(2.0)) < 1e-15);
  CHECK(cut.stats.steps == 4);
  CHECK(points.times == std::vector<double>{0.0, 0.1, 0.45, 0.9});
  CHECK(std::abs(points.states[2][1] + 2 * std::sin(0.9)) < 1e-15);
  // A solver advanced between output times without root finding refuses events before any run.
  CHECK_THROWS_WITH_AS(integrate_exact(std::make_unique<ExactSolver>(), 2.0, {"q<0"}, {}, null),
                       doctest::Contains("method 'exact' cannot locate the event 'q<0': its solver has no root finding; choose a "
                                         "kernel-driven method"),
                       Error);
  CHECK(integrate_exact(std::make_unique<ExactSolver>(), 2.0, {}, {}, null).t == 2.0);
}
