// The three comparison systems built with Simbody (compiled as C++17: Simbody 3.7's headers are
// ambiguous under C++20's rewritten comparison operators). Plain types only cross to the test.
#pragma once
#include <array>
#include <vector>

namespace simbody_systems {
using Positions = std::vector<std::array<double, 3>>;
/// Body origins (world) at time T: upper, lower.
Positions double_pendulum(double T);
/// Body origins at time T: link1 .. link7.
Positions arm(double T);
/// Body origins at time T: bus, wheel_x, wheel_y, wheel_z.
Positions satellite(double T);
}  // namespace simbody_systems
