// The plugin SDK as a third party uses it: `cmake --install` this build into a temporary prefix,
// build the plugin templates out of tree against that prefix only (find_package(liesim)), load them
// into the installed, unmodified `liesim` through LIESIM_PLUGIN_PATH and check the numbers; then
// `liesim new model foo`, build that folder and load it.
#include <support/command.hpp>
#include <support/runpath.hpp>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

using liesim::test::Result;
using liesim::test::sh;

std::string quote(const fs::path& p) {
  std::string s(1, '\'');
  s += p.string();
  s += '\'';
  return s;
}


/// Run and require success, showing the command and its output otherwise.
std::string must(const std::string& cmd) {
  const Result r = sh(cmd);
  INFO("command: " << cmd << "\noutput:\n" << r.out);
  REQUIRE(r.code == 0);
  return r.out;
}

bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

std::string read(const fs::path& file) {
  std::ifstream in(file);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// The temporary prefix with liesim installed into it (once per test process).
struct Sdk {
  fs::path root, prefix;
  Sdk() {
    root = fs::temp_directory_path() / ("liesim_sdk_" + std::to_string(::getpid()));
    fs::remove_all(root);
    fs::create_directories(root);
    prefix = root / "prefix";
    must(std::string(LIESIM_TEST_CMAKE) + " --install " + quote(LIESIM_TEST_BINARY_DIR) + " --prefix " + quote(prefix));
  }
  ~Sdk() {
    if (!std::getenv("LIESIM_SDK_KEEP")) {
      std::error_code ec;
      fs::remove_all(root, ec);
    }
  }
  fs::path liesim() const { return prefix / "bin" / "liesim"; }

  /// Configure (Release, this prefix only, the compiler liesim was built with) and build with -j2.
  void build(const fs::path& source, const fs::path& build_dir) const {
    must("env -u CMAKE_PREFIX_PATH -u liesim_DIR " + std::string(LIESIM_TEST_CMAKE) + " -S " + quote(source) + " -B " +
         quote(build_dir) + " -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=" + quote(prefix) +
         " -DCMAKE_CXX_COMPILER=" + quote(LIESIM_TEST_CXX_COMPILER) + " -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF");
    // liesim came from the temporary prefix, not from the build tree or a system installation.
    CHECK(has(read(build_dir / "CMakeCache.txt"), "liesim_DIR:PATH=" + (prefix / "lib" / "cmake" / "liesim").string()));
    must(std::string(LIESIM_TEST_CMAKE) + " --build " + quote(build_dir) + " -j2");
  }
  /// Configure a C-only plugin project with the C compiler LIESIM_TEST_C_COMPILER (clang), this
  /// prefix only, and every C++ package liesim's C++ SDK needs disabled (it must not look for them),
  /// then build it.
  void build_c(const fs::path& source, const fs::path& build_dir) const {
    must("env -u CMAKE_PREFIX_PATH -u liesim_DIR -u CC " + std::string(LIESIM_TEST_CMAKE) + " -S " + quote(source) + " -B " +
         quote(build_dir) + " -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=" + quote(prefix) +
         " -DCMAKE_C_COMPILER=" + quote(LIESIM_TEST_C_COMPILER) + " -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF" +
         " -DCMAKE_DISABLE_FIND_PACKAGE_Eigen3=ON -DCMAKE_DISABLE_FIND_PACKAGE_fmt=ON"
         " -DCMAKE_DISABLE_FIND_PACKAGE_Boost=ON -DCMAKE_DISABLE_FIND_PACKAGE_nlohmann_json=ON");
    const std::string cache = read(build_dir / "CMakeCache.txt");
    CHECK(has(cache, "liesim_DIR:PATH=" + (prefix / "lib" / "cmake" / "liesim").string()));
    // Given on the command line, the compiler is cached as STRING (FILEPATH when CMake finds it).
    CHECK((has(cache, "CMAKE_C_COMPILER:STRING=" + std::string(LIESIM_TEST_C_COMPILER) + "\n") ||
           has(cache, "CMAKE_C_COMPILER:FILEPATH=" + std::string(LIESIM_TEST_C_COMPILER) + "\n")));
    CHECK_FALSE(has(cache, "CMAKE_CXX_COMPILER:"));  // a C project: no C++ compiler at all
    must(std::string(LIESIM_TEST_CMAKE) + " --build " + quote(build_dir) + " -j2");
  }
  /// The plugin's own tests (ctest in its build folder).
  void ctest(const fs::path& build_dir) const {
    const std::string out = must(std::string(LIESIM_TEST_CTEST) + " --test-dir " + quote(build_dir) + " --output-on-failure");
    CHECK(has(out, "100% tests passed"));
  }

  /// `liesim ARGS` of the installed command with LIESIM_PLUGIN_PATH = plugin_path.
  Result run(const std::string& plugin_path, const std::string& args) const {
    return sh("env LIESIM_PLUGIN_PATH=" + quote(plugin_path) + " " + quote(liesim()) + " " + args);
  }
  /// A run's JSON summary.
  json summary(const std::string& plugin_path, const std::string& model, const std::string& method, const std::string& rest) const {
    static int count = 0;
    const fs::path file = root / ("summary_" + std::to_string(++count) + ".json");
    const std::string args = "run --model " + model + " --integrator " + method + " " + rest + " --summary " + quote(file);
    const Result r = run(plugin_path, args);
    INFO("liesim " << args << "\n" << r.out);
    REQUIRE(r.code == 0);
    json j = json::parse(read(file));
    REQUIRE(j["status"] == "ok");
    return j;
  }
};

const Sdk& sdk() {
  static const Sdk s;
  return s;
}

std::vector<double> state(const json& j) { return j["final_state"].get<std::vector<double>>(); }

double max_diff(const std::vector<double>& a, const std::vector<double>& b) {
  REQUIRE(a.size() == b.size());
  double m = 0;
  for (std::size_t i = 0; i < a.size(); ++i) m = std::max(m, std::abs(a[i] - b[i]));
  return m;
}

double drift(const json& j, const char* invariant) { return j["invariants"][invariant]["max_abs_drift"].get<double>(); }

}  // namespace

