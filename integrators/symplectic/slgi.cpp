// SLGI(theta): see slgi.hpp.
#include "slgi.hpp"

#include <fmt/format.h>

namespace liesim::symplectic {

Status SlgiStepper::init(ModelView& model, std::string& error) noexcept {
  try {
    ham_ = model.hamiltonian();
    if (!ham_) {
      error = "slgi needs a model with a Hamiltonian description on T*G (ABI 2.3: dH/dmu, R_g^* dH/dg and the group's exp, Ad*, "
              "dexp*); `liesim describe MODEL` lists it among the capabilities (heavy_top with formulation tso3 or quadratic, rigid_body)";
      return Status::fatal;
    }
    model_ = &model;
    k_ = ham_->algebra_dim();
    const int gs = ham_->group_size();
    for (Eigen::VectorXd* v : {&g0_, &g_}) v->setZero(gs);
    for (Eigen::VectorXd* v : {&mu0_, &a_, &b_, &c_, &M_, &xi_, &dHdmu_, &dHdg_, &mu1_}) v->setZero(k_);
    z_.setZero(2 * k_);
    newton_.resize(2 * k_);
    return Status::ok;
  } catch (const std::exception& e) {
    error = e.what();
    return Status::fatal;
  }
}

Status SlgiStepper::equations(double t, double h, ConstVec z, Vec r) noexcept {
  const auto xi = z.head(k_);
  const auto nbar = z.tail(k_);
  xi_ = theta_ * xi;
  ham_->coadjoint(xi_, nbar, a_);  // a = Ad*_{exp(theta xi)} nbar
  b_ = mu0_ + a_;
  xi_ = -xi;
  ham_->dexp_dual(xi_, b_, M_);  // dexp*_{-xi}(mu0 + a)
  xi_ = -theta_ * xi;
  ham_->dexp_dual(xi_, a_, c_);  // dexp*_{-theta xi}(a)
  M_ -= theta_ * c_;
  xi_ = theta_ * xi;
  if (ham_->group_size()) ham_->exp_mult(xi_, g0_, g_);
  const Status s = ham_->gradient(t + theta_ * h, g_, M_, dHdmu_, dHdg_);
  r.head(k_) = xi - h * dHdmu_;
  r.tail(k_) = nbar + h * dHdg_;
  return s;
}

Status SlgiStepper::step(double t, double h, ConstVec y, Vec y_new, Vec err) noexcept {
  (void)err;
  ham_->from_state(y, g0_, mu0_);
  // Start from the explicit guess h (dH/dmu, -R^* dH/dg) at (g0, mu0).
  Status s = ham_->gradient(t, g0_, mu0_, dHdmu_, dHdg_);
  if (s != Status::ok) {
    error_ = model_->last_error();
    return s;
  }
  z_.head(k_) = h * dHdmu_;
  z_.tail(k_) = -h * dHdg_;
  const NewtonResult r = newton_.solve(z_, [&](ConstVec z, Vec res) { return equations(t, h, z, res); });
  iterations_ = r.iterations;
  if (const Status s = account_for(r, *model_, error_, [&] {
        return fmt::format("the SLGI equations (2.3.7) did not converge in Newton's method (residual {:.3g} after {} iterations); "
                           "reduce the step size",
                           r.residual, r.iterations);
      });
      s != Status::ok)
    return s;
  residual_ = r.residual;
  // (g1, mu1) = (exp(xi) g0, Ad*_{exp((theta - 1) xi)} nbar + Ad*_{exp(-xi)} mu0)   (2.3.8)
  const auto xi = z_.head(k_);
  const auto nbar = z_.tail(k_);
  if (ham_->group_size()) ham_->exp_mult(xi, g0_, g_);
  xi_ = (theta_ - 1.0) * xi;
  ham_->coadjoint(xi_, nbar, mu1_);
  xi_ = -xi;
  ham_->coadjoint(xi_, mu0_, a_);
  mu1_ += a_;
  ham_->to_state(g_, mu1_, y_new);
  return Status::ok;
}

}  // namespace liesim::symplectic
