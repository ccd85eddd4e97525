// The 3D pendulum (rigid_pendulum): one model under every kind of method — orders of rkmk4 and
// cf4, the attitude on SO(3), energy against a tight reference, the parameters.
#include <liesim/sdk/fit.hpp>
#include "support/plugins.hpp"

#include <doctest/doctest.h>

#include <Eigen/Geometry>

#include <cmath>
#include <map>
#include <string>

using namespace liesim;

namespace {

using RowMajor3 = Eigen::Matrix<double, 3, 3, Eigen::RowMajor>;

/// The poses of a model's scene at (t, y) (pose_size numbers per body).
Eigen::VectorXd scene_poses_at(const ModelView& m, const Eigen::VectorXd& y, double t = 0) {
  Eigen::VectorXd out = Eigen::VectorXd::Constant(pose_size * static_cast<Eigen::Index>(m.scene().bodies.size()), std::nan(""));
  REQUIRE(m.scene_poses(t, y, out) == Status::ok);
  REQUIRE(out.allFinite());
  return out;
}
Eigen::Vector3d position(const Eigen::VectorXd& P, int k) { return P.segment<3>(pose_size * k); }
Eigen::Vector3d end_point(const Eigen::VectorXd& P, int k) { return P.segment<3>(pose_size * k + 3); }
double quaternion_norm(const Eigen::VectorXd& P, int k) { return P.segment<4>(pose_size * k + 3).norm(); }
/// The rotation (body -> space) of pose k's quaternion [qx, qy, qz, qw].
Eigen::Matrix3d rotation(const Eigen::VectorXd& P, int k) {
  const auto q = P.segment<4>(pose_size * k + 3);
  return Eigen::Quaterniond(q[3], q[0], q[1], q[2]).toRotationMatrix();
}
double max_diff(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) { return (a - b).cwiseAbs().maxCoeff(); }

}  // namespace

TEST_CASE("rigid_pendulum: rkmk4 and cf4 converge at order 4 and stay on SO(3); cvode_bdf and lgvi agree with the reference") {
  const std::map<std::string, std::string> p{{"start", "inverted"}};
  const Eigen::VectorXd ref = test::run("rigid_pendulum", p, "rkmk5", 1.0, 1e-4).y;
  for (const std::string m : {"rkmk4", "cf4"}) {
    std::vector<double> hs{0.02, 0.01, 0.005}, err;
    for (double h : hs) err.push_back((test::run("rigid_pendulum", p, m, 1.0, h).y - ref).norm());
    CAPTURE(m);
    CHECK(loglog_slope(hs, err) == doctest::Approx(4.0).epsilon(0.05));
  }
  const auto model = test::make_model("rigid_pendulum", p);
  Eigen::VectorXd inv(3), inv0(3), y0(12);
  model->initial_state(y0);
  model->evaluate_invariants(y0, inv0);
  CHECK(inv0[0] == doctest::Approx(10.445).epsilon(1e-12));  // 1/2 w0^T J w0 + m g
  const Eigen::VectorXd y = test::run("rigid_pendulum", p, "rkmk4", 3.0, 1e-3).y;
  model->evaluate_invariants(y, inv);
  CHECK(inv[2] < 1e-13);  // ||R^T R - I||
  CHECK(std::abs(inv[1] - inv0[1]) < 1e-12);
  CHECK((test::run("rigid_pendulum", p, "cvode_bdf", 1.0, 0, 1e-10, 1e-10).y - ref).norm() < 1e-6);
  CHECK((test::run("rigid_pendulum", p, "lgvi", 1.0, 1e-4).y - ref).norm() < 1e-4);
  CHECK_THROWS_WITH_AS(test::make_model("rigid_pendulum", {{"J", "1,-2,3"}}), doctest::Contains("parameter 'J'"), Error);
  CHECK_THROWS_WITH_AS(test::make_model("rigid_pendulum", {{"start", "sideways"}}), doctest::Contains("start"), Error);
}

