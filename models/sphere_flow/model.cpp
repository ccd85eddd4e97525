// The sphere_flow plugin: vector fields on the 2-sphere for the B-stability experiments of
// E. Cokaj's thesis (ch. 4.3): the Killing field e3 x y and a contractive gradient field, with
// the round metric (ABI 2.3) for geodesic methods and a generator with a chosen isotropy part.
#include <liesim/lie/actions.hpp>
#include <liesim/sdk/lie_space.hpp>
#include <liesim/sdk/plugin.hpp>

#include <fmt/format.h>

#include <cmath>

namespace liesim::sphere_flow {

namespace {

constexpr const char* conventions_text = R"(SPACE       S^2, the unit sphere in R^3; state y = [y1, y2, y3] (|y| = 1), e3 = (0, 0, 1) the north pole.
GROUP       SO(3); so(3) = R^3 with hat(w) v = w x v.
ACTION      rotation g . y = g y (left); generator psi_*(xi)|_y = xi x y.
FIELD       killing:     X(y) = e3 x y (rotation about e3, a Killing field: monotone with nu = 0).
            contractive: X(y) = e3 - y3 y = -grad(-y3) (flow to the north pole along the meridians;
                         monotone with nu = -y3 < 0 on the open northern hemisphere).
GENERATOR   f(y) = a(y) + c y3 y with a(y) the part orthogonal to y (killing: e3 - y3 y; contractive:
            y x e3), so psi_*(f(y))|_y = X(y) for every c (the isotropy choice of thesis (4.3.16)):
            killing with c = 1 gives f = e3 (Lie group methods exact), c = 0 the geodesic choice
            (implicit Lie-Euler = geodesic implicit Euler).
EMBEDDING   F(y) = X(y) in R^3; exact Jacobian (killing hat(e3); contractive -(y e3^T + y3 I)).
METRIC      round metric (ABI 2.3): exp_y(v) = cos|v| y + sin|v|/|v| v, d(y, z) = angle between y and z
            (2 atan2(|z - y|, |z + y|)), log_y(z) = d w/|w| with w = z - (y.z) y.
INVARIANTS  norm |y| (1 on S^2); killing also height = y3 (conserved: each point keeps its latitude).
            Exact solution: killing y(t) = rotation of y0 about e3 by the angle t; contractive: along
            the meridian of y0 with colatitude phi(t), tan(phi/2) = tan(phi0/2) e^-t.
PARAMETERS  field (killing | contractive), c (isotropy of the generator), latitude, longitude of y0
            (degrees).
SOURCE      E. Cokaj, PhD thesis NTNU 2024 (seed 000) §4.3.2: (4.3.11)-(4.3.16), Figs 4.3-4.6.)";

enum class Field { killing, contractive };

class SphereFlow final : public sdk::Model {
 public:
  SphereFlow(Field f, double c, const Eigen::Vector3d& y0)
      : sdk::Model(std::make_unique<PowerSpace<lie::SO3OnR3>>(1)), field_(f), c_(c), y0_(y0), metric_(3, 1) {}

  void initial_state(Vec y) const override { y = y0_; }
  std::vector<std::string> state_names() const override { return {"y1", "y2", "y3"}; }
  std::vector<InvariantInfo> invariants() const override {
    if (field_ == Field::killing) return {{"norm", "|y| (1 on S^2)"}, {"height", "y3, the latitude's sine (kept by the rotation)"}};
    return {{"norm", "|y| (1 on S^2)"}};
  }
  void evaluate_invariants(ConstVec y, Vec out) const noexcept override {
    out[0] = y.norm();
    if (field_ == Field::killing) out[1] = y[2];
  }
  std::string check_state(ConstVec y) const override {
    if (std::abs(y.norm() - 1.0) > 1e-12) return fmt::format("|y| = {:.17g} is not 1 within 1e-12 (the state lies on the unit sphere)", y.norm());
    return {};
  }
  const sdk::RiemannianMetric* riemannian() const noexcept override { return &metric_; }

