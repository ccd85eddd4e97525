// URDF (the ROS Unified Robot Description Format) read with tinyxml2 into a Description.
// Read: <link> (<inertial>: origin, mass, inertia; <visual>: origin, geometry, material colour, for
// the scene only), <joint> (type, parent, child, origin, axis, dynamics damping), the robot's
// <material> colours. Ignored, as documented: collision, textures, limit, friction, calibration,
// safety_controller, transmission, gazebo. Refused: mimic joints, planar joints.
#include "readers.hpp"

#include <fmt/format.h>
#include <tinyxml2.h>

#include <cmath>
#include <cstdlib>
#include <map>
#include <sstream>

namespace liesim::multibody {

namespace {

using tinyxml2::XMLElement;

struct Reader {
  std::string file;
  std::map<std::string, std::uint32_t> materials;  ///< the robot's named <material> colours

  /// <color rgba="r g b a"/> (each in [0, 1]) as 0xRRGGBB.
  std::uint32_t colour(const XMLElement* c, const std::string& subject) const {
    const Eigen::VectorXd rgba = numbers(c, "rgba", 4, subject, "red, green, blue, alpha, each in [0, 1]");
    std::uint32_t out = 0;
    for (int k = 0; k < 3; ++k) {
      if (rgba[k] < 0 || rgba[k] > 1)
        fail_at(at(c), subject, fmt::format("<color rgba>: component {} = {} is outside [0, 1]", k + 1, rgba[k]));
      out = (out << 8) | static_cast<std::uint32_t>(std::lround(255 * rgba[k]));
    }
    return out;
  }

  /// A <visual>: its origin, its <geometry> (box, cylinder, sphere, capsule; a mesh is not read)
  /// and the colour of its <material> (given inline, or one of the robot's by name).
  VisualDescription visual(const XMLElement* v, const std::string& subject) const {
    VisualDescription out;
    out.where = at(v);
    origin(v, subject, out.rotation, out.position);
    const char* kinds = "one of <box size=\"x y z\"/>, <cylinder radius=\"..\" length=\"..\"/>, <sphere radius=\"..\"/>, "
                        "<capsule radius=\"..\" length=\"..\"/>, <mesh filename=\"..\"/>";
    const XMLElement* g = v->FirstChildElement("geometry");
    if (!g) fail_at(at(v), subject, fmt::format("<visual> has no <geometry> (give {})", kinds));
    const XMLElement* shape = g->FirstChildElement();
    if (!shape) fail_at(at(g), subject, fmt::format("<geometry> is empty (give {})", kinds));
    const std::string kind = shape->Name();
    int used = 0;
    if (kind == "box") {
      out.geometry = VisualDescription::Geometry::box;
      out.size = numbers(shape, "size", 3, subject, "m, the edge lengths");
      used = 3;
    } else if (kind == "cylinder" || kind == "capsule") {
      out.geometry = kind == "cylinder" ? VisualDescription::Geometry::cylinder : VisualDescription::Geometry::capsule;
      out.size = {number(shape, "radius", subject, "m"), number(shape, "length", subject, "m, along the visual's z axis"), 0.0};
      used = 2;
    } else if (kind == "sphere") {
      out.geometry = VisualDescription::Geometry::sphere;
      out.size = {number(shape, "radius", subject, "m"), 0.0, 0.0};
      used = 1;
    } else if (kind == "mesh") {
      out.geometry = VisualDescription::Geometry::mesh;  // not read: the scene draws the link's inertia solid
    } else {
      fail_at(at(shape), subject, fmt::format("unknown visual geometry <{}> (give {})", kind, kinds));
    }
    for (int k = 0; k < used; ++k)
      if (!(out.size[k] > 0)) fail_at(at(shape), subject, fmt::format("<{}>: its sizes must be positive (got {})", kind, out.size[k]));
    if (const XMLElement* m = v->FirstChildElement("material")) {
      if (const XMLElement* c = m->FirstChildElement("color")) {
        out.color = colour(c, subject);
      } else if (const char* name = m->Attribute("name")) {
        if (const auto it = materials.find(name); it != materials.end()) out.color = it->second;
      }
    }
    return out;
  }

  Where at(const XMLElement* e) const { return {file, e ? e->GetLineNum() : 0}; }

  /// The attribute `name` of `e`, required.
  std::string required(const XMLElement* e, const char* name, const std::string& subject, const std::string& fix) const {
    const char* v = e->Attribute(name);
    if (!v) fail_at(at(e), subject, fmt::format("<{}> has no attribute '{}' ({})", e->Name(), name, fix));
    return v;
  }

