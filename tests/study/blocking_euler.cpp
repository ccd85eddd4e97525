// Test plugin for the interrupted-study test: explicit Euler on F that, while the environment
// variable LIESIM_TEST_BLOCK_DIR names a folder, stops at its first step, writes DIR/blocked and
// waits there until it is killed. A study whose fifth run uses it is therefore always killed in
// the middle of that run, on any machine and under any load.
#include <liesim/plugin.hpp>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <new>
#include <string>
#include <thread>

namespace test_blocking {

class BlockingEuler final : public liesim::sdk::Stepper {
 public:
  liesim::Status init(liesim::Model& model, std::string&) noexcept override {
    model_ = &model;
    f_.setZero(model.size());
    return liesim::Status::ok;
  }
  liesim::ErrorSpace error_space() const noexcept override { return liesim::ErrorSpace::none; }
  liesim::Status step(double t, double h, liesim::ConstVec y, liesim::Vec y_new, liesim::Vec) noexcept override {
    if (const char* dir = std::getenv("LIESIM_TEST_BLOCK_DIR"); dir && *dir) {
      std::ofstream(std::string(dir) + "/blocked") << "blocked\n";
      for (;;) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    const liesim::Status s = model_->vector_field(t, y, f_);
    y_new = y + h * f_;
    return s;
  }

 private:
  liesim::Model* model_ = nullptr;
  Eigen::VectorXd f_;
};

class Family final : public liesim::sdk::IntegratorFamily {
 public:
  std::string summary() const override { return "test plugin: explicit Euler that can block (interrupted-study test)"; }
  std::vector<liesim::MethodInfo> methods() const override {
    return {{"test_blocking_euler", "explicit Euler on F; blocks while LIESIM_TEST_BLOCK_DIR is set", 1, 0, false, false}};
  }
  std::vector<liesim::SettingSpec> options(const std::string&) const override { return {}; }
  liesim::sdk::Stepper* create_stepper(const std::string&, const liesim::Settings&, std::string&) const noexcept override {
    return new (std::nothrow) BlockingEuler;
  }
};

}  // namespace test_blocking

LIESIM_PLUGIN(integrator, "test_blocking", "0.0.1", "explicit Euler that can block (test plugin)", test_blocking::Family)
