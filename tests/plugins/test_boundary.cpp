// The C plugin boundary: plugins written in C, built with another compiler or against an older
// ABI minor load into this host and run; plugins that fail say why and the others still load.
#include <support/plugins.hpp>

#include <doctest/doctest.h>

#include <fmt/format.h>

#include <fstream>
#include <iterator>

using namespace liesim;

namespace {
bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

/// The registry of the test plugins and this build's shipped plugins (integrators included).
Registry test_registry() {
  Registry r;
  r.load_directories({LIESIM_TEST_PLUGINS, LIESIM_TEST_PLUGIN_DIR});
  return r;
}

/// Final state and counters of one run.
struct Outcome {
  Eigen::VectorXd y;
  Stats stats;
};
Outcome run(const Registry& r, const std::string& model, const std::string& method, double t_end, double h, double rtol = 0,
            const std::map<std::string, std::string>& params = {}, const std::map<std::string, std::string>& options = {}) {
  RunRequest q;
  q.model = model;
  q.method = method;
  q.parameters = params;
  q.options = options;
  q.t_end = t_end;
  q.step = h;
  q.rtol = rtol;
  q.atol = rtol * 1e-2;
  PreparedRun p = prepare_run(r, q);
  NullObserver obs;
  RunResult res = execute(p, obs);
  return {res.y, res.stats};
}

/// The message of the liesim::Error `f` throws ("" when it does not throw).
template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return {};
}

std::string file_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}
}  // namespace

TEST_CASE("a model plugin in plain C runs under rkmk4, rk4 and cvode_bdf and equals the C++ template") {
  // No C++ in the library: no C++ runtime among its dependencies, no mangled C++ symbol.
  const std::string so = file_text(std::string(LIESIM_TEST_PLUGINS) + "/liesim_c_pendulum.so");
  REQUIRE(!so.empty());
  CHECK_FALSE(contains(so, "libstdc++"));
  CHECK_FALSE(contains(so, "_ZN"));

  const Registry r = test_registry();
  CHECK(r.model("c_pendulum").abi_minor == LIESIM_ABI_MINOR);
  const std::map<std::string, std::string> params{{"m", "2"}, {"L", "0.5"}, {"q0", "0.6,0,0.8"}, {"w0", "0,2,0"}};
  struct Case {
    const char* method;
    double h, rtol, tol;
  };
  // rk4 and cvode_bdf see F only: the same formulas in C and C++ give the same bits. rkmk4 also
  // uses exp and dexpinv, whose coefficient series are written independently: round-off apart.
  for (const Case c : {Case{"rkmk4", 0.01, 0, 1e-13}, Case{"rk4", 0.01, 0, 0.0}, Case{"cvode_bdf", 0, 1e-8, 0.0}}) {
    CAPTURE(c.method);
    const Outcome in_c = run(r, "c_pendulum", c.method, 2.0, c.h, c.rtol, params);
    const Outcome in_cxx = run(r, "example_model", c.method, 2.0, c.h, c.rtol, params);
    CHECK(in_c.stats.steps > 10);
    CHECK(in_c.stats.steps == in_cxx.stats.steps);
    CHECK(in_c.stats.counters.F_evals + in_c.stats.counters.f_evals == in_cxx.stats.counters.F_evals + in_cxx.stats.counters.f_evals);
    CHECK((in_c.y - in_cxx.y).lpNorm<Eigen::Infinity>() <= c.tol);
    // And the run is a real one: the pendulum has moved and stayed on TS^2.
    CHECK((in_c.y.head<3>() - Eigen::Vector3d(0.6, 0, 0.8)).norm() > 0.1);
    CHECK(std::abs(in_c.y.head<3>().norm() - 1.0) < (std::string(c.method) == "rkmk4" ? 1e-14 : 1e-4));
  }
}

