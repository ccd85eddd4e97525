// Adapter from a static action (liesim::lie) to the run-time HomogeneousSpace: the manifold
// M = P^N (N copies of the action's point space) under the direct product group G^N.
#pragma once
#include <liesim/lie/bernoulli.hpp>
#include <liesim/sdk/model.hpp>

namespace liesim {

/// N copies of a static action `A` (a struct with Group, point_dim, act_exp, generator and
/// optionally project), evaluated block by block with fixed-size Eigen. One virtual call per
/// operation, never per scalar.
template <class A>
class PowerSpace final : public sdk::HomogeneousSpace {
 public:
  using Group = typename A::Group;
  using Point = typename A::Point;
  using Algebra = typename Group::Algebra;
  static constexpr int P = A::point_dim;
  static constexpr int D = Group::dim;

  /// The space of `blocks` copies (blocks >= 1).
  explicit PowerSpace(int blocks) : sdk::HomogeneousSpace(blocks * P, blocks * D), blocks_(blocks) {}

  bool can_project() const noexcept override { return requires(Point& p) { A::project(p); }; }
  /// Number of blocks N.
  int blocks() const noexcept { return blocks_; }

 private:
  static Eigen::Map<const Point> point(ConstVec y, int b) { return Eigen::Map<const Point>(y.data() + b * P); }
  static Eigen::Map<const Algebra> alg(ConstVec x, int b) { return Eigen::Map<const Algebra>(x.data() + b * D); }

  Status do_act_exp(ConstVec xi, ConstVec y, Vec out) const noexcept override {
    for (int b = 0; b < blocks_; ++b) out.segment<P>(b * P) = A::act_exp(Algebra(alg(xi, b)), Point(point(y, b)));
    return Status::ok;
  }
  Status do_dexpinv(ConstVec u, ConstVec v, Vec out) const noexcept override {
    for (int b = 0; b < blocks_; ++b) out.segment<D>(b * D) = Group::dexpinv(Algebra(alg(u, b)), Algebra(alg(v, b)));
    return Status::ok;
  }
  Status do_bracket(ConstVec a, ConstVec c, Vec out) const noexcept override {
    for (int b = 0; b < blocks_; ++b) out.segment<D>(b * D) = Group::bracket(Algebra(alg(a, b)), Algebra(alg(c, b)));
    return Status::ok;
  }
  Status do_generator(ConstVec xi, ConstVec y, Vec out) const noexcept override {
    for (int b = 0; b < blocks_; ++b) out.segment<P>(b * P) = A::generator(Algebra(alg(xi, b)), Point(point(y, b)));
    return Status::ok;
  }
  Status do_project(Vec y) const noexcept override {
    if constexpr (requires(Point& p) { A::project(p); }) {
      for (int b = 0; b < blocks_; ++b) {
        Point p = y.segment<P>(b * P);
        A::project(p);
        y.segment<P>(b * P) = p;
      }
      return Status::ok;
    } else {
      (void)y;
      return Status::fatal;
    }
  }

  int blocks_;
};

}  // namespace liesim
