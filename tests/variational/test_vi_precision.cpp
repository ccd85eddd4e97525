// The adaptive VI in 32 significant digits (seed 001 ch. 8, Figs. 8.1-8.2): the template the method
// vi_adaptive runs in double (vi_adaptive_core.hpp), here with a Boost.Multiprecision scalar on the
// double well. Its order against an independent reference, its discrete energy at 32-digit round-off
// where double keeps it to ~1e-15, and the double instance equal to the plugin's steps.
#include <integrators/variational/vi_adaptive_core.hpp>
#include <models/double_well/double_well.hpp>
#include <liesim/sdk/fit.hpp>
#include "support/plugins.hpp"

#include <boost/multiprecision/cpp_bin_float.hpp>
#include <boost/multiprecision/eigen.hpp>
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

using namespace liesim;
using namespace liesim::variational;

namespace {

using Digits32 = boost::multiprecision::number<boost::multiprecision::cpp_bin_float<32>, boost::multiprecision::et_off>;

/// The adaptive VI in `Scalar` on the double well from (q0, 0) with first step h0, to the first t_k >= T.
template <class Scalar>
struct WellRun {
  double t = 0, q = 0, v = 0, worst_energy = 0, h_min = 1e300, h_max = 0;
  long steps = 0;
  WellRun(double q0, double h0, double T, double newton_tol) {
    using Vector = Eigen::Matrix<Scalar, Eigen::Dynamic, 1>;
    const double_well::Mechanics<Scalar> mech{Scalar(1)};
    AdaptiveVi<Scalar, double_well::Mechanics<Scalar>> vi;
    vi.configure(AdaptiveSolve::converged, 1, newton_tol, 50);
    vi.init(mech, lagrangian_rule("midpoint"), Scalar(0), Vector::Constant(1, Scalar(q0)), Vector::Constant(1, Scalar(0)), Scalar(h0));
    Scalar e1 = 0;
    while (vi.t() < Scalar(T)) {
      REQUIRE(vi.step() == Status::ok);
      if (vi.steps() == 1) e1 = vi.energy();
      using std::abs;
      worst_energy = std::max(worst_energy, static_cast<double>(abs(vi.energy() - e1)));
      h_min = std::min(h_min, static_cast<double>(vi.h()));
      h_max = std::max(h_max, static_cast<double>(vi.h()));
    }
    t = static_cast<double>(vi.t());
    q = static_cast<double>(vi.q()[0]);
    v = static_cast<double>(vi.velocity()[0]);
    steps = vi.steps();
  }
};

}  // namespace

TEST_CASE("the adaptive VI in 32 digits: order 2 against dopri45 at 1e-13 on the double well (0.5, 0)") {
  std::vector<double> hs, errors;
  for (const double h0 : {0.04, 0.02, 0.01}) {
    const WellRun<Digits32> r(0.5, h0, 2.0, 1e-28);
    // The reference at the run's own last time t_k (the energy equation chose it).
    const test::Outcome ref = test::run("double_well", {{"q0", "0.5"}, {"v0", "0"}}, "dopri45", r.t, 0.0, 1e-13, 1e-13);
    const double e = std::hypot(r.q - ref.y[0], r.v - ref.y[1]);
    MESSAGE("h0 = ", h0, ": ", r.steps, " steps to t = ", r.t, ", error ", e);
    hs.push_back(h0);
    errors.push_back(e);
  }
  const double order = loglog_slope(hs, errors);
  MESSAGE("observed order ", order);
  CHECK(order == doctest::Approx(2.0).epsilon(0.05));
}

TEST_CASE("the adaptive VI in 32 digits keeps the discrete energy to 32-digit round-off; in double to ~1e-15 (Figs. 8.1-8.2)") {
  // (0.5, 0), h0 = 0.01, T = 10 (1190 steps): the same template in both scalars.
  const WellRun<double> d(0.5, 0.01, 10.0, 1e-12);
  const WellRun<Digits32> x(0.5, 0.01, 10.0, 1e-28);
  MESSAGE("max |E_k - E_1|: double ", d.worst_energy, ", 32 digits ", x.worst_energy);
  CHECK(d.worst_energy > 1e-17);   // double round-off accumulates (1.5e-15 over T = 100)
  CHECK(d.worst_energy < 1e-14);
  CHECK(x.worst_energy < 1e-30);   // 32 digits: its round-off (epsilon 1.2e-32 times |E| ~ 0.09)
  // h_k behaves as in double (the thesis: "the adaptive time step behavior also matches").
  CHECK(x.steps == d.steps);
  CHECK(std::abs(x.h_min - d.h_min) < 1e-11);
  CHECK(std::abs(x.h_max - d.h_max) < 1e-11);
  CHECK(std::abs(x.q - d.q) < 1e-9);
  // The double instance is the method vi_adaptive itself: the plugin takes the same steps, bit for bit.
  RunRequest q = liesim::test::request("double_well", {{"q0", "0.5"}, {"v0", "0"}}, "vi_adaptive", d.t, 0.01, {});
  const test::Outcome plugin = test::run(q);
  CHECK(plugin.stats.steps == d.steps);
  CHECK(plugin.y[0] == d.q);
  CHECK(plugin.y[1] == d.v);
  // (The host records t_{k+1} - t_k, which rounds h_k.)
  CHECK(plugin.stats.h_min_used == doctest::Approx(d.h_min).epsilon(1e-12));
  CHECK(plugin.stats.h_max_used == doctest::Approx(d.h_max).epsilon(1e-12));
}
