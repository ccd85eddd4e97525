// One command line for every command of `liesim`: its options (Boost.Program_options, as
// `--key value` or `--key=value`), its operands (the positional arguments, by name), and its help,
// generated from the same table that parses it.
#pragma once
#include <boost/program_options.hpp>

#include <stdexcept>
#include <string>
#include <vector>

namespace liesim::cli {

namespace po = boost::program_options;

/// Thrown by CommandLine::parse for --help or -h: the command's help text (main prints it, exit 0).
struct HelpRequested : std::runtime_error {
  explicit HelpRequested(const std::string& text) : std::runtime_error(text) {}
};

class CommandLine {
 public:
  /// `command` as typed ("run", "study merge"), `synopsis` its operands and main options as the
  /// usage line shows them, `summary` what it does (a sentence or two).
  CommandLine(std::string command, std::string synopsis, std::string summary);
  /// Declare options: add()("name", po::value(&x), "meaning")("flag", po::bool_switch(&b), "...").
  po::options_description_easy_init add() { return options_.add_options(); }
  /// The operands go to `into` in order; `name` shows them in messages ("FILE.toml"); at most
  /// `max` of them (-1: any number), at least `min`.
  void operands(std::vector<std::string>* into, const std::string& name, int min, int max);
  /// Parse `args` (the words after the command): a liesim::Error naming the command, the problem
  /// and `liesim COMMAND --help` for bad options, a stray word or missing operands;
  /// HelpRequested for --help / -h anywhere.
  po::variables_map parse(const std::vector<std::string>& args) const;
  /// Usage line, summary, every option with its meaning, then the global options.
  std::string help() const;
  const std::string& command() const { return command_; }

 private:
  std::string command_, synopsis_, summary_;
  po::options_description options_;
  std::vector<std::string>* operands_ = nullptr;
  std::string operand_name_;
  int min_operands_ = 0, max_operands_ = 0;
};

/// How every command line is read: long options only (`--key value`, `--key=value`), no
/// abbreviations and no short options, so that a value such as "-0.5" is a value.
inline constexpr int long_options_only = po::command_line_style::unix_style & ~po::command_line_style::allow_guessing &
                                         ~po::command_line_style::allow_sticky & ~po::command_line_style::allow_short;

/// The global options (before or after the command) and the exit statuses, as every help ends.
extern const char* const global_help;

}  // namespace liesim::cli
