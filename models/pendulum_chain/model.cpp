// The pendulum_chain plugin: N-fold 3D pendulum on (TS^2)^N under SE(3)^N.
#include "cartesian_dae.hpp"
#include "chain_dynamics.hpp"

#include <liesim/lie/actions.hpp>
#include <liesim/sdk/lie_space.hpp>
#include <liesim/sdk/manifold_checks.hpp>
#include <liesim/sdk/plugin.hpp>

#include <fmt/format.h>

#include <cmath>

namespace liesim::pendulum_chain {

namespace {

constexpr const char* conventions_text = R"(SPACE       (TS^2)^N: q_i in S^2 (unit direction of link i), w_i in R^3 with q_i . w_i = 0
            (angular velocity of link i), q_i' = w_i x q_i.
GROUP       SE(3)^N, direct product; se(3) components ordered rotation first, then translation:
            xi = [u_1, v_1, ..., u_N, v_N] in R^(6N).
ACTION      left action, per link (A, a).(q, w) = (A q, A w + a x A q) (restricted adjoint action of
            SE(3)); generator psi_*(u, v)|_(q,w) = (u x q, u x w + v x q). Preserves |q_i| and q_i . w_i.
            Exponential right-trivialised: d/dt exp(s) = dexp_s(s') exp(s).
GENERATOR   f(q, w) = [w_1, q_1 x h_1, ..., w_N, q_N x h_N], h_i = w_i' the angular accelerations of
            R(q) w' = r (thesis (3.4.1)-(3.4.2)), solved in O(N) through the link tensions.
EMBEDDING   state [q1, w1, q2, w2, ...] (6N numbers) in R^(6N); F = (w_i x q_i, h_i) per link; its exact
            Jacobian (differentiated tension solve, O(N^2)) for implicit solvers.
INVARIANTS  energy (kinetic + potential, J); q<i>_norm_minus_1 = |q_i| - 1; q<i>_dot_w<i> = q_i . w_i.
PARAMETERS  N links with point masses m_i at the link ends, lengths L_i, gravity g along -e3 (e3 up);
            pivot fixed at the origin; mass i at x_i = sum_{a<=i} L_a q_a.
SOURCE      Celledoni, Cokaj, Leone, Murari, Owren, IJCM 99 (2022) §2.5 and ECMI 2021 §3.4 (thesis of
            E. Cokaj, ch. 2-3); model of Lee, Leok, McClamroch, Global Formulations (2018).)";

/// The model instance.
class PendulumChain final : public sdk::Model {
 public:
  /// `cartesian_dae`: also offer the GGL formulation of cartesian_dae.hpp through dae().
  PendulumChain(Chain chain, Eigen::VectorXd y0, bool cartesian_dae)
      : sdk::Model(std::make_unique<PowerSpace<lie::SE3OnTS2>>(chain.size())),
        chain_(std::move(chain)), y0_(std::move(y0)), ws_(chain_.size()) {
    if (cartesian_dae) dae_ = std::make_unique<CartesianDae>(chain_);
  }

  sdk::DaeFormulation* dae() noexcept override { return dae_.get(); }

  void initial_state(Vec y) const override { y = y0_; }

  std::vector<std::string> state_names() const override {
    std::vector<std::string> names;
    for (int i = 1; i <= chain_.size(); ++i)
      for (const char* v : {"q", "w"})
        for (const char* c : {"x", "y", "z"}) names.push_back(fmt::format("{}{}_{}", v, i, c));
    return names;
  }

  std::vector<InvariantInfo> invariants() const override {
    // Conserved (no damping or forcing); its scale is the potential's range g sum_i m_i (L_1 + ... + L_i),
    // since the energy may be 0 at t0 (the divergence check: liesim/sdk/model_view.hpp, InvariantKind).
    double scale = 0.0, reach = 0.0;
    for (int i = 0; i < chain_.size(); ++i) {
      reach += chain_.L[static_cast<std::size_t>(i)];
      scale += chain_.g * chain_.m[static_cast<std::size_t>(i)] * reach;
    }
    std::vector<InvariantInfo> inv{{"energy", "kinetic + potential energy, J", InvariantKind::conserved, scale}};
    for (int i = 1; i <= chain_.size(); ++i) {
      inv.push_back({fmt::format("q{}_norm_minus_1", i), fmt::format("|q_{}| - 1 (stays on S^2)", i)});
      inv.push_back({fmt::format("q{}_dot_w{}", i, i), fmt::format("q_{} . w_{} (tangency)", i, i)});
    }
    return inv;
  }

