// Named string values (model parameters, integrator options) with typed, validated access.
#pragma once
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

}  // namespace liesim
