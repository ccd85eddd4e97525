// Observers: what the driver tells the outside world about a run.
#pragma once
#include <liesim/sdk/types.hpp>

#include <Eigen/Core>

#include <cmath>
#include <vector>

namespace liesim {

/// Receives output points and step events of a run (Boost.Odeint's observer concept).
class Observer {
 public:
  virtual ~Observer() = default;
  /// A solution point (the initial point, every accepted step or every output time).
  virtual void on_output(double t, ConstVec y) = 0;
  /// A step attempt of an adaptive method: start time, size, error norm, accepted or not.
  virtual void on_step(double t, double h, double error, bool accepted) { (void)t; (void)h; (void)error; (void)accepted; }
  /// The method's diagnostics (MethodInfo::diagnostics) after an accepted step, before that
  /// step's on_step and on_output: observers keep the latest values.
  virtual void on_diagnostics(ConstVec values) { (void)values; }
};

/// An observer that ignores everything.
class NullObserver final : public Observer {
 public:
  void on_output(double, ConstVec) override {}
};

/// Forwards to several observers in order.
class ObserverList final : public Observer {
 public:
  /// Add an observer (not owned).
  void add(Observer& o) { list_.push_back(&o); }
  void on_output(double t, ConstVec y) override {
    for (auto* o : list_) o->on_output(t, y);
  }
  void on_step(double t, double h, double error, bool accepted) override {
    for (auto* o : list_) o->on_step(t, h, error, accepted);
  }
  void on_diagnostics(ConstVec values) override {
    for (auto* o : list_) o->on_diagnostics(values);
  }

 private:
  std::vector<Observer*> list_;
};

/// Thins the output points: forwards the first one and then every n-th one; finish() forwards the
/// last point if it was skipped, so that the final state is always written. (Output at given times
/// is the driver's: RunSpec::output_times.)
class Thinning final : public Observer {
 public:
  /// Every `n` >= 1 output points, states of size `size`.
  static Thinning every_nth(Observer& inner, long n, Eigen::Index size) { return Thinning(inner, n, size); }
  void on_output(double t, ConstVec y) override {
    if (count_++ % n_ == 0) {
      inner_.on_output(t, y);
      pending_ = false;
    } else {
      t_ = t;
      last_ = y;
      pending_ = true;
    }
  }
  void on_step(double t, double h, double error, bool accepted) override { inner_.on_step(t, h, error, accepted); }
  void on_diagnostics(ConstVec values) override { inner_.on_diagnostics(values); }
  /// Forward the last point if it was skipped.
  void finish() {
    if (pending_) inner_.on_output(t_, last_);
    pending_ = false;
  }

 private:
  Thinning(Observer& inner, long n, Eigen::Index size) : inner_(inner), n_(n), last_(size) {}
  Observer& inner_;
  long n_;
  long count_ = 0;
  double t_ = 0.0;
  Eigen::VectorXd last_;
  bool pending_ = false;
};

}  // namespace liesim