TEST_CASE("a C plugin's own checks reach the user: malformed and off-manifest parameters") {
  const Registry r = test_registry();
  CHECK(contains(error_of([&] { run(r, "c_pendulum", "rk4", 1, 0.1, 0, {{"q0", "1,2"}}); }),
                 "parameter 'q0' = '1,2': expected 3 numbers separated by commas"));
  CHECK(contains(error_of([&] { run(r, "c_pendulum", "rk4", 1, 0.1, 0, {{"L", "-1"}}); }), "parameter 'L' = -1 must be positive"));
  CHECK(contains(error_of([&] { run(r, "c_pendulum", "rk4", 1, 0.1, 0, {{"w0", "1,0,0"}}); }),
                 "w is tangent to the sphere at q"));
  // Unknown parameters are refused by the host from the metadata, before the plugin sees them.
  CHECK(contains(error_of([&] { run(r, "c_pendulum", "rk4", 1, 0.1, 0, {{"mass", "1"}}); }), "mass"));
}

TEST_CASE("a plugin built with clang loads into this host and runs") {
  INFO("host compiler: " << LIESIM_TEST_HOST_COMPILER);
  const Registry r = test_registry();
  const LoadedPlugin& p = r.model("clang_spin");
  const std::string so = file_text(p.file);
  CHECK(contains(so, "clang version"));  // the compiler's .comment
  for (const char* method : {"rkmk4", "rk4"}) {
    CAPTURE(method);
    const Outcome clang = run(r, "clang_spin", method, 2.0, 0.01);
    const Outcome host = run(r, "spin", method, 2.0, 0.01);
    const Eigen::Vector3d exact(std::cos(2.0), std::sin(2.0), 0.5);
    CHECK((clang.y - exact).norm() < (std::string(method) == "rk4" ? 1e-9 : 1e-14));
    CHECK((clang.y - host.y).norm() < 1e-15);
  }
}

TEST_CASE("a plugin built against an older ABI minor loads and runs, without the later capabilities") {
  static_assert(LIESIM_ABI_MINOR >= 1, "the test plugin is built for minor 0, below the host's");
  const Registry r = test_registry();
  CHECK(r.model("old_minor").abi_minor == 0);
  CHECK(r.model("spin").abi_minor == LIESIM_ABI_MINOR);
  const Outcome old = run(r, "old_minor", "rkmk4", 2.0, 0.01);
  CHECK((old.y - Eigen::Vector3d(std::cos(2.0), std::sin(2.0), 0.5)).norm() < 1e-14);

  // The same model source: the minor-1 build offers its Jacobian and DAE, the minor-0 build cannot.
  for (const char* name : {"spin", "old_minor"}) {
    CAPTURE(name);
    const bool minor1 = std::string(name) == "spin";
    RunRequest q;
    q.model = name;
    q.method = "rk4";
    q.step = 0.1;
    PreparedRun p = prepare_run(r, q);
    CHECK(p.model->has_vector_field_jacobian() == minor1);
    CHECK((p.model->dae() != nullptr) == minor1);
    Eigen::MatrixXd J = Eigen::MatrixXd::Zero(3, 3);
    CHECK((p.model->vector_field_jacobian(0.0, Eigen::Vector3d(1, 2, 3), J) == Status::ok) == minor1);
    CHECK(J(1, 0) == (minor1 ? 1.0 : 0.0));
    // Observables (ABI 2.4): the old build's shorter info and table have none; NaN-free runs either way.
    CHECK(p.model->observable_count() == (minor1 ? 1 : 0));
    Eigen::VectorXd o = Eigen::VectorXd::Constant(p.model->observable_count(), -1.0);
    CHECK(p.model->evaluate_observables(0.5, Eigen::Vector3d(std::cos(0.5), std::sin(0.5), 0.5), o) == Status::ok);
    if (minor1) CHECK(std::abs(o[0]) < 1e-15);
  }
  // Asking for what the old plugin cannot give is a clear error; the default falls back.
  CHECK(contains(error_of([&] { run(r, "old_minor", "cvode_bdf", 1.0, 0, 1e-8, {}, {{"jacobian", "model"}}); }),
                 "provides no Jacobian"));
  const Outcome bdf = run(r, "old_minor", "cvode_bdf", 1.0, 0, 1e-10);
  CHECK((bdf.y - Eigen::Vector3d(std::cos(1.0), std::sin(1.0), 0.5)).norm() < 1e-7);
}

