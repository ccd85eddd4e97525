// The two description formats, each read into a Description (errors: liesim::Error naming
// FILE:LINE, the body or joint, and the fix).
#pragma once
#include "description.hpp"

#include <liesim/sdk/status.hpp>

#include <string>

namespace liesim::multibody {

/// A URDF file (tinyxml2): links, joints revolute/continuous/prismatic/fixed/floating, dynamics damping.
Description read_urdf(const std::string& path);
/// A native TOML description (toml++): adds spherical joints, gravity, springs, torques, PD, initial state.
Description read_toml(const std::string& path);
/// Either, by the file's extension (.urdf / .xml: URDF; .toml: TOML).
Description read_description(const std::string& path);

}  // namespace liesim::multibody
