// Scenes (ABI 2.8): every shipped model with a physical picture states one that the host accepts,
// its poses are finite with unit quaternions along a run, and the view document built from runs'
// series holds the model's own poses; bad scenes and foreign series are refused by name.
#include <liesim/host/output.hpp>
#include <liesim/host/view.hpp>
#include "support/plugins.hpp"

#include <doctest/doctest.h>
#include <Eigen/Geometry>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <map>
#include <set>
#include <string>

using namespace liesim;

namespace {

std::vector<std::string> observable_names(const ModelView& m) {
  std::vector<std::string> out;
  for (const auto& o : m.observables()) out.push_back(o.name);
  return out;
}

/// Poses of `m` at (t, y): finite, unit quaternions (to 1e-12) for solid shapes, zero padding for two-point ones.
void check_poses(const ModelView& m, const Scene& scene, double t, const Eigen::VectorXd& y) {
  Eigen::VectorXd poses(pose_size * static_cast<Eigen::Index>(scene.bodies.size()));
  REQUIRE(m.scene_poses(t, y, poses) == Status::ok);
  CHECK(poses.allFinite());
  for (std::size_t k = 0; k < scene.bodies.size(); ++k) {
    const auto p = poses.segment<pose_size>(pose_size * static_cast<Eigen::Index>(k));
    CAPTURE(scene.bodies[k].name);
    if (two_point(scene.bodies[k].shape)) CHECK(p[6] == 0.0);
    else CHECK(std::abs(p.tail<4>().norm() - 1.0) < 1e-12);
  }
}

}  // namespace

TEST_CASE("every shipped model with a physical picture states a scene the host accepts; its poses stay finite and unit along a run") {
  // Models of mechanisms; the others (oscillators in R^m, flows on spheres, SPD matrices, trace functions) have no picture.
  const std::set<std::string> pictured{"pendulum_chain", "heavy_top", "rigid_body", "rigid_pendulum", "quadrotor_load",
                                       "rotating_ball", "underwater_vehicle"};
  const auto names = test::registry().model_names();
  for (const auto& name : pictured) CHECK_MESSAGE(std::find(names.begin(), names.end(), name) != names.end(), name);
  for (const auto& name : names) {
    if (!pictured.count(name)) continue;
    CAPTURE(name);
    const auto m = test::make_model(name);
    REQUIRE(m->prepare() == Status::ok);
    const Scene scene = m->scene();
    REQUIRE_FALSE(scene.bodies.empty());
    CHECK_NOTHROW(check_scene(scene, observable_names(*m)));
    Eigen::VectorXd y0(m->size());
    m->initial_state(y0);
    check_poses(*m, scene, 0.0, y0);
    check_poses(*m, scene, 0.05, test::run(name, {}, "rkmk4", 0.05, 0.005).y);
  }
}

TEST_CASE("pendulum_chain: the links join the masses at x_i = sum_{a<=i} L_a q_a, the first from the pivot") {
  const std::map<std::string, std::string> p{{"N", "3"}, {"L", "1,0.5,2"}, {"m", "1,2,3"},
                                             {"q0", "0.7071067811865476,0,0.7071067811865476,0,1,0,0.6,0,-0.8"},
                                             {"w0", "0,1,0,0.5,0,0.5,0,2,0"}};
  const auto m = test::make_model("pendulum_chain", p);
  const Scene scene = m->scene();
  REQUIRE(scene.bodies.size() == 7);  // 3 links, 3 masses, the pivot
  const Eigen::VectorXd y = test::run("pendulum_chain", p, "rkmk4", 0.3, 0.01).y;
  Eigen::VectorXd poses(7 * pose_size);
  REQUIRE(m->scene_poses(0.3, y, poses) == Status::ok);
  const double L[] = {1, 0.5, 2};
  Eigen::Vector3d x = Eigen::Vector3d::Zero();
  for (int i = 0; i < 3; ++i) {
    const Eigen::Vector3d next = x + L[i] * y.segment<3>(6 * i);
    CHECK(scene.bodies[i].shape == Shape::segment);
    CHECK((poses.segment<3>(pose_size * i) - x).norm() < 1e-5);  // six significant digits are the view's, not the model's
    CHECK((poses.segment<3>(pose_size * i + 3) - next).norm() < 1e-12);
    CHECK((poses.segment<3>(pose_size * (3 + i)) - next).norm() < 1e-12);
    x = next;
  }
  // Heavier masses are drawn larger (radius ~ cube root of the mass).
  CHECK(scene.bodies[5].size[0] / scene.bodies[3].size[0] == doctest::Approx(std::cbrt(3.0)));
}

