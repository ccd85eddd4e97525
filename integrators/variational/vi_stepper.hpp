// Fixed-step variational integrator in position–momentum form (discrete Euler–Lagrange, and
// discrete Lagrange–d'Alembert when the model has non-conservative forces) [Sharma 2020 (seed
// 001) (2.8)–(2.9), (2.12)–(2.13); Marsden & West 2001].
#pragma once
#include "discrete_lagrangian.hpp"

#include <liesim/sdk/newton.hpp>
#include <liesim/sdk/integrator.hpp>

namespace liesim::variational {

/// One step (t_k, q_k, p_k) -> (t_k + h, q_{k+1}, p_{k+1}): solve p_k = -D_2 L_d - f_d^- for the
/// discrete velocity v = (q_{k+1} - q_k)/h by Newton's method, then p_{k+1} = D_4 L_d + f_d^+. The
/// state is [q, M^-1 p] (at t0, p_0 = M v_0: the continuous Legendre transform).
/// Diagnostics: discrete_energy E_{k+1} = -D_3 L_d - g_d^+, residual_momentum.
class ViStepper final : public sdk::Stepper {
 public:
  ViStepper(const LagrangianRule& rule, double newton_tol, int max_iters) : rule_(rule) { newton_.configure(newton_tol, max_iters); }
  Status init(ModelView& model, std::string& error) noexcept override;
  ErrorSpace error_space() const noexcept override { return ErrorSpace::none; }
  Status step(double t, double h, ConstVec y, Vec y_new, Vec err) noexcept override;
  void diagnostics(Vec out) const noexcept override {
    out[0] = energy_;
    out[1] = residual_;
  }
  std::string last_error() const override { return error_; }

 private:
  const LagrangianRule& rule_;
  ModelView* model_ = nullptr;
  DiscreteLagrangian ld_;
  Newton newton_;
  Eigen::VectorXd p_, v_;
  double energy_ = 0.0, residual_ = 0.0;
  std::string error_;
};

/// The mechanical description of `model`, or nullptr with `error` naming what is missing.
const MechanicalSystemView* mechanics_of(const ModelView& model, const char* method, std::string& error);

}  // namespace liesim::variational
