// The fault-isolation corpus (issue 26): plugins that misbehave in every way tests/plugins/
// corpus.cmake builds (NULL members, lying sizes, bad UTF-8, crash / abort / exit / hang / fork at
// load, in create, in prepare, in a step, a manifest beside a crashing library). Each goes through
// a study of one good and one bad case (the study completes with exit status 3, the good row
// equals a clean run's, the bad row names the plugin and what it did), through `run`, `describe`
// and `list` (never a bare signal, never the plugin's own exit status, never past the limit), and
// under `mpirun -np 3` when the build has MPI.
#include <study/results_compare.hpp>

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <chrono>
#include <csignal>
#include <thread>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;

namespace {

const std::string liesim_exe = std::string(LIESIM_TEST_BINARY_DIR) + "/bin/liesim";
const fs::path corpus_dir = LIESIM_TEST_CORPUS;

/// A corpus plugin and what its bad row (or the command's message) must say.
struct Entry {
  const char* name;
  const char* says;  ///< a fragment of the failure ("" for a plugin that works despite itself)
};

const std::vector<Entry> corpus = {
    {"null_prepare", "'prepare'"},        {"null_act_exp", "'act_exp'"},     {"huge_size", "point_size"},
    {"negative_size", "point_size"},      {"bad_utf8", "UTF-8"},             {"null_names", "state_names"},
    {"project_flag", "'project'"},        {"crash_create", "SIGSEGV"},       {"abort_create", "SIGABRT"},
    {"exit_create", "exit status 3"},     {"hang_create", "timed out"},      {"fork_create", "SIGSEGV"},
    {"crash_prepare", "SIGSEGV"},         {"huge_alloc", "crashed with SIG"},         {"crash_step", "SIGSEGV"},
    {"exit_step", "exit status 3"},       {"hang_step", "timed out"},        {"abort_step", "SIGABRT"},
    {"exit_load", "exit status 3"},       {"hang_load", "did not finish loading"}, {"fork_load", ""},
    {"crash_info", "SIGSEGV"},            {"bad_utf8_names", "UTF-8"},       {"fork_step", "SIGSEGV"},
    {"crash_load", "SIGSEGV"},            {"entry_fails", "no licence file"}, {"newer_major", "ABI"},
    {"manifest_crash", "SIGSEGV"},
};

// Under AddressSanitizer (scripts/sanitize.sh): no leak check at a plugin's exit() (it would change
// the exit status the tests expect) or in Open MPI's ranks, and ASan's own SEGV handler off, so
// that a crash ends a child with its signal as in a normal build.
#if defined(__has_feature)
#define LIESIM_CORPUS_HAS_FEATURE(x) __has_feature(x)
#else
#define LIESIM_CORPUS_HAS_FEATURE(x) 0
#endif
#if defined(__SANITIZE_ADDRESS__) || LIESIM_CORPUS_HAS_FEATURE(address_sanitizer)
const std::string sanitizer_env = "ASAN_OPTIONS=detect_leaks=0:handle_segv=0:allocator_may_return_null=1";
#else
const std::string sanitizer_env;
#endif

struct Outcome {
  bool signalled = false;
  int status = -1;
  double seconds = 0;
  std::string output;  ///< stdout and stderr
};

/// The --plugin-path arguments of corpus plugins.
std::string plugin_paths(const std::vector<std::string>& plugins) {
  std::string out;
  for (const auto& p : plugins) out += fmt::format(" --plugin-path {}", (corpus_dir / ("corpus_" + p)).string());
  return out;
}

/// Run liesim with the folders of the corpus plugins on the path; probes get 1 s.
Outcome run_liesim(const std::vector<std::string>& plugins, const std::string& args, const std::string& launcher = "",
                   const std::string& env = "") {
  const fs::path log = fs::temp_directory_path() / fmt::format("liesim_corpus_{}_{}.log", ::getpid(), plugins.front());
  const std::string command = fmt::format("env LIESIM_PLUGIN_PATH= LIESIM_PROBE_TIMEOUT=1 {} {} {} {}{} {} >{} 2>&1",
                                          sanitizer_env, env, launcher, liesim_exe, plugin_paths(plugins), args, log.string());
  const auto start = std::chrono::steady_clock::now();
  const int status = std::system(command.c_str());
  Outcome o;
  o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  o.signalled = WIFSIGNALED(status) || (WIFEXITED(status) && WEXITSTATUS(status) >= 128);  // a shell reports a signal as 128 + N
  o.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::stringstream text;
  text << std::ifstream(log).rdbuf();
  o.output = text.str();
  fs::remove(log);
  return o;
}

Outcome run_liesim(const std::string& plugin, const std::string& args, const std::string& launcher = "", const std::string& env = "") {
  return run_liesim(std::vector<std::string>{plugin}, args, launcher, env);
}

fs::path fresh_dir(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / fmt::format("liesim_corpus_{}_{}", ::getpid(), name);
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

/// A study of the good case (the shipped rigid body under rk4) and a case per bad plugin (named
/// "bad" when there is one, else "bad_" + plugin) under the same method.
std::string study_text(const std::vector<std::string>& bad) {
  std::string s = R"(name = "corpus"
timeout = 1
[reference]
integrator = "rk4"
step = 0.002
[[case]]
name = "good"
model = "rigid_body"
t_end = 0.2
)";
  for (const auto& plugin : bad)
    s += fmt::format("[[case]]\nname = \"{}\"\nmodel = \"corpus_{}\"\nt_end = 0.2\n", bad.size() == 1 ? "bad" : "bad_" + plugin, plugin);
  s += "[[runs]]\nname = \"fixed\"\nintegrators = [\"rk4\"]\nsteps = [0.02]\n";
  return s;
}

std::string study_text(const std::string& plugin, bool clean) {
  return study_text(clean ? std::vector<std::string>{} : std::vector<std::string>{plugin});
}

/// The row of `case_name` in a results table.
std::vector<std::string> row_of(const liesim::test::Table& t, const std::string& case_name) {
  for (const auto& r : t.rows)
    if (r[static_cast<std::size_t>(t.column("case"))] == case_name) return r;
  return {};
}

/// The good row equals the clean study's (every column but the timings), and the bad row (of the
/// case `bad_case`) failed naming the plugin and what it did.
void check_rows(const Entry& e, const fs::path& out, const fs::path& clean_out, std::size_t rows = 2,
                const std::string& bad_case = "bad") {
  const auto table = liesim::test::read_table(out / "results.csv");
  const auto clean = liesim::test::read_table(clean_out / "results.csv");
  REQUIRE(table.rows.size() == rows);
  const auto good = row_of(table, "good"), bad = row_of(table, bad_case), reference = row_of(clean, "good");
  REQUIRE(!good.empty());
  REQUIRE(!bad.empty());
  REQUIRE(!reference.empty());
  for (const char* col : {"status", "error_final", "steps", "f_evals", "F_evals", "drift:energy"}) {
    const int a = table.column(col), b = clean.column(col);
    REQUIRE_MESSAGE(a >= 0, col);
    CHECK_MESSAGE(good[static_cast<std::size_t>(a)] == reference[static_cast<std::size_t>(b)], col);
  }
  const std::string status = bad[static_cast<std::size_t>(table.column("status"))];
  const std::string error = bad[static_cast<std::size_t>(table.column("error_message"))];
  const std::string context = std::string(e.name) + ": " + error;
  INFO(context);
  if (std::string(e.says).empty()) {
    CHECK(status == "ok");
    return;
  }
  CHECK(status == "failed");
  CHECK(error.find(e.says) != std::string::npos);
  CHECK(error.find(std::string("corpus_") + e.name) != std::string::npos);
}

}  // namespace

