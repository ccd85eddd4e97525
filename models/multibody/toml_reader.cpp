// The native TOML description (toml++), strict: unknown keys, wrong types and missing required
// keys are errors naming FILE:LINE, the body or joint and the fix. Format: docs/multibody.md.
#include "readers.hpp"

#include <fmt/format.h>
#include <toml++/toml.h>

#include <Eigen/LU>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>

namespace liesim::multibody {

namespace {

struct Reader {
  std::string file;

  Where at(const toml::node& n) const { return {file, static_cast<int>(n.source().begin.line)}; }
  [[noreturn]] void fail_at_node(const toml::node& n, const std::string& message) const { fail_at(at(n), "", message); }

  void check_keys(const toml::table& t, const std::string& subject, const std::set<std::string>& known) const {
    for (const auto& [k, v] : t) {
      if (known.count(std::string(k.str()))) continue;
      std::string list;
      for (const auto& n : known) list += (list.empty() ? "" : ", ") + n;
      fail_at(at(v), subject, fmt::format("unknown key '{}' (known keys: {})", k.str(), list));
    }
  }

  const toml::node& need(const toml::table& t, const char* key, const std::string& subject, const std::string& meaning) const {
    const toml::node* n = t.get(key);
    if (!n) fail_at(at(t), subject, fmt::format("missing key '{}' ({})", key, meaning));
    return *n;
  }

  double number(const toml::node& n, const char* key, const std::string& subject, const std::string& unit) const {
    if (const auto v = n.value<double>(); v && n.is_number()) {
      if (!std::isfinite(*v)) fail_at(at(n), subject, fmt::format("'{}' = {} is not finite", key, *v));
      return *v;
    }
    fail_at(at(n), subject, fmt::format("'{}' must be a number in {} (got a {}; write plain numbers, no units)", key, unit, type_name(n)));
  }

  std::string string(const toml::node& n, const char* key, const std::string& subject) const {
    if (const auto v = n.value<std::string>(); v && n.is_string()) return *v;
    fail_at(at(n), subject, fmt::format("'{}' must be a string (got a {})", key, type_name(n)));
  }

  /// An array of finite numbers whose length is one of `counts`.
  std::vector<double> numbers(const toml::node& n, const char* key, const std::string& subject, std::initializer_list<std::size_t> counts,
                              const std::string& unit) const {
    const toml::array* a = n.as_array();
    std::string want;
    for (auto c : counts) want += (want.empty() ? "" : " or ") + std::to_string(c);
    if (!a) fail_at(at(n), subject, fmt::format("'{}' must be an array of {} numbers in {} (got a {})", key, want, unit, type_name(n)));
    std::vector<double> out;
    for (const auto& e : *a) out.push_back(number(e, key, subject, unit));
    bool ok = false;
    for (auto c : counts) ok = ok || out.size() == c;
    if (!ok) fail_at(at(n), subject, fmt::format("'{}' has {} numbers, needs {} ({})", key, out.size(), want, unit));
    return out;
  }

  Eigen::Vector3d vector3(const toml::node& n, const char* key, const std::string& subject, const std::string& unit) const {
    const auto v = numbers(n, key, subject, {3}, unit);
    return {v[0], v[1], v[2]};
  }

  static std::string type_name(const toml::node& n) {
    switch (n.type()) {
      case toml::node_type::string: return "string";
      case toml::node_type::integer:
      case toml::node_type::floating_point: return "number";
      case toml::node_type::boolean: return "boolean";
      case toml::node_type::array: return "array";
      case toml::node_type::table: return "table";
      default: return "date or time";
    }
  }

