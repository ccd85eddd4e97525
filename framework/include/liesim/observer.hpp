// Observers: what the driver tells the outside world about a run.
#pragma once
#include <liesim/types.hpp>

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

/// Thins the output points: forwards the first one and then either every n-th one or the first
/// at or after each time of an equally spaced grid; finish() forwards the last point if it was
/// skipped, so that the final state is always written.
class Thinning final : public Observer {
 public:
  /// Every `n` >= 1 output points, states of size `size`.
  static Thinning every_nth(Observer& inner, long n, Eigen::Index size) { return Thinning(inner, n, 0.0, 0.0, size); }
  /// The first point at or after each of t0 + k (t_end - t0) / n, k = 1 ... n (n >= 1).
  static Thinning on_grid(Observer& inner, double t0, double t_end, long n, Eigen::Index size) {
    return Thinning(inner, n, t0, (t_end - t0) / static_cast<double>(n), size);
  }
  void on_output(double t, ConstVec y) override {
    if (keep(t)) {
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
  Thinning(Observer& inner, long n, double t0, double dt, Eigen::Index size)
      : inner_(inner), n_(n), t0_(t0), dt_(dt), last_(size) {}
  bool keep(double t) {
    if (count_++ == 0) return true;
    if (dt_ <= 0) return (count_ - 1) % n_ == 0;
    // Grid time k: t0 + k dt, reached within round-off of the step sum.
    const double next = t0_ + static_cast<double>(k_ + 1) * dt_;
    if (t < next - 1e-9 * std::abs(dt_)) return false;
    while (t0_ + static_cast<double>(k_ + 1) * dt_ <= t + 1e-9 * std::abs(dt_)) ++k_;
    return true;
  }
  Observer& inner_;
  long n_;
  double t0_, dt_;
  long count_ = 0, k_ = 0;
  double t_ = 0.0;
  Eigen::VectorXd last_;
  bool pending_ = false;
};

}  // namespace liesim