TEST_CASE("cmake --install gives a self-contained prefix: library, headers, command, plugins, templates, CMake package") {
  const Sdk& s = sdk();
  for (const char* f : {"bin/liesim", "lib/libliesim.so", "include/liesim/sdk/plugin.hpp", "include/liesim/version.hpp",
                        "include/liesim/lie/actions.hpp", "lib/cmake/liesim/liesimConfig.cmake",
                        "lib/cmake/liesim/liesimConfigVersion.cmake", "lib/cmake/liesim/liesimTargets.cmake",
                        "lib/cmake/liesim/LiesimPlugin.cmake", "lib/liesim/plugins/liesim_lie_rk.so", "include/liesim/lie.h",
                        "share/liesim/templates/model_c/model.c", "share/liesim/templates/model_c/CMakeLists.txt",
                        "lib/liesim/plugins/liesim_classical_rk.so", "lib/liesim/plugins/liesim_rigid_body.so",
                        "share/liesim/templates/model/CMakeLists.txt", "share/liesim/templates/integrator/family.cpp"}) {
    CAPTURE(f);
    CHECK(fs::exists(s.prefix / f));
  }
  // The package refers to the prefix only (relocatable), never to this source or build tree.
  for (const auto& e : fs::directory_iterator(s.prefix / "lib" / "cmake" / "liesim")) {
    const std::string text = read(e.path());
    CAPTURE(e.path().string());
    CHECK_FALSE(has(text, LIESIM_TEST_SOURCE_DIR));
    CHECK_FALSE(has(text, LIESIM_TEST_BINARY_DIR));
  }
  // No installed binary or plugin searches the working directory (no empty or relative RUNPATH).
  const auto scan = liesim::test::scan_runpaths({s.prefix / "bin", s.prefix / "lib", s.prefix / "lib" / "liesim" / "plugins"});
  CHECK(scan.unsafe == std::vector<std::string>{});
  CHECK(scan.elf_files >= 8);
  // The installed command finds the installed plugins beside it, and none fails.
  const Result r = s.run("", "list --json");
  REQUIRE(r.code == 0);
  const json j = json::parse(r.out);
  CHECK(j["failures"].empty());
  CHECK(j["models"].size() >= 6);
  CHECK(j["integrators"].size() >= 2);
}

