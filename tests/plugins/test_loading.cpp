// Plugin loading: every failure is reported with the file and the reason; the rest still loads.
#include <support/plugins.hpp>

#include <doctest/doctest.h>

#include <fmt/format.h>

#include <algorithm>

using namespace liesim;

namespace {
const LoadFailure* failure_of(const Registry& r, const std::string& file_part) {
  for (const auto& f : r.failures())
    if (f.file.find(file_part) != std::string::npos) return &f;
  return nullptr;
}
bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }
}  // namespace

TEST_CASE("broken plugins are reported and the good one still loads") {
  Registry r;
  r.load_directories({LIESIM_TEST_BROKEN_DIR});
  // test_good, test_abi_minor_1 and test_abi_minor_older load; the other six files fail.
  REQUIRE(r.plugins().size() == 3);
  const auto loaded = [&](const std::string& name) {
    return std::find_if(r.plugins().begin(), r.plugins().end(), [&](const LoadedPlugin& p) { return p.name == name; });
  };
  REQUIRE(loaded("test_good") != r.plugins().end());
  CHECK(loaded("test_good")->version == "1.2.3");
  CHECK(loaded("test_abi_minor_older") != r.plugins().end());
  CHECK(loaded("test_abi_minor_1") != r.plugins().end());
  CHECK(r.failures().size() == 6);

  SUBCASE("not a shared library") {
    const auto* f = failure_of(r, "test_not_a_library.so");
    REQUIRE(f);
    CHECK(contains(f->reason, "not a loadable shared library"));
  }
  SUBCASE("no entry point") {
    const auto* f = failure_of(r, "test_no_entry.so");
    REQUIRE(f);
    CHECK(contains(f->reason, "no entry point 'liesim_plugin'"));
  }
  SUBCASE("ABI major mismatch names both versions") {
    const auto* f = failure_of(r, "test_abi_major.so");
    REQUIRE(f);
    CHECK(f->name == "test_abi_major");
    CHECK(contains(f->reason, fmt::format("ABI 99.{}", LIESIM_ABI_MINOR)));  // the plugin keeps the header's minor
    CHECK(contains(f->reason, fmt::format("ABI {}.{}", LIESIM_ABI_MAJOR, LIESIM_ABI_MINOR)));
  }
  SUBCASE("a plugin needing a newer ABI minor is refused") {
    const auto* f = failure_of(r, "test_abi_minor_newer.so");
    REQUIRE(f);
    CHECK(contains(f->reason, fmt::format("ABI {}.7", LIESIM_ABI_MAJOR)));
  }
  SUBCASE("build token mismatch names both tokens") {
    const auto* f = failure_of(r, "test_build_token.so");
    REQUIRE(f);
    CHECK(contains(f->reason, "gcc-0.0-bogus"));
    CHECK(contains(f->reason, LIESIM_BUILD_TOKEN));
  }
  SUBCASE("factory that throws") {
    const auto* f = failure_of(r, "test_factory_throws.so");
    REQUIRE(f);
    CHECK(contains(f->reason, "deliberate failure in the factory"));
  }
  SUBCASE("asking for a plugin that failed gives its file and reason") {
    try {
      (void)r.model("test_factory_throws");
      FAIL("expected an error");
    } catch (const Error& e) {
      CHECK(contains(e.what(), "test_factory_throws.so"));
      CHECK(contains(e.what(), "deliberate failure"));
    }
  }
  SUBCASE("an unknown name lists what is available and what failed") {
    try {
      (void)r.model("nonexistent");
      FAIL("expected an error");
    } catch (const Error& e) {
      CHECK(contains(e.what(), "unknown model 'nonexistent'"));
      CHECK(contains(e.what(), "test_good"));
      CHECK(contains(e.what(), "failed to load"));
    }
  }
}

TEST_CASE("a plugin built for a lower ABI minor (same major) loads and runs") {
  static_assert(LIESIM_ABI_MINOR >= 1, "the host's ABI minor must be above the test plugin's 0");
  Registry r;
  r.load_directories({LIESIM_TEST_BROKEN_DIR, LIESIM_TEST_PLUGIN_DIR});
  CHECK(failure_of(r, "test_abi_minor_older.so") == nullptr);
  const LoadedPlugin& p = r.model("test_abi_minor_older");
  CHECK(p.version == "0.0.1");
  CHECK(contains(p.file, "test_abi_minor_older.so"));
  RunRequest q;
  q.model = "test_abi_minor_older";
  q.method = "rkmk4";
  q.t_end = 1.0;
  q.step = 0.1;
  PreparedRun run = prepare_run(r, q);
  NullObserver obs;
  const RunResult res = execute(run, obs);
  Eigen::VectorXd exact(3);
  REQUIRE(run.model->exact_solution(1.0, exact) == Status::ok);
  CHECK((res.y - exact).norm() < 1e-14);
}

TEST_CASE("the good test plugin runs under the shipped integrators and matches its exact solution") {
  Registry r;
  r.load_directories({LIESIM_TEST_BROKEN_DIR, LIESIM_TEST_PLUGIN_DIR});
  for (const char* method : {"lie_euler", "rkmk4", "rk4"}) {
    CAPTURE(method);
    RunRequest q;
    q.model = "test_good";
    q.method = method;
    q.t_end = 2.0;
    q.step = 0.01;
    PreparedRun p = prepare_run(r, q);
    NullObserver obs;
    const RunResult res = execute(p, obs);
    Eigen::VectorXd exact(3);
    REQUIRE(p.model->exact_solution(2.0, exact) == Status::ok);
    // f is constant, so every Lie group method is exact; rk4 has its O(h^4) error.
    CHECK((res.y - exact).norm() < (std::string(method) == "rk4" ? 1e-9 : 1e-14));
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

TEST_CASE("hooks added by ABI 1.1 and 1.2 are only used on models from plugins built for that minor or later") {
  static_assert(LIESIM_ABI_MINOR == 2, "update this test for the new minor's hooks");
  Registry r;
  r.load_directories({LIESIM_TEST_BROKEN_DIR, LIESIM_TEST_PLUGIN_DIR});
  struct Case {
    const char* model;
    int minor;
  };
  for (const Case c : {Case{"test_good", 2}, Case{"test_abi_minor_1", 1}, Case{"test_abi_minor_older", 0}}) {
    CAPTURE(c.model);
    CHECK(r.model(c.model).abi_minor == c.minor);
    RunRequest q;
    q.model = c.model;
    q.method = "rk4";
    q.step = 0.1;
    PreparedRun p = prepare_run(r, q);
    // Every object has the hooks (built with today's headers) ...
    REQUIRE(p.model->dae() != nullptr);
    REQUIRE(p.model->has_jacobian());
    // ... but a plugin built for an older minor promises none of the later ones.
    CHECK((p.model->dae_formulation() != nullptr) == (c.minor >= 1));
    CHECK(p.model->has_vector_field_jacobian() == (c.minor >= 2));
    Eigen::MatrixXd J = Eigen::MatrixXd::Zero(3, 3);
    const Eigen::Vector3d y(1, 2, 3);
    CHECK((p.model->vector_field_jacobian(0.0, y, J) == Status::ok) == (c.minor >= 2));
    if (c.minor >= 2) CHECK(J(1, 0) == 1.0);
    else CHECK(J.isZero());
  }
}