  bool has_exact_solution() const noexcept override { return true; }
  Status exact_solution(double t, Vec y) const noexcept override {
    if (field_ == Field::killing) {
      y = lie::SO3::exp(t * Eigen::Vector3d::UnitZ()) * y0_;
      return Status::ok;
    }
    const double phi0 = std::atan2(std::hypot(y0_[0], y0_[1]), y0_[2]);
    const double phi = 2.0 * std::atan(std::tan(0.5 * phi0) * std::exp(-t));
    const double lambda = std::atan2(y0_[1], y0_[0]);
    y << std::sin(phi) * std::cos(lambda), std::sin(phi) * std::sin(lambda), std::cos(phi);
    return Status::ok;
  }

  bool has_jacobian() const noexcept override { return true; }
  Status jacobian(double, ConstVec y, MatRef J) noexcept override {
    if (field_ == Field::killing) {
      J = lie::SO3::hat(Eigen::Vector3d::UnitZ());
    } else {
      J = -(Eigen::Vector3d(y) * Eigen::RowVector3d(0, 0, 1));
      J.diagonal().array() -= y[2];
    }
    return Status::ok;
  }

 private:
  Status do_generator(double, ConstVec y, Vec xi) noexcept override {
    const Eigen::Vector3d v = y, e3 = Eigen::Vector3d::UnitZ();
    const Eigen::Vector3d a = field_ == Field::killing ? Eigen::Vector3d(e3 - v[2] * v) : Eigen::Vector3d(v.cross(e3));
    xi = a + c_ * v[2] * v;
    return Status::ok;
  }
  Status do_vector_field(double, ConstVec y, Vec dy) noexcept override {
    const Eigen::Vector3d v = y, e3 = Eigen::Vector3d::UnitZ();
    dy = field_ == Field::killing ? Eigen::Vector3d(e3.cross(v)) : Eigen::Vector3d(e3 - v[2] * v);
    return Status::ok;
  }

  Field field_;
  double c_;
  Eigen::Vector3d y0_;
  sdk::SphereMetric metric_;
};

class SphereFlowType final : public sdk::ModelTypeBase<SphereFlowType> {
 public:
  std::string summary() const override {
    return "vector fields on the 2-sphere (Killing rotation, contractive gradient flow) with the round metric: B-stability experiments";
  }
  std::vector<SettingSpec> parameters() const override {
    return {{"field", "killing", "", "killing (X = e3 x y) | contractive (X = e3 - y3 y, flow to the north pole)"},
            {"c", "1", "", "isotropy of the generator f(y) = a(y) + c y3 y (thesis (4.3.16); 1: f = e3 for the Killing field, 0: "
                           "the geodesic choice)"},
            {"latitude", "25", "deg", "latitude of y0 in [-90, 90]"},
            {"longitude", "0", "deg", "longitude of y0"}};
  }
  std::string conventions() const override { return conventions_text; }
  std::unique_ptr<sdk::Model> make(const Settings& p) const {
    const Field f = p.choice("field", {"killing", "contractive"}) == "killing" ? Field::killing : Field::contractive;
    const double c = p.number("c"), lat = p.number("latitude"), lon = p.number("longitude");
    if (!std::isfinite(c)) throw Error(fmt::format("parameter 'c' must be finite (got {})", c));
    if (!(lat >= -90 && lat <= 90)) throw Error(fmt::format("parameter 'latitude': {} is not in [-90, 90] degrees", lat));
    if (!std::isfinite(lon)) throw Error(fmt::format("parameter 'longitude' must be finite (got {})", lon));
    const double la = lat * M_PI / 180.0, lo = lon * M_PI / 180.0;
    return std::make_unique<SphereFlow>(f, c, Eigen::Vector3d(std::cos(la) * std::cos(lo), std::cos(la) * std::sin(lo), std::sin(la)));
  }
};

}  // namespace

}  // namespace liesim::sphere_flow

LIESIM_PLUGIN(model, "sphere_flow", "0.1.0", "vector fields on S^2 (Killing, contractive) with the round metric",
              liesim::sphere_flow::SphereFlowType)