TEST_CASE("the model template builds out of tree and matches pendulum_chain N=1 under three integrators") {
  const Sdk& s = sdk();
  const fs::path build = s.root / "build_model";
  s.build(s.prefix / "share/liesim/templates/model", build);
  CHECK(fs::exists(build / "plugins" / "liesim_example_model.so"));
  s.ctest(build);
  const std::string plugins = (build / "plugins").string();

  const Result d = s.run(plugins, "describe example_model");
  REQUIRE(d.code == 0);
  CHECK(has(d.out, "SE(3)"));
  CHECK(has(d.out, "q_norm_minus_1"));

  // The same system as the shipped pendulum_chain with N = 1 and the same defaults: every method
  // must give the same final state up to round-off (its own error is ~1e-3 to 1e-9 here).
  for (const char* method : {"lie_euler", "rkmk4", "rk4"}) {
    CAPTURE(method);
    const json a = s.summary(plugins, "example_model", method, "--t-end 2 --step 0.01");
    const json b = s.summary(plugins, "pendulum_chain", method, "--param N=1 --t-end 2 --step 0.01");
    CHECK(a["plugins"]["model"]["file"].get<std::string>().find(plugins) == 0);
    CHECK(max_diff(state(a), state(b)) < 1e-10);
    CHECK(std::abs(a["invariants"]["energy"]["initial"].get<double>() - b["invariants"]["energy"]["initial"].get<double>()) < 1e-12);
    if (std::string(method) != "rk4") {
      // Lie group methods stay on TS^2 to round-off.
      CHECK(drift(a, "q_norm_minus_1") < 1e-13);
      CHECK(drift(a, "q_dot_w") < 1e-13);
    } else {
      // The classical method leaves the manifold (slightly): it integrates F in R^6.
      CHECK(drift(a, "q_norm_minus_1") > 1e-12);
    }
    if (std::string(method) != "lie_euler") CHECK(drift(a, "energy") < 1e-6);
  }
  // Invalid parameters are refused with the plugin's message.
  const Result bad = s.run(plugins, "run --model example_model --integrator rkmk4 --param q0=1,0,0 --param w0=1,0,0 --step 0.1");
  CHECK(bad.code != 0);
  CHECK(has(bad.out, "q . w"));
}

TEST_CASE("the integrator template builds out of tree and integrates shipped models with order 3") {
  const Sdk& s = sdk();
  const fs::path build = s.root / "build_integrator";
  s.build(s.prefix / "share/liesim/templates/integrator", build);
  CHECK(fs::exists(build / "plugins" / "liesim_example_integrator.so"));
  s.ctest(build);
  const std::string plugins = (build / "plugins").string();
  const char* method = "example_integrator_ssp3";

  // Oscillator (x0 = 0.5, v0 = 0, m = k = 1): exact x = 0.5 cos t, v = -0.5 sin t.
  const std::vector<double> exact{0.5 * std::cos(2.0), -0.5 * std::sin(2.0)};
  const json a = s.summary(plugins, "oscillator", method, "--t-end 2 --step 0.02");
  const json b = s.summary(plugins, "oscillator", method, "--t-end 2 --step 0.01");
  CHECK(b["plugins"]["integrator"]["name"] == "example_integrator");
  const double ea = max_diff(state(a), exact), eb = max_diff(state(b), exact);
  CHECK(eb < 1e-6);
  CHECK(eb > 1e-12);  // a real third-order method, not the exact solution
  CHECK(ea / eb == doctest::Approx(8.0).epsilon(0.1));

  // Rigid body: a Lie group method keeps |y| (Casimir) to round-off; close to an rkmk4 reference.
  const json r = s.summary(plugins, "rigid_body", method, "--t-end 10 --step 0.01");
  const json ref = s.summary(plugins, "rigid_body", "rkmk4", "--t-end 10 --step 0.001");
  CHECK(drift(r, "norm") < 1e-13);
  CHECK(drift(r, "energy") < 1e-5);
  CHECK(max_diff(state(r), state(ref)) < 1e-4);
  CHECK(r["stats"]["steps"] == 1000);
}

