// Discovery without running plugin code: a plugin folder holding a library that crashes while it
// is loaded and a second plugin with a built-in model's name, seen through the `liesim` command.
#include <support/command.hpp>

#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>

namespace {
bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

/// `liesim --plugin-path <hostile folder> ARGS`, with the shipped plugins found beside the command.
liesim::test::Result liesim_with_hostile_folder(const std::string& args) {
  return liesim::test::sh(std::string("env LIESIM_PLUGIN_PATH= ") + LIESIM_TEST_BINARY_DIR + "/bin/liesim --plugin-path " +
                          LIESIM_TEST_HOSTILE + " " + args);
}
const std::string crashing = std::string(LIESIM_TEST_HOSTILE) + "/liesim_crash_on_load.so";
const std::string second_rigid_body = std::string(LIESIM_TEST_HOSTILE) + "/liesim_rigid_body.so";
const std::string builtin_rigid_body = std::string(LIESIM_TEST_PLUGIN_DIR) + "/liesim_rigid_body.so";
const std::string summary_file = std::string(LIESIM_TEST_BINARY_DIR) + "/test_discovery_summary.json";

std::string read(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}
}  // namespace

TEST_CASE("list reports a crashing library and a duplicated name, and exits 0") {
  const auto r = liesim_with_hostile_folder("list");
  INFO(r.out);
  CHECK(r.code == 0);
  CHECK(contains(r.out, crashing + ": crashed with SIGSEGV"));
  CHECK(contains(r.out, "names offered by more than one plugin"));
  CHECK(contains(r.out, "model rigid_body: " + second_rigid_body + ", "));
  CHECK(contains(r.out, builtin_rigid_body));
  // Everything else is still listed.
  CHECK(contains(r.out, "heavy_top"));
  CHECK(contains(r.out, "rkmk4"));

  const auto j = liesim_with_hostile_folder("list --json");
  CHECK(j.code == 0);
  CHECK(contains(j.out, "\"duplicates\""));
  CHECK(contains(j.out, "crashed with SIGSEGV"));
}

TEST_CASE("run of an unrelated model works beside a crashing library") {
  std::remove(summary_file.c_str());
  const auto r = liesim_with_hostile_folder("run --model heavy_top --integrator rkmk4 --t-end 0.1 --step 0.01 --summary " +
                                            summary_file);
  INFO(r.out);
  CHECK(r.code == 0);
  CHECK(contains(read(summary_file), "\"steps\": 10"));
}

TEST_CASE("run of a name two plugins offer is refused with both paths; the file chooses one") {
  const auto r = liesim_with_hostile_folder("run --model rigid_body --integrator rkmk4 --t-end 0.1 --step 0.01");
  INFO(r.out);
  CHECK(r.code != 0);
  CHECK(contains(r.out, "model 'rigid_body' is provided by 2 plugin files"));
  CHECK(contains(r.out, second_rigid_body));
  CHECK(contains(r.out, builtin_rigid_body));

  std::remove(summary_file.c_str());
  const auto chosen = liesim_with_hostile_folder("run --model " + builtin_rigid_body +
                                                 " --integrator rkmk4 --t-end 0.1 --step 0.01 --summary " + summary_file);
  INFO(chosen.out);
  CHECK(chosen.code == 0);
  CHECK(contains(read(summary_file), "\"steps\": 10"));
}

TEST_CASE("a study naming the duplicated model is refused before it runs") {
  const std::string dir = std::string(LIESIM_TEST_BINARY_DIR) + "/test_discovery_study";
  std::ofstream(dir + ".toml") << "name = \"duplicate\"\noutput = \"" << dir << "\"\n"
                               << "[[case]]\nname = \"rb\"\nmodel = \"rigid_body\"\nt_end = 0.1\n"
                               << "[[runs]]\nname = \"fixed\"\nintegrators = [\"rkmk4\"]\nsteps = [0.01]\ncases = [\"rb\"]\n";
  const auto r = liesim_with_hostile_folder("study " + dir + ".toml");
  INFO(r.out);
  CHECK(r.code != 0);
  CHECK(contains(r.out, "provided by 2 plugin files"));
}
