// Named string values (model parameters, integrator options) with typed, validated access.
// Header-only: hosts and plugins (through the SDK) compile their own copy; nothing of it crosses
// the plugin boundary (parameters and options cross as KEY/VALUE text).
#pragma once
#include <liesim/sdk/status.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

namespace liesim {

/// Declaration of one parameter or option: its name, default value (as text), unit and meaning.
struct SettingSpec {
  std::string name;           ///< key as written on the command line (`--param KEY=VALUE`)
  std::string default_value;  ///< default, as text ("" = no default: must be given or is unused)
  std::string unit;           ///< physical unit, "" where dimensionless
  std::string doc;            ///< one-line meaning
};

/// Values keyed by name, filled from defaults and user input; getters throw liesim::Error naming
/// the key and the expected form when a value is malformed or out of range.
class Settings {
 public:
  Settings() = default;
  /// Start from the defaults of `specs`, then apply `given` (KEY -> VALUE); an unknown key throws,
  /// naming it and listing the known keys. `what` names the owner ("parameter of model X").
  Settings(const std::vector<SettingSpec>& specs, const std::map<std::string, std::string>& given,
           const std::string& what);

  /// Whether a value (default or given) is present for `key`.
  bool has(const std::string& key) const;
  /// Whether the user gave `key` explicitly.
  bool given(const std::string& key) const;
  /// The raw text of `key` (throws if absent).
  const std::string& text(const std::string& key) const;
  /// A finite real number.
  double number(const std::string& key) const;
  /// A finite real number > 0.
  double positive(const std::string& key) const;
  /// An integer in [lo, hi].
  long integer(const std::string& key, long lo, long hi) const;
  /// Comma-separated finite reals whose count is one of `counts` (empty = any count >= 1).
  std::vector<double> numbers(const std::string& key, const std::vector<std::size_t>& counts = {}) const;
  /// One of the listed words.
  std::string choice(const std::string& key, const std::vector<std::string>& allowed) const;
  /// All values (for summaries), in key order.
  const std::map<std::string, std::string>& values() const { return values_; }
  /// Set a value (used by hosts to pass derived settings).
  void set(const std::string& key, const std::string& value) { values_[key] = value; }

 private:
  std::string where(const std::string& key) const;
  std::map<std::string, std::string> values_;
  std::map<std::string, bool> given_;
  std::string what_;
};

/// Parse "KEY=VALUE" into a pair; throws liesim::Error on a missing '='.
std::pair<std::string, std::string> parse_assignment(const std::string& text, const std::string& flag);

// ---- implementation ----


namespace detail {
inline std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return {};
  const auto e = s.find_last_not_of(" \t");
  return s.substr(b, e - b + 1);
}

inline bool parse_double(const std::string& text, double& out) {
  const std::string t = detail::trim(text);
  if (t.empty()) return false;
  char* end = nullptr;
  errno = 0;
  out = std::strtod(t.c_str(), &end);
  return end == t.c_str() + t.size() && errno == 0;
}
}  // namespace detail

inline Settings::Settings(const std::vector<SettingSpec>& specs,
                   const std::map<std::string, std::string>& given, const std::string& what)
    : what_(what) {
  for (const auto& s : specs)
    if (!s.default_value.empty()) values_[s.name] = s.default_value;
  for (const auto& entry : given) {
    const std::string& key = entry.first;  // (a named variable: lambdas cannot capture bindings before C++20 in every compiler)
    const bool known = std::any_of(specs.begin(), specs.end(), [&](const SettingSpec& s) { return s.name == key; });
    if (!known) {
      std::vector<std::string> names;
      for (const auto& s : specs) names.push_back(s.name);
      throw Error(fmt::format("unknown {}; known: {}", where(key),
                              names.empty() ? std::string("(none)") : fmt::format("{}", fmt::join(names, ", "))));
    }
    values_[key] = entry.second;
    given_[key] = true;
  }
}

// "parameter of model 'x'" and key N give "parameter 'N' of model 'x'".
inline std::string Settings::where(const std::string& key) const {
  const auto of = what_.find(" of ");
  if (of == std::string::npos) return fmt::format("{} '{}'", what_, key);
  return fmt::format("{} '{}'{}", what_.substr(0, of), key, what_.substr(of));
}

inline bool Settings::has(const std::string& key) const { return values_.count(key) != 0; }

inline bool Settings::given(const std::string& key) const { return given_.count(key) != 0; }

inline const std::string& Settings::text(const std::string& key) const {
  auto it = values_.find(key);
  if (it == values_.end()) throw Error(fmt::format("{} is required but was not given", where(key)));
  return it->second;
}

inline double Settings::number(const std::string& key) const {
  double v = 0;
  const std::string& t = text(key);
  if (!detail::parse_double(t, v)) throw Error(fmt::format("{}: '{}' is not a number", where(key), t));
  if (!std::isfinite(v)) throw Error(fmt::format("{}: '{}' is not finite", where(key), t));
  return v;
}

inline double Settings::positive(const std::string& key) const {
  const double v = number(key);
  if (!(v > 0)) throw Error(fmt::format("{} must be positive (got {})", where(key), text(key)));
  return v;
}

inline long Settings::integer(const std::string& key, long lo, long hi) const {
  const std::string t = detail::trim(text(key));
  char* end = nullptr;
  errno = 0;
  const long v = std::strtol(t.c_str(), &end, 10);
  if (t.empty() || end != t.c_str() + t.size() || errno != 0)
    throw Error(fmt::format("{}: '{}' is not an integer", where(key), t));
  if (v < lo || v > hi) throw Error(fmt::format("{} must be in [{}, {}] (got {})", where(key), lo, hi, v));
  return v;
}

inline std::vector<double> Settings::numbers(const std::string& key, const std::vector<std::size_t>& counts) const {
  const std::string& t = text(key);
  std::vector<double> out;
  std::size_t start = 0;
  while (true) {
    const auto comma = t.find(',', start);
    const std::string item = t.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    double v = 0;
    if (!detail::parse_double(item, v))
      throw Error(fmt::format("{}: '{}' is not a comma-separated list of numbers (bad item '{}')", where(key), t, detail::trim(item)));
    if (!std::isfinite(v)) throw Error(fmt::format("{}: item '{}' is not finite", where(key), detail::trim(item)));
    out.push_back(v);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (!counts.empty() && std::find(counts.begin(), counts.end(), out.size()) == counts.end())
    throw Error(fmt::format("{}: expected {} value(s), got {} ('{}')", where(key), fmt::join(counts, " or "), out.size(), t));
  return out;
}

inline std::string Settings::choice(const std::string& key, const std::vector<std::string>& allowed) const {
  const std::string t = detail::trim(text(key));
  if (std::find(allowed.begin(), allowed.end(), t) == allowed.end())
    throw Error(fmt::format("{}: '{}' is not one of: {}", where(key), t, fmt::join(allowed, ", ")));
  return t;
}

inline std::pair<std::string, std::string> parse_assignment(const std::string& text, const std::string& flag) {
  const auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0)
    throw Error(fmt::format("{} expects KEY=VALUE, got '{}'", flag, text));
  return {detail::trim(text.substr(0, eq)), detail::trim(text.substr(eq + 1))};
}

}  // namespace liesim