TEST_CASE("the corpus: each misbehaving plugin fails its own rows of a study, which completes with exit status 3") {
  REQUIRE(corpus.size() >= 20);
  const fs::path d = fresh_dir("study");
  {
    std::ofstream(d / "clean.toml") << study_text("fork_load", true);
    const Outcome o = run_liesim("fork_load", fmt::format("study {} --out {} --no-plots --jobs 2", (d / "clean.toml").string(),
                                                      (d / "clean").string()));
    REQUIRE_MESSAGE(o.status == 0, o.output);
  }
  for (const Entry& e : corpus) {
    const std::string name = e.name;
    CAPTURE(name);
    const fs::path file = d / fmt::format("{}.toml", e.name), out = d / e.name;
    std::ofstream(file) << study_text(e.name, false);
    const Outcome o = run_liesim(e.name, fmt::format("study {} --out {} --no-plots --jobs 2", file.string(), out.string()));
    INFO(o.output);
    CHECK(!o.signalled);
    CHECK(o.status == (std::string(e.says).empty() ? 0 : 3));
    CHECK(o.seconds < 20);
    CHECK(fs::exists(out / "report.md"));
    check_rows(e, out, d / "clean");
    // With --shard 2/2 (the bad case's run is plan position 2): the same row, the same status.
    if (name == "crash_create" || name == "hang_step" || name == "exit_load") {
      const Outcome shard = run_liesim(e.name, fmt::format("study {} --out {} --no-plots --shard 2/2", file.string(),
                                                           (out.string() + "_shard")));
      INFO(shard.output);
      CHECK(shard.status == 3);
      const auto rows = liesim::test::read_table(out.string() + "_shard/results.csv");
      REQUIRE(rows.rows.size() == 1);
      CHECK(rows.rows[0][static_cast<std::size_t>(rows.column("status"))] == "failed");
      CHECK(rows.rows[0][static_cast<std::size_t>(rows.column("error_message"))].find(e.says) != std::string::npos);
    }
  }
  fs::remove_all(d);
}