  BodyDescription body(const toml::table& t) const {
    BodyDescription b;
    b.where = at(t);
    b.name = string(need(t, "name", "[[body]]", "a unique name"), "name", "[[body]]");
    const std::string subject = fmt::format("body '{}'", b.name);
    check_keys(t, subject, {"name", "mass", "com", "inertia", "visual"});
    b.mass = number(need(t, "mass", subject, "kg"), "mass", subject, "kg");
    b.com = vector3(need(t, "com", subject, "centre of mass in the body frame, m"), "com", subject, "m");
    const auto I = numbers(need(t, "inertia", subject, "kg m^2 about the centre of mass, body axes: 3 principal moments or 9 row-major"),
                           "inertia", subject, {3, 9}, "kg m^2");
    if (I.size() == 3) b.inertia = Eigen::Vector3d(I[0], I[1], I[2]).asDiagonal();
    else b.inertia = Eigen::Map<const Eigen::Matrix<double, 3, 3, Eigen::RowMajor>>(I.data());
    if (const toml::node* n = t.get("visual")) {
      // One table (visual = { ... }) or an array of them ([[body.visual]] sections).
      if (const toml::array* a = n->as_array()) {
        for (const auto& e : *a) b.visuals.push_back(visual(e, subject));
      } else {
        b.visuals.push_back(visual(*n, subject));
      }
    }
    return b;
  }

  /// How a body looks (the scene only): a table { shape = "box" | "cylinder" | "sphere" | "capsule",
  /// size = [...] (box: 3 edge lengths; cylinder, capsule: radius and length along z; sphere: radius),
  /// xyz, rpy (its frame in the body frame, optional), color = "#rrggbb" (optional) }.
  VisualDescription visual(const toml::node& n, const std::string& body) const {
    const std::string subject = body + ", visual";
    const toml::table* t = n.as_table();
    if (!t)
      fail_at(at(n), subject, "'visual' must be a table { shape = \"box\", size = [x, y, z] } or an array of them ([[body.visual]] sections)");
    check_keys(*t, subject, {"shape", "size", "xyz", "rpy", "color"});
    VisualDescription v;
    v.where = at(n);
    const toml::node& shape_node = need(*t, "shape", subject, "box, cylinder, sphere or capsule");
    const std::string shape = string(shape_node, "shape", subject);
    std::size_t count = 0;
    std::string meaning;
    if (shape == "box") v.geometry = VisualDescription::Geometry::box, count = 3, meaning = "m, edge lengths along x, y, z";
    else if (shape == "cylinder") v.geometry = VisualDescription::Geometry::cylinder, count = 2, meaning = "m, radius and length along z";
    else if (shape == "capsule") v.geometry = VisualDescription::Geometry::capsule, count = 2, meaning = "m, radius and length along z";
    else if (shape == "sphere") v.geometry = VisualDescription::Geometry::sphere, count = 1, meaning = "m, the radius";
    else fail_at(at(shape_node), subject, fmt::format("unknown shape '{}' (known: box, cylinder, sphere, capsule)", shape));
    const toml::node& size_node = need(*t, "size", subject, meaning);
    const auto size = numbers(size_node, "size", subject, {count}, meaning);
    for (std::size_t k = 0; k < count; ++k) {
      if (!(size[k] > 0)) fail_at(at(size_node), subject, fmt::format("'size' = {} is not positive ({})", size[k], meaning));
      v.size[static_cast<Eigen::Index>(k)] = size[k];
    }
    if (const toml::node* p = t->get("xyz")) v.position = vector3(*p, "xyz", subject, "m, body frame");
    if (const toml::node* r = t->get("rpy")) v.rotation = rotation_rpy(vector3(*r, "rpy", subject, "rad"));
    if (const toml::node* c = t->get("color")) {
      const std::string text = string(*c, "color", subject);
      const bool hex = text.size() == 7 && text[0] == '#' &&
                       std::all_of(text.begin() + 1, text.end(), [](unsigned char ch) { return std::isxdigit(ch) != 0; });
      if (!hex) fail_at(at(*c), subject, fmt::format("'color' = \"{}\" is not a colour \"#rrggbb\" (six hexadecimal digits)", text));
      v.color = static_cast<std::uint32_t>(std::stoul(text.substr(1), nullptr, 16));
    }
    return v;
  }

