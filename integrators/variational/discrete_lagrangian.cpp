// The quadrature rules that define discrete Lagrangians (the step equations' terms: the header).
#include "discrete_lagrangian.hpp"

#include <liesim/sdk/status.hpp>

namespace liesim::variational {

const LagrangianRule& lagrangian_rule(const std::string& name) {
  static const LagrangianRule midpoint{{0.5}, {1.0}};
  static const LagrangianRule trapezoidal{{0.0, 1.0}, {0.5, 0.5}};
  if (name == "midpoint") return midpoint;
  if (name == "trapezoidal") return trapezoidal;
  throw Error("unknown discrete Lagrangian '" + name + "': choose midpoint or trapezoidal");
}

}  // namespace liesim::variational
