// Newton's method for the small dense nonlinear systems of implicit one-step methods, with a
// forward-difference Jacobian: one solver that implicit families share. Workspaces are allocated
// once (resize), never per solve.
#pragma once
#include <liesim/sdk/model_view.hpp>
#include <liesim/sdk/status.hpp>
#include <liesim/sdk/types.hpp>

#include <Eigen/LU>
#include <Eigen/SVD>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace liesim {

/// Outcome of one Newton solve.
struct NewtonResult {
  Status status = Status::ok;  ///< ok: converged; recoverable: not converged; fatal: the residual failed
  int iterations = 0;          ///< Newton iterations taken
  double residual = 0.0;       ///< max-norm of the residual at the returned x
  double condition = 0.0;      ///< 1-norm condition number of the last Jacobian (when asked for), else 0
};

/// Solves G(x) = 0 for x in R^n from a starting guess. Convergence: the max-norm of the Newton
/// correction falls below tol (1 + |x|_max), after which one more correction is applied when it
/// still lowers the residual (so that the result sits at round-off, not at tol).
/// With m equations in n unknowns (resize(n, m)) or a Jacobian that is singular by construction
/// (unknowns that parametrise a manifold redundantly, e.g. a group element acting on a point with
/// isotropy), each correction is the minimum-norm least-squares solution dx = J^+ r (Gauss–Newton
/// through a singular value decomposition in preallocated storage; singular values below
/// rank_tol times the largest count as zero, so the redundant directions are not moved).
///
/// The scalar is double for every stepper; an extended-precision type (a Boost.Multiprecision
/// number with Eigen support, boost/multiprecision/eigen.hpp) runs the same solver in more digits
/// (the adaptive VI in 32 digits, vi_adaptive_core.hpp). Results report double residuals.
template <class Scalar>
class BasicNewton {
  using Vector = Eigen::Matrix<Scalar, Eigen::Dynamic, 1>;
  using Matrix = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic>;
  using VecS = Eigen::Ref<Vector>;
  using MatS = Eigen::Ref<Matrix>;

 public:
  /// tol: relative size of the last correction; max_iters >= 1; condition: compute the 1-norm
  /// condition number of each Jacobian (n extra solves per iteration).
  /// polish = false: stop right after the converged correction, without evaluating the residual
  /// there or polishing (the residual reported is then NaN): one residual per iteration, as
  /// classical implementations of implicit Runge–Kutta methods count.
  void configure(double tol, int max_iters, bool condition = false, bool polish = true) {
    tol_ = tol;
    max_iters_ = max_iters;
    condition_ = condition;
    polish_ = polish;
  }
  /// Allocate for n unknowns and as many equations (LU).
  void resize(Eigen::Index n) {
    r_.resize(n);
    rp_.resize(n);
    xp_.resize(n);
    dx_.resize(n);
    J_.resize(n, n);
    inverse_.resize(n, n);
    e_.resize(n);
    lu_ = Eigen::PartialPivLU<Matrix>(n);
    minimum_norm_ = false;
  }
  /// Allocate for n unknowns and m equations, with minimum-norm least-squares corrections.
  void resize(Eigen::Index n, Eigen::Index m, double rank_tol = 1e-6) {
    r_.resize(m);
    rp_.resize(m);
    xp_.resize(n);
    dx_.resize(n);
    J_.resize(m, n);
    svd_ = Eigen::JacobiSVD<Matrix>(m, n, Eigen::ComputeThinU | Eigen::ComputeThinV);
    utr_.resize(std::min(m, n));
    rank_tol_ = rank_tol;
    minimum_norm_ = true;
  }
  /// Solve G(x) = 0; `residual(x, r)` returns a Status. `admissible(x)` may refuse an iterate
  /// (e.g. a step size <= 0): the correction is then halved, up to 30 times. The Jacobian is
  /// formed by forward differences of the residual.
  template <class G, class Admissible>
  NewtonResult solve(VecS x, G&& residual, Admissible&& admissible) noexcept {
    return solve_with(x, residual, admissible, [&](VecS at, MatS J) noexcept { return forward_differences(at, residual, J); });
  }
  /// Solve G(x) = 0 with the Jacobian of `jacobian(x, J)` (e.g. exact from the model's dF/dy).
  template <class G, class Jacobian>
  NewtonResult solve_with_jacobian(VecS x, G&& residual, Jacobian&& jacobian) noexcept {
    return solve_with(x, residual, [](const Vector&) { return true; }, jacobian);
  }

 private:
  /// J = dG/dx at x by forward differences, column by column (r_ holds G(x)).
  template <class G>
  Status forward_differences(VecS x, G& residual, MatS J) noexcept {
    using std::abs;
    using std::sqrt;
    for (Eigen::Index j = 0; j < x.size(); ++j) {
      const Scalar xj = x[j];
      const Scalar e = sqrt(std::numeric_limits<Scalar>::epsilon()) * std::max(Scalar(1), Scalar(abs(xj)));
      x[j] = xj + e;
      const Status s = residual(x, rp_);
      x[j] = xj;
      if (s != Status::ok) return s;
      J.col(j) = (rp_ - r_) / e;
    }
    return Status::ok;
  }