  /// `count` finite numbers separated by blanks in attribute `name` (absent: `fallback`, if any).
  Eigen::VectorXd numbers(const XMLElement* e, const char* name, int count, const std::string& subject,
                          const std::string& unit, const Eigen::VectorXd* fallback = nullptr) const {
    const char* v = e->Attribute(name);
    if (!v) {
      if (fallback) return *fallback;
      fail_at(at(e), subject, fmt::format("<{}> needs attribute {}=\"...\" with {} number{} ({})", e->Name(), name, count,
                                          count == 1 ? "" : "s", unit));
    }
    std::istringstream in{std::string(v)};
    Eigen::VectorXd out(count);
    std::string word;
    int k = 0;
    while (in >> word) {
      char* end = nullptr;
      const double x = std::strtod(word.c_str(), &end);
      if (end == word.c_str() || *end != '\0' || !std::isfinite(x))
        fail_at(at(e), subject, fmt::format("<{} {}=\"{}\">: '{}' is not a finite number (write plain numbers in {}, no units)",
                                            e->Name(), name, v, word, unit));
      if (k < count) out[k] = x;
      ++k;
    }
    if (k != count)
      fail_at(at(e), subject, fmt::format("<{} {}=\"{}\"> has {} number{}, needs {} ({})", e->Name(), name, v, k, k == 1 ? "" : "s",
                                          count, unit));
    return out;
  }

  double number(const XMLElement* e, const char* name, const std::string& subject, const std::string& unit) const {
    return numbers(e, name, 1, subject, unit)[0];
  }

  /// <origin xyz rpy> (both optional, zero by the URDF specification).
  void origin(const XMLElement* parent, const std::string& subject, Eigen::Matrix3d& R, Eigen::Vector3d& p) const {
    R.setIdentity();
    p.setZero();
    const XMLElement* o = parent->FirstChildElement("origin");
    if (!o) return;
    const Eigen::VectorXd zero = Eigen::VectorXd::Zero(3);
    p = numbers(o, "xyz", 3, subject, "m", &zero);
    R = rotation_rpy(numbers(o, "rpy", 3, subject, "rad", &zero));
  }

  BodyDescription link(const XMLElement* e) const {
    BodyDescription b;
    b.where = at(e);
    b.name = required(e, "name", "link", "every <link> needs a unique name");
    const std::string subject = fmt::format("link '{}'", b.name);
    for (const XMLElement* v = e->FirstChildElement("visual"); v; v = v->NextSiblingElement("visual")) b.visuals.push_back(visual(v, subject));
    const XMLElement* in = e->FirstChildElement("inertial");
    if (!in) return b;  // massless (URDF): allowed where it does not move alone; checked later
    Eigen::Matrix3d R;
    origin(in, subject, R, b.com);
    const XMLElement* m = in->FirstChildElement("mass");
    if (!m) fail_at(at(in), subject, "<inertial> has no <mass value=\"...\"/> (kg)");
    b.mass = number(m, "value", subject, "kg");
    const XMLElement* i = in->FirstChildElement("inertia");
    if (!i) fail_at(at(in), subject, "<inertial> has no <inertia ixx=.. ixy=.. ixz=.. iyy=.. iyz=.. izz=../> (kg m^2, about the centre of mass)");
    const char* names[6] = {"ixx", "ixy", "ixz", "iyy", "iyz", "izz"};
    double v[6];
    for (int k = 0; k < 6; ++k) v[k] = number(i, names[k], subject, "kg m^2");
    Eigen::Matrix3d I;
    I << v[0], v[1], v[2], v[1], v[3], v[4], v[2], v[4], v[5];
    b.inertia = R * I * R.transpose();  // from the inertial frame's axes to the link's
    return b;
  }