  void evaluate_invariants(ConstVec y, Vec out) const noexcept override {
    out[0] = energy(chain_, y.data());
    for (int i = 0; i < chain_.size(); ++i) {
      const auto q = y.segment<3>(6 * i);
      const auto w = y.segment<3>(6 * i + 3);
      out[1 + 2 * i] = q.norm() - 1.0;
      out[2 + 2 * i] = q.dot(w);
    }
  }

  /// Links as rods from mass to mass (the first from the pivot), the masses as spheres, a pivot.
  Scene scene() const override {
    Scene s;
    double reach = 0.0, heaviest = 0.0;
    for (int i = 0; i < chain_.size(); ++i) {
      reach += chain_.L[static_cast<std::size_t>(i)];
      heaviest = std::max(heaviest, chain_.m[static_cast<std::size_t>(i)]);
    }
    const double r = 0.08 * reach / std::sqrt(static_cast<double>(chain_.size()));  // a mass of `heaviest` kg
    for (int i = 1; i <= chain_.size(); ++i) s.bodies.push_back({fmt::format("link{}", i), Shape::segment, {0.25 * r, 0, 0}, 0x777777});
    for (int i = 1; i <= chain_.size(); ++i) {
      const double m = chain_.m[static_cast<std::size_t>(i - 1)];
      s.bodies.push_back({fmt::format("mass{}", i), Shape::sphere, {r * std::cbrt(m / heaviest), 0, 0}, 0x4477aa});
    }
    s.bodies.push_back({"pivot", Shape::sphere, {0.4 * r, 0, 0}, 0x222222});
    s.extent = reach;
    s.up = {0, 0, 1};
    return s;
  }
  /// Mass i at x_i = sum_{a <= i} L_a q_a; link i from x_{i-1} (x_0 the pivot at the origin) to x_i.
  Status scene_poses(double, ConstVec y, Vec out) noexcept override {
    const int n = chain_.size();
    Eigen::Vector3d x = Eigen::Vector3d::Zero();
    for (int i = 0; i < n; ++i) {
      const Eigen::Vector3d next = x + chain_.L[static_cast<std::size_t>(i)] * y.segment<3>(6 * i);
      sdk::set_pose_points(out, i, x, next);
      sdk::set_pose(out, n + i, next, Eigen::Matrix3d::Identity());
      x = next;
    }
    sdk::set_pose(out, 2 * n, Eigen::Vector3d::Zero(), Eigen::Matrix3d::Identity());
    return Status::ok;
  }

  std::string check_state(ConstVec y) const override { return check_chain_state(y); }

  bool has_jacobian() const noexcept override { return true; }
  Status jacobian(double, ConstVec y, MatRef J) noexcept override {
    pendulum_chain::vector_field_jacobian(chain_, y.data(), J, ws_);
    return J.allFinite() ? Status::ok : fail(Status::recoverable, "pendulum_chain: non-finite Jacobian");
  }

  /// "" when every |q_i| = 1 and q_i . w_i = 0 within 1e-12 (relative to |w_i| for tangency).
  static std::string check_chain_state(ConstVec y) {
    for (Eigen::Index i = 0; 6 * i < y.size(); ++i) {
      std::string off = tangent_sphere_violation(y.segment<3>(6 * i), y.segment<3>(6 * i + 3), static_cast<int>(i + 1));
      if (!off.empty()) return off;
    }
    return {};
  }

 private:
  Status do_generator(double, ConstVec y, Vec xi) noexcept override {
    chain_field(chain_, y.data(), xi.data(), ChainField::generator, ws_);
    return Status::ok;
  }

  Status do_vector_field(double, ConstVec y, Vec dy) noexcept override {
    chain_field(chain_, y.data(), dy.data(), ChainField::vector_field, ws_);
    return Status::ok;
  }