TEST_CASE("view_data: frames, thinning, the reference's distances and the model's poses; foreign series and bad scenes are refused") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / fmt::format("liesim_test_scenes_{}", ::getpid());
  fs::create_directories(dir);
  const std::map<std::string, std::string> p{{"N", "2"}};
  auto series = [&](const std::string& method, double h, const std::string& file) {
    const auto m = test::make_model("pendulum_chain", p);
    CsvWriter csv((dir / file).string(), *m);
    test::run("pendulum_chain", p, method, 1.0, h, 0, 0, {}, &csv);
    return (dir / file).string();
  };
  const std::string fine = series("rkmk4", 0.001, "fine.csv"), coarse = series("rk4", 0.01, "coarse.csv");
  const auto m = test::make_model("pendulum_chain", p);
  ViewOptions o;
  o.frame_budget = 400;
  const auto doc = view_data(*m, {{"reference", fine}, {"rk4", coarse}, {"self", fine}}, o);
  // 1001 samples over a budget of 400: every 3rd and the last, 335 frames on a regular grid.
  REQUIRE(doc["times"].size() == 335);
  CHECK(doc["thinned"]["samples"] == 1001);
  CHECK(doc["times"][1].get<double>() == doctest::Approx(0.003));
  CHECK(doc["scene"]["bodies"].size() == 5);
  const auto& runs = doc["runs"];
  REQUIRE(runs.size() == 3);
  // A run against itself: distance 0 at every frame; rk4 h = 0.01 against rkmk4 h = 0.001: small, measured where both have samples.
  for (const auto& d : runs[2]["distance"]) CHECK(d.get<double>() == 0.0);
  CHECK(runs[1]["distance"].back().get<double>() > 0.0);
  CHECK(runs[1]["distance"].back().get<double>() < 1e-4);
  // The last frame's poses are the model's at the last state, to the six digits kept.
  Eigen::VectorXd y(12), poses(5 * pose_size);
  {
    std::ifstream in(fine);
    std::string line, last;
    while (std::getline(in, line)) last = line;
    std::stringstream s(last);
    std::string cell;
    std::getline(s, cell, ',');
    for (int i = 0; i < 12; ++i) {
      std::getline(s, cell, ',');
      y[i] = std::stod(cell);
    }
  }
  REQUIRE(m->scene_poses(1.0, y, poses) == Status::ok);
  for (int i = 0; i < poses.size(); ++i) CHECK(runs[0]["poses"].back()[i].get<double>() == doctest::Approx(poses[i]).epsilon(1e-5));
  CHECK(doc["columns"][0] == "energy");
  // Exposures: evenly over the run, at the nearest samples.
  ViewOptions e;
  e.exposures = 5;
  const auto strobe = view_data(*m, {{"run", coarse}}, e);
  REQUIRE(strobe["times"].size() == 5);
  CHECK(strobe["times"][2].get<double>() == doctest::Approx(0.5));
  CHECK(strobe["thinned"].is_null());
  // A series of another model is refused, naming both layouts.
  const auto other = test::make_model("pendulum_chain", {{"N", "3"}});
  CHECK_THROWS_WITH_AS(view_data(*other, {{"x", fine}}, o), doctest::Contains("is not of this model"), Error);
  CHECK_THROWS_WITH_AS(view_data(*m, {{"x", (dir / "missing.csv").string()}}, o), doctest::Contains("cannot open"), Error);
  // Bad scenes, by name.
  Scene bad = m->scene();
  bad.bodies[0].size[0] = -1;
  CHECK_THROWS_WITH_AS(check_scene(bad, {}), doctest::Contains("link1"), Error);
  bad = m->scene();
  bad.bodies[1].shape = static_cast<Shape>(42);
  CHECK_THROWS_WITH_AS(check_scene(bad, {}), doctest::Contains("shape 42"), Error);
  bad = m->scene();
  bad.paths.push_back({"yd_x", "yd_y", "yd_z"});
  CHECK_THROWS_WITH_AS(check_scene(bad, {}), doctest::Contains("'yd_x'"), Error);
  CHECK_THROWS_WITH_AS(check_scene(Scene{}, {}), doctest::Contains("no scene"), Error);
  fs::remove_all(dir);
}
