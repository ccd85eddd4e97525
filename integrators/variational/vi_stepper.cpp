// Fixed-step variational integrator (position–momentum form).
#include "vi_stepper.hpp"

#include <fmt/format.h>

namespace liesim::variational {

const MechanicalSystemView* mechanics_of(const ModelView& model, const char* method, std::string& error) {
  const MechanicalSystemView* mech = model.mechanics();
  if (!mech)
    error = fmt::format("{} needs a model with a mechanical description (a Lagrangian: mass matrix, potential, forces); "
                        "`liesim describe MODEL` says whether a model has one (double_well, duffing and harmonic_oscillator do)",
                        method);
  return mech;
}

Status ViStepper::init(ModelView& model, std::string& error) noexcept {
  try {
    const MechanicalSystemView* mech = mechanics_of(model, "a variational integrator", error);
    if (!mech) return Status::fatal;
    model_ = &model;
    ld_.init(*mech, rule_);
    newton_.resize(ld_.dof());
    p_.resize(ld_.dof());
    v_.resize(ld_.dof());
    return Status::ok;
  } catch (const std::exception& e) {
    error = e.what();
    return Status::fatal;
  }
}

Status ViStepper::step(double t, double h, ConstVec y, Vec y_new, Vec err) noexcept {
  (void)err;
  const int m = ld_.dof();
  const auto q = y.head(m);
  p_.noalias() = ld_.mass() * y.tail(m);
  v_ = y.tail(m);
  const NewtonResult r = newton_.solve(v_, [&](ConstVec v, Vec res) {
    const Status s = ld_.evaluate(t, q, h, v);
    res = ld_.momentum_k() - p_;
    return s;
  });
  if (const Status s = account_for(r, *model_, error_, [&] {
        return fmt::format("the momentum equation did not converge in Newton's method (residual {:.3g})", r.residual);
      });
      s != Status::ok)
    return s;
  const Status s = ld_.evaluate(t, q, h, v_);
  if (s != Status::ok) return s;
  residual_ = (ld_.momentum_k() - p_).lpNorm<Eigen::Infinity>();
  energy_ = ld_.energy_k1();
  y_new.head(m) = q + h * v_;
  y_new.tail(m) = ld_.mass_llt().solve(ld_.momentum_k1());
  return Status::ok;
}

}  // namespace liesim::variational
