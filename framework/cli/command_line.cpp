// One command line for every command: Boost.Program_options with operands by name and generated help.
#include "command_line.hpp"

#include <liesim/sdk/status.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <sstream>

namespace liesim::cli {

const char* const global_help = R"(global options (before or after the command):
  --plugin-path DIR    also load plugins from DIR (repeatable; LIESIM_PLUGIN_PATH is colon-separated)
  --help, -h           this command's help (`liesim --help`: every command)
every option is given as --key value or --key=value.
exit status: 0 success; 1 error, bad options included (the message says what and how to fix it);
  2 no command or an unknown command;
  3 a study finished, but some of its runs failed (all results and outputs are written);
  4 run, describe, view or figure: a plugin crashed, called exit(), or ran past --run-timeout (it ran in a process of
    its own; the message says which plugin and what it was doing);
  130 (143) a study stopped by Ctrl-C (SIGTERM): what is done is written; --resume finishes it
)";

namespace {
constexpr const char* operand_option = "operand";  // the hidden option the operands are collected in
}

CommandLine::CommandLine(std::string command, std::string synopsis, std::string summary)
    : command_(std::move(command)), synopsis_(std::move(synopsis)), summary_(std::move(summary)),
      options_(fmt::format("{} options", command_), 100, 50) {}

void CommandLine::operands(std::vector<std::string>* into, const std::string& name, int min, int max) {
  operands_ = into;
  operand_name_ = name;
  min_operands_ = min;
  max_operands_ = max;
}

po::variables_map CommandLine::parse(const std::vector<std::string>& args) const {
  if (std::any_of(args.begin(), args.end(), [](const std::string& a) { return a == "--help" || a == "-h"; })) throw HelpRequested(help());
  const std::string see = fmt::format("see `liesim {} --help`", command_);
  po::options_description all;
  all.add(options_);
  po::positional_options_description positional;
  std::vector<std::string> collected;
  all.add_options()(operand_option, po::value(&collected)->composing(), "");
  if (operands_ && max_operands_ != 0) positional.add(operand_option, max_operands_);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(all).positional(positional).style(long_options_only).run(), vm);
    po::notify(vm);
  } catch (const po::too_many_positional_options_error&) {
    // Name the stray word: the first argument that is neither an option, an option's value nor an operand.
    std::string stray;
    int seen = 0;
    for (std::size_t i = 0; i < args.size() && stray.empty(); ++i) {
      if (args[i].rfind("--", 0) == 0) {
        const std::string name = args[i].substr(2);
        const po::option_description* d = name.find('=') == std::string::npos ? options_.find_nothrow(name, false) : nullptr;
        if (d && d->semantic()->max_tokens() > 0) ++i;
      } else if (max_operands_ >= 0 && seen < max_operands_) {
        ++seen;
      } else {
        stray = args[i];
      }
    }
    throw Error(fmt::format("{}: unexpected argument '{}' ({}{}; {})", command_, stray,
                            max_operands_ > 0 ? fmt::format("it takes {} ", operand_name_) : "it takes no operand",
                            max_operands_ > 0 ? "and options" : ", only options", see));
  } catch (const po::error& e) {
    throw Error(fmt::format("{}: {} ({})", command_, e.what(), see));
  }
  if (static_cast<int>(collected.size()) < min_operands_)
    throw Error(fmt::format("{} needs {}: liesim {} {} ({})", command_, operand_name_, command_, synopsis_, see));
  if (operands_) *operands_ = collected;
  return vm;
}

std::string CommandLine::help() const {
  std::ostringstream text;
  text << fmt::format("usage: liesim {} {}\n{}\n\n", command_, synopsis_, summary_) << options_ << "\n" << global_help;
  return text.str();
}

}  // namespace liesim::cli