TEST_CASE("a study whose only case needs a crashing plugin still writes its folder and exits 3") {
  const fs::path d = fresh_dir("only_bad");
  std::ofstream(d / "s.toml") << "name = \"only\"\ntimeout = 1\n[reference]\nintegrator = \"rk4\"\nstep = 0.002\n[[case]]\nname = "
                                 "\"bad\"\nmodel = \"corpus_crash_create\"\nt_end = 0.2\n[[runs]]\nintegrators = [\"rk4\"]\nsteps = [0.02]\n";
  const Outcome o = run_liesim("crash_create", fmt::format("study {} --out {} --no-plots", (d / "s.toml").string(), (d / "out").string()));
  INFO(o.output);
  CHECK(o.status == 3);
  CHECK(fs::exists(d / "out" / "report.md"));
  const auto table = liesim::test::read_table(d / "out" / "results.csv");
  REQUIRE(table.rows.size() == 1);
  CHECK(table.rows[0][static_cast<std::size_t>(table.column("error_message"))].find("SIGSEGV") != std::string::npos);
  fs::remove_all(d);
}

TEST_CASE("the corpus through run, describe and list: liesim's own words and exit status, never a signal or a hang") {
  for (const Entry& e : corpus) {
    const std::string name = e.name;
    CAPTURE(name);
    const std::string model = std::string("corpus_") + e.name;
    const Outcome run = run_liesim(e.name, fmt::format("run --model {} --integrator rk4 --t-end 0.2 --step 0.02 --run-timeout 2", model));
    INFO(run.output);
    CHECK(!run.signalled);
    CHECK(run.seconds < 10);
    if (std::string(e.says).empty()) {
      CHECK(run.status == 0);
    } else {
      CHECK((run.status == 1 || run.status == 4));  // refused (1), or the plugin died (4): never its exit(3)
      CHECK(run.output.find("liesim: ") != std::string::npos);
      CHECK(run.output.find(model) != std::string::npos);
      CHECK(run.output.find(e.says) != std::string::npos);
    }
    const Outcome describe = run_liesim(e.name, "describe " + model);
    INFO(describe.output);
    CHECK(!describe.signalled);
    CHECK((describe.status == 0 || describe.status == 1 || describe.status == 4));
    CHECK(describe.seconds < 10);
    const Outcome list = run_liesim(e.name, "list");
    INFO(list.output);
    CHECK(!list.signalled);
    CHECK(list.status == 0);
    CHECK(list.seconds < 10);
    CHECK(list.output.find("rigid_body") != std::string::npos);  // one bad plugin hides no other
    if (!std::string(e.says).empty() && std::string(e.name).find("_load") != std::string::npos)
      CHECK(list.output.find("liesim_" + model + ".so") != std::string::npos);  // a failure at load is listed with its file
  }
}