  /// The max-norm of v, as a double.
  static double max_norm(const Vector& v) noexcept { return static_cast<double>(v.template lpNorm<Eigen::Infinity>()); }

  template <class G, class Admissible, class Jacobian>
  NewtonResult solve_with(VecS x, G&& residual, Admissible&& admissible, Jacobian&& jacobian) noexcept {
    NewtonResult out;
    Status s = residual(x, r_);
    if (s != Status::ok) return {s, 0, std::numeric_limits<double>::infinity(), 0.0};
    bool converged = false;
    for (out.iterations = 1; out.iterations <= max_iters_; ++out.iterations) {
      s = jacobian(x, J_);
      if (s != Status::ok) return {s, out.iterations, max_norm(r_), 0.0};
      if (minimum_norm_) {
        svd_.compute(J_, Eigen::ComputeThinU | Eigen::ComputeThinV);
        const auto& sigma = svd_.singularValues();
        utr_.noalias() = svd_.matrixU().transpose() * r_;
        for (Eigen::Index i = 0; i < utr_.size(); ++i) utr_[i] = sigma[i] > rank_tol_ * sigma[0] ? Scalar(utr_[i] / sigma[i]) : Scalar(0);
        dx_.noalias() = svd_.matrixV() * utr_;
      } else {
        lu_.compute(J_);
        if (condition_) out.condition = condition();
        dx_ = lu_.solve(r_);
      }
      if (!dx_.allFinite()) break;
      Scalar scale = 1;
      int halvings = 0;
      for (;;) {
        xp_ = x - scale * dx_;
        if (admissible(xp_)) break;
        if (++halvings > 30) return {Status::recoverable, out.iterations, max_norm(r_), out.condition};
        scale *= Scalar(0.5);
      }
      const Scalar step = scale * dx_.template lpNorm<Eigen::Infinity>();
      const Scalar size = 1 + x.template lpNorm<Eigen::Infinity>();
      if (!polish_ && step <= tol_ * size && scale == 1.0) {
        x = xp_;
        return {Status::ok, out.iterations, std::numeric_limits<double>::quiet_NaN(), out.condition};
      }
      s = residual(xp_, rp_);
      if (s != Status::ok) return {s, out.iterations, max_norm(r_), out.condition};
      if (converged) {
        // The polishing correction: keep it only if it does not raise the residual.
        if (rp_.template lpNorm<Eigen::Infinity>() <= r_.template lpNorm<Eigen::Infinity>()) {
          x = xp_;
          r_.swap(rp_);
        }
        break;
      }
      x = xp_;
      r_.swap(rp_);
      if (step <= tol_ * size && scale == 1.0) converged = true;
    }
    out.residual = max_norm(r_);
    out.status = converged && std::isfinite(out.residual) ? Status::ok : Status::recoverable;
    if (out.iterations > max_iters_) out.iterations = max_iters_;
    return out;
  }
 public:
  /// Without an admissibility test.
  template <class G>
  NewtonResult solve(VecS x, G&& residual) noexcept {
    return solve(x, residual, [](const Vector&) { return true; });
  }

 private:
  /// ||J||_1 ||J^-1||_1 from the current factorisation, column by column (no allocation).
  double condition() noexcept {
    for (Eigen::Index j = 0; j < J_.cols(); ++j) {
      e_.setZero();
      e_[j] = 1.0;
      inverse_.col(j) = lu_.solve(e_);
    }
    return static_cast<double>(J_.cwiseAbs().colwise().sum().maxCoeff() * inverse_.cwiseAbs().colwise().sum().maxCoeff());
  }

  Scalar tol_ = 1e-13;
  bool condition_ = false;
  bool polish_ = true;
  int max_iters_ = 30;
  Vector r_, rp_, xp_, dx_;
  Matrix J_, inverse_;
  Vector e_;
  Eigen::PartialPivLU<Matrix> lu_;
  Eigen::JacobiSVD<Matrix> svd_;
  Vector utr_;
  Scalar rank_tol_ = 1e-6;
  bool minimum_norm_ = false;
};

/// The solver of every stepper (double).
using Newton = BasicNewton<double>;

/// A stepper's account of one solve: counts it in the model's statistics (newton_iters, and
/// newton_fails when it failed); on failure writes `error` — the model's own message when the
/// model failed, else `not_converged()` — and returns the step's status (fatal, or recoverable:
/// a smaller step may converge).
template <class Message>
Status account_for(const NewtonResult& r, ModelView& model, std::string& error, Message&& not_converged) {
  Counters& c = model.counters();
  c.newton_iters += r.iterations;
  if (r.status == Status::ok) return Status::ok;
  ++c.newton_fails;
  if (r.status == Status::fatal) {
    error = model.last_error();
    return Status::fatal;
  }
  error = not_converged();
  return Status::recoverable;
}

}  // namespace liesim
