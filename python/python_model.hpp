// A model written in Python for prototyping: a space of the kernel's catalogue (space_catalog.hpp)
// and the generator f(t, y) -> xi (and optionally F, invariants, observables) as Python callables
// on numpy arrays. It is an ordinary sdk::Model: adopted through the SDK's C table, it runs under
// every integrator, SUNDIALS included. Every evaluation is one Python call (the GIL is held).
// An exception raised by the user's function ends the run (a fatal status) and is kept, with its
// traceback, so that the Python side re-raises the user's own exception, not a text about it.
#pragma once
#include "space_catalog.hpp"

#include <liesim/sdk/model.hpp>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <string>
#include <vector>

namespace liesim::python {

namespace py = pybind11;

/// What a Python model is made of (kept by the Python object; a fresh instance is made per run).
struct PythonModelSpec {
  std::string name = "python_model";
  std::string space;                        ///< catalogue text, e.g. "TS2^2 x R3"
  py::object f = py::none();                ///< f(t, y) -> xi (d numbers)
  py::object F = py::none();                ///< F(t, y) -> dy (n numbers), or None: psi_*(f(t, y))|_y
  std::vector<double> y0;                   ///< initial state (n numbers, on M)
  std::vector<std::string> state_names;     ///< n names (default y0, y1, ...)
  py::object invariants = py::none();       ///< invariants(y) -> values, or None
  std::vector<std::string> invariant_names;
  py::object observables = py::none();      ///< observables(t, y) -> values, or None
  std::vector<std::string> observable_names;
};

class PythonModel final : public sdk::Model {
 public:
  explicit PythonModel(const PythonModelSpec& spec) : sdk::Model(make_space(spec.space)), spec_(spec) {
    const auto n = static_cast<std::size_t>(size());
    const int d = space().algebra_dim();
    if (spec_.y0.size() != n)
      throw Error(fmt::format("python model '{}': y0 has {} numbers, the space '{}' has points of {} (algebra dimension {})", spec_.name,
                              spec_.y0.size(), spec_.space, n, d));
    if (spec_.state_names.empty())
      for (std::size_t i = 0; i < n; ++i) spec_.state_names.push_back(fmt::format("y{}", i));
    if (spec_.state_names.size() != n)
      throw Error(fmt::format("python model '{}': {} state names for {} state numbers", spec_.name, spec_.state_names.size(), n));
    if (!spec_.invariants.is_none() && spec_.invariant_names.empty())
      throw Error(fmt::format("python model '{}': give invariant_names with invariants", spec_.name));
    if (!spec_.observables.is_none() && spec_.observable_names.empty())
      throw Error(fmt::format("python model '{}': give observable_names with observables", spec_.name));
  }

  void initial_state(Vec y) const override { y = Eigen::Map<const Eigen::VectorXd>(spec_.y0.data(), size()); }
  std::vector<std::string> state_names() const override { return spec_.state_names; }
  std::vector<InvariantInfo> invariants() const override {
    std::vector<InvariantInfo> out;
    for (const auto& n : spec_.invariant_names) out.push_back({n, "given by the Python model"});
    return out;
  }
  void evaluate_invariants(ConstVec y, Vec out) const noexcept override {
    if (spec_.invariants.is_none()) return;
    // An invariant that cannot be evaluated is NaN, and the failure is kept (first_problem()):
    // the run's caller raises it.
    if (call(spec_.invariants, "invariants(y)", out, nullptr, y) != Status::ok) out.setConstant(std::nan(""));
  }
  /// The Python exception a function raised during the last run (None if none), and the first
  /// problem's message (an exception, a wrong count, a non-finite value; empty if none).
  const py::object& exception() const noexcept { return exception_; }
  const std::string& first_problem() const noexcept { return problem_; }
  std::vector<ObservableInfo> observables() const override {
    std::vector<ObservableInfo> out;
    for (const auto& n : spec_.observable_names) out.push_back({n, "", "given by the Python model"});
    return out;
  }
  Status evaluate_observables(double t, ConstVec y, Vec out) noexcept override {
    return spec_.observables.is_none() ? Status::ok : call(spec_.observables, "observables(t, y)", out, &t, y);
  }
  std::string check_state(ConstVec y) const override {
    // The catalogue's manifolds: a point off M is refused by its projection moving it.
    if (!space().can_project()) return {};
    Eigen::VectorXd p = y;
    if (space().project(p) != Status::ok) return {};
    const double moved = (p - y).norm();
    if (moved > 1e-10 * (1 + y.norm()))
      return fmt::format("the point is off the manifold of space '{}' (its projection moves it by {:.3g})", spec_.space, moved);
    return {};
  }
  void prepare() override {
    sdk::Model::prepare();
    xi_.resize(space().algebra_dim());
  }

 private:
  /// out = fn(t, y) (or fn(y) when t is null) as numbers; a Python exception or a wrong size is a
  /// fatal status with the message.
  Status call(const py::object& fn, const char* what, Vec out, const double* t, ConstVec y) const noexcept {
    try {
      py::array_t<double> arg(y.size());
      std::copy(y.data(), y.data() + y.size(), arg.mutable_data());
      const py::object r = t ? fn(*t, arg) : fn(arg);
      const auto a = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(r);
      if (!a || a.size() != out.size())
        return failure(fmt::format("python model '{}': {} returned {} numbers, expected {}", spec_.name, what,
                                   a ? std::to_string(a.size()) : std::string("no array of"), out.size()));
      std::copy(a.data(), a.data() + a.size(), out.data());
      return out.allFinite() ? Status::ok
                             : failure(fmt::format("python model '{}': {} returned a non-finite number", spec_.name, what));
    } catch (py::error_already_set& e) {
      if (exception_.is_none()) {
        // Keep the exception object with its traceback (the user's frame) for the caller to re-raise.
        exception_ = e.value();
        if (!e.trace().is_none() && py::hasattr(exception_, "__traceback__")) exception_.attr("__traceback__") = e.trace();
      }
      return failure(fmt::format("python model '{}': {} raised {}", spec_.name, what, e.what()));
    } catch (const std::exception& e) {
      return failure(fmt::format("python model '{}': {}: {}", spec_.name, what, e.what()));
    }
  }
  Status failure(const std::string& why) const noexcept {
    if (problem_.empty()) problem_ = why;
    return const_cast<PythonModel*>(this)->fail(Status::fatal, why.c_str());
  }
  Status do_generator(double t, ConstVec y, Vec xi) noexcept override { return call(spec_.f, "f(t, y)", xi, &t, y); }
  Status do_vector_field(double t, ConstVec y, Vec dy) noexcept override {
    if (!spec_.F.is_none()) return call(spec_.F, "F(t, y)", dy, &t, y);
    if (xi_.size() != space().algebra_dim()) return fail(Status::fatal, "vector_field: workspace not prepared");
    const Status s = do_generator(t, y, xi_);
    return s != Status::ok ? s : space().generator(xi_, y, dy);
  }

  PythonModelSpec spec_;
  Eigen::VectorXd xi_;
  mutable py::object exception_ = py::none();  ///< the first exception a user function raised
  mutable std::string problem_;                ///< the first failure's message
};

}  // namespace liesim::python