TEST_CASE("underwater_vehicle: rkmk4 and cf4 converge at order 4 and stay on SO(3); energy 28.5839 J (case 1); momenta conserved") {
  const Eigen::VectorXd ref = test::run("underwater_vehicle", {}, "rkmk5", 2.0, 1e-4).y;
  for (const std::string m : {"rkmk4", "cf4"}) {
    std::vector<double> hs{0.04, 0.02, 0.01}, err;
    for (double h : hs) err.push_back((test::run("underwater_vehicle", {}, m, 2.0, h).y - ref).norm());
    CAPTURE(m);
    CHECK(loglog_slope(hs, err) == doctest::Approx(4.0).epsilon(0.05));
  }
  const auto model = test::make_model("underwater_vehicle");
  Eigen::VectorXd y0(18), inv0(5), inv(5);
  model->initial_state(y0);
  model->evaluate_invariants(y0, inv0);
  CHECK(inv0[0] == doctest::Approx(28.5839).epsilon(1e-5));  // the notes' E0 for case 1, g = 9.81
  const Eigen::VectorXd y = test::run("underwater_vehicle", {}, "dopri45", 10.0, 0, 1e-11, 1e-11).y;
  model->evaluate_invariants(y, inv);
  CHECK(std::abs(inv[0] - inv0[0]) < 1e-8);
  for (int c : {1, 2, 3}) CHECK(std::abs(inv[c] - inv0[c]) < 1e-8);
  CHECK(inv[4] < 1e-8);  // dopri45 in the embedding: close to SO(3), not on it
  CHECK((test::run("underwater_vehicle", {}, "lgvi", 2.0, 1e-4).y - ref).norm() < 1e-3);
  CHECK_THROWS_WITH_AS(test::make_model("underwater_vehicle", {{"M", "1,2"}}), doctest::Contains("M"), Error);
}

TEST_CASE("rigid_pendulum: the scene follows the state (body at R rho with attitude R, rod from the pivot; e3 down)") {
  const auto model = test::make_model("rigid_pendulum");
  const Scene scene = model->scene();
  REQUIRE(scene.bodies.size() == 4);
  CHECK(scene.bodies[0].shape == Shape::box);
  CHECK(scene.bodies[1].shape == Shape::axes);
  CHECK(scene.bodies[2].shape == Shape::segment);
  CHECK(scene.bodies[3].shape == Shape::sphere);
  CHECK(scene.up == std::array<double, 3>{0, 0, -1});  // gravity along +e3
  // The box of uniform density with I_com = J - m (|rho|^2 I - rho rho^T) = diag(0, 1.8, 2): edges
  // sqrt(6 (tr - 2 I_k) / m); the third, imaginary (the data violate I3 <= I1 + I2), is raised to 4%.
  CHECK(scene.bodies[0].size[0] == doctest::Approx(std::sqrt(6 * 3.8)).epsilon(1e-12));
  CHECK(scene.bodies[0].size[1] == doctest::Approx(std::sqrt(6 * 0.2)).epsilon(1e-12));
  CHECK(scene.bodies[0].size[2] == doctest::Approx(0.04 * std::sqrt(6 * 3.8)).epsilon(1e-12));
  const Eigen::Vector3d rho(0, 0, 1);
  Eigen::VectorXd y0(12);
  model->initial_state(y0);
  const Eigen::VectorXd y1 = test::run("rigid_pendulum", {}, "rkmk4", 1.0, 1e-2).y;
  for (const Eigen::VectorXd& y : {y0, y1}) {
    const Eigen::VectorXd P = scene_poses_at(*model, y);
    const Eigen::Matrix3d R = Eigen::Map<const RowMajor3>(y.data());
    for (int k : {0, 1, 3}) CHECK(std::abs(quaternion_norm(P, k) - 1) < 1e-12);
    CHECK(max_diff(rotation(P, 0), R) < 1e-12);  // a diagonal J: the box along the body axes
    CHECK(max_diff(rotation(P, 1), R) < 1e-12);
    CHECK(max_diff(position(P, 0), R * rho) < 1e-14);
    CHECK(max_diff(position(P, 2), Eigen::Vector3d::Zero()) == 0);
    CHECK(max_diff(end_point(P, 2), R * rho) < 1e-14);
    CHECK(max_diff(position(P, 3), Eigen::Vector3d::Zero()) == 0);
  }
  CHECK(max_diff(Eigen::Map<const RowMajor3>(y1.data()), Eigen::Map<const RowMajor3>(y1.data()).transpose()) > 0.1);  // R != R^T
}