  Chain chain_;
  Eigen::VectorXd y0_;
  ChainWorkspace ws_;
  std::unique_ptr<CartesianDae> dae_;  ///< formulation=cartesian_dae only (refers to chain_)
};

/// Per-link values: one number for every link, or one per link.
std::vector<double> per_link(const Settings& p, const std::string& key, int n) {
  auto v = p.numbers(key, {1, static_cast<std::size_t>(n)});
  if (v.size() == 1) v.assign(n, v[0]);
  for (int i = 0; i < n; ++i)
    if (!(v[i] > 0)) throw Error(fmt::format("parameter '{}': value {} for link {} must be positive", key, v[i], i + 1));
  return v;
}

/// Per-link 3-vectors: 3 values used for every link, or 3N values.
Eigen::VectorXd per_link_vector(const Settings& p, const std::string& key, int n) {
  auto v = p.numbers(key, {3, static_cast<std::size_t>(3 * n)});
  Eigen::VectorXd out(3 * n);
  for (int i = 0; i < 3 * n; ++i) out[i] = v[v.size() == 3 ? i % 3 : i];
  return out;
}

class PendulumChainType final : public sdk::ModelTypeBase<PendulumChainType> {
 public:
  std::string summary() const override { return "N-fold 3D pendulum (chain of spherical pendula) on (TS^2)^N under SE(3)^N"; }

  std::vector<SettingSpec> parameters() const override {
    return {
        {"N", "2", "", "number of links (>= 1)"},
        {"m", "1", "kg", "point masses: one value for every link, or N comma-separated values"},
        {"L", "1", "m", "link lengths: one value for every link, or N values (exclusive with chain_length)"},
        {"chain_length", "", "m", "total length; sets L_i = chain_length / N (exclusive with L)"},
        {"g", "9.81", "m/s^2", "gravitational acceleration (along -e3)"},
        {"q0", "0.7071067811865476,0,0.7071067811865476", "", "initial link directions: 3 values for every link, or 3N values; unit vectors"},
        {"w0", "0,1,0", "rad/s", "initial angular velocities: 3 values for every link, or 3N values; tangent (q_i . w_i = 0)"},
        {"formulation", "lie", "",
         "lie | cartesian_dae. The state, the Lie group action and the vector field are the same for both; "
         "cartesian_dae also offers the DAE of point masses x_i in R^3 with length constraints and multipliers in "
         "the stabilised index-2 (Gear-Gupta-Leimkuhler) form, for DAE solvers (method ida); see README.md"},
    };
  }

  std::string conventions() const override { return conventions_text; }

  std::unique_ptr<sdk::Model> make(const Settings& p) const {
    const int n = static_cast<int>(p.integer("N", 1, 1 << 20));
    Chain chain;
    chain.m = per_link(p, "m", n);
    if (p.given("chain_length")) {
      if (p.given("L")) throw Error("parameters 'L' and 'chain_length' exclude each other: give one of them");
      chain.L.assign(n, p.positive("chain_length") / n);
    } else {
      chain.L = per_link(p, "L", n);
    }
    chain.g = p.number("g");
    if (chain.g < 0) throw Error(fmt::format("parameter 'g' must be >= 0 (got {}); gravity points along -e3", chain.g));
    const Eigen::VectorXd q0 = per_link_vector(p, "q0", n), w0 = per_link_vector(p, "w0", n);
    Eigen::VectorXd y0(6 * n);
    for (int i = 0; i < n; ++i) {
      y0.segment<3>(6 * i) = q0.segment<3>(3 * i);
      y0.segment<3>(6 * i + 3) = w0.segment<3>(3 * i);
    }
    const std::string off = PendulumChain::check_chain_state(y0);
    if (!off.empty()) throw Error("parameters 'q0'/'w0': " + off);
    const bool dae = p.choice("formulation", {"lie", "cartesian_dae"}) == "cartesian_dae";
    return std::make_unique<PendulumChain>(std::move(chain), std::move(y0), dae);
  }
};

}  // namespace

}  // namespace liesim::pendulum_chain

LIESIM_PLUGIN(model, "pendulum_chain", "0.2.0", "N-fold 3D pendulum on (TS^2)^N under SE(3)^N",
              liesim::pendulum_chain::PendulumChainType)
