// The multibody model against an independent engine, Simbody (test-only dependency): the double
// pendulum, the 7-joint arm and the satellite with reaction wheels, built with Simbody's own
// bodies and mobilizers (simbody_systems.cpp) from the numbers of the shipped descriptions,
// integrated to T = 2 with tight tolerances on both sides; every body's origin must agree to 1e-8 m.
// Set LIESIM_TEST_VERBOSE=1 to print the differences.
#include "models/simbody_systems.hpp"
#include "support/plugins.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace liesim;
using namespace liesim::test;

namespace {

using Params = std::map<std::string, std::string>;
const std::string examples = std::string(LIESIM_TEST_SOURCE_DIR) + "/models/multibody/examples/";
constexpr double T = 2.0;

/// Origins of the named links at T from liesim (rkmk4, step h), from the observables LINK.x/y/z.
std::vector<Eigen::Vector3d> liesim_positions(const Params& params, const std::vector<std::string>& links, double h = 1e-4) {
  const auto out = run("multibody", params, "rkmk4", T, h);
  auto m = make_model("multibody", params);
  const auto obs = m->observables();
  Eigen::VectorXd o(m->observable_count());
  REQUIRE(m->evaluate_observables(T, out.y, o) == Status::ok);
  std::vector<Eigen::Vector3d> pos;
  for (const auto& l : links) {
    Eigen::Vector3d p;
    for (int k = 0; k < 3; ++k) {
      const std::string name = l + "." + "xyz"[k];
      const auto it = std::find_if(obs.begin(), obs.end(), [&](const ObservableInfo& i) { return i.name == name; });
      REQUIRE(it != obs.end());
      p[k] = o[it - obs.begin()];
    }
    pos.push_back(p);
  }
  return pos;
}

void compare(const char* what, const std::vector<std::string>& links, const std::vector<Eigen::Vector3d>& ours,
             const simbody_systems::Positions& theirs) {
  REQUIRE(ours.size() == theirs.size());
  double worst = 0;
  for (std::size_t k = 0; k < ours.size(); ++k) {
    CAPTURE(links[k]);
    const double d = (ours[k] - Eigen::Vector3d(theirs[k][0], theirs[k][1], theirs[k][2])).norm();
    worst = std::max(worst, d);
    CHECK(d <= 1e-8);
  }
  if (std::getenv("LIESIM_TEST_VERBOSE")) std::printf("%-16s liesim vs Simbody at T = 2: max |x - x_simbody| = %.2e m\n", what, worst);
}

}  // namespace

TEST_CASE("double pendulum: liesim equals Simbody") {
  const std::vector<std::string> links = {"upper", "lower"};
  compare("double pendulum", links, liesim_positions({{"file", examples + "double_pendulum.toml"}}, links), simbody_systems::double_pendulum(T));
}

TEST_CASE("7-joint arm: liesim equals Simbody") {
  const std::vector<std::string> links = {"link1", "link2", "link3", "link4", "link5", "link6", "link7"};
  const Params p = {{"file", examples + "arm7.urdf"}, {"q0", "0.3,0.8,-0.4,1.2,0.5,-0.7,0.2"}, {"v0", "0.5,-0.3,0.4,0.2,-0.6,0.3,1.0"}};
  // The limp arm falls and its light wrist whips (joint rates ~90 rad/s): rkmk4 needs h = 2.5e-5
  // for 1e-9 at T = 2 (1e-4 gives 1e-7; the error falls as h^4).
  compare("arm", links, liesim_positions(p, links, 2.5e-5), simbody_systems::arm(T));
}

TEST_CASE("satellite with three reaction wheels: liesim equals Simbody") {
  const std::vector<std::string> links = {"bus", "wheel_x", "wheel_y", "wheel_z"};
  compare("satellite", links, liesim_positions({{"file", examples + "satellite.toml"}}, links), simbody_systems::satellite(T));
}
