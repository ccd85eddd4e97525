// The multibody plugin: a kinematic tree of rigid bodies from a URDF or TOML description.
#include "conventions.hpp"
#include "multibody_model.hpp"
#include "readers.hpp"

#include <liesim/sdk/plugin.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

namespace liesim::multibody {

Description read_description(const std::string& path) {
  std::string ext = path.substr(path.find_last_of('.') == std::string::npos ? path.size() : path.find_last_of('.'));
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (ext == ".urdf" || ext == ".xml") return read_urdf(path);
  if (ext == ".toml") return read_toml(path);
  throw Error(fmt::format("parameter 'file' = '{}': unknown format; name a URDF file (.urdf or .xml) or a TOML description (.toml)", path));
}

namespace {

class MultibodyType final : public sdk::ModelTypeBase<MultibodyType> {
 public:
  std::string summary() const override {
    return "multibody system from a URDF or TOML description: joints on their own Lie groups, Featherstone's articulated-body algorithm";
  }
  std::vector<SettingSpec> parameters() const override {
    return {{"file", "", "", "the description: a URDF file (.urdf, .xml) or a TOML description (.toml); required"},
            {"gravity", "description", "m/s^2", "gravity vector, world frame; 'description': the TOML file's, 0,0,-9.81 for URDF"},
            {"q0", "description", "rad, m", "initial positions, moving joints in state order (one-dof: 1; spherical: 3, rotation vector; "
                                  "floating: 6, position and rotation vector); 'description': the file's, else zero"},
            {"v0", "description", "rad/s, m/s", "initial velocities, one per degree of freedom in state order; 'description': the file's, else zero"},
            {"dynamics", "articulated_body", "", "articulated_body (Featherstone's ABA, O(n)) | composite_rigid_body (CRBA + Cholesky, O(n^3))"}};
  }
  std::string conventions() const override { return conventions_text; }

  std::unique_ptr<sdk::Model> make(const Settings& p) const {
    const std::string file = p.text("file");  // required: the kernel refuses a run without it
    const Algorithm a = p.choice("dynamics", {"articulated_body", "composite_rigid_body"}) == "articulated_body" ? Algorithm::articulated_body
                                                                                                             : Algorithm::composite_rigid_body;
    Overrides o;
    if (p.text("gravity") != "description") {
      const auto g = p.numbers("gravity", {3});
      o.gravity = Eigen::Vector3d(g[0], g[1], g[2]);
    }
    if (p.text("q0") != "description") o.q0 = p.numbers("q0");
    if (p.text("v0") != "description") o.v0 = p.numbers("v0");
    const Description d = read_description(file);
    return std::make_unique<MultibodyModel>(build_mechanism(d, o), a, d);
  }
};

}  // namespace

}  // namespace liesim::multibody

LIESIM_PLUGIN(model, "multibody", "0.1.0", "multibody system from a URDF or TOML description (ABA on the joints' Lie groups)",
              liesim::multibody::MultibodyType)