  JointDescription joint(const XMLElement* e) const {
    JointDescription j;
    j.where = at(e);
    j.name = required(e, "name", "joint", "every <joint> needs a unique name");
    const std::string subject = fmt::format("joint '{}'", j.name);
    const std::string type = required(e, "type", subject, "revolute, continuous, prismatic, fixed or floating");
    if (type == "revolute") j.type = JointType::revolute;
    else if (type == "continuous") j.type = JointType::continuous;
    else if (type == "prismatic") j.type = JointType::prismatic;
    else if (type == "fixed") j.type = JointType::fixed;
    else if (type == "floating") j.type = JointType::floating;
    else if (type == "planar")
      fail_at(at(e), subject, "joint type 'planar' is not supported (use two prismatic joints and a revolute joint with massless links between)");
    else
      fail_at(at(e), subject, fmt::format("unknown joint type '{}' (URDF types: revolute, continuous, prismatic, fixed, floating; "
                                          "a ball joint is 'spherical' in the TOML format)", type));
    if (e->FirstChildElement("mimic"))
      fail_at(at(e->FirstChildElement("mimic")), subject, "<mimic> joints are not supported (they close a kinematic loop): remove it");
    const XMLElement* p = e->FirstChildElement("parent");
    if (!p) fail_at(at(e), subject, "no <parent link=\"...\"/>");
    j.parent = required(p, "link", subject, "name the parent link");
    const XMLElement* c = e->FirstChildElement("child");
    if (!c) fail_at(at(e), subject, "no <child link=\"...\"/>");
    j.child = required(c, "link", subject, "name the child link");
    origin(e, subject, j.origin_rotation, j.origin_position);
    if (const XMLElement* a = e->FirstChildElement("axis")) {
      j.axis = numbers(a, "xyz", 3, subject, "a direction in the joint frame");
      if (joint_dof(j.type) == 1) {
        const double n = j.axis.norm();
        if (!(n > 1e-9)) fail_at(at(a), subject, "the axis is zero: give a direction, e.g. <axis xyz=\"0 0 1\"/>");
        j.axis /= n;
      }
    }
    if (const XMLElement* d = e->FirstChildElement("dynamics")) {
      if (d->Attribute("damping")) {
        j.damping = number(d, "damping", subject, "N m s/rad or N s/m");
        if (j.damping < 0) fail_at(at(d), subject, fmt::format("damping = {} is negative (a damper dissipates: give a value >= 0)", j.damping));
        if (joint_dof(j.type) == 0 && j.damping != 0) fail_at(at(d), subject, "a fixed joint cannot have damping: remove <dynamics>");
      }
    }
    return j;
  }
};

}  // namespace

Description read_urdf(const std::string& path) {
  tinyxml2::XMLDocument doc;
  const tinyxml2::XMLError err = doc.LoadFile(path.c_str());
  if (err == tinyxml2::XML_ERROR_FILE_NOT_FOUND || err == tinyxml2::XML_ERROR_FILE_COULD_NOT_BE_OPENED ||
      err == tinyxml2::XML_ERROR_FILE_READ_ERROR)
    throw Error(fmt::format("{}: cannot read the description file (check the path given as parameter 'file')", path));
  if (err != tinyxml2::XML_SUCCESS)
    fail_at({path, doc.ErrorLineNum()}, "", fmt::format("not well-formed XML: {} (fix the XML syntax)", doc.ErrorStr()));
  Reader r{path, {}};
  const XMLElement* robot = doc.RootElement();
  if (!robot || std::string(robot->Name()) != "robot")
    fail_at(r.at(robot), "", fmt::format("the root element is <{}>, a URDF file has <robot name=\"...\">", robot ? robot->Name() : ""));
  // The robot's named materials (their colours; textures are not used).
  for (const XMLElement* m = robot->FirstChildElement("material"); m; m = m->NextSiblingElement("material")) {
    const char* name = m->Attribute("name");
    const XMLElement* c = m->FirstChildElement("color");
    if (name && c) r.materials[name] = r.colour(c, fmt::format("material '{}'", name));
  }
  Description d;
  d.file = path;
  d.format = "urdf";
  for (const XMLElement* e = robot->FirstChildElement("link"); e; e = e->NextSiblingElement("link")) d.bodies.push_back(r.link(e));
  for (const XMLElement* e = robot->FirstChildElement("joint"); e; e = e->NextSiblingElement("joint")) d.joints.push_back(r.joint(e));
  if (d.bodies.empty()) fail_at(r.at(robot), "", "the robot has no <link>");
  // The root: the one link that is no joint's child; it is fixed in space.
  std::map<std::string, int> is_child;
  for (const auto& j : d.joints) is_child[j.child] += 1;
  std::vector<const BodyDescription*> roots;
  for (const auto& b : d.bodies)
    if (!is_child.count(b.name)) roots.push_back(&b);
  if (roots.empty())
    fail_at(r.at(robot), "", "every link is some joint's child, so the joints form a closed loop (a tree needs one root link, fixed in space)");
  if (roots.size() > 1)
    fail_at(roots[1]->where, fmt::format("link '{}'", roots[1]->name),
            fmt::format("is a second root besides link '{}' (line {}): connect it to the tree with a joint", roots[0]->name,
                        roots[0]->where.line));
  d.root = roots[0]->name;
  d.root_where = roots[0]->where;
  d.root_body = *roots[0];
  // The root link is the world: joints from it have parent "".
  for (auto& j : d.joints)
    if (j.parent == d.root) j.parent.clear();
  std::erase_if(d.bodies, [&](const BodyDescription& b) { return b.name == d.root; });
  return d;
}

}  // namespace liesim::multibody