// Building, testing and loading what `liesim new model` writes is the plugin guide's walkthrough
// (tests/cli/guide_walkthrough.sh, test_guide_walkthrough), as the guide gives the commands.
TEST_CASE("liesim new model foo: the folder's files are renamed; invalid requests are refused") {
  const Sdk& s = sdk();
  const fs::path dir = s.root / "foo";
  const Result made = s.run("", "new model foo --dir " + quote(dir));
  INFO(made.out);
  REQUIRE(made.code == 0);
  for (const char* f : {"CMakeLists.txt", "model.cpp", "README.md", "test_model.cpp"}) {
    CAPTURE(f);
    REQUIRE(fs::exists(dir / f));
    CHECK_FALSE(has(read(dir / f), "example_model"));
  }
  CHECK(has(read(dir / "model.cpp"), "LIESIM_PLUGIN(model, \"foo\""));
  CHECK(has(read(dir / "README.md"), "# foo"));

  // Refusals: an existing folder, names that are not C identifiers or are keywords, unknown kinds.
  Result r = s.run("", "new model foo --dir " + quote(dir));
  CHECK(r.code != 0);
  CHECK(has(r.out, "already exists"));
  r = s.run("", "new model 9lives --dir " + quote(s.root / "x"));
  CHECK(r.code != 0);
  CHECK(has(r.out, "'9lives' is not a valid plugin name"));
  r = s.run("", "new model my-model --dir " + quote(s.root / "x"));
  CHECK(r.code != 0);
  CHECK(has(r.out, "contains '-'"));
  r = s.run("", "new integrator class --dir " + quote(s.root / "x"));
  CHECK(r.code != 0);
  CHECK(has(r.out, "keyword"));
  r = s.run("", "new solver bar");
  CHECK(r.code != 0);
  CHECK(has(r.out, "unknown kind 'solver'"));
  CHECK_FALSE(fs::exists(s.root / "x"));

}

TEST_CASE("liesim new in the build tree finds the templates beside the executable") {
  const fs::path dir = sdk().root / "bar";
  const Result r = sh("env LIESIM_PLUGIN_PATH= " + quote(fs::path(LIESIM_TEST_BINARY_DIR) / "bin" / "liesim") +
                      " new integrator bar --dir " + quote(dir));
  INFO(r.out);
  REQUIRE(r.code == 0);
  const std::string family = read(dir / "family.cpp");
  CHECK(has(family, "\"bar_ssp3\""));
  CHECK(has(family, "LIESIM_PLUGIN(integrator, \"bar\""));
  CHECK_FALSE(has(family, "example_integrator"));
  // The follow-up command names something `describe` knows: the method, not the family.
  CHECK(has(r.out, "liesim describe bar_ssp3"));

  // Renamed methods (an author's first edit): the folder's own tests read the methods from the
  // family, so they still build and pass, and test the renamed methods.
  std::string renamed = family;
  for (const auto& rename : std::vector<std::pair<std::string, std::string>>{{"\"bar_ssp3\"", "\"bar_shu_osher3\""},
                                                                              {"\"bar_bs32\"", "\"bar_pair32\""}}) {
    const auto at = renamed.find(rename.first);
    REQUIRE(at != std::string::npos);
    renamed.replace(at, rename.first.size(), rename.second);
  }
  std::ofstream(dir / "family.cpp") << renamed;
  const Sdk& s = sdk();
  const fs::path build = dir / "build";
  s.build(dir, build);
  s.ctest(build);
  const Result l = s.run((build / "plugins").string(), "list");
  CHECK(has(l.out, "bar_shu_osher3"));
  CHECK(has(l.out, "bar_pair32"));
}

