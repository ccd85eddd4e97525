// Test plugin for the interrupted and fault-tolerant study tests. `test_blocking_euler`: explicit
// Euler on F that, while the environment variable LIESIM_TEST_BLOCK_DIR names a folder, stops at
// its first step, writes DIR/blocked and waits there until it is killed (a study whose fifth run
// uses it is always stopped in the middle of that run, on any machine and under any load).
// `test_faulty_euler`: explicit Euler whose first step misbehaves as option `fault` says.
#include <liesim/sdk/plugin.hpp>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <new>
#include <stdexcept>
#include <string>
#include <thread>

#include <unistd.h>

namespace test_blocking {

[[noreturn]] void throw_from_step() { throw std::runtime_error("deliberate exception through the plugin boundary"); }

class BlockingEuler final : public liesim::sdk::Stepper {
 public:
  liesim::Status init(liesim::ModelView& model, std::string&) noexcept override {
    model_ = &model;
    f_.setZero(model.size());
    return liesim::Status::ok;
  }
  liesim::ErrorSpace error_space() const noexcept override { return liesim::ErrorSpace::none; }
  explicit BlockingEuler(std::string fault) : fault_(std::move(fault)) {}
  liesim::Status step(double t, double h, liesim::ConstVec y, liesim::Vec y_new, liesim::Vec) noexcept override {
    if (const char* dir = std::getenv("LIESIM_TEST_BLOCK_DIR"); fault_.empty() && dir && *dir) {
      std::ofstream(std::string(dir) + "/blocked") << ::getpid() << "\n";  // the process that runs the step
      for (;;) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    if (fault_ == "segfault") std::raise(SIGSEGV);
    if (fault_ == "exit") std::exit(7);
    if (fault_ == "throw") throw_from_step();  // in a noexcept function: std::terminate
    if (fault_ == "hang")
      for (;;) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    const liesim::Status s = model_->vector_field(t, y, f_);
    y_new = y + h * f_;
    return s;
  }

 private:
  std::string fault_;  // "" for test_blocking_euler
  liesim::ModelView* model_ = nullptr;
  Eigen::VectorXd f_;
};

class Family final : public liesim::sdk::IntegratorFamily {
 public:
  std::string summary() const override { return "test plugin: explicit Euler that can block (interrupted-study test)"; }
  std::vector<liesim::MethodInfo> methods() const override {
#ifdef TEST_STRAY_RK4
    // A stray plugin that offers a shipped method's name (explicit Euler calling itself rk4).
    return {{"rk4", "explicit Euler calling itself rk4 (stray test plugin)", 1, 0, false, false, {}, false, ""}};
#endif
    return {{"test_blocking_euler", "explicit Euler on F; blocks while LIESIM_TEST_BLOCK_DIR is set", 1, 0, false, false, {}, false, ""},
            {"test_faulty_euler", "explicit Euler on F whose first step fails as option fault says", 1, 0, false, false, {}, false, ""}};
  }
  std::vector<liesim::SettingSpec> options(const std::string& method) const override {
    if (method != "test_faulty_euler") return {};
    return {{"fault", "none", "", "none | segfault (SIGSEGV) | exit (exit(7)) | throw (through noexcept) | hang (never returns)"}};
  }
  liesim::sdk::Stepper* create_stepper(const std::string& method, const liesim::Settings& options, std::string& error) const noexcept override {
    try {
      const std::string fault = method == "test_faulty_euler"
                                    ? options.choice("fault", {"none", "segfault", "exit", "throw", "hang"})
                                    : std::string();
      return new (std::nothrow) BlockingEuler(fault == "none" ? "no fault" : fault);
    } catch (const std::exception& e) {
      error = e.what();
      return nullptr;
    }
  }
};

}  // namespace test_blocking

#ifndef TEST_PLUGIN_NAME
#define TEST_PLUGIN_NAME "test_blocking"
#endif
LIESIM_PLUGIN(integrator, TEST_PLUGIN_NAME, "0.0.1", "explicit Euler that can block (test plugin)", test_blocking::Family)