#ifdef LIESIM_TEST_MPIRUN
TEST_CASE("the corpus under mpirun -np 3: one study of every misbehaving plugin completes, the bad rows fail alone") {
  // One study with a case per corpus plugin (every corpus folder on the plugin path), not a study
  // per plugin: the same isolation under MPI, at one launch of mpirun instead of 28.
  const fs::path d = fresh_dir("mpi");
  std::ofstream(d / "clean.toml") << study_text("fork_load", true);
  const std::string mpirun =
      fmt::format("{} --allow-run-as-root --oversubscribe --mca btl_vader_single_copy_mechanism none -np 3", LIESIM_TEST_MPIRUN);
  REQUIRE(run_liesim("fork_load", fmt::format("study {} --out {} --no-plots", (d / "clean.toml").string(), (d / "clean").string())).status ==
          0);
  std::vector<std::string> names;
  for (const Entry& e : corpus) names.push_back(e.name);
  std::ofstream(d / "all.toml") << study_text(names);
  const Outcome o = run_liesim(names, fmt::format("study {} --out {} --no-plots", (d / "all.toml").string(), (d / "all").string()), mpirun);
  INFO(o.output);
  CHECK(o.status == 3);
  CHECK(!o.signalled);
  CHECK(o.seconds < 120);
  CHECK(fs::exists(d / "all" / "report.md"));
  for (const Entry& e : corpus) {
    const std::string name = e.name;
    CAPTURE(name);
    check_rows(e, d / "all", d / "clean", corpus.size() + 1, "bad_" + name);
  }
  // Ctrl-C on mpirun (which passes it to rank 0 as SIGTERM and soon kills every rank): no run is
  // handed out any more, and what is done is written at once (results, manifest, report).
  // The bad case's reference hangs (60 s allowed): Ctrl-C comes while it runs.
  std::string stop_study = study_text("hang_step", false);
  stop_study.replace(stop_study.find("timeout = 1"), 11, "timeout = 60");
  std::ofstream(d / "stop.toml") << stop_study;
  const fs::path log = d / "stop.log";
  const pid_t launcher = ::fork();
  REQUIRE(launcher >= 0);
  if (launcher == 0) {
    const std::string cmd = fmt::format("exec env LIESIM_PLUGIN_PATH= {} {} {} --plugin-path {} study {} --out {} --no-plots >{} 2>&1",
                                        sanitizer_env, mpirun,
                                        liesim_exe, (corpus_dir / "corpus_hang_step").string(), (d / "stop.toml").string(),
                                        (d / "stop").string(), log.string());
    ::execl("/bin/sh", "sh", "-c", cmd.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  // Wait until the study has planned and started its references, then Ctrl-C.
  for (int i = 0; i < 3000 && !fs::exists(d / "stop" / "results.csv"); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  std::this_thread::sleep_for(std::chrono::milliseconds(1000));
  const auto stop = std::chrono::steady_clock::now();
  ::kill(launcher, SIGINT);
  int status = 0;
  ::waitpid(launcher, &status, 0);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - stop).count();
  std::stringstream text;
  text << std::ifstream(log).rdbuf();
  INFO(text.str());
  CHECK(seconds < 10);
  CHECK(text.str().find("no new runs") != std::string::npos);
  CHECK(fs::exists(d / "stop" / "report.md"));
  CHECK(fs::exists(d / "stop" / "manifest.json"));
  CHECK(liesim::test::read_table(d / "stop" / "results.csv").rows.empty());  // no run was handed out after the stop
  fs::remove_all(d);
}
#endif

TEST_CASE("discovery is bounded: a plugin that hangs while probed costs the probe limit once, then its cached outcome") {
  // A probe limit of 5 s (not the corpus' 1 s), so that "no probe ran" (well under the limit) is
  // told apart from a slow start-up (a sanitized build lists its plugins in about 1 s).
  const fs::path cache = fresh_dir("cache");
  const std::string env = "LIESIM_PROBE_TIMEOUT=5 LIESIM_CACHE_DIR=" + cache.string();
  const Outcome first = run_liesim("hang_load", "describe rk4", "", env);
  CHECK(first.status == 0);
  CHECK(first.seconds >= 5.0);  // the probe's limit
  const Outcome second = run_liesim("hang_load", "describe rk4", "", env);
  CHECK(second.status == 0);
  CHECK(second.seconds < 4.0);
  // A FIFO with a plugin's name is refused without being opened (opening it would block).
  const fs::path fifo_dir = fresh_dir("fifo");
  REQUIRE(::mkfifo((fifo_dir / "liesim_fifo.so").c_str(), 0600) == 0);
  const Outcome fifo = run_liesim("hang_load", "--plugin-path " + fifo_dir.string() + " list", "", env);
  CHECK(fifo.status == 0);
  CHECK(fifo.seconds < 4.0);
  CHECK(fifo.output.find("not a regular file") != std::string::npos);
  fs::remove_all(fifo_dir);
  const Outcome run = run_liesim("hang_load", "run --model corpus_hang_load --integrator rk4 --t-end 0.1 --step 0.01", "", env);
  CHECK(run.status == 1);
  CHECK(run.output.find("did not finish loading within 5 s") != std::string::npos);
  fs::remove_all(cache);
}
