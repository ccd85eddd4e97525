// `liesim new model|integrator NAME [--dir DIR]`: a ready-to-build plugin folder from the templates.
#include "command_line.hpp"
#include "commands.hpp"

#include <liesim/sdk/status.hpp>

#include <boost/dll/runtime_symbol_info.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string_view>

namespace fs = std::filesystem;

namespace liesim::cli {

namespace {

constexpr const char* new_summary = R"(Writes a plugin folder DIR (default ./NAME) from the installed template: CMakeLists.txt, the
  source, README.md and a test, with the template's name replaced by NAME. NAME is a C identifier
  (it names the plugin, its CMake target and its C++ namespace). --lang c (models only) writes a
  plugin in C99 that uses liesim/lie.h and needs a C compiler and liesim::c_sdk only. Build it out of tree:
    cmake -S DIR -B DIR/build -DCMAKE_PREFIX_PATH=<liesim install prefix> && cmake --build DIR/build
    LIESIM_PLUGIN_PATH=DIR/build/plugins liesim describe NAME        (a model)
    LIESIM_PLUGIN_PATH=DIR/build/plugins liesim describe NAME_ssp3   (the integrator template's method))";

/// A template: the `liesim new` word, its language (--lang), its folder under
/// share/liesim/templates, and the name in it.
struct Template {
  std::string_view kind;
  std::string_view lang;
  std::string_view folder;
  std::string_view token;
};
constexpr std::array<Template, 3> templates{{
    {"model", "c++", "model", "example_model"},
    {"model", "c", "model_c", "example_c_model"},
    {"integrator", "c++", "integrator", "example_integrator"},
}};

constexpr std::string_view cpp_keywords[] = {
    "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break", "case", "catch",
    "char", "char8_t", "char16_t", "char32_t", "class", "compl", "concept", "const", "consteval", "constexpr",
    "constinit", "const_cast", "continue", "co_await", "co_return", "co_yield", "decltype", "default", "delete",
    "do", "double", "dynamic_cast", "else", "enum", "explicit", "export", "extern", "false", "float", "for",
    "friend", "goto", "if", "inline", "int", "long", "mutable", "namespace", "new", "noexcept", "not", "not_eq",
    "nullptr", "operator", "or", "or_eq", "private", "protected", "public", "register", "reinterpret_cast",
    "requires", "return", "short", "signed", "sizeof", "static", "static_assert", "static_cast", "struct",
    "switch", "template", "this", "thread_local", "throw", "true", "try", "typedef", "typeid", "typename",
    "union", "unsigned", "using", "virtual", "void", "volatile", "wchar_t", "while", "xor", "xor_eq",
    "restrict",  // C99
    // names the generated code cannot use as its namespace
    "std", "liesim", "Eigen", "boost", "fmt"};

/// "" if `name` can name a plugin, its CMake target and its C++ namespace; else why not.
std::string name_problem(const std::string& name) {
  if (name.empty()) return "the name is empty";
  const auto ident_char = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'; };
  if (name[0] >= '0' && name[0] <= '9') return "it starts with a digit";
  const auto bad = std::find_if_not(name.begin(), name.end(), ident_char);
  if (bad != name.end()) return fmt::format("it contains '{}'", *bad);
  if (std::find(std::begin(cpp_keywords), std::end(cpp_keywords), name) != std::end(cpp_keywords))
    return "it is a C++ keyword or a namespace the plugin code uses";
  if (name.find("__") != std::string::npos || (name.size() > 1 && name[0] == '_' && name[1] >= 'A' && name[1] <= 'Z'))
    return "identifiers with '__' or starting with '_' and a capital letter are reserved in C++";
  return {};
}

std::string replace_all(std::string text, std::string_view from, const std::string& to) {
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

/// This `liesim` executable.
fs::path executable() {
  std::error_code ec;
  const fs::path exe = boost::dll::program_location(ec);
  if (ec) throw Error(fmt::format("new: cannot locate the liesim executable to find its templates ({})", ec.message()));
  return exe;
}

/// share/liesim/templates beside the executable (bin/../share/liesim/templates), as installed
/// and as mirrored in the build tree.
fs::path template_root() { return executable().parent_path().parent_path() / "share" / "liesim" / "templates"; }

/// How the plugin's README and the printed steps call liesim: `liesim` when this executable is the
/// one on PATH, else its absolute path (a build tree, a prefix outside PATH).
std::string command_name() {
  const fs::path exe = executable();
  const char* path = std::getenv("PATH");
  std::string_view rest = path ? path : "";
  while (!rest.empty()) {
    const std::size_t colon = rest.find(':');
    const fs::path dir(std::string(rest.substr(0, colon)));
    std::error_code ec;
    if (!dir.empty() && fs::equivalent(dir / "liesim", exe, ec)) return "liesim";
    if (colon == std::string_view::npos) break;
    rest.remove_prefix(colon + 1);
  }
  return exe.string();
}

std::string read_file(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw Error(fmt::format("new: cannot read the template file {}", file.string()));
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

int new_plugin(const std::vector<std::string>& args) {
  std::vector<std::string> positional;
  std::string dir;
  std::string lang = "c++";
  CommandLine cl("new", "(model|integrator) NAME [--dir DIR] [--lang c++|c]", new_summary);
  cl.add()("dir", po::value(&dir)->value_name("DIR"), "the plugin's folder (default ./NAME)")(
      "lang", po::value(&lang)->value_name("c++|c"), "the template's language (default c++; c: models only)");
  cl.operands(&positional, "a kind and a NAME: (model|integrator) NAME", 2, 2);
  cl.parse(args);
  const std::string& kind = positional[0];
  const std::string& name = positional[1];
  if (lang == "cpp" || lang == "cxx" || lang == "C++") lang = "c++";
  if (lang == "C") lang = "c";
  if (lang != "c++" && lang != "c") throw Error(fmt::format("new: unknown language '{}': use --lang c++ or --lang c", lang));
  const auto same_kind = [&](const Template& x) { return x.kind == kind; };
  if (std::none_of(templates.begin(), templates.end(), same_kind))
    throw Error(fmt::format("new: unknown kind '{}': use 'model' or 'integrator'", kind));
  const auto t = std::find_if(templates.begin(), templates.end(), [&](const Template& x) { return same_kind(x) && x.lang == lang; });
  if (t == templates.end())
    throw Error(fmt::format("new: there is no {} template in {}: integrator plugins are written in C++ (--lang c++)", kind, lang));
  if (const std::string why = name_problem(name); !why.empty())
    throw Error(fmt::format("new: '{}' is not a valid plugin name: {}. Use a C identifier such as my_{} "
                            "(letters, digits and '_', not starting with a digit)", name, why, kind));

  const fs::path source = template_root() / std::string(t->folder);
  if (!fs::is_directory(source))
    throw Error(fmt::format("new: the {} template ({}) is missing: {} does not exist (liesim installs its templates "
                            "to share/liesim/templates beside bin/liesim)", kind, lang, source.string()));
  const fs::path target = fs::absolute(dir.empty() ? fs::path(name) : fs::path(dir)).lexically_normal();
  if (fs::exists(target))
    throw Error(fmt::format("new: the target folder {} already exists; choose another with --dir DIR or remove it",
                            target.string()));

  // This liesim's prefix (an install prefix, or a build folder: both hold lib/cmake/liesim) and how
  // to call it, written into the README in place of the template's placeholders.
  const fs::path prefix = template_root().parent_path().parent_path().parent_path();
  const bool has_package = fs::exists(prefix / "lib" / "cmake" / "liesim" / "liesimConfig.cmake");
  const std::string liesim = command_name();
  const auto fill = [&](std::string text, const fs::path& file) {
    text = replace_all(std::move(text), t->token, name);
    if (file.extension() == ".md") {
      if (has_package) text = replace_all(std::move(text), "/path/to/liesim/prefix", prefix.string());
      if (liesim != "liesim") text = replace_all(std::move(text), "\nliesim ", "\n" + liesim + " ");
    }
    return text;
  };

  // Copy every template file, replacing the template's name in paths and contents. On failure the
  // half-written folder (created here) is removed.
  std::vector<fs::path> written;
  try {
    fs::create_directories(target);
    std::vector<fs::path> files;
    for (const auto& e : fs::recursive_directory_iterator(source))
      if (e.is_regular_file()) files.push_back(e.path());
    std::sort(files.begin(), files.end());
    for (const auto& file : files) {
      const fs::path rel = replace_all(fs::relative(file, source).generic_string(), t->token, name);
      const fs::path out = target / rel;
      fs::create_directories(out.parent_path());
      std::ofstream o(out, std::ios::binary);
      o << fill(read_file(file), file);
      if (!o.flush()) throw Error(fmt::format("new: cannot write {}", out.string()));
      written.push_back(rel);
    }
  } catch (...) {
    std::error_code ec;
    fs::remove_all(target, ec);
    throw;
  }

  fmt::print("created {} plugin '{}' in {}:\n", kind, name, target.string());
  for (const auto& f : written) fmt::print("  {}\n", f.generic_string());
  // `describe` takes a model or a method: the integrator template's family NAME has the method NAME_ssp3.
  const std::string describable = kind == "integrator" ? name + "_ssp3" : name;
  fmt::print("build and load it:\n"
             "  cmake -S {0} -B {0}/build -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH={1}\n"
             "  cmake --build {0}/build -j2 && ctest --test-dir {0}/build\n"
             "  LIESIM_PLUGIN_PATH={0}/build/plugins {3} describe {2}\n",
             target.string(), has_package ? prefix.string() : "<liesim install prefix>", describable, liesim);
  if (!has_package)
    fmt::print("(no CMake package of liesim beside this executable: install it first, e.g. cmake --install build --prefix PREFIX)\n");
  return 0;
}

}  // namespace liesim::cli
