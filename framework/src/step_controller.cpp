// Step-size controllers of the adaptive kernel-driven methods (liesim/host/step_controller.hpp).
//
// Literature:
// * I-controller: the papers' rule [seed 002 §4, thesis (2.4.1)], h_new = theta (tol/e)^alpha h;
//   Hairer, Nørsett & Wanner, Solving ODEs I, §II.4.
// * PI: K. Gustafsson, "Control theoretic techniques for stepsize selection in explicit Runge-Kutta
//   methods", ACM TOMS 17(4), 1991, 533-554; Hairer & Wanner, Solving ODEs II, §IV.2:
//   h_{n+1} = h_n (eps/e_n)^{k_I} (e_{n-1}/e_n)^{k_P} with k_I = 0.3/k, k_P = 0.4/k (PI.3.4),
//   i.e. (eps/e_n)^{beta1/k} (e_{n-1}/eps)^{beta2/k} with beta1 = k_I k + k_P k = 0.7, beta2 = 0.4.
// * H211b and H312b: G. Söderlind, "Digital filters in adaptive time-stepping", ACM TOMS 29(1),
//   2003, 1-26 (and Söderlind & Wang, J. Comput. Appl. Math. 185, 2006, 225-243):
//   h_{n+1}/h_n = (eps/e_n)^{beta1/k} (eps/e_{n-1})^{beta2/k} (eps/e_{n-2})^{beta3/k}
//                 (h_n/h_{n-1})^{-alpha2} (h_{n-1}/h_{n-2})^{-alpha3},
//   H211b: (beta1, beta2) = (1, 1)/b, alpha2 = 1/b, b = 4 recommended;
//   H312b: (beta1, beta2, beta3) = (1, 2, 1)/b, (alpha2, alpha3) = (3, 1)/b, b = 8 recommended.
// Söderlind writes eps for the target error, a fraction of TOL; here eps = theta^(1/alpha) tol, the
// error at which the I-controller keeps h constant, so that every controller aims at the same
// error and a comparison measures the controllers' dynamics, not different set-points. (Codes that
// multiply theta outside the PI formula, as Hairer-Wanner's DOPRI5 does, aim lower than their I
// rule: with theta = 0.85 and k = 5 the PI.3.4 fixed point would be e = theta^(k/0.3) tol ≈ 0.07 tol
// against theta^k tol ≈ 0.44 tol.)
#include <liesim/host/step_controller.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

namespace liesim {

const std::vector<std::string>& controller_names() {
  static const std::vector<std::string> names{"i", "pi", "h211b", "pid"};
  return names;
}

const char* controller_name(ControllerKind kind) {
  switch (kind) {
    case ControllerKind::i: return "i";
    case ControllerKind::pi: return "pi";
    case ControllerKind::h211b: return "h211b";
    case ControllerKind::pid: return "pid";
  }
  return "?";
}

namespace {
/// Errors entering the memory are floored (relative to eps), so that a step with e = 0 does not
/// make the next factors 0 or NaN (ARKODE and PETSc floor theirs at 1e-10 likewise).
constexpr double memory_floor = 1e-10;
}  // namespace

StepController::StepController(const ControllerOptions& options, double theta, double alpha, double tol, bool strict)
    : options_(options), theta_(theta), alpha_(alpha), tol_(tol), eps_(std::pow(theta, 1.0 / alpha) * tol), strict_(strict) {
  if (options_.b == 0) options_.b = options_.kind == ControllerKind::pid ? 8.0 : 4.0;
}

StepController::Decision StepController::filtered(double e, double h, bool accepted, double factor) {
  const int needed = options_.kind == ControllerKind::pid ? 2 : 1;
  if (accepted && remembered_ >= needed && e > 0) {
    const double r = e / eps_;  // r_n; r1_ = r_{n-1}, r2_ = r_{n-2}
    const double b = options_.b;
    switch (options_.kind) {
      case ControllerKind::i: break;
      case ControllerKind::pi:
        factor = std::pow(r, -options_.pi_beta1 * alpha_) * std::pow(r1_, options_.pi_beta2 * alpha_);
        break;
      case ControllerKind::h211b:
        factor = std::pow(r, -alpha_ / b) * std::pow(r1_, -alpha_ / b) * std::pow(h / h1_, -1.0 / b);
        break;
      case ControllerKind::pid:
        factor = std::pow(r, -alpha_ / b) * std::pow(r1_, -2 * alpha_ / b) * std::pow(r2_, -alpha_ / b) *
                 std::pow(h / h1_, -3.0 / b) * std::pow(h1_ / h2_, -1.0 / b);
        break;
    }
  }
  if (accepted) {
    r2_ = r1_;
    h2_ = h1_;
    r1_ = std::max(e / eps_, memory_floor);
    h1_ = h;
    if (remembered_ < 2) ++remembered_;
  }
  return {accepted, factor};
}

}  // namespace liesim