TEST_CASE("liesim new model NAME --lang c: a C99 plugin on liesim/lie.h and liesim::c_sdk, built with clang, equals pendulum_chain N=1") {
  const Sdk& s = sdk();
  const fs::path dir = s.root / "cpend";
  const Result made = s.run("", "new model cpend --lang c --dir " + quote(dir));
  INFO(made.out);
  REQUIRE(made.code == 0);
  for (const char* f : {"CMakeLists.txt", "model.c", "README.md", "test_model.c"}) {
    CAPTURE(f);
    REQUIRE(fs::exists(dir / f));
    CHECK_FALSE(has(read(dir / f), "example_c_model"));
  }
  const std::string source = read(dir / "model.c");
  CHECK(has(source, "#define PLUGIN_NAME \"cpend\""));
  CHECK(has(source, "#include <liesim/lie.h>"));
  CHECK(has(source, "liesim_se3_ts2_act_exp"));
  CHECK(has(read(dir / "CMakeLists.txt"), "COMPONENTS c_sdk"));

  // Integrators have no C template; unknown languages are refused.
  Result r = s.run("", "new integrator cint --lang c --dir " + quote(s.root / "y"));
  CHECK(r.code != 0);
  CHECK(has(r.out, "no integrator template in c"));
  r = s.run("", "new model cm --lang fortran --dir " + quote(s.root / "y"));
  CHECK(r.code != 0);
  CHECK(has(r.out, "unknown language 'fortran'"));
  CHECK_FALSE(fs::exists(s.root / "y"));

  // Build with clang and no C++ package, run the plugin's own tests (its checks and `liesim run`).
  const fs::path build = dir / "build";
  s.build_c(dir, build);
  s.ctest(build);
  const std::string plugins = (build / "plugins").string();
  CHECK(fs::exists(build / "plugins" / "liesim_cpend.so"));
  const Result d = s.run(plugins, "describe cpend");
  REQUIRE(d.code == 0);
  CHECK(has(d.out, "SE(3)"));

  // Built by hand, without a RUNPATH to the kernel library it links for lie.h: the command (which has
  // the kernel linked in, not loaded) loads that library from beside itself, and the plugin runs.
  const fs::path by_hand = dir / "by_hand";
  fs::create_directories(by_hand);
  const Result cc = sh(quote(LIESIM_TEST_C_COMPILER) + " -std=c99 -O2 -fPIC -shared -fvisibility=hidden -I" +
                       quote((s.prefix / "include").string()) + " " + quote((dir / "model.c").string()) + " -o " +
                       quote((by_hand / "liesim_cpend.so").string()) + " -L" + quote((s.prefix / "lib").string()) + " -lliesim -lm");
  REQUIRE_MESSAGE(cc.code == 0, cc.out);
  CHECK_FALSE(has(sh("readelf -d " + quote((by_hand / "liesim_cpend.so").string())).out, "RUNPATH"));
  CHECK(has(sh("readelf -d " + quote((by_hand / "liesim_cpend.so").string())).out, "libliesim.so.1"));
  const Result hand = s.run(by_hand.string(), "run --model cpend --integrator rkmk4 --t-end 0.1 --step 0.01");
  CHECK_MESSAGE(hand.code == 0, hand.out);
  CHECK(has(hand.out, "reached in 10 steps"));

  // The same system as the shipped C++ pendulum_chain with N = 1: equal to 1e-13 (the Lie group
  // operations are the kernel's own code; the generator is the chain's for N = 1).
  for (const char* method : {"rkmk4", "rk4"}) {
    CAPTURE(method);
    const json a = s.summary(plugins, "cpend", method, "--t-end 2 --step 0.01");
    const json b = s.summary(plugins, "pendulum_chain", method, "--param N=1 --t-end 2 --step 0.01");
    CHECK(a["model"] == "cpend");
    CHECK(a["plugins"]["model"]["file"].get<std::string>().find(plugins) == 0);
    const double diff = max_diff(state(a), state(b));
    CAPTURE(diff);
    CHECK(diff < 1e-13);
    CHECK(std::abs(a["invariants"]["energy"]["initial"].get<double>() - b["invariants"]["energy"]["initial"].get<double>()) < 1e-13);
    if (std::string(method) == "rkmk4") CHECK(drift(a, "q_norm_minus_1") < 1e-13);
  }
}
