// The steps of the adaptive energy-preserving variational integrator [Sharma 2020 (seed 001)
// §3.2–3.3, (3.34)–(3.37); Kane, Marsden & Ortiz 1999], generic in the scalar: double in the
// method vi_adaptive (vi_adaptive.hpp, any model's mechanical description), or an extended-precision
// number (Boost.Multiprecision) with a mechanical description in that scalar — the thesis' ch. 8
// runs in 32 digits (integrators/variational/precision/). One implementation of the method's
// equations and solves serves both.
#pragma once
#include "discrete_lagrangian.hpp"

#include <liesim/sdk/newton.hpp>

#include <cmath>
#include <limits>

namespace liesim::variational {

/// How each step's equations are solved.
enum class AdaptiveSolve {
  converged,  ///< Newton on (h, v) jointly until both equations hold to round-off
  sequential  ///< `passes` rounds of: momentum equation for v at fixed h, then energy equation for h at fixed displacement
};

/// Per step, from the carried (t_k, q_k, p_k, E_k), solve
///   (3.34)  -D_2 L_d - f_d^- = p_k,   (3.35)  D_1 L_d + g_d^- = E_k
/// for (h_k, v_k) with h_k > 0, then q_{k+1} = q_k + h_k v_k, t_{k+1} = t_k + h_k,
///   (3.36)  p_{k+1} = D_4 L_d + f_d^+,   (3.37)  E_{k+1} = -D_3 L_d - g_d^+.
/// The first step is a fixed-step step of size h0 from p_0 = M v_0, which defines E_1.
template <class Scalar, class Mechanics>
class AdaptiveVi {
 public:
  using Vector = Eigen::Matrix<Scalar, Eigen::Dynamic, 1>;

  /// newton_tol: the solves' relative correction (about the scalar's round-off); max_iters per solve.
  void configure(AdaptiveSolve solve, int passes, double newton_tol, int max_iters) {
    solve_ = solve;
    passes_ = passes;
    joint_.configure(newton_tol, max_iters, true);
    momentum_.configure(newton_tol, max_iters);
    scalar_.configure(newton_tol, max_iters);
  }
  /// Bind to a mechanical description and start at (t0, q0, v0) with the first step h0 (allocates).
  template <class Q, class V>
  void init(const Mechanics& mech, const LagrangianRule& rule, const Scalar& t0, const Q& q0, const V& v0, const Scalar& h0) {
    ld_.init(mech, rule);
    m_ = ld_.dof();
    joint_.resize(m_ + 1);
    momentum_.resize(m_);
    scalar_.resize(1);
    z_.resize(m_ + 1);
    hv_.resize(1);
    t_ = t_prev_ = t0;
    h_ = h0;
    q_ = q_prev_ = q0;
    w_ = w_prev_ = v0;
    dq_.resize(m_);
    p_.noalias() = ld_.mass() * w_;
    v_ = w_;
    energy_ = std::numeric_limits<Scalar>::quiet_NaN();
    residual_p_ = residual_e_ = condition_ = std::numeric_limits<double>::quiet_NaN();
    steps_ = newton_iterations_ = 0;
  }