  /// An attitude (KEY: attitude0, a spring's rest, a PD set-point): a table with one of matrix,
  /// axis_angle or quaternion, converted once to a rotation matrix.
  Eigen::Matrix3d attitude(const toml::node& n, const std::string& subject, const std::string& key = "attitude0") const {
    const toml::table* t = n.as_table();
    if (!t || t->size() != 1)
      fail_at(at(n), subject, fmt::format("'{}' must be a table with exactly one of matrix = [9 numbers, row-major], "
                                          "axis_angle = [x, y, z, angle in rad], quaternion = [w, x, y, z]", key));
    check_keys(*t, subject + ", " + key, {"matrix", "axis_angle", "quaternion"});
    if (const toml::node* m = t->get("matrix")) {
      const auto v = numbers(*m, "matrix", subject, {9}, "row-major rotation matrix");
      const Eigen::Matrix3d R = Eigen::Map<const Eigen::Matrix<double, 3, 3, Eigen::RowMajor>>(v.data());
      const double d = (R.transpose() * R - Eigen::Matrix3d::Identity()).norm();
      if (d > 1e-12 || R.determinant() < 0)
        fail_at(at(*m), subject, fmt::format("{}.matrix is not a rotation (||R^T R - I|| = {:.3g}, det = {:.6g}): give 16 digits, "
                                             "or use axis_angle or quaternion", key, d, R.determinant()));
      return R;
    }
    if (const toml::node* a = t->get("axis_angle")) {
      const auto v = numbers(*a, "axis_angle", subject, {4}, "x, y, z, angle in rad");
      const Eigen::Vector3d axis(v[0], v[1], v[2]);
      if (!(axis.norm() > 0)) fail_at(at(*a), subject, key + ".axis_angle has a zero axis: give a direction, e.g. [0, 0, 1, 0.5]");
      return rotation_axis_angle(axis, v[3]);
    }
    const toml::node& q = *t->get("quaternion");
    const auto v = numbers(q, "quaternion", subject, {4}, "w, x, y, z");
    const double norm = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3]);
    if (std::abs(norm - 1) > 1e-9)
      fail_at(at(q), subject, fmt::format("{}.quaternion has norm {:.17g}: give a unit quaternion (w, x, y, z)", key, norm));
    return rotation_quaternion(v[0], v[1], v[2], v[3]);
  }

