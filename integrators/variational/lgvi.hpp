// Lie group variational integrators (LGVI) of a rigid body on SO(3), or on SO(3) x R^3 with body
// velocities [Lee, Leok & McClamroch 2005; Sharma 2020 (seed 001) ch. 5–6, notes I-9, I-10, §11]:
// fixed step (`lgvi`) and adaptive energy-preserving (`lgvi_adaptive`, the step size from the
// discrete energy equation; solve = converged | sequential).
#pragma once
#include <liesim/lie/cayley.hpp>
#include <liesim/sdk/integrator.hpp>

#include <string>

namespace liesim::variational {

/// A rigid body's discrete state at a step point: R, x, body momentum Pi = J Omega, spatial
/// linear momentum gamma = R M v.
struct RigidState {
  RigidBodySystemView::RowMajor3 R = RigidBodySystemView::RowMajor3::Identity();
  Eigen::Vector3d x = Eigen::Vector3d::Zero(), Pi = Eigen::Vector3d::Zero(), gamma = Eigen::Vector3d::Zero();
};

/// One LGVI step of size h from `s` at time t (notes §11, with the errata of (5.30)/(6.52), (5.42)):
///   v = M^-1 (R^T gamma - h/2 R^T dU/dx),  g = h Pi + h^2/2 M_k + h^2 (M v) x v,
///   F = Cay(f) with F J_d - J_d F^T = hat(g),  R1 = R F,  x1 = x + h R v,
///   Pi1 = F^T (Pi + h/2 M_k + h (M v) x v) + h/2 M_{k+1},  gamma1 = R M v - h/2 dU/dx(x1),
///   E_d = 2 f^T J f / ((1 + |f|^2) h^2) + 1/2 v^T M v + (U_k + U_{k+1}) / 2.
/// (The translation terms vanish for a body with a fixed point.)
class LgviCore {
 public:
  /// Bind to a model's rigid-body description; false with `error` when it has none.
  bool init(ModelView& model, const char* method, std::string& error);
  /// The discrete state of a model state y.
  void to_discrete(ConstVec y, RigidState& s) const noexcept;
  /// The model state of a discrete state.
  void to_model(const RigidState& s, Vec y) const noexcept;
  /// Evaluate the step from s at t with size h; the potential at s is taken from prepare().
  Status prepare(double t, const RigidState& s) noexcept;
  /// With prepare() done for (t, s): solve for f at h (exact Cayley solve); fills next(),
  /// energy(), residual().
  Status step(double t, double h, const RigidState& s) noexcept;
  /// The sequential variant's update: keep the last step's f, R1, v, x1 and U1 and recompute what
  /// depends on the step size with `h` (Pi1, gamma1, E_d and the Cayley residual at h).
  void rescale(double h, const RigidState& s) noexcept;
  const RigidState& next() const noexcept { return next_; }
  /// E_d of the step, its kinetic part 2 f^T J f / (1 + |f|^2) (times 1/h^2 in E_d), the rest.
  double energy() const noexcept { return energy_; }
  double rotational_action() const noexcept { return trace_; }
  double other_energy() const noexcept { return other_; }
  /// max-norm of the Cayley equation at the accepted f and h.
  double residual() const noexcept { return residual_; }
  const Eigen::Vector3d& f() const noexcept { return f_; }
  int newton_iterations() const noexcept { return iterations_; }
  bool translation() const noexcept { return translation_; }

 private:
  const RigidBodySystemView* rb_ = nullptr;
  ModelView* model_ = nullptr;
  bool translation_ = false;
  Eigen::Matrix3d J_, M_, Minv_;
  double U_ = 0.0, U1_ = 0.0, energy_ = 0.0, trace_ = 0.0, other_ = 0.0, residual_ = 0.0;
  Eigen::Vector3d moment_, dUx_, f_, v_, moment1_, dUx1_;
  RigidState next_;
  int iterations_ = 0;
  std::string error_;
};

/// Fixed-step LGVI. Diagnostics: discrete_energy, residual_momentum. The discrete state (R, Pi, ...)
/// of its last step is kept: when the kernel passes that step's output back in, the step goes on
/// from it instead of converting the model state again (a round trip pi -> Pi -> pi multiplies by
/// R R^T, which would add the attitude's orthogonality defect to the momentum map at every step).
class LgviStepper final : public sdk::Stepper {
 public:
  Status init(ModelView& model, std::string& error) noexcept override;
  ErrorSpace error_space() const noexcept override { return ErrorSpace::none; }
  Status step(double t, double h, ConstVec y, Vec y_new, Vec err) noexcept override;
  /// The step repeated with theta h from the model state y, the carried discrete state (and the
  /// diagnostics) left as the step made them.
  Status interpolate(double t, double h, ConstVec y, ConstVec y_new, double theta, Vec out, Vec work) noexcept override;
  void diagnostics(Vec out) const noexcept override {
    out[0] = core_.energy();
    out[1] = core_.residual();
  }
  std::string last_error() const override { return error_; }

 private:
  LgviCore core_, saved_core_;
  RigidState s_;
  Eigen::VectorXd last_out_, saved_out_;  // the model state of the last step, whose discrete state is core_.next()
  bool have_last_ = false;
  ModelView* model_ = nullptr;
  std::string error_;
};

/// The adaptive energy-preserving LGVI: the first step has size h0 (--step) and defines E_0; each
/// later step keeps E_d = E_0. solve = converged: h is the root of E_d(h) = E_0 with the Cayley
/// equation solved exactly at every h (secant iterations, h > 0); sequential (the thesis's): `passes`
/// rounds of {solve f at the current h; h <- sqrt(2 f^T J f / (1 + |f|^2) / (E_0 - rest))}, then the
/// update with the last f and the final h (its momentum residual is reported, not zero).
/// Inside a step: R along R_k Cay(s f), x and the momenta linearly; the host drives the steps
/// (sdk::SteppingSolver): output at requested times and events on that interpolant.
class LgviAdaptiveSolver final : public sdk::SteppingSolver {
 public:
  LgviAdaptiveSolver(bool sequential, int passes, long max_steps) : sequential_(sequential), passes_(passes), max_steps_(max_steps) {}
  Status init(ModelView& model, double t0, ConstVec y0, const SolverTolerances& tol, std::string& error) noexcept override;
  Status step(double& t_new, Vec y_new) noexcept override;
  Status interpolate(double t, Vec y) noexcept override;
  void add_stats(Stats& stats) const noexcept override;
  std::string last_error() const override { return error_; }
  /// h_k, discrete_energy, residual_momentum, residual_energy.
  void diagnostics(Vec out) const noexcept override {
    out[0] = h_;
    out[1] = energy_;
    out[2] = residual_p_;
    out[3] = residual_e_;
  }

 private:
  Status take_step() noexcept;
  Status fail(const char* why) noexcept;
  bool sequential_;
  int passes_;
  long max_steps_;
  ModelView* model_ = nullptr;
  LgviCore core_;
  RigidState s_, prev_;
  Eigen::VectorXd y_prev_, y_;
  double t_ = 0.0, t_prev_ = 0.0, h_ = 0.0, energy_ = 0.0, target_ = 0.0, residual_p_ = 0.0, residual_e_ = 0.0;
  long steps_ = 0;
  double h_min_ = 0.0, h_max_ = 0.0;
  std::string error_;
};

}  // namespace liesim::variational
