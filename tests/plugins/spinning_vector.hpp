// A minimal model for plugin tests: a vector in R^3 rotating about e3 at unit rate under SO(3).
#pragma once
#include <liesim/lie/actions.hpp>
#include <liesim/sdk/lie_space.hpp>
#include <liesim/sdk/plugin.hpp>

#include <cmath>
#include <stdexcept>

namespace liesim::test_plugins {

/// A placeholder DAE (x' = 0 in R^1), only to test which models the kernel lets solvers see.
class TrivialDae final : public sdk::DaeFormulation {
 public:
  int size() const noexcept override { return 1; }
  void differential_components(Vec id) const noexcept override { id.setOnes(); }
  Status initial_values(double, ConstVec, Vec x, Vec xdot) noexcept override {
    x.setZero();
    xdot.setZero();
    return Status::ok;
  }
  Status residual(double, ConstVec, ConstVec xdot, Vec r) noexcept override {
    r = xdot;
    return Status::ok;
  }
  void to_state(ConstVec, ConstVec, Vec y) const noexcept override { y.setZero(); }
  int constraint_count() const noexcept override { return 0; }
  void constraints(ConstVec, Vec) const noexcept override {}
};

/// y' = e3 x y, f(y) = e3; exact solution: rotation of y0 by angle t about e3.
class SpinningVector final : public sdk::Model {
 public:
  SpinningVector() : sdk::Model(std::make_unique<PowerSpace<lie::SO3OnR3>>(1)) {}
  void initial_state(Vec y) const override { y << 1.0, 0.0, 0.5; }
  std::vector<std::string> state_names() const override { return {"x", "y", "z"}; }
  bool has_exact_solution() const noexcept override { return true; }
  Status exact_solution(double t, Vec y) const noexcept override {
    y << std::cos(t), std::sin(t), 0.5;
    return Status::ok;
  }
  sdk::DaeFormulation* dae() noexcept override { return &dae_; }
  bool has_jacobian() const noexcept override { return true; }
  Status jacobian(double, ConstVec, MatRef J) noexcept override {
    J << 0, -1, 0, 1, 0, 0, 0, 0, 0;  // F(y) = e3 x y = hat(e3) y
    return Status::ok;
  }
  /// Built for ABI >= 2.4 the table carries it; an older build has no observables.
  std::vector<ObservableInfo> observables() const override { return {{"lag", "rad", "t - atan2(y, x): 0 on the exact solution"}}; }
  Status evaluate_observables(double t, ConstVec y, Vec out) noexcept override {
    out[0] = std::remainder(t - std::atan2(y[1], y[0]), 2 * M_PI);
    return Status::ok;
  }

 private:
  Status do_generator(double, ConstVec, Vec xi) noexcept override {
    xi << 0.0, 0.0, 1.0;
    return Status::ok;
  }
  TrivialDae dae_;
};

/// Its model type.
class SpinningVectorType : public sdk::ModelTypeBase<SpinningVectorType> {
 public:
  std::string summary() const override { return "test model: a vector spinning about e3"; }
  std::vector<SettingSpec> parameters() const override { return {}; }
  std::string conventions() const override { return "SPACE R^3 under SO(3) (test model)"; }
  std::unique_ptr<sdk::Model> make(const Settings&) const { return std::make_unique<SpinningVector>(); }
};

/// A type whose construction throws (the factory-failure case).
class ThrowingType : public SpinningVectorType {
 public:
  ThrowingType() { throw std::runtime_error("deliberate failure in the factory"); }
};

}  // namespace liesim::test_plugins