TEST_CASE("plugins that fail say why, and the others load") {
  const Registry r = test_registry();
  const auto failure = [&](const std::string& name) -> std::string {
    for (const auto& f : r.failures())
      if (f.name == name) return f.reason;
    return "(did not fail)";
  };
  // Six files in the folder fail; every good one is listed.
  const std::vector<std::string> models = r.model_names();
  for (const char* good : {"c_pendulum", "example_model", "spin", "old_minor", "clang_spin", "create_fails"}) {
    CAPTURE(good);
    CHECK(std::find(models.begin(), models.end(), good) != models.end());
  }
  CHECK(r.failures().size() == 6);

  SUBCASE("an entry point that logs why and returns no table") {
    CHECK(contains(failure("entry_fails"), "entry_fails: no licence file found"));
  }
  SUBCASE("a newer major: both versions and what to do") {
    const std::string why = failure("newer_major");
    CHECK(contains(why, fmt::format("built for liesim plugin ABI {}.{}", LIESIM_ABI_MAJOR + 1, LIESIM_ABI_MINOR)));
    CHECK(contains(why, fmt::format("this liesim has ABI {}.{}", LIESIM_ABI_MAJOR, LIESIM_ABI_MINOR)));
    CHECK(contains(why, "use a liesim with that ABI, or rebuild the plugin"));
  }
  SUBCASE("a newer minor of this major") {
    const std::string why = failure("newer_minor");
    CHECK(contains(why, fmt::format("ABI {}.{}, newer than this liesim's ABI {}.{}", LIESIM_ABI_MAJOR, LIESIM_ABI_MINOR + 1,
                                    LIESIM_ABI_MAJOR, LIESIM_ABI_MINOR)));
    CHECK(contains(why, "upgrade liesim"));
  }
  SUBCASE("no entry point, and a file that is not a library") {
    CHECK(contains(failure("no_entry"), "no entry point 'liesim_plugin_entry'"));
    CHECK(contains(failure("not_a_library"), "not a loadable shared library"));
  }
  SUBCASE("a C++ model type that throws: the adapter's barrier turns it into the message") {
    CHECK(contains(failure("type_throws"), "deliberate failure in the factory"));
  }
  SUBCASE("asking for a failed plugin gives its file and reason") {
    const std::string why = error_of([&] { (void)r.model("newer_major"); });
    CHECK(contains(why, "liesim_newer_major.so"));
    CHECK(contains(why, "rebuild the plugin"));
  }
  SUBCASE("create() that fails: the plugin's logged message, and the next run is unaffected") {
    CHECK(contains(error_of([&] { run(r, "create_fails", "rk4", 1, 0.1); }), "deliberate failure in create"));
    CHECK(run(r, "c_pendulum", "rk4", 1, 0.1).stats.steps == 10);
  }
  SUBCASE("an unknown name lists what is there and what failed") {
    const std::string why = error_of([&] { (void)r.model("nonexistent"); });
    CHECK(contains(why, "unknown model 'nonexistent'"));
    CHECK(contains(why, "c_pendulum"));
    CHECK(contains(why, "failed to load"));
  }
}

TEST_CASE("search path: --plugin-path first, then LIESIM_PLUGIN_PATH, then the installed folder") {
  setenv("LIESIM_PLUGIN_PATH", "/tmp/a:/tmp/b", 1);
  const auto dirs = Registry::search_path({"/cli"});
  unsetenv("LIESIM_PLUGIN_PATH");
  REQUIRE(dirs.size() == 4);
  CHECK(dirs[0] == "/cli");
  CHECK(dirs[1] == "/tmp/a");
  CHECK(dirs[2] == "/tmp/b");
  CHECK(dirs[3].filename() == "plugins");
}
