// A model given by its Lagrangian in R^m: the author writes the potential U(t, q) (and the
// non-conservative force f(t, q, v) if any); this base derives everything else, so that the same
// model runs under variational methods (through its mechanical description, ABI 2.2), Lie group
// methods (under the translation group of R^2m) and SUNDIALS alike.
#pragma once
#include <liesim/lie/actions.hpp>
#include <liesim/sdk/lie_space.hpp>
#include <liesim/sdk/model.hpp>

#include <Eigen/Cholesky>

#include <limits>
#include <string>
#include <vector>

namespace liesim::sdk {

/// L(t, q, v) = 1/2 v^T M v - U(t, q), constant symmetric positive-definite M, force f(t, q, v).
/// State [q, v] in R^2m; group (R^2m, +) acting by translation; generator = vector field
/// F(t, [q, v]) = [v, M^-1 (-dU/dq + f)].
class LagrangianModel : public Model, public MechanicalSystem {
 public:
  /// `mass`: M (m x m, symmetric positive definite; throws liesim::Error otherwise).
  explicit LagrangianModel(const Eigen::MatrixXd& mass)
      : Model(std::make_unique<PowerSpace<lie::RnTranslation<1>>>(2 * static_cast<int>(mass.rows()))),
        m_(static_cast<int>(mass.rows())),
        mass_(mass),
        llt_(mass),
        grad_(m_),
        force_(m_),
        accel_(m_),
        energy_grad_(m_) {
    if (mass.rows() != mass.cols() || m_ < 1 || !mass.isApprox(mass.transpose()) || llt_.info() != Eigen::Success)
      throw Error("the mass matrix must be square, symmetric and positive definite");
  }

  int dof() const noexcept final { return m_; }
  void mass_matrix(MatRef M) const noexcept final { M = mass_; }
  MechanicalSystem* mechanics() noexcept final { return this; }

  /// q1 ... qm, v1 ... vm (q and v for one coordinate).
  std::vector<std::string> state_names() const override {
    std::vector<std::string> names;
    for (const char* p : {"q", "v"})
      for (int i = 0; i < m_; ++i) names.push_back(m_ == 1 ? std::string(p) : p + std::to_string(i + 1));
    return names;
  }
  /// The mechanical energy E = 1/2 v^T M v + U(0, q).
  std::vector<InvariantInfo> invariants() const override {
    return {{"energy", "mechanical energy E = 1/2 v^T M v + U(q) (conserved when f = 0 and U does not depend on t)"}};
  }
  void evaluate_invariants(ConstVec y, Vec out) const noexcept override { out[0] = energy(y); }
  /// E = 1/2 v^T M v + U(0, q).
  double energy(ConstVec y) const noexcept {
    double U = 0.0, dU_dt = 0.0;
    // potential() is a non-const hook (models may keep scratch space); evaluating it changes nothing observable.
    auto* self = const_cast<LagrangianModel*>(this);
    if (self->potential(0.0, y.head(m_), U, energy_grad_, dU_dt) != Status::ok) return std::numeric_limits<double>::quiet_NaN();
    return 0.5 * y.tail(m_).dot(mass_ * y.tail(m_)) + U;
  }

 private:
  Status do_generator(double t, ConstVec y, Vec xi) noexcept override { return do_vector_field(t, y, xi); }
  Status do_vector_field(double t, ConstVec y, Vec dy) noexcept override {
    double U = 0.0, dU_dt = 0.0;
    Status s = potential(t, y.head(m_), U, grad_, dU_dt);
    if (s != Status::ok) return s;
    s = force(t, y.head(m_), y.tail(m_), force_);
    if (s != Status::ok) return s;
    accel_ = force_ - grad_;
    llt_.solveInPlace(accel_);
    dy.head(m_) = y.tail(m_);
    dy.tail(m_) = accel_;
    return Status::ok;
  }

  int m_;
  Eigen::MatrixXd mass_;
  Eigen::LLT<Eigen::MatrixXd> llt_;
  Eigen::VectorXd grad_, force_, accel_;
  mutable Eigen::VectorXd energy_grad_;
};

}  // namespace liesim::sdk
