// Commutator-free pairs measure their error estimate with the model space's distance (error_norm
// = l2); RKMK pairs (an algebra error) and classical pairs do not use it.
#include "common.hpp"

#include <liesim/lie/actions.hpp>
#include <liesim/sdk/lie_space.hpp>
#include <liesim/host/in_process.hpp>

using namespace liesim;
using namespace liesim::test;

namespace {

/// (TS^2, SE(3)) of the spherical pendulum, with distance = scale x the Euclidean distance.
class ScaledDistanceSpace final : public sdk::HomogeneousSpace {
 public:
  explicit ScaledDistanceSpace(double scale) : sdk::HomogeneousSpace(6, 6), scale_(scale) {}
  double distance(ConstVec a, ConstVec b) const noexcept override { return scale_ * (a - b).norm(); }

 private:
  Status do_act_exp(ConstVec xi, ConstVec y, Vec out) const noexcept override { return inner_.act_exp(xi, y, out); }
  Status do_dexpinv(ConstVec u, ConstVec v, Vec out) const noexcept override { return inner_.dexpinv(u, v, out); }
  Status do_bracket(ConstVec a, ConstVec b, Vec out) const noexcept override { return inner_.bracket(a, b, out); }
  Status do_generator(ConstVec xi, ConstVec y, Vec out) const noexcept override { return inner_.generator(xi, y, out); }
  PowerSpace<lie::SE3OnTS2> inner_{1};
  double scale_;
};

/// The spherical pendulum (m = L = 1, g = 9.81) on that space: f(q, w) = (w, q x (0, 0, -g)).
class Pendulum final : public sdk::Model {
 public:
  explicit Pendulum(double scale) : sdk::Model(std::make_unique<ScaledDistanceSpace>(scale)) {}
  void initial_state(Vec y) const override { y << std::sin(1.0), 0, std::cos(1.0), 0, 2.0, 0; }
  std::vector<std::string> state_names() const override { return {"qx", "qy", "qz", "wx", "wy", "wz"}; }

 private:
  Status do_generator(double, ConstVec y, Vec xi) noexcept override {
    xi << y.segment<3>(3), 0, 0, 9.81;  // (w, a): q' = w x q, w' = a x q = q x (0, 0, -g)
    return Status::ok;
  }
};

struct Attempts final : Observer {
  void on_output(double, ConstVec) override {}
  void on_step(double, double, double err, bool) override { errors.push_back(err); }
  std::vector<double> errors;
};

/// First error estimate and accepted steps of an adaptive run (l2, tol 1e-8, T = 2).
std::pair<double, long> adaptive_run(const std::string& method, double scale) {
  RunSpec spec;
  spec.t_end = 2.0;
  spec.control.norm = ErrorNorm::l2;
  spec.control.atol = 1e-8;
  Attempts log;
  const RunResult r = methods::integrate_adopted(std::make_unique<Pendulum>(scale), method, spec, log);
  REQUIRE(!log.errors.empty());
  return {log.errors.front(), r.stats.steps};
}

}  // namespace

TEST_CASE("commutator-free pairs use the space's distance; RKMK and classical pairs do not") {
  for (const char* method : {"cf32a", "cf32b", "cf43"}) {
    CAPTURE(method);
    const auto [e1, n1] = adaptive_run(method, 1.0);
    const auto [e10, n10] = adaptive_run(method, 10.0);
    CHECK(e1 > 0);
    CHECK(e10 == doctest::Approx(10.0 * e1).epsilon(1e-12));  // the same first step, measured 10x larger
    CHECK(n10 > n1);                                           // so the controller takes more steps
  }
  for (const char* method : {"rkmk45", "dopri45", "bs32"}) {
    CAPTURE(method);
    const auto [e1, n1] = adaptive_run(method, 1.0);
    const auto [e10, n10] = adaptive_run(method, 10.0);
    CHECK(e10 == e1);
    CHECK(n10 == n1);
  }
}