TEST_CASE("underwater_vehicle: the scene follows the state (hull at x with attitude R; velocity R v; x3 down)") {
  const auto model = test::make_model("underwater_vehicle");
  const Scene scene = model->scene();
  REQUIRE(scene.bodies.size() == 3);
  CHECK(scene.bodies[0].name == "hull");
  CHECK(scene.bodies[0].shape == Shape::box);
  CHECK(scene.bodies[1].shape == Shape::axes);
  CHECK(scene.bodies[2].shape == Shape::arrow);
  CHECK(scene.up == std::array<double, 3>{0, 0, -1});
  CHECK(std::isnan(scene.ground));
  // The box with the inertia J = diag(5.46, 5.29, 5.72) and m = 123.8: edges sqrt(6 (tr J - 2 J_k) / m).
  const Eigen::Vector3d J(5.46, 5.29, 5.72), Mdiag(188.8, 193.8, 198.8);
  for (int k = 0; k < 3; ++k)
    CHECK(scene.bodies[0].size[static_cast<std::size_t>(k)] == doctest::Approx(std::sqrt(6 * (J.sum() - 2 * J[k]) / 123.8)).epsilon(1e-12));
  Eigen::VectorXd y0(18);
  model->initial_state(y0);
  const Eigen::VectorXd y1 = test::run("underwater_vehicle", {}, "rkmk4", 2.0, 1e-2).y;
  for (const bool initial : {true, false}) {
    const Eigen::VectorXd& y = initial ? y0 : y1;
    const Eigen::VectorXd P = scene_poses_at(*model, y);
    const Eigen::Matrix3d R = Eigen::Map<const RowMajor3>(y.data());
    const Eigen::Vector3d x = y.segment<3>(9), v = R * y.segment<3>(15).cwiseQuotient(Mdiag);  // spatial velocity R M^-1 P
    for (int k : {0, 1}) {
      CHECK(std::abs(quaternion_norm(P, k) - 1) < 1e-12);
      CHECK(max_diff(rotation(P, k), R) < 1e-12);
      CHECK(max_diff(position(P, k), x) == 0);
    }
    CHECK(max_diff(position(P, 2), x) == 0);
    const Eigen::Vector3d arrow = end_point(P, 2) - x;
    CHECK(arrow.cross(v).norm() < 1e-12 * arrow.norm() * v.norm());
    CHECK(arrow.dot(v) > 0);
    if (initial) CHECK(arrow.norm() == doctest::Approx(0.6 * scene.extent).epsilon(1e-12));
  }
}

TEST_CASE("rigid_body: the scene is drawn in the body frame (no attitude in the state): y and I^-1 y as arrows") {
  const auto model = test::make_model("rigid_body");
  const Scene scene = model->scene();
  REQUIRE(scene.bodies.size() == 4);
  CHECK(scene.bodies[0].shape == Shape::box);
  CHECK(scene.bodies[1].shape == Shape::axes);
  CHECK(scene.bodies[2].name == "angular_momentum");
  CHECK(scene.bodies[2].shape == Shape::arrow);
  CHECK(scene.bodies[3].name == "angular_velocity");
  CHECK(scene.bodies[3].shape == Shape::arrow);
  // The box with moments I = (2, 1.5, 1), edges in proportion sqrt(tr I - 2 I_k), the longest 1.
  const Eigen::Vector3d I(2, 1.5, 1);
  for (int k = 0; k < 3; ++k)
    CHECK(scene.bodies[0].size[static_cast<std::size_t>(k)] == doctest::Approx(std::sqrt((I.sum() - 2 * I[k]) / (I.sum() - 2 * I[2]))).epsilon(1e-12));
  Eigen::VectorXd y0(3);
  model->initial_state(y0);
  const Eigen::VectorXd y1 = test::run("rigid_body", {}, "rkmk4", 3.0, 1e-2).y;
  for (const Eigen::VectorXd& y : {y0, y1}) {
    const Eigen::VectorXd P = scene_poses_at(*model, y);
    for (int k : {0, 1}) {
      CHECK(max_diff(rotation(P, k), Eigen::Matrix3d::Identity()) < 1e-15);
      CHECK(max_diff(position(P, k), Eigen::Vector3d::Zero()) == 0);
    }
    CHECK(max_diff(position(P, 2), Eigen::Vector3d::Zero()) == 0);
    CHECK(max_diff(end_point(P, 2), 1.2 / y0.norm() * y) < 1e-15);
    CHECK(max_diff(end_point(P, 3), 1.2 / y0.cwiseQuotient(I).norm() * y.cwiseQuotient(I)) < 1e-15);
  }
  CHECK(max_diff(y1, y0) > 0.1);  // the arrows moved
}
