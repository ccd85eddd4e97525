// HomogeneousSpace: the run-time view of (M, G, psi) over flat buffers (DiffMan's problem split).
#pragma once
#include <liesim/stats.hpp>
#include <liesim/status.hpp>
#include <liesim/types.hpp>

namespace liesim {

/// A manifold M (embedded in R^n) with a transitive left action psi of a Lie group G, dim g = d.
/// Public calls are non-virtual: they count work and forward to the private `do_*` hooks.
class HomogeneousSpace {
 public:
  HomogeneousSpace(int point_size, int algebra_dim) : n_(point_size), d_(algebra_dim) {}
  virtual ~HomogeneousSpace() = default;
  HomogeneousSpace(const HomogeneousSpace&) = delete;
  HomogeneousSpace& operator=(const HomogeneousSpace&) = delete;

  /// Number of embedding coordinates n of a point of M.
  int point_size() const noexcept { return n_; }
  /// Dimension d of the Lie algebra g.
  int algebra_dim() const noexcept { return d_; }

  /// out = psi(exp(xi), y): the action of the exponential of xi in g on the point y.
  Status act_exp(ConstVec xi, ConstVec y, Vec out) const noexcept {
    ++counters_->exps;
    return do_act_exp(xi, y, out);
  }
  /// out = dexpinv_u(v), right-trivialised inverse derivative of exp (exact where the algebra has a closed form).
  Status dexpinv(ConstVec u, ConstVec v, Vec out) const noexcept {
    ++counters_->dexpinv_calls;
    return do_dexpinv(u, v, out);
  }
  /// out = [a, b], the Lie bracket of g.
  Status bracket(ConstVec a, ConstVec b, Vec out) const noexcept {
    ++counters_->brackets;
    return do_bracket(a, b, out);
  }
  /// out = psi_*(xi)|_y, the infinitesimal generator (a tangent vector at y in R^n).
  Status generator(ConstVec xi, ConstVec y, Vec out) const noexcept { return do_generator(xi, y, out); }
  /// Orthogonal projection of a point of R^n onto M (in place); fatal where the space has none.
  Status project(Vec y) const noexcept {
    ++counters_->projections;
    return do_project(y);
  }
  /// Whether dexpinv is a closed form (true) or only the truncated Bernoulli series is available.
  virtual bool has_exact_dexpinv() const noexcept { return true; }
  /// Whether project() is available.
  virtual bool can_project() const noexcept { return false; }
  /// Distance between two points of M: commutator-free error estimates under error_norm=l2 and
  /// the studies' distance_final use it (default: Euclidean in R^n). Must not allocate.
  virtual double distance(ConstVec a, ConstVec b) const noexcept { return (a - b).norm(); }

  /// Counters the calls above increment (owned by the model).
  void attach_counters(Counters* c) noexcept { counters_ = c ? c : &own_; }

 private:
  virtual Status do_act_exp(ConstVec xi, ConstVec y, Vec out) const noexcept = 0;
  virtual Status do_dexpinv(ConstVec u, ConstVec v, Vec out) const noexcept = 0;
  virtual Status do_bracket(ConstVec a, ConstVec b, Vec out) const noexcept = 0;
  virtual Status do_generator(ConstVec xi, ConstVec y, Vec out) const noexcept = 0;
  virtual Status do_project(Vec) const noexcept { return Status::fatal; }

  int n_;
  int d_;
  Counters own_;
  Counters* counters_ = &own_;
};

}  // namespace liesim
