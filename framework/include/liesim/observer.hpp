// Observers: what the driver tells the outside world about a run.
#pragma once
#include <liesim/types.hpp>

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

 private:
  std::vector<Observer*> list_;
};

}  // namespace liesim
