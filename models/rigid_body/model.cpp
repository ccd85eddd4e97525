// The rigid_body plugin: the free rigid body (Euler's equations) on so(3)* under SO(3).
#include "../heavy_top/inertia_solid.hpp"

#include <liesim/lie/actions.hpp>
#include <liesim/sdk/lie_space.hpp>
#include <liesim/sdk/plugin.hpp>

#include <fmt/format.h>

namespace liesim::rigid_body {

namespace {

constexpr const char* conventions_text = R"(SPACE       so(3)* = R^3, body angular momentum y; motion stays on the sphere |y| = |y0|.
GROUP       SO(3); so(3) = R^3 with hat(w) v = w x v, bracket [a, b] = a x b.
ACTION      left coadjoint action g . y = Ad*_{g^-1} y = g y; generator psi_*(xi)|_y = xi x y.
GENERATOR   f(y) = -I^{-1} y, so that psi_*(f(y))|_y = y x I^{-1} y (Euler's equations). The thesis
            prints f = +I^{-1} y with a sign error (errata 2): that would reverse time.
EMBEDDING   state [y1, y2, y3] in R^3; F(y) = y x I^{-1} y; exact Jacobian dF/dy = hat(y) I^{-1} - hat(I^{-1} y)
            for implicit solvers.
HAMILTONIAN (symplectic Lie group methods, ABI 2.3) reduced on so(3)*: mu = y, no group element;
            dH/dmu = -I^-1 y, dH/dg = 0, so that -ad*_{dH/dmu} y = y x I^-1 y (ad*_w m = -w x m):
            the body momentum of a left-invariant H has the + sign of thesis (2.3.9), written
            with -H in the right-trivialised form of the capability (the generator's sign, errata 2).
INVARIANTS  energy H = 1/2 (y1^2/I1 + y2^2/I2 + y3^2/I3); norm = |y| (Casimir).
PARAMETERS  principal moments of inertia I = (I1, I2, I3) > 0; initial momentum y0.
SOURCE      thesis of E. Cokaj, Example 2 (1.2.3)-(1.2.5), Fig. 1.2, and Example 10.)";

/// The reduced Hamiltonian description (ABI 2.3) on so(3)*: mu = y, no group element. The body
/// momentum of a left-invariant H moves by y' = +ad*_{dH/dy} y (thesis (2.3.9), + sign), the
/// capability's equation has the minus sign of the right-trivialised form, so the model states
/// dH/dmu = -I^-1 y (H replaced by -H, the same sign as its generator, errata 2) and dH/dg = 0:
/// -ad*_{-I^-1 y} y = -I^-1 y x y = y x I^-1 y.
class RigidBodyHamiltonian final : public sdk::HamiltonianOn<lie::SO3> {
 public:
  explicit RigidBodyHamiltonian(const Eigen::Vector3d& inv_inertia) : sdk::HamiltonianOn<lie::SO3>(true), inv_inertia_(inv_inertia) {}
  void from_state(ConstVec y, Vec, Vec mu) const noexcept override { mu = y; }
  void to_state(ConstVec, ConstVec mu, Vec y) const noexcept override { y = mu; }
  Status gradient(double, ConstVec, ConstVec mu, Vec dH_dmu, Vec dH_dg) noexcept override {
    dH_dmu = -inv_inertia_.cwiseProduct(mu);
    dH_dg.setZero();
    return Status::ok;
  }

 private:
  Eigen::Vector3d inv_inertia_;
};

class RigidBody final : public sdk::Model {
 public:
  RigidBody(const Eigen::Vector3d& inertia, const Eigen::Vector3d& y0)
      : sdk::Model(std::make_unique<PowerSpace<lie::SO3Coadjoint>>(1)), inv_inertia_(inertia.cwiseInverse()), y0_(y0),
        ham_(inv_inertia_) {
    // The box of uniform density with the principal moments I (a mass of 1 kg), scaled to a
    // longest edge of 1: the model has no mass and no length, only the inertia's proportions.
    box_ = scene_shapes::inertia_solid(1.0, Eigen::Matrix3d(inertia.asDiagonal()), 1.0, false);
    const double longest = std::max({box_.size[0], box_.size[1], box_.size[2]});
    for (double& a : box_.size) a /= longest;
  }

  /// The state is the body angular momentum y alone: the motion is known up to the attitude (which
  /// the reduced equations leave out), so the scene is drawn in the body frame: the body (the box
  /// with its inertia, fixed) and its principal axes, with the angular momentum y and the angular
  /// velocity Omega = I^-1 y as arrows from its centre. Their tips trace the polhodes: y on the
  /// sphere |y| = |y0| (a Casimir) and the energy ellipsoid.
  Scene scene() const override {
    Scene s;
    s.bodies.push_back({"body", Shape::box, box_.size, 0x4477aa});
    s.bodies.push_back({"principal_axes", Shape::axes, {0.9, 0, 0}, 0x000000});
    s.bodies.push_back({"angular_momentum", Shape::arrow, {0.012, 0, 0}, 0xee6677});
    s.bodies.push_back({"angular_velocity", Shape::arrow, {0.012, 0, 0}, 0x228833});
    s.extent = 1.5;
    s.up = {0, 0, 1};
    return s;
  }
  /// Body and axes at the origin with the identity attitude (body frame); the arrows from the
  /// origin to 1.2 y / |y0| and 1.2 Omega / |Omega(0)| (a zero initial length read as 1).
  Status scene_poses(double, ConstVec y, Vec out) noexcept override {
    const Eigen::Vector3d o = Eigen::Vector3d::Zero(), Y = y, Omega = inv_inertia_.cwiseProduct(Y);
    const double y0 = y0_.norm(), Omega0 = inv_inertia_.cwiseProduct(y0_).norm();
    sdk::set_pose(out, 0, o, Eigen::Matrix3d::Identity());
    sdk::set_pose(out, 1, o, Eigen::Matrix3d::Identity());
    sdk::set_pose_points(out, 2, o, Eigen::Vector3d((y0 > 0 ? 1.2 / y0 : 1.2) * Y));
    sdk::set_pose_points(out, 3, o, Eigen::Vector3d((Omega0 > 0 ? 1.2 / Omega0 : 1.2) * Omega));
    return Status::ok;
  }
  sdk::HamiltonianSystem* hamiltonian() noexcept override { return &ham_; }

  void initial_state(Vec y) const override { y = y0_; }
  std::vector<std::string> state_names() const override { return {"y1", "y2", "y3"}; }
  std::vector<InvariantInfo> invariants() const override {
    return {{"energy", "H = 1/2 sum y_i^2 / I_i", InvariantKind::conserved}, {"norm", "|y| (Casimir)", InvariantKind::conserved}};
  }
  void evaluate_invariants(ConstVec y, Vec out) const noexcept override {
    out[0] = 0.5 * y.cwiseProduct(y).dot(inv_inertia_);
    out[1] = y.norm();
  }
  bool has_jacobian() const noexcept override { return true; }
  Status jacobian(double, ConstVec y, MatRef J) noexcept override {
    const Eigen::Vector3d v = y;
    J = lie::SO3::hat(v) * inv_inertia_.asDiagonal() - lie::SO3::hat(inv_inertia_.cwiseProduct(v));
    return Status::ok;
  }

 private:
  Status do_generator(double, ConstVec y, Vec xi) noexcept override {
    xi = -inv_inertia_.cwiseProduct(y);
    return Status::ok;
  }
  Status do_vector_field(double, ConstVec y, Vec dy) noexcept override {
    const Eigen::Vector3d v = y;
    dy = v.cross(inv_inertia_.cwiseProduct(v));
    return Status::ok;
  }

  Eigen::Vector3d inv_inertia_;
  Eigen::Vector3d y0_;
  RigidBodyHamiltonian ham_;
  scene_shapes::InertiaSolid box_;  ///< the drawn body (scene)
};

class RigidBodyType final : public sdk::ModelTypeBase<RigidBodyType> {
 public:
  std::string summary() const override { return "free rigid body (Euler's equations) on so(3)* under the coadjoint action of SO(3)"; }
  std::vector<SettingSpec> parameters() const override {
    return {{"I", "2,1.5,1", "kg m^2", "principal moments of inertia I1, I2, I3 (positive)"},
            {"y0", "0.6967067093471654,0,0.7173560908995228", "kg m^2/s", "initial body angular momentum (default (cos 0.8, 0, sin 0.8))"}};
  }
  std::string conventions() const override { return conventions_text; }
  std::unique_ptr<sdk::Model> make(const Settings& p) const {
    const auto I = p.numbers("I", {3});
    for (int i = 0; i < 3; ++i)
      if (!(I[i] > 0)) throw Error(fmt::format("parameter 'I': moment I{} = {} must be positive", i + 1, I[i]));
    const auto y0 = p.numbers("y0", {3});
    return std::make_unique<RigidBody>(Eigen::Vector3d(I[0], I[1], I[2]), Eigen::Vector3d(y0[0], y0[1], y0[2]));
  }
};

}  // namespace

}  // namespace liesim::rigid_body

LIESIM_PLUGIN(model, "rigid_body", "0.2.0", "free rigid body on so(3)* under SO(3)", liesim::rigid_body::RigidBodyType)
