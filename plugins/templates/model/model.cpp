// example_model: a liesim model plugin — the spherical pendulum on TS^2 under SE(3).
//
// A model is written once as (M, G, psi, f): the phase space M embedded in R^n (the state
// layout), a Lie group G acting on M from the left (psi), and the generator f: M -> g with
// F|_y = psi_*(f(y))|_y. Lie group integrators use psi, exp and f; classical integrators use the
// embedded vector field F. Start from this file: change the state layout, the action, f, F, the
// invariants and the parameters, then run the tests (ctest) — they check F against psi_*(f).
#include <liesim/lie/actions.hpp>  // static actions: SO(3) on R^3, SE(3) on TS^2, products, ...
#include <liesim/sdk/lie_space.hpp>    // PowerSpace: a static action as the run-time HomogeneousSpace
#include <liesim/sdk/plugin.hpp>       // Model, ModelTypeBase, LIESIM_PLUGIN (the ABI)

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace example_model {

using liesim::ConstVec;
using liesim::Status;
using liesim::Vec;

// The convention block `liesim describe example_model` prints (keep README.md in step).
constexpr const char* conventions_text = R"(SPACE       TS^2 = {(q, w) : |q| = 1, q . w = 0}: q the unit direction from the pivot to the mass,
            w the angular velocity of the rod; q' = w x q.
GROUP       SE(3); se(3) = R^6 ordered rotation first, then translation: xi = (u, v).
ACTION      (A, a) . (q, w) = (A q, A w + a x A q) (lie::SE3OnTS2, the restricted adjoint action);
            generator psi_*(u, v)|_(q,w) = (u x q, u x w + v x q). Preserves |q| and q . w.
GENERATOR   f(q, w) = (w, q x h) with h = w' = (q x g_vec) / L, g_vec = (0, 0, -g): then
            psi_*(f)|_(q,w) = (w x q, w x w + (q x h) x q) = (q', h) since q . h = 0.
EMBEDDING   state [q_x, q_y, q_z, w_x, w_y, w_z] in R^6; F(q, w) = (w x q, (q x g_vec) / L).
INVARIANTS  energy E = 1/2 m L^2 |w x q|^2 + m g L q_z (J); q_norm_minus_1 = |q| - 1;
            q_dot_w = q . w (both 0 on TS^2: Lie group methods keep them to round-off).
PARAMETERS  m > 0 (mass), L > 0 (rod length), g >= 0 (gravity along -e3), q0 (non-zero,
            normalised), w0 (tangent: q0 . w0 = 0).
SOURCE      liesim plugin template; the same system as pendulum_chain with N = 1.)";

/// The model instance: parameters are fixed at creation, the state is passed in every call.
class Pendulum final : public liesim::sdk::Model {
 public:
  Pendulum(double m, double L, double g, const Eigen::Vector3d& q0, const Eigen::Vector3d& w0)
      // The space: one copy of the static action SE(3) on TS^2 (n = 6 coordinates, dim g = 6).
      // For N bodies use PowerSpace<...>(N); for mixed spaces lie::ProductAction<A, B, ...>.
      : liesim::sdk::Model(std::make_unique<liesim::PowerSpace<liesim::lie::SE3OnTS2>>(1)), m_(m), L_(L), gvec_(0.0, 0.0, -g) {
    y0_ << q0, w0;
  }

  // --- State layout and initial value --------------------------------------------------------
  void initial_state(Vec y) const override { y = y0_; }
  std::vector<std::string> state_names() const override { return {"q_x", "q_y", "q_z", "w_x", "w_y", "w_z"}; }

  // --- Invariants: reported by `liesim run --summary`, monitored in the output CSV ------------
  // Each states what the exact flow does to it (kind) and the scale its changes are measured
  // against: a conserved one that blows up ends the run as diverged (the option invariant_bound);
  // the template's test checks that its drift shrinks with h.
  std::vector<liesim::InvariantInfo> invariants() const override {
    const double potential_scale = m_ * L_ * std::max(1.0, std::abs(gvec_.z()));  // E may be 0 at t0
    return {{"energy", "E = 1/2 m L^2 |w x q|^2 + m g L q_z, J (conserved)", liesim::InvariantKind::conserved, potential_scale},
            {"q_norm_minus_1", "|q| - 1 (stays on S^2)"},
            {"q_dot_w", "q . w (tangency)"}};
  }
  void evaluate_invariants(ConstVec y, Vec out) const noexcept override {
    const Eigen::Vector3d q = y.head<3>(), w = y.tail<3>();
    out[0] = 0.5 * m_ * L_ * L_ * w.cross(q).squaredNorm() - m_ * L_ * gvec_.z() * q.z();
    out[1] = q.norm() - 1.0;
    out[2] = q.dot(w);
  }

  // --- Where the state must lie: checked for the initial state before a run --------------------
  std::string check_state(ConstVec y) const override { return state_problem(y.head<3>(), y.tail<3>()); }
  /// "" if |q| = 1 and q . w = 0 within 1e-12 (relative to |w| for the tangency), else the violation.
  static std::string state_problem(const Eigen::Vector3d& q, const Eigen::Vector3d& w) {
    if (std::abs(q.norm() - 1.0) > 1e-12) return fmt::format("|q| = {:.17g} but must be 1 within 1e-12", q.norm());
    if (std::abs(q.dot(w)) > 1e-12 * std::max(1.0, w.norm()))
      return fmt::format("q . w = {:.3g} but must be 0 (w is tangent to the sphere at q)", q.dot(w));
    return {};
  }

 private:
  /// h = w' = (q x g_vec) / L: the tangential angular acceleration (gravity's torque / (m L^2)).
  Eigen::Vector3d angular_acceleration(const Eigen::Vector3d& q) const { return q.cross(gvec_) / L_; }

  // --- The generator f: M -> g (what Lie group methods integrate) ------------------------------
  // Hooks are noexcept and must not allocate (fixed-size Eigen only); on failure return
  // fail(Status::recoverable or Status::fatal, "why").
  Status do_generator(double, ConstVec y, Vec xi) noexcept override {
    const Eigen::Vector3d q = y.head<3>(), w = y.tail<3>();
    xi.head<3>() = w;                                // u: rotation part
    xi.tail<3>() = q.cross(angular_acceleration(q));  // v: translation part
    return Status::ok;
  }

  // --- The embedded field F: R^n -> R^n (what classical methods integrate) ----------------------
  // Optional: without this override F = psi_*(f(y))|_y is evaluated through the space. A direct
  // formula is cheaper; the test checks that both agree on M.
  Status do_vector_field(double, ConstVec y, Vec dy) noexcept override {
    const Eigen::Vector3d q = y.head<3>(), w = y.tail<3>();
    dy.head<3>() = w.cross(q);
    dy.tail<3>() = angular_acceleration(q);
    return Status::ok;
  }

  double m_, L_;
  Eigen::Vector3d gvec_;
  Eigen::Matrix<double, 6, 1> y0_;
};

/// The model type: documentation, parameters, and validated instance creation.
class PendulumType final : public liesim::sdk::ModelTypeBase<PendulumType> {
 public:
  std::string summary() const override { return "spherical pendulum on TS^2 under SE(3) (liesim plugin template)"; }

  // name, default (as text), unit, meaning: `--param NAME=VALUE`; `liesim describe` lists them.
  std::vector<liesim::SettingSpec> parameters() const override {
    return {{"m", "1", "kg", "mass at the end of the rod (positive)"},
            {"L", "1", "m", "rod length (positive)"},
            {"g", "9.81", "m/s^2", "gravitational acceleration along -e3 (>= 0)"},
            {"q0", "0.7071067811865476,0,0.7071067811865476", "", "initial direction of the rod (non-zero; normalised)"},
            {"w0", "0,1,0", "rad/s", "initial angular velocity (tangent: q0 . w0 = 0)"}};
  }

  std::string conventions() const override { return conventions_text; }

  // Called by ModelTypeBase::create. Throw liesim::Error naming the parameter and the fix: the
  // message is caught inside the plugin and shown to the user (no exception crosses the ABI).
  std::unique_ptr<liesim::sdk::Model> make(const liesim::Settings& p) const {
    const double m = p.positive("m");  // typed getters already reject malformed / non-positive values
    const double L = p.positive("L");
    const double g = p.number("g");
    if (g < 0) throw liesim::Error(fmt::format("parameter 'g' = {} must be >= 0 (gravity points along -e3)", g));
    const auto q = p.numbers("q0", {3});
    const auto w = p.numbers("w0", {3});
    Eigen::Vector3d q0(q[0], q[1], q[2]);
    const Eigen::Vector3d w0(w[0], w[1], w[2]);
    if (!(q0.norm() > 0)) throw liesim::Error("parameter 'q0' must be a non-zero vector (the rod's direction)");
    if (std::abs(q0.norm() - 1.0) > 1e-12) q0.normalize();
    if (const std::string off = Pendulum::state_problem(q0, w0); !off.empty())
      throw liesim::Error("parameters 'q0'/'w0': " + off);
    return std::make_unique<Pendulum>(m, L, g, q0, w0);
  }
};

}  // namespace example_model

// The entry point: kind, plugin name (what --model takes), plugin version, one-line summary, type.
// It also compiles in the ABI version and the build token the host checks before loading.
LIESIM_PLUGIN(model, "example_model", "0.1.0", "spherical pendulum on TS^2 under SE(3) (template)",
              example_model::PendulumType)
