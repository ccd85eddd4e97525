// A minimal model for plugin tests: a vector in R^3 rotating about e3 at unit rate under SO(3).
#pragma once
#include <liesim/lie/actions.hpp>
#include <liesim/lie_space.hpp>
#include <liesim/plugin.hpp>

#include <cmath>
#include <stdexcept>

namespace liesim::test_plugins {

/// y' = e3 x y, f(y) = e3; exact solution: rotation of y0 by angle t about e3.
class SpinningVector final : public Model {
 public:
  SpinningVector() : Model(std::make_unique<PowerSpace<lie::SO3OnR3>>(1)) {}
  void initial_state(Vec y) const override { y << 1.0, 0.0, 0.5; }
  std::vector<std::string> state_names() const override { return {"x", "y", "z"}; }
  bool has_exact_solution() const noexcept override { return true; }
  Status exact_solution(double t, Vec y) const noexcept override {
    y << std::cos(t), std::sin(t), 0.5;
    return Status::ok;
  }

 private:
  Status do_generator(double, ConstVec, Vec xi) noexcept override {
    xi << 0.0, 0.0, 1.0;
    return Status::ok;
  }
};

/// Its model type.
class SpinningVectorType : public ModelTypeBase<SpinningVectorType> {
 public:
  std::string summary() const override { return "test model: a vector spinning about e3"; }
  std::vector<SettingSpec> parameters() const override { return {}; }
  std::string conventions() const override { return "SPACE R^3 under SO(3) (test model)"; }
  std::unique_ptr<Model> make(const Settings&) const { return std::make_unique<SpinningVector>(); }
};

/// A type whose construction throws (the factory-failure case).
class ThrowingType : public SpinningVectorType {
 public:
  ThrowingType() { throw std::runtime_error("deliberate failure in the factory"); }
};

}  // namespace liesim::test_plugins
