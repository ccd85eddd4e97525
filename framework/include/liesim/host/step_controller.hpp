// Step-size controllers of the adaptive kernel-driven methods (options `controller`, `pi_beta1`,
// `pi_beta2`, `controller_b`; docs/design.md, "The driver", and integrators/README.md).
//
// A controller sees, for every attempted step, the error norm e of the attempt (compared with the
// tolerance tol: tol = atol with error_norm = l2, tol = 1 with wrms) and the step size h, and
// says whether the step is accepted and by which factor h is multiplied for the next attempt. It
// keeps a few numbers of memory (the errors and step sizes of the last accepted steps), so the
// driver's loop allocates nothing per step. The rejection rule, the safety factor theta, the
// growth cap (max_growth), h_min / h_max and the retry after a model's recoverable failure are
// the same for every controller; the driver applies the cap and the step bounds.
#pragma once

#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace liesim {

/// Which step-size controller an adaptive kernel-driven run uses (option `controller`).
enum class ControllerKind {
  i,      ///< the papers' I-controller: theta (tol/e)^alpha (the default)
  pi,     ///< Gustafsson's PI controller (PI.3.4 by default)
  h211b,  ///< Söderlind's digital filter H211b
  pid     ///< Söderlind's digital filter H312b (third order, PID-like)
};

/// The controllers' names as options take them, in ControllerKind order: i, pi, h211b, pid.
const std::vector<std::string>& controller_names();
/// The name of a controller (as in controller_names()).
const char* controller_name(ControllerKind kind);

/// The controller's parameters (options; defaults from the literature cited in step_controller.cpp).
struct ControllerOptions {
  ControllerKind kind = ControllerKind::i;  ///< option controller
  double pi_beta1 = 0.7;  ///< option pi_beta1: exponent of eps/e_n, in units of alpha (Gustafsson: 0.7)
  double pi_beta2 = 0.4;  ///< option pi_beta2: exponent of e_{n-1}/eps, in units of alpha (Gustafsson: 0.4)
  double b = 0.0;         ///< option controller_b: the filter's b; 0 = 4 for h211b, 8 for pid (Söderlind)
};

/// One adaptive run's controller: its constants and its memory of the last accepted steps.
///
/// Every controller aims at the I-controller's set-point: the error at which the I-controller
/// keeps h constant, eps = theta^(1/alpha) tol, since theta (tol/e)^alpha = (eps/e)^alpha. With
/// k = 1/alpha (p_low + 1 unless option `exponent` is given) and e_n the error of the current
/// attempt, e_{n-1}, e_{n-2} those of the previous accepted steps, h_n the current step and
/// h_{n-1}, h_{n-2} the previous accepted ones, the factor h_{n+1}/h_n is
///   i:     theta (tol/e_n)^alpha                                   (computed exactly so)
///   pi:    (eps/e_n)^(beta1/k) (e_{n-1}/eps)^(beta2/k)
///   h211b: (eps/e_n)^(1/(b k)) (eps/e_{n-1})^(1/(b k)) (h_n/h_{n-1})^(-1/b)
///   pid:   (eps/e_n)^(1/(b k)) (eps/e_{n-1})^(2/(b k)) (eps/e_{n-2})^(1/(b k))
///          (h_n/h_{n-1})^(-3/b) (h_{n-1}/h_{n-2})^(-1/b)               (H312b)
/// A rejected attempt, and an accepted one whose controller lacks the memory it needs (the first
/// accepted steps), takes the I-controller's factor. e_n = 0 gives an unlimited factor (the driver
/// caps it with max_growth and h_max); errors in the memory are floored at 1e-10 eps.
class StepController {
 public:
  /// What to do after an attempt.
  struct Decision {
    bool accepted;  ///< the step is accepted
    double factor;  ///< h_new = factor * h (before the driver's max_growth cap and step bounds)
  };

  /// theta: safety factor; alpha: the I-controller's exponent (1/(p_low + 1) or option exponent);
  /// tol: the tolerance e is compared with; strict: accept only e < tol (l2), else e <= tol (wrms).
  StepController(const ControllerOptions& options, double theta, double alpha, double tol, bool strict);

  /// The attempt of step size h > 0 had error norm e (finite, >= 0): accept or reject it, and the
  /// factor of the next step. An accepted attempt enters the memory (of the filters; the
  /// I-controller has none). Inline: the default controller costs the step loop no call.
  Decision attempt(double e, double h) {
    const bool accepted = strict_ ? e < tol_ : e <= tol_;
    const double factor = i_factor(e);
    if (options_.kind == ControllerKind::i) return {accepted, factor};
    return filtered(e, h, accepted, factor);
  }

  /// The options this controller was made with.
  const ControllerOptions& options() const { return options_; }
  /// Accepted attempts remembered (0, 1 or 2: what the filters need; 0 for the I-controller).
  int remembered() const { return remembered_; }

 private:
  /// The papers' rule, in exactly this floating-point order (runs with controller = i are
  /// bit-identical to the driver before controllers were separated).
  double i_factor(double e) const {
    return e > 0 ? theta_ * std::pow(tol_ / e, alpha_) : std::numeric_limits<double>::infinity();
  }
  /// The filters (pi, h211b, pid): their factor from the memory, which the attempt then enters.
  Decision filtered(double e, double h, bool accepted, double i_factor);

  ControllerOptions options_;
  double theta_, alpha_, tol_, eps_;
  bool strict_;
  // Memory: scaled errors r = e / eps and step sizes of the last two accepted attempts.
  double r1_ = 1.0, r2_ = 1.0;  // r_{n-1}, r_{n-2}
  double h1_ = 0.0, h2_ = 0.0;  // h_{n-1}, h_{n-2}
  int remembered_ = 0;
};

}  // namespace liesim