  /// One step. Status::ok; else `why()` says which equation has no root (null when the mechanical
  /// description itself failed: its own message) and `failed_solve()` how the solve ended.
  Status step() noexcept {
    why_ = nullptr;
    // The momentum equation for v at the current h: the first step (size h0, which defines the
    // discrete energy E_1 that the others keep), the predictor of the joint solve, and the first
    // half of each sequential pass.
    const auto solve_momentum = [&](const char* what) {
      const NewtonResult r = momentum_.solve(v_, [&](const auto& v, auto& res) {
        const Status s = ld_.evaluate(t_, q_, h_, v);
        res = ld_.momentum_k() - p_;
        return s;
      });
      return account(r, what);
    };
    if (steps_ == 0) {
      if (solve_momentum("the first step's momentum equation did not converge") != Status::ok) return Status::fatal;
    } else if (solve_ == AdaptiveSolve::converged) {
      // Predictor: v for the last step size (near a turning point the last v is a poor guess).
      if (solve_momentum("the momentum equation did not converge") != Status::ok) return Status::fatal;
      z_[0] = h_;
      z_.tail(m_) = v_;
      const NewtonResult r = joint_.solve(
          z_,
          [&](const auto& z, auto& res) {
            const Status s = ld_.evaluate(t_, q_, z[0], z.tail(m_));
            res.head(m_) = ld_.momentum_k() - p_;
            res[m_] = ld_.energy_k() - energy_;
            return s;
          },
          [](const auto& z) { return z[0] > 0; });
      newton_iterations_ += r.iterations;
      condition_ = r.condition;
      if (r.status == Status::fatal) return Status::fatal;
      if (r.status != Status::ok || !(z_[0] > 0)) return no_root("the discrete energy equation has no positive root h near the last step", r);
      h_ = z_[0];
      v_ = z_.tail(m_);
    } else {
      for (int pass = 0; pass < passes_; ++pass) {
        if (solve_momentum("the momentum equation did not converge") != Status::ok) return Status::fatal;
        dq_ = h_ * v_;
        hv_[0] = h_;
        const NewtonResult r = scalar_.solve(
            hv_,
            [&](const auto& h, auto& res) {
              v_ = dq_ / h[0];
              const Status s = ld_.evaluate(t_, q_, h[0], v_);
              res[0] = ld_.energy_k() - energy_;
              return s;
            },
            [](const auto& h) { return h[0] > 0; });
        newton_iterations_ += r.iterations;
        if (r.status != Status::ok || !(hv_[0] > 0)) return no_root("the discrete energy equation has no positive root h near the last step", r);
        h_ = hv_[0];
        v_ = dq_ / h_;
      }
    }
    using std::isfinite;
    if (!(h_ > 0) || !isfinite(h_) || !v_.allFinite()) return no_root("the step size left (0, inf)", {});
    const Status s = ld_.evaluate(t_, q_, h_, v_);
    if (s != Status::ok) return s;
    residual_p_ = static_cast<double>((ld_.momentum_k() - p_).template lpNorm<Eigen::Infinity>());
    using std::abs;
    residual_e_ = steps_ == 0 ? 0.0 : static_cast<double>(abs(ld_.energy_k() - energy_));
    q_prev_ = q_;
    w_prev_ = w_;
    t_prev_ = t_;
    q_ += h_ * v_;
    t_ += h_;
    p_ = ld_.momentum_k1();
    w_ = ld_.mass_llt().solve(p_);
    energy_ = ld_.energy_k1();
    ++steps_;
    if (!q_.allFinite() || !w_.allFinite()) return no_root("the state became non-finite", {});
    return Status::ok;
  }

  const char* why() const noexcept { return why_; }
  const NewtonResult& failed_solve() const noexcept { return failed_; }
  /// The carried state after the last step: t_k, q_k, the velocity M^-1 p_k, p_k, E_k (NaN before
  /// the first step), and the last step h_{k-1} (h0 before the first).
  const Scalar& t() const noexcept { return t_; }
  const Vector& q() const noexcept { return q_; }
  const Vector& velocity() const noexcept { return w_; }
  const Vector& momentum() const noexcept { return p_; }
  const Scalar& energy() const noexcept { return energy_; }
  const Scalar& h() const noexcept { return h_; }
  /// The state before the last step (for interpolation inside it).
  const Scalar& t_prev() const noexcept { return t_prev_; }
  const Vector& q_prev() const noexcept { return q_prev_; }
  const Vector& velocity_prev() const noexcept { return w_prev_; }
  /// The residuals of the momentum and energy equations at the last step's solution, and the
  /// condition number of the joint solve's last Jacobian (converged solve).
  double residual_momentum() const noexcept { return residual_p_; }
  double residual_energy() const noexcept { return residual_e_; }
  double condition() const noexcept { return condition_; }
  long steps() const noexcept { return steps_; }
  long newton_iterations() const noexcept { return newton_iterations_; }
  int dof() const noexcept { return m_; }

 private:
  Status account(const NewtonResult& r, const char* what) noexcept {
    newton_iterations_ += r.iterations;
    return r.status == Status::ok ? Status::ok : no_root(what, r);
  }
  Status no_root(const char* why, const NewtonResult& r) noexcept {
    why_ = why;
    failed_ = r;
    return Status::fatal;
  }

  AdaptiveSolve solve_ = AdaptiveSolve::converged;
  int passes_ = 1;
  BasicDiscreteLagrangian<Scalar, Mechanics> ld_;
  BasicNewton<Scalar> joint_, momentum_, scalar_;  // (h, v); v at fixed h; h at fixed displacement
  int m_ = 0;
  Scalar t_ = 0, t_prev_ = 0, h_ = 0, energy_ = 0;
  double residual_p_ = 0.0, residual_e_ = 0.0, condition_ = 0.0;
  Vector q_, p_, q_prev_, w_prev_, w_, z_, dq_, v_, hv_;
  long steps_ = 0, newton_iterations_ = 0;
  const char* why_ = nullptr;
  NewtonResult failed_;
};

}  // namespace liesim::variational