  JointDescription joint(const toml::table& t) const {
    JointDescription j;
    j.where = at(t);
    j.name = string(need(t, "name", "[[joint]]", "a unique name"), "name", "[[joint]]");
    const std::string subject = fmt::format("joint '{}'", j.name);
    const std::string type = string(need(t, "type", subject, "revolute, continuous, prismatic, spherical, floating or fixed"), "type", subject);
    if (type == "revolute") j.type = JointType::revolute;
    else if (type == "continuous") j.type = JointType::continuous;
    else if (type == "prismatic") j.type = JointType::prismatic;
    else if (type == "spherical") j.type = JointType::spherical;
    else if (type == "floating") j.type = JointType::floating;
    else if (type == "fixed") j.type = JointType::fixed;
    else
      fail_at(at(*t.get("type")), subject,
              fmt::format("unknown joint type '{}' (known: revolute, continuous, prismatic, spherical, floating, fixed)", type));
    const int dof = joint_dof(j.type);
    std::set<std::string> known = {"name", "type", "parent", "child", "xyz", "rpy"};
    if (dof == 1) known.insert({"axis", "q0", "v0", "stiffness", "rest", "damping", "torque", "torque_table", "pd"});
    if (dof == 3) known.insert({"attitude0", "omega0", "stiffness", "rest", "damping", "torque", "torque_table", "pd"});
    if (dof == 6) known.insert({"attitude0", "omega0", "position0", "velocity0", "damping", "torque", "torque_table"});
    for (const auto& [k, v] : t)
      if (!known.count(std::string(k.str()))) {
        std::string list;
        for (const auto& n : known) list += (list.empty() ? "" : ", ") + n;
        fail_at(at(v), subject, fmt::format("unknown key '{}' for a {} joint (known keys: {})", k.str(), type, list));
      }
    j.parent = string(need(t, "parent", subject, "the parent body's name, or \"world\""), "parent", subject);
    if (j.parent == "world") j.parent.clear();
    else if (j.parent.empty()) fail_at(at(*t.get("parent")), subject, "'parent' is empty: name a body or \"world\"");
    j.child = string(need(t, "child", subject, "the child body's name"), "child", subject);
    if (const toml::node* n = t.get("xyz")) j.origin_position = vector3(*n, "xyz", subject, "m");
    if (const toml::node* n = t.get("rpy")) j.origin_rotation = rotation_rpy(vector3(*n, "rpy", subject, "rad"));
    j.damping = nonnegative(t, "damping", subject, "N m s/rad or N s/m");
    if (dof == 1) {
      j.axis = vector3(need(t, "axis", subject, "the joint axis, a direction in the joint frame"), "axis", subject, "direction");
      const double n = j.axis.norm();
      if (!(n > 1e-9)) fail_at(at(*t.get("axis")), subject, "the axis is zero: give a direction, e.g. axis = [0, 0, 1]");
      j.axis /= n;
      if (const toml::node* n = t.get("q0")) j.q0 = number(*n, "q0", subject, "rad or m");
      if (const toml::node* n = t.get("v0")) j.v0 = number(*n, "v0", subject, "rad/s or m/s");
      if (const toml::node* n = t.get("torque")) j.torque[0] = number(*n, "torque", subject, "N m or N");
    } else if (dof > 1) {
      if (const toml::node* n = t.get("attitude0")) j.attitude0 = attitude(*n, subject);
      if (const toml::node* n = t.get("omega0")) j.omega0 = vector3(*n, "omega0", subject, "rad/s, body frame");
      if (const toml::node* n = t.get("position0")) j.position0 = vector3(*n, "position0", subject, "m, joint frame");
      if (const toml::node* n = t.get("velocity0")) j.velocity0 = vector3(*n, "velocity0", subject, "m/s, body frame");
      if (const toml::node* n = t.get("torque")) {
        const auto v = numbers(*n, "torque", subject, {static_cast<std::size_t>(dof)},
                               dof == 3 ? "N m, body frame" : "moment N m then force N, body frame");
        for (int k = 0; k < dof; ++k) j.torque[k] = v[static_cast<std::size_t>(k)];
      }
    }
    if (dof == 1 || j.type == JointType::spherical) forces_with_potential(t, subject, j);
    if (const toml::node* n = t.get("torque_table")) j.torque_table = torque_table(*n, subject, dof);
    return j;
  }

  /// Springs and PD controllers: on a one-dof joint to a position q (rad or m), on a spherical
  /// joint to an attitude (a table as attitude0).
  void forces_with_potential(const toml::table& t, const std::string& subject, JointDescription& j) const {
    const bool one = joint_dof(j.type) == 1;
    const char* unit = one ? "N m/rad or N/m" : "N m/rad";
    j.stiffness = nonnegative(t, "stiffness", subject, unit);
    if (const toml::node* n = t.get("rest")) {
      if (j.stiffness == 0) fail_at(at(*n), subject, "'rest' without 'stiffness': give the spring's stiffness, or remove 'rest'");
      if (one) j.rest = number(*n, "rest", subject, "rad or m");
      else j.rest_attitude = attitude(*n, subject, "rest");
    }
    if (const toml::node* n = t.get("pd")) {
      const toml::table* pd = n->as_table();
      if (!pd) fail_at(at(*n), subject, one ? "'pd' must be a table { kp = ..., kd = ..., setpoint = ... }"
                                            : "'pd' must be a table { kp = ..., kd = ..., setpoint = { axis_angle = [...] } }");
      check_keys(*pd, subject + ", pd", {"kp", "kd", "setpoint"});
      PdController c;
      const std::string kd_unit = one ? "N m s/rad or N s/m" : "N m s/rad";
      c.kp = number(need(*pd, "kp", subject + ", pd", std::string("proportional gain, ") + unit), "kp", subject, unit);
      c.kd = number(need(*pd, "kd", subject + ", pd", "derivative gain, " + kd_unit), "kd", subject, kd_unit);
      const toml::node& setpoint = need(*pd, "setpoint", subject + ", pd",
                                        one ? "set-point, rad or m" : "set-point attitude, a table as attitude0");
      if (one) c.setpoint = number(setpoint, "setpoint", subject, "rad or m");
      else c.setpoint_attitude = attitude(setpoint, subject, "pd.setpoint");
      if (c.kp < 0 || c.kd < 0) fail_at(at(*n), subject, "pd gains kp and kd must be >= 0");
      j.pd = c;
    }
  }

