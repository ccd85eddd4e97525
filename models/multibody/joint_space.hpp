// The phase space of a mechanism as a homogeneous space: the product over the moving joints of
// each joint's own space under its own group, with the kernel's static actions (liesim/lie):
//   one-dof joint   (q, v) in R^2                 R^2 by translation          RnTranslation<2>
//   spherical       (R, omega) in SO(3) x R^3     SO(3) x R^3: (B R, omega + b)   SO3xR3OnTSO3
//   floating        (R, p, omega, v) in SO(3) x R^9   SO(3) x R^9: (B R, (p, omega, v) + b)
//                                                 ProductAction<SO3OnSO3, RnTranslation<9>>
// The group is the direct product of the joints' groups, so exp, dexpinv and the bracket act
// block by block with the kernel's formulas (SO3, Rn, Product).
#pragma once
#include "mechanism.hpp"

#include <liesim/lie/actions.hpp>
#include <liesim/sdk/model.hpp>

#include <vector>

namespace liesim::multibody {

using ScalarAction = lie::RnTranslation<2>;
using SphericalAction = lie::SO3xR3OnTSO3;
using FloatingAction = lie::ProductAction<lie::SO3OnSO3, lie::RnTranslation<9>>;

class JointSpace final : public sdk::HomogeneousSpace {
 public:
  explicit JointSpace(const Mechanism& m) : sdk::HomogeneousSpace(m.point_size, m.algebra_dim) {
    for (const Joint& j : m.joints)
      if (j.dof > 0) blocks_.push_back({j.dof == 1 ? Kind::scalar : j.dof == 3 ? Kind::spherical : Kind::floating, j.point_offset, j.algebra_offset});
  }
  bool can_project() const noexcept override { return true; }

 private:
  enum class Kind { scalar, spherical, floating };
  struct Block {
    Kind kind;
    int point, algebra;
  };

  /// Call f.template operator()<Action>(block) with the block's static action.
  template <class F>
  void each(F&& f) const {
    for (const Block& b : blocks_) {
      switch (b.kind) {
        case Kind::scalar: f.template operator()<ScalarAction>(b); break;
        case Kind::spherical: f.template operator()<SphericalAction>(b); break;
        case Kind::floating: f.template operator()<FloatingAction>(b); break;
      }
    }
  }
  template <class A>
  static typename A::Point point(ConstVec y, const Block& b) { return y.segment<A::point_dim>(b.point); }
  template <class A>
  static typename A::Group::Algebra algebra(ConstVec x, const Block& b) { return x.segment<A::Group::dim>(b.algebra); }

  Status do_act_exp(ConstVec xi, ConstVec y, Vec out) const noexcept override {
    each([&]<class A>(const Block& b) { out.segment<A::point_dim>(b.point) = A::act_exp(algebra<A>(xi, b), point<A>(y, b)); });
    return Status::ok;
  }
  Status do_dexpinv(ConstVec u, ConstVec v, Vec out) const noexcept override {
    each([&]<class A>(const Block& b) { out.segment<A::Group::dim>(b.algebra) = A::Group::dexpinv(algebra<A>(u, b), algebra<A>(v, b)); });
    return Status::ok;
  }
  Status do_bracket(ConstVec a, ConstVec c, Vec out) const noexcept override {
    each([&]<class A>(const Block& b) { out.segment<A::Group::dim>(b.algebra) = A::Group::bracket(algebra<A>(a, b), algebra<A>(c, b)); });
    return Status::ok;
  }
  Status do_generator(ConstVec xi, ConstVec y, Vec out) const noexcept override {
    each([&]<class A>(const Block& b) { out.segment<A::point_dim>(b.point) = A::generator(algebra<A>(xi, b), point<A>(y, b)); });
    return Status::ok;
  }
  Status do_project(Vec y) const noexcept override {
    each([&]<class A>(const Block& b) {
      typename A::Point p = y.segment<A::point_dim>(b.point);
      A::project(p);
      y.segment<A::point_dim>(b.point) = p;
    });
    return Status::ok;
  }

  std::vector<Block> blocks_;
};

}  // namespace liesim::multibody