  /// An optional number >= 0 (0 when absent).
  double nonnegative(const toml::table& t, const char* key, const std::string& subject, const std::string& unit) const {
    const toml::node* n = t.get(key);
    if (!n) return 0.0;
    const double v = number(*n, key, subject, unit);
    if (v < 0) fail_at(at(*n), subject, fmt::format("'{}' = {} is negative: give a value >= 0 ({})", key, v, unit));
    return v;
  }

  /// [[t, tau...], ...]: 1 + dof numbers a row (spherical: moment in the body frame; floating:
  /// moment then force, body frame), times increasing.
  std::vector<TorqueSample> torque_table(const toml::node& n, const std::string& subject, int dof) const {
    const std::string row_text = dof == 1 ? "[t in s, tau in N m or N]"
                                 : dof == 3 ? "[t in s, then the moment, 3 numbers in N m, body frame]"
                                            : "[t in s, then the moment (3, N m) and force (3, N), body frame]";
    const toml::array* a = n.as_array();
    if (!a || a->empty()) fail_at(at(n), subject, "'torque_table' must be a non-empty array of rows " + row_text);
    std::vector<TorqueSample> table;
    for (const auto& row : *a) {
      const auto p = numbers(row, "torque_table", subject, {static_cast<std::size_t>(1 + dof)}, row_text);
      if (!table.empty() && !(p[0] > table.back().t))
        fail_at(at(row), subject, fmt::format("'torque_table' times must increase (t = {} after t = {})", p[0], table.back().t));
      TorqueSample sample;
      sample.t = p[0];
      for (int k = 0; k < dof; ++k) sample.tau[k] = p[static_cast<std::size_t>(1 + k)];
      table.push_back(sample);
    }
    return table;
  }
};

}  // namespace

Description read_toml(const std::string& path) {
  toml::table root;
  try {
    root = toml::parse_file(path);
  } catch (const toml::parse_error& e) {
    if (e.source().begin.line == 0 || std::string(e.description()).find("File could not be opened") != std::string::npos)
      throw Error(fmt::format("{}: cannot read the description file (check the path given as parameter 'file')", path));
    throw Error(fmt::format("{}:{}: not valid TOML: {} (fix the TOML syntax)", path, e.source().begin.line, e.description()));
  }
  const Reader r{path};
  r.check_keys(root, "", {"name", "gravity", "body", "joint"});
  Description d;
  d.file = path;
  d.format = "toml";
  d.root = "world";
  d.root_where = {path, 1};
  if (const toml::node* n = root.get("name")) (void)r.string(*n, "name", "");
  d.gravity = r.vector3(r.need(root, "gravity", "", "the gravity vector in the world frame, m/s^2, e.g. [0, 0, -9.81]"), "gravity", "",
                        "m/s^2");
  const auto tables = [&](const char* key) {
    std::vector<const toml::table*> out;
    const toml::node* n = root.get(key);
    if (!n) return out;
    const toml::array* a = n->as_array();
    if (!a) r.fail_at_node(*n, fmt::format("'{}' must be an array of tables: write [[{}]] sections", key, key));
    for (const auto& e : *a) {
      if (!e.is_table()) r.fail_at_node(e, fmt::format("each '{}' must be a table: write [[{}]] sections", key, key));
      out.push_back(e.as_table());
    }
    return out;
  };
  for (const toml::table* t : tables("body")) d.bodies.push_back(r.body(*t));
  for (const toml::table* t : tables("joint")) d.joints.push_back(r.joint(*t));
  if (d.bodies.empty()) fail_at({path, 1}, "", "no [[body]]: describe at least one body and the joint that holds it");
  return d;
}

}  // namespace liesim::multibody
