// Studies end to end through the command line: outputs, determinism across --jobs, resume.
#include <study/results_compare.hpp>

#include <support/command.hpp>
#include <Eigen/Geometry>
#include <doctest/doctest.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <map>
#include <set>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <fcntl.h>
#include <iomanip>
#include <map>
#include <thread>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace {

const std::string liesim_exe = std::string(LIESIM_TEST_BINARY_DIR) + "/bin/liesim";

fs::path fresh_dir(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / ("liesim_study_" + std::to_string(::getpid()) + "_" + name);
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

fs::path write_study(const fs::path& dir, const std::string& text) {
  const fs::path f = dir / "study.toml";
  std::ofstream(f) << text;
  return f;
}

int run(const std::string& args) {
  const int status = std::system(("env LIESIM_PLUGIN_PATH= " + liesim_exe + " " + args + " >/dev/null 2>&1").c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

const char* small_study = R"(name = "small"
[reference]
integrator = "rkmk5"
step = 0.0005
[[case]]
name = "pend"
model = "pendulum_chain"
t_end = 1.0
parameters = { q0 = "0.7071067811865476,0,0.7071067811865476,0,1,0", w0 = "0,1,0,0.5,0,0.5" }
[[runs]]
integrators = ["rkmk4", "rk4", "cf4"]
steps = [0.05, 0.025, 0.0125, 0.00625]
[[runs]]
name = "adaptive"
integrators = ["rkmk45", "dopri45"]
tolerances = [1e-5, 1e-7]
)";

}  // namespace

TEST_CASE("a small study produces results, manifest, orders, plots and report") {
  const fs::path d = fresh_dir("small");
  const fs::path f = write_study(d, small_study);
  REQUIRE(run(f.string() + " --jobs 2 --out " + (d / "out").string()) != 0);  // no command: usage error
  REQUIRE(run("study " + f.string() + " --jobs 2 --out " + (d / "out").string()) == 0);
  const auto table = liesim::test::read_table(d / "out" / "results.csv");
  REQUIRE(table.rows.size() == 16);
  for (const char* col : {"index", "case", "integrator", "step", "tolerance", "status", "error_final", "steps",
                          "rejected_steps", "f_evals", "F_evals", "exponentials", "dexpinv_calls", "wall_time_s",
                          "cpu_time_s", "param:N", "param:q0", "option:error_norm", "drift:energy", "drift:q1_dot_w1"})
    CHECK_MESSAGE(table.column(col) >= 0, col);
  for (const auto& row : table.rows) CHECK(row[table.column("status")] == "ok");
  // Each run's own CPU time beside its wall time: positive, and no more than the wall time of the
  // single-threaded runs (medians of the same timing runs; clock granularity aside).
  for (const auto& row : table.rows) {
    const double cpu = std::stod(row[table.column("cpu_time_s")]), wall = std::stod(row[table.column("wall_time_s")]);
    CHECK(cpu > 0);
    CHECK(cpu <= wall + 1e-3);
  }
  // Lie group methods keep tangency, the classical ones do not.
  for (const auto& row : table.rows) {
    const double drift = std::stod(row[table.column("drift:q1_dot_w1")]);
    const std::string m = row[table.column("integrator")];
    if (m == "rkmk4" || m == "cf4" || m == "rkmk45") CHECK(drift < 1e-13);
    if (m == "rk4" && std::stod(row[table.column("step")]) == 0.05) CHECK(drift > 1e-8);
  }
  std::ifstream mf(d / "out" / "manifest.json");
  const auto manifest = nlohmann::json::parse(mf);
  CHECK(manifest["study"]["text"].get<std::string>() == small_study);
  CHECK(manifest["liesim"].contains("version"));
  CHECK(manifest["machine"]["cores"].get<int>() >= 1);
  CHECK(!manifest["plugins"].empty());
  CHECK(manifest.contains("started"));
  const auto orders = liesim::test::read_table(d / "out" / "orders.csv");
  for (const auto& row : orders.rows) {
    CAPTURE(row[1]);
    REQUIRE_FALSE(row[orders.column("observed_order")].empty());
    CHECK(std::abs(std::stod(row[orders.column("observed_order")]) - std::stod(row[orders.column("nominal_order")])) < 0.3);
  }
  for (const char* plot : {"convergence_pend.png", "convergence_pend.svg", "work_precision_pend.png", "drift_pend.png", "step_size_pend.png"}) {
    CAPTURE(plot);
    REQUIRE(fs::exists(d / "out" / "plots" / plot));
    CHECK(fs::file_size(d / "out" / "plots" / plot) > 1000);
  }
  std::ifstream rep(d / "out" / "report.md");
  const std::string report((std::istreambuf_iterator<char>(rep)), std::istreambuf_iterator<char>());
  CHECK(report.find("Observed orders") != std::string::npos);
  CHECK(report.find("![convergence pend](plots/convergence_pend.png)") != std::string::npos);
  // It opens with a summary: the work-precision front, the invariants kept, the plots to look at first.
  const auto summary = report.find("## Summary"), first_case = report.find("## Case");
  REQUIRE(summary != std::string::npos);
  CHECK(summary < first_case);
  CHECK(report.find("* Error per cost (f + F evaluations): ") != std::string::npos);
  // The same front by time, CPU and wall, each saying its measure (an evaluation of an implicit
  // method costs more; CPU time does not grow with the machine's load), CPU first.
  const auto by_cpu = report.find("* Error per CPU time (medians of the timing runs, s): ");
  const auto by_wall = report.find("* Error per wall time (medians of the timing runs, s): ");
  CHECK(by_cpu != std::string::npos);
  CHECK(by_wall != std::string::npos);
  CHECK(by_cpu < by_wall);
  CHECK(report.find("on the work–precision front most often") != std::string::npos);
  // Each invariant on its own line (q1_norm_minus_1 and q2_norm_minus_1 form one group).
  CHECK(report.find("  * `q*_norm_minus_1` kept by cf4, rkmk4, rkmk45; drifted: dopri45 (q") != std::string::npos);
  CHECK(report.find("  * `q*_dot_w*` kept by cf4, rkmk4, rkmk45; drifted: dopri45 (q") != std::string::npos);
  CHECK(report.find("* Look first at: [work_precision](plots/work_precision_pend.png)") != std::string::npos);
  // Redrawing says what it draws, figure by figure.
  const auto redraw = liesim::test::sh("env LIESIM_PLUGIN_PATH= " + liesim_exe + " plot " + (d / "out").string() + " 2>&1");
  CHECK(redraw.code == 0);
  CHECK(redraw.out.find("liesim plot: [1] ") != std::string::npos);
  // Drawn by several processes side by side (one per core), every figure exactly once.
  std::set<std::string> drawn;
  int lines = 0;
  for (std::size_t at = 0; (at = redraw.out.find("liesim plot: [", at)) != std::string::npos; ++at, ++lines)
    drawn.insert(redraw.out.substr(redraw.out.find("] ", at) + 2, redraw.out.find('\n', at) - redraw.out.find("] ", at) - 2));
  int pngs = 0;
  for (const auto& e : fs::directory_iterator(d / "out" / "plots")) pngs += e.path().extension() == ".png";
  CHECK(lines == pngs);
  CHECK(static_cast<int>(drawn.size()) == pngs);
  fs::remove_all(d);
}

TEST_CASE("a model's observables reach results.csv (final:NAME) and the series; [[figure]] tables are drawn and reported") {
  const fs::path d = fresh_dir("figures");
  const fs::path f = write_study(d, R"(name = "figures"
[reference]
integrator = "rkmk5"
step = 0.005
[[case]]
name = "q"
model = "quadrotor_load"
t_end = 1.0
parameters = { control = "tracking" }
[[runs]]
integrators = ["rkmk4"]
steps = [0.02, 0.01]
series = "all"
[[figure]]
name = "errors"
columns = ["tracking_error", "link1_direction_error"]
log = true
[[figure]]
name = "path"
kind = "path"
columns = ["y_x", "y_y", "y_z"]
against = ["yd_x", "yd_y", "yd_z"]
invert = ["z"]
)");
  REQUIRE(run("study " + f.string() + " --jobs 2 --out " + (d / "out").string()) == 0);
  const auto table = liesim::test::read_table(d / "out" / "results.csv");
  REQUIRE(table.rows.size() == 2);
  REQUIRE(table.column("final:tracking_error") >= 0);
  for (const auto& row : table.rows) {
    const double e = std::stod(row[table.column("final:tracking_error")]);
    CHECK(e > 1.0);  // at t = 1 the load is still 1.2 m from the arch
    CHECK(e < 1.4);
  }
  std::ifstream series(d / "out" / "series" / "0.csv");
  std::string header;
  std::getline(series, header);
  CHECK(header.find(",R2_orthogonality,tracking_error,link1_direction_error,link2_direction_error,yd_x,yd_y,yd_z,input_power") !=
        std::string::npos);
  for (const char* plot : {"figure_errors_q.png", "figure_path_q.png", "figure_path_q.svg"}) {
    CAPTURE(plot);
    REQUIRE(fs::exists(d / "out" / "plots" / plot));
    CHECK(fs::file_size(d / "out" / "plots" / plot) > 1000);
  }
  std::ifstream rep(d / "out" / "report.md");
  const std::string report((std::istreambuf_iterator<char>(rep)), std::istreambuf_iterator<char>());
  CHECK(report.find("![figure_errors q](plots/figure_errors_q.png)") != std::string::npos);
  fs::remove_all(d);
}

TEST_CASE("--jobs 1 and --jobs 2 give identical results apart from timings") {
  const fs::path d = fresh_dir("jobs");
  const fs::path f = write_study(d, small_study);
  REQUIRE(run("study " + f.string() + " --jobs 1 --out " + (d / "one").string()) == 0);
  REQUIRE(run("study " + f.string() + " --jobs 2 --out " + (d / "two").string()) == 0);
  CHECK(liesim::test::same_results(d / "one" / "results.csv", d / "two" / "results.csv"));
  fs::remove_all(d);
}

// A study whose fifth run uses the test plugin test_blocking_euler (tests/study/blocking_euler.cpp),
// which waits in its first step while LIESIM_TEST_BLOCK_DIR is set: the SIGKILL lands inside that
// run, with exactly four rows written, on any machine and under any load.
const char* cut_study = R"(name = "cut"
[reference]
integrator = "rkmk5"
step = 0.0005
[[case]]
name = "pend"
model = "pendulum_chain"
t_end = 1.0
parameters = { q0 = "0.7071067811865476,0,0.7071067811865476,0,1,0", w0 = "0,1,0,0.5,0,0.5" }
[[runs]]
integrators = ["rkmk4", "rk4"]
steps = [0.05, 0.025]
[[runs]]
name = "blocking"
integrators = ["test_blocking_euler"]
steps = [0.01]
[[runs]]
name = "after"
integrators = ["cf4"]
steps = [0.05, 0.025]
)";

const std::string study_plugins = std::string(" --plugin-path ") + LIESIM_TEST_STUDY_PLUGIN_DIR + " ";

std::string read_text(const fs::path& p) {
  std::ifstream in(p);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST_CASE("a study killed during a run resumes and ends with the same results") {
  const fs::path d = fresh_dir("resume");
  const fs::path f = write_study(d, cut_study);
  const fs::path results = d / "cut" / "results.csv";
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    setenv("LIESIM_PLUGIN_PATH", "", 1);
    setenv("LIESIM_TEST_BLOCK_DIR", d.c_str(), 1);
    execl(liesim_exe.c_str(), liesim_exe.c_str(), "--plugin-path", LIESIM_TEST_STUDY_PLUGIN_DIR, "study", f.c_str(), "--jobs", "1",
          "--out", (d / "cut").c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  // Wait until the fifth run is blocked in its first step (at most a minute), then kill.
  for (int i = 0; i < 12000 && !fs::exists(d / "blocked"); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  const bool blocked = fs::exists(d / "blocked");
  kill(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
  REQUIRE(blocked);
  CHECK(WIFSIGNALED(status));
  REQUIRE(liesim::test::read_table(results).rows.size() == 4);  // the four runs before the blocked one
  REQUIRE(run(study_plugins + "study " + f.string() + " --jobs 2 --resume --out " + (d / "cut").string()) == 0);
  REQUIRE(run(study_plugins + "study " + f.string() + " --jobs 2 --out " + (d / "full").string()) == 0);
  CHECK(liesim::test::read_table(results).rows.size() == 7);
  CHECK(liesim::test::same_results(results, d / "full" / "results.csv"));
  CHECK(read_text(d / "cut" / "report.md").find("4 taken from an interrupted earlier execution") != std::string::npos);
  fs::remove_all(d);
}

TEST_CASE("--resume drops a row cut in the middle and reruns only what is missing") {
  const fs::path d = fresh_dir("torn");
  const fs::path f = write_study(d, small_study);
  REQUIRE(run("study " + f.string() + " --jobs 2 --out " + (d / "full").string()) == 0);
  // Simulate an interruption while the seventh row was being written: header, six rows, half a row.
  fs::create_directories(d / "cut");
  fs::copy_file(d / "full" / "study.toml", d / "cut" / "study.toml");
  const std::string text = read_text(d / "full" / "results.csv");
  std::size_t pos = 0;
  for (int line = 0; line < 7; ++line) pos = text.find('\n', pos) + 1;
  const std::size_t next = text.find('\n', pos);
  REQUIRE(next != std::string::npos);
  std::ofstream(d / "cut" / "results.csv") << text.substr(0, pos + (next - pos) / 2);
  REQUIRE(liesim::test::read_table(d / "cut" / "results.csv").rows.size() >= 6);
  REQUIRE(run("study " + f.string() + " --jobs 1 --resume --out " + (d / "cut").string()) == 0);
  CHECK(liesim::test::same_results(d / "cut" / "results.csv", d / "full" / "results.csv"));
  CHECK(read_text(d / "cut" / "report.md").find("6 taken from an interrupted earlier execution") != std::string::npos);
  // A changed study file is not resumed onto old results.
  std::ofstream(f, std::ios::app) << "\n# edited\n";
  CHECK(run("study " + f.string() + " --resume --out " + (d / "cut").string()) != 0);
  fs::remove_all(d);
}

TEST_CASE("a study with a failed run writes everything, records the message and exits with status 3") {
  const fs::path d = fresh_dir("failing");
  const fs::path f = write_study(d, R"(name = "failing"
[reference]
integrator = "exact"
[[case]]
name = "osc"
model = "oscillator"
t_end = 5.0
[[runs]]
integrators = ["rk4"]
steps = [0.1, 0.05]
[[runs]]
name = "starved"
integrators = ["dopri45"]
tolerances = [1e-10]
options = { max_steps = 20 }
)");
  CHECK(run("study " + f.string() + " --jobs 2 --out " + (d / "out").string()) == 3);
  const auto t = liesim::test::read_table(d / "out" / "results.csv");
  REQUIRE(t.rows.size() == 3);
  int ok = 0, failed = 0;
  for (const auto& row : t.rows) {
    if (row[t.column("status")] == "ok") ++ok;
    else {
      ++failed;
      CHECK(row[t.column("integrator")] == "dopri45");
      CHECK(row[t.column("error_message")].find("max_steps") != std::string::npos);
    }
  }
  CHECK(ok == 2);
  CHECK(failed == 1);
  CHECK(read_text(d / "out" / "report.md").find("failed") != std::string::npos);
  fs::remove_all(d);
}

TEST_CASE("match_error_of: the constant-step run uses the fewest equal steps that reach the adaptive run's error") {
  const fs::path d = fresh_dir("equal_error");
  const fs::path f = write_study(d, R"(name = "equal_error"
[reference]
integrator = "exact"
[[case]]
name = "osc"
model = "oscillator"
t_end = 5.0
parameters = { d = 0.3 }
sweep = { k = [4, 9] }
[[runs]]
name = "variable"
integrators = ["dopri45"]
tolerances = [1e-6, 1e-9]
[[runs]]
name = "constant"
integrators = ["rk4", "dopri5"]
match_error_of = "variable"
)");
  REQUIRE(run("study " + f.string() + " --jobs 2 --out " + (d / "out").string()) == 0);
  const auto t = liesim::test::read_table(d / "out" / "results.csv");
  REQUIRE(t.rows.size() == 12);  // 2 cases x (2 adaptive runs + 2 methods x 2 matched runs)
  auto cell = [&](std::size_t row, const char* col) { return t.rows[row][t.column(col)]; };
  int matched = 0;
  for (std::size_t k = 0; k < t.rows.size(); ++k) {
    const std::string id = cell(k, "run_id");
    const auto at = id.find("|match_error|");
    if (at == std::string::npos) continue;
    ++matched;
    CAPTURE(id);
    REQUIRE(cell(k, "status") == "ok");
    std::size_t adaptive = t.rows.size();
    for (std::size_t a = 0; a < t.rows.size(); ++a)
      if (cell(a, "run_id") == id.substr(at + 13)) adaptive = a;
    REQUIRE(adaptive < t.rows.size());
    CHECK(cell(adaptive, "case") == cell(k, "case"));
    const double target = std::stod(cell(adaptive, "error_final"));
    const long n = std::stol(cell(k, "steps"));
    CHECK(std::stod(cell(k, "error_final")) <= target);
    CHECK(std::stod(cell(k, "step")) == doctest::Approx(5.0 / static_cast<double>(n)).epsilon(1e-15));
    CHECK(std::stod(cell(k, "paired_time_ratio")) > 0);  // timed side by side with its adaptive run
    CHECK(cell(adaptive, "paired_time_ratio").empty());
    // One step fewer misses the target: the count is the smallest.
    const fs::path s = d / ("fewer" + std::to_string(k) + ".json");
    REQUIRE(run("run --model oscillator --param d=0.3 --param k=" + cell(k, "param:k") + " --t-end 5 --integrator " +
                cell(k, "integrator") + " --step " + fmt::format("{:.17g}", 5.0 / static_cast<double>(n - 1)) + " --summary " +
                s.string()) == 0);
    std::ifstream in(s);
    const auto j = nlohmann::json::parse(in);
    CHECK(j["stats"]["steps"].get<long>() == n - 1);
    CHECK(j["exact_error"].get<double>() > target);
  }
  CHECK(matched == 8);
  const std::string report = read_text(d / "out" / "report.md");
  CHECK(report.find("at equal accuracy (`match_error_of`)") != std::string::npos);
  CHECK(report.find("| osc[k=9] | dopri45 | 1e-09 |") != std::string::npos);
  // The sweep plot is labelled with the swept key and one line per matched method.
  const std::string svg = read_text(d / "out" / "plots" / "sweep_osc.svg");
  CHECK(svg.find("sweep over k") != std::string::npos);
  // One line per matched tolerance, not one line zig-zagging between them.
  CHECK(svg.find("rk4 (constant) same error as tol=1e-06") != std::string::npos);
  CHECK(svg.find("rk4 (constant) same error as tol=1e-09") != std::string::npos);
  fs::remove_all(d);
}

TEST_CASE("match_error_of: a target within the reference's accuracy fails that row with the reason; solvers with their own steps are refused") {
  const fs::path d = fresh_dir("equal_error_floor");
  // A loose reference (rk4, h = 0.05: accuracy estimate ~1e-6) cannot judge an error of ~1e-10.
  const std::string text = R"(name = "floor"
[reference]
integrator = "rk4"
step = 0.05
[[case]]
name = "osc"
model = "oscillator"
t_end = 5.0
[[runs]]
name = "variable"
integrators = ["dopri45"]
tolerances = [1e-3, 1e-12]
[[runs]]
name = "constant"
integrators = ["rk4"]
match_error_of = "variable"
)";
  const fs::path f = write_study(d, text);
  CHECK(run("study " + f.string() + " --jobs 2 --out " + (d / "out").string()) == 3);
  const auto t = liesim::test::read_table(d / "out" / "results.csv");
  REQUIRE(t.rows.size() == 4);
  auto cell = [&](std::size_t row, const char* col) { return t.rows[row][t.column(col)]; };
  CHECK(cell(2, "status") == "ok");  // the tol 1e-3 run's error is far above the reference's accuracy
  CHECK(cell(3, "status") == "failed");
  CHECK(cell(3, "error_message").find("within 10x the reference's accuracy estimate") != std::string::npos);
  CHECK(cell(3, "step").empty());  // no run was made with a matched step
  const auto orders = liesim::test::read_table(d / "out" / "orders.csv");
  CHECK(orders.rows.empty());  // two matched rows, one without a step: no order fit
  // A self-controlled solver cannot take the matched constant step: refused before anything runs.
  const std::string rk4 = "integrators = [\"rk4\"]";
  const fs::path g = write_study(d, std::string(text).replace(text.find(rk4), rk4.size(), "integrators = [\"arkode_erk\"]"));
  const fs::path log = d / "refused.log";
  const int status = std::system(("env LIESIM_PLUGIN_PATH= " + liesim_exe + " study " + g.string() + " --out " +
                                  (d / "out2").string() + " > " + log.string() + " 2>&1").c_str());
  CHECK(WEXITSTATUS(status) == 1);
  CHECK(read_text(log).find("'arkode_erk' controls its own steps and cannot run a matched constant step") != std::string::npos);
  CHECK_FALSE(fs::exists(d / "out2" / "results.csv"));
  fs::remove_all(d);
}

TEST_CASE("the exact solution as the reference: convergence of rk4 and rkmk4 on the oscillator and the ball") {
  const fs::path d = fresh_dir("exact");
  const fs::path f = write_study(d, R"(name = "exact"
[reference]
integrator = "exact"
[[case]]
name = "osc"
model = "oscillator"
t_end = 5.0
parameters = { d = 0.3, k = 4 }
[[case]]
name = "ball"
model = "rotating_ball"
t_end = 5.0
parameters = { d = 0.3, k = 4 }
[[runs]]
integrators = ["rk4", "rkmk4"]
steps = [0.1, 0.05, 0.025, 0.0125]
)");
  REQUIRE(run("study " + f.string() + " --jobs 2 --out " + (d / "out").string()) == 0);
  const auto orders = liesim::test::read_table(d / "out" / "orders.csv");
  int fitted = 0;
  for (const auto& row : orders.rows) {
    const std::string method = row[orders.column("integrator")], c = row[orders.column("case")];
    CAPTURE(c);
    CAPTURE(method);
    REQUIRE_FALSE(row[orders.column("observed_order")].empty());
    CHECK(std::abs(std::stod(row[orders.column("observed_order")]) - 4.0) < 0.2);
    ++fitted;
  }
  CHECK(fitted == 4);
  // A model without an exact solution is refused before anything runs.
  const fs::path g = write_study(d, R"(name = "noexact"
[reference]
integrator = "exact"
[[case]]
name = "p"
model = "pendulum_chain"
[[runs]]
integrators = ["rk4"]
steps = [0.1]
)");
  CHECK(run("study " + g.string() + " --out " + (d / "no").string()) != 0);
  fs::remove_all(d);
}

TEST_CASE("a one-step study measures d(phi_h(p), phi_h(q)) / d(p, q) in the model's metric, reports and plots it") {
  const fs::path d = fresh_dir("one_step");
  const fs::path f = write_study(d, R"(name = "bstab"
[[case]]
name = "killing"
model = "sphere_flow"
t_end = 0.1
parameters = { latitude = 25 }
pair = { latitude = 30 }
[[runs]]
integrators = ["geodesic_implicit_euler", "geodesic_implicit_midpoint"]
steps = [0.5, 0.8, 1.0]
one_step = true
)");
  REQUIRE(run("study " + f.string() + " --jobs 2 --out " + (d / "out").string()) == 0);
  const auto t = liesim::test::read_table(d / "out" / "results.csv");
  std::map<std::pair<std::string, std::string>, double> ratio;
  for (const auto& row : t.rows) ratio[{row[t.column("integrator")], row[t.column("step")]}] = std::stod(row[t.column("distance_ratio")]);
  // The notes' independent values (A13, A14): GIE 1.0607 (h = 0.5), 1.0997 (0.8); GIMP 1.0019 (1.0).
  CHECK(ratio.at({"geodesic_implicit_euler", "0.5"}) == doctest::Approx(1.0607).epsilon(1e-3));
  CHECK(ratio.at({"geodesic_implicit_euler", "0.80000000000000004"}) == doctest::Approx(1.0997).epsilon(1e-3));
  CHECK(ratio.at({"geodesic_implicit_midpoint", "1"}) == doctest::Approx(1.0019).epsilon(1e-3));
  // The step's results phi_h(p), phi_h(q) (columns arrival:y1 ... and pair_arrival:y1 ...): on the
  // sphere, and their great-circle distance over d(p, q) = 5 degrees is the distance ratio.
  for (const auto& row : t.rows) {
    Eigen::Vector3d a, b;
    for (int k = 0; k < 3; ++k) {
      a[k] = std::stod(row[t.column(fmt::format("arrival:y{}", k + 1))]);
      b[k] = std::stod(row[t.column(fmt::format("pair_arrival:y{}", k + 1))]);
    }
    CHECK(std::abs(a.norm() - 1) < 1e-12);
    CHECK(std::abs(b.norm() - 1) < 1e-12);
    const double pi = std::acos(-1.0);
    CHECK(std::atan2(a.cross(b).norm(), a.dot(b)) / (5 * pi / 180) ==
          doctest::Approx(std::stod(row[t.column("distance_ratio")])).epsilon(1e-10));
  }
  if (fs::exists(d / "out" / "plots" / "contractivity_killing.png")) CHECK(fs::exists(d / "out" / "plots" / "arrivals_killing.png"));
  const std::string report = read_text(d / "out" / "report.md");
  CHECK(report.find("d(φ_h(p), φ_h(q)) / d(p, q)") != std::string::npos);
  CHECK(report.find("Observed orders") == std::string::npos);  // one step is no convergence sweep
  if (fs::exists(d / "out" / "plots" / "convergence_killing.png") || fs::exists(d / "out" / "plots" / "contractivity_killing.png"))
    CHECK(fs::exists(d / "out" / "plots" / "contractivity_killing.png"));
  fs::remove_all(d);
}

TEST_CASE("review regressions: the output folder is safe and never reaches a shell") {
  const fs::path d = fresh_dir("safe");
  const std::string body = R"(
[[case]]
name = "rb"
model = "rigid_body"
t_end = 1.0
[[runs]]
integrators = ["rkmk4"]
steps = [0.1, 0.05, 0.025]
)";
  // A folder that liesim did not write is not cleaned or reused.
  fs::create_directories(d / "mine" / "plots");
  std::ofstream(d / "mine" / "plots" / "keep.txt") << "precious";
  const fs::path f = write_study(d, "name = \"safe\"\n" + body);
  CHECK(run("study " + f.string() + " --out " + (d / "mine").string()) != 0);
  CHECK(fs::exists(d / "mine" / "plots" / "keep.txt"));
  // An empty output is refused.
  CHECK(run("study " + write_study(d, "name = \"e\"\noutput = \"\"\n" + body).string()) != 0);
  // A folder name with quotes and shell syntax is a folder name, nothing else.
  const fs::path odd = d / "it's; touch PWNED; echo '";
  const fs::path g = write_study(d, "name = \"safe\"\n" + body);
  REQUIRE(run("study " + g.string() + " --out \"" + odd.string() + "\"") == 0);
  CHECK(fs::exists(odd / "plots" / "convergence_rb.png"));
  CHECK_FALSE(fs::exists("PWNED"));
  CHECK_FALSE(fs::exists(d / "PWNED"));
  fs::remove_all(d);
}

TEST_CASE("a study run inside a folder holding a matplotlib.py never runs that file") {
  const fs::path d = fresh_dir("isolated");
  std::ofstream(d / "matplotlib.py") << "open(" << std::quoted((d / "PWNED").string()) << ", 'w').write('ran')\n";
  const fs::path f = write_study(d, R"(name = "isolated"
[[case]]
name = "rb"
model = "rigid_body"
t_end = 1.0
[[runs]]
integrators = ["rkmk4"]
steps = [0.1, 0.05]
)");
  // Prove that the trap works: a plain `python3 -c "import matplotlib"` in that folder runs it.
  REQUIRE(std::system(("cd '" + d.string() + "' && python3 -c 'import matplotlib' >/dev/null 2>&1").c_str()) == 0);
  REQUIRE(fs::exists(d / "PWNED"));
  fs::remove(d / "PWNED");
  // liesim's probe and plotting run Python isolated from the working directory.
  const int status = std::system(("cd '" + d.string() + "' && env LIESIM_PLUGIN_PATH= " + liesim_exe + " study study.toml --out " +
                                  (d / "out").string() + " >/dev/null 2>&1")
                                     .c_str());
  CHECK((WIFEXITED(status) && WEXITSTATUS(status) == 0));
  CHECK_FALSE(fs::exists(d / "PWNED"));
  CHECK(fs::exists(d / "out" / "plots" / "convergence_rb.png"));  // the real matplotlib drew the plots
  fs::remove_all(d);
}

namespace {

/// Rows by run id, with the columns that may differ between two executions blanked (plan
/// position and timings).
std::map<std::string, std::vector<std::string>> rows_by_id(const liesim::test::Table& t) {
  std::map<std::string, std::vector<std::string>> out;
  for (auto row : t.rows) {
    for (const char* c : {"index", "wall_time_s", "cpu_time_s", "paired_time_ratio"}) row[t.column(c)].clear();
    out[row[t.column("run_id")]] = row;
  }
  return out;
}

std::string fault_group(const std::string& fault, const std::string& extra = "") {
  return fmt::format("[[runs]]\nname = \"{}\"\nintegrators = [\"test_faulty_euler\"]\nsteps = [0.1]\noptions = {{ fault = \"{}\" }}\n{}",
                     fault, fault, extra);
}

const std::string fault_case = R"(name = "faults"
[reference]
integrator = "exact"
[[case]]
name = "osc"
model = "oscillator"
t_end = 1.0
[[runs]]
name = "good"
integrators = ["rk4", "test_faulty_euler"]
steps = [0.1, 0.05]
)";

/// Run liesim with the study test plugins; stdout and stderr into `log`.
int run_logged(const std::string& args, const fs::path& log) {
  const int status = std::system(("env LIESIM_PLUGIN_PATH= " + liesim_exe + study_plugins + args + " >'" + log.string() + "' 2>&1").c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

TEST_CASE("a study goes on past runs that crash, exit, throw through the boundary or hang; --resume does not rerun them") {
  const fs::path d = fresh_dir("faults");
  // The bad runs sit between good ones: what comes after them must still run.
  const fs::path bad = d / "bad.toml";
  std::ofstream(bad) << fault_case << fault_group("segfault") << fault_group("exit") << fault_group("throw")
                     << fault_group("hang", "timeout = 2\n") << "[[runs]]\nname = \"after\"\nintegrators = [\"rk4\"]\nsteps = [0.025]\n";
  const fs::path clean = d / "clean.toml";
  std::ofstream(clean) << fault_case << "[[runs]]\nname = \"after\"\nintegrators = [\"rk4\"]\nsteps = [0.025]\n";
  const auto start = std::chrono::steady_clock::now();
  CHECK(run_logged("study " + bad.string() + " --jobs 2 --out " + (d / "bad").string(), d / "bad.log") == 3);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK(seconds < 30);  // the hanging run was stopped at its limit
  REQUIRE(run_logged("study " + clean.string() + " --jobs 1 --out " + (d / "clean").string(), d / "clean.log") == 0);
  const auto t = liesim::test::read_table(d / "bad" / "results.csv");
  REQUIRE(t.rows.size() == 9);
  std::map<std::string, std::string> why;  // fault -> error message
  for (const auto& row : t.rows)
    if (row[t.column("status")] != "ok") why[row[t.column("group")]] = row[t.column("error_message")];
  REQUIRE(why.size() == 4);
  CHECK(why["segfault"].find("crashed with SIGSEGV") != std::string::npos);
  CHECK(why["exit"].find("exit status 7") != std::string::npos);
  CHECK(why["throw"].find("crashed with SIGABRT") != std::string::npos);
  CHECK(why["hang"].find("timed out after 2 s") != std::string::npos);
  // Every good row is present and equal to the clean study's.
  const auto good = rows_by_id(liesim::test::read_table(d / "clean" / "results.csv"));
  const auto all = rows_by_id(t);
  REQUIRE(good.size() == 5);
  for (const auto& [id, row] : good) {
    const std::string& run_id = id;  // clang 14 cannot capture a structured binding
    INFO("run " << run_id);
    REQUIRE(all.count(id) == 1);
    CHECK(all.at(id) == row);
  }
  CHECK(read_text(d / "bad" / "report.md").find("SIGSEGV") != std::string::npos);
  // --resume keeps the failed rows: nothing runs again (no progress line "[k/9] ...").
  CHECK(run_logged("study " + bad.string() + " --resume --out " + (d / "bad").string(), d / "resume.log") == 3);
  CHECK(read_text(d / "resume.log").find("/9] ") == std::string::npos);
  CHECK(read_text(d / "resume.log").find("9 resumed") != std::string::npos);
  CHECK(rows_by_id(liesim::test::read_table(d / "bad" / "results.csv")) == all);
  // --retry-failed runs exactly the four failed ones again (and they fail again).
  CHECK(run_logged("study " + bad.string() + " --resume --retry-failed --run-timeout 1 --out " + (d / "bad").string(),
                   d / "retry.log") == 3);
  CHECK(read_text(d / "retry.log").find("4 failed, 5 resumed") != std::string::npos);
  fs::remove_all(d);
}

TEST_CASE("a case whose reference fails fails its own runs only; a time limit is a positive number; a busy folder is refused") {
  const fs::path d = fresh_dir("reffail");
  // pendulum_chain has no exact solution: its case fails, the oscillator's runs go on.
  const fs::path f = write_study(d, R"(name = "reffail"
[reference]
integrator = "exact"
[[case]]
name = "osc"
model = "oscillator"
t_end = 1.0
[[case]]
name = "pend"
model = "pendulum_chain"
t_end = 0.1
[[runs]]
integrators = ["rk4"]
steps = [0.01]
)");
  CHECK(run_logged("study " + f.string() + " --jobs 2 --no-plots --out " + (d / "out").string(), d / "log") == 3);
  CHECK(!fs::exists(d / "out" / "plots"));
  CHECK(read_text(d / "out" / "report.md").find("No plots drawn (--no-plots)") != std::string::npos);
  const auto t = liesim::test::read_table(d / "out" / "results.csv");
  REQUIRE(t.rows.size() == 2);
  for (const auto& row : t.rows) {
    if (row[t.column("case")] == "osc") {
      CHECK(row[t.column("status")] == "ok");
    } else {
      CHECK(row[t.column("status")] == "failed");
      CHECK(row[t.column("error_message")].find("reference for case 'pend' failed") != std::string::npos);
      CHECK(row[t.column("error_message")].find("no exact solution") != std::string::npos);
    }
  }
  // Bad limits are refused with the flag's name.
  CHECK(run_logged("study " + f.string() + " --run-timeout 0 --out " + (d / "x").string(), d / "log") == 1);
  CHECK(read_text(d / "log").find("--run-timeout must be a positive number of seconds") != std::string::npos);
  CHECK(run_logged("study " + f.string() + " --retry-failed --out " + (d / "x").string(), d / "log") == 1);
  CHECK(read_text(d / "log").find("with --resume") != std::string::npos);
  std::ofstream(d / "limit.toml") << "name = \"x\"\ntimeout = -1\n";
  CHECK(run_logged("study " + (d / "limit.toml").string(), d / "log") == 1);
  CHECK(read_text(d / "log").find("key 'timeout' must be a positive finite number") != std::string::npos);
  // A folder another study is writing (its lock held) is refused, and left as it is.
  const int fd = ::open((d / "out" / ".lock").c_str(), O_RDWR);
  REQUIRE(fd >= 0);
  REQUIRE(::flock(fd, LOCK_EX | LOCK_NB) == 0);
  CHECK(run_logged("study " + f.string() + " --out " + (d / "out").string(), d / "log") == 1);
  CHECK(read_text(d / "log").find("is in use by another liesim study") != std::string::npos);
  CHECK(liesim::test::read_table(d / "out" / "results.csv").rows.size() == 2);
  ::close(fd);
  fs::remove_all(d);
}

TEST_CASE("Ctrl-C stops handing out runs, keeps what is done, writes the report and says how to resume") {
  const fs::path d = fresh_dir("sigint");
  const fs::path f = write_study(d, cut_study);
  const fs::path log = d / "log";
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    setenv("LIESIM_PLUGIN_PATH", "", 1);
    setenv("LIESIM_TEST_BLOCK_DIR", d.c_str(), 1);
    const int out = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(out, STDOUT_FILENO);
    ::dup2(out, STDERR_FILENO);
    execl(liesim_exe.c_str(), liesim_exe.c_str(), "--plugin-path", LIESIM_TEST_STUDY_PLUGIN_DIR, "study", f.c_str(), "--jobs", "1",
          "--out", (d / "cut").c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  for (int i = 0; i < 12000 && !fs::exists(d / "blocked"); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  REQUIRE(fs::exists(d / "blocked"));
  kill(pid, SIGINT);
  int status = 0;
  waitpid(pid, &status, 0);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 130);
  const std::string text = read_text(log);
  CHECK(text.find("waiting up to 5 s for the 1 run(s) in flight") != std::string::npos);
  CHECK(text.find("Resume with: liesim study") != std::string::npos);
  CHECK(liesim::test::read_table(d / "cut" / "results.csv").rows.size() == 4);  // the blocked run is not recorded
  CHECK(read_text(d / "cut" / "report.md").find("interrupted") != std::string::npos);
  REQUIRE(run(study_plugins + "study " + f.string() + " --resume --out " + (d / "cut").string()) == 0);
  CHECK(liesim::test::read_table(d / "cut" / "results.csv").rows.size() == 7);
  fs::remove_all(d);
}

TEST_CASE("shards 1/3, 2/3, 3/3 merged equal the unsharded study; shards that do not belong together are refused") {
  const fs::path d = fresh_dir("shards");
  std::string text = small_study;
  text += "[[runs]]\nname = \"matched\"\nintegrators = [\"rkmk4\"]\nmatch_steps_of = \"adaptive\"\n";
  const fs::path f = write_study(d, text);
  REQUIRE(run_logged("study " + f.string() + " --no-plots --out " + (d / "full").string(), d / "log") == 0);
  std::string shards;
  std::size_t rows = 0;
  for (int i = 1; i <= 3; ++i) {
    const fs::path s = d / fmt::format("s{}", i);
    REQUIRE(run_logged(fmt::format("study {} --shard {}/3 --jobs 2 --no-plots --out {}", f.string(), i, s.string()), d / "log") == 0);
    rows += liesim::test::read_table(s / "results.csv").rows.size();
    shards += " " + s.string();
  }
  CHECK(rows == liesim::test::read_table(d / "full" / "results.csv").rows.size());
  REQUIRE(run_logged("study merge" + shards + " --no-plots --out " + (d / "merged").string(), d / "log") == 0);
  CHECK(liesim::test::same_results(d / "merged" / "results.csv", d / "full" / "results.csv"));
  CHECK(read_text(d / "merged" / "orders.csv") == read_text(d / "full" / "orders.csv"));
  CHECK(read_text(d / "merged" / "manifest.json").find("\"merged_from\"") != std::string::npos);
  CHECK(read_text(d / "s2" / "manifest.json").find("\"shard\": \"2/3\"") != std::string::npos);
  // A shard missing, given twice, or cut short; another study; another version.
  CHECK(run_logged("study merge " + (d / "s1").string() + " " + (d / "s3").string() + " --out " + (d / "m").string(), d / "log") == 1);
  CHECK(read_text(d / "log").find("shard 2/3 is missing") != std::string::npos);
  CHECK(run_logged("study merge" + shards + " " + (d / "s3").string() + " --out " + (d / "m").string(), d / "log") == 1);
  CHECK(read_text(d / "log").find("shard 3/3 is given twice") != std::string::npos);
  fs::copy(d / "s2", d / "cut", fs::copy_options::recursive);
  {
    std::string csv = read_text(d / "cut" / "results.csv");
    csv.erase(csv.rfind('\n', csv.size() - 2) + 1);  // the last row
    std::ofstream(d / "cut" / "results.csv") << csv;
  }
  CHECK(run_logged("study merge " + (d / "s1").string() + " " + (d / "cut").string() + " " + (d / "s3").string() + " --out " +
                       (d / "m").string(), d / "log") == 1);
  CHECK(read_text(d / "log").find("shard 2/3 did not finish") != std::string::npos);
  CHECK(read_text(d / "log").find("--shard 2/3 --resume") != std::string::npos);
  std::ofstream(d / "other.toml") << text << "# another study\n";
  REQUIRE(run_logged("study " + (d / "other.toml").string() + " --shard 2/3 --no-plots --out " + (d / "other").string(), d / "log") == 0);
  CHECK(run_logged("study merge " + (d / "s1").string() + " " + (d / "other").string() + " " + (d / "s3").string() + " --out " +
                       (d / "m").string(), d / "log") == 1);
  CHECK(read_text(d / "log").find("ran different study files") != std::string::npos);
  fs::copy(d / "s2", d / "old", fs::copy_options::recursive);
  {
    auto j = nlohmann::json::parse(read_text(d / "old" / "manifest.json"));
    j["liesim"]["version"] = "0.0.1";
    std::ofstream(d / "old" / "manifest.json") << j.dump(2);
  }
  CHECK(run_logged("study merge " + (d / "s1").string() + " " + (d / "old").string() + " " + (d / "s3").string() + " --out " +
                       (d / "m").string(), d / "log") == 1);
  CHECK(read_text(d / "log").find("different liesim or plugin versions") != std::string::npos);
  CHECK(run_logged("study " + f.string() + " --shard 4/3", d / "log") == 1);
  CHECK(read_text(d / "log").find("--shard must be I/N with 1 <= I <= N") != std::string::npos);
  fs::remove_all(d);
}

TEST_CASE("mpirun -np 3: the same results as --jobs 1; runs that crash, exit, throw, hang or are killed fail alone") {
#ifndef LIESIM_TEST_MPIRUN
  MESSAGE("this build has no MPI study engine (configure says 'MPI study engine: no'): nothing to test");
#else
  const fs::path d = fresh_dir("mpi");
  // Under AddressSanitizer (scripts/sanitize.sh) Open MPI's components keep memory until exit from
  // modules unloaded at finalize, which no suppression can name: no leak check for the ranks.
#if defined(__has_feature)
#define LIESIM_HAS_FEATURE(x) __has_feature(x)
#else
#define LIESIM_HAS_FEATURE(x) 0
#endif
#if defined(__SANITIZE_ADDRESS__) || LIESIM_HAS_FEATURE(address_sanitizer)
  const std::string sanitizer = "env ASAN_OPTIONS=detect_leaks=0:handle_segv=0 ";
#else
  const std::string sanitizer;
#endif
  const std::string mpirun = sanitizer + LIESIM_TEST_MPIRUN +
                             " --allow-run-as-root --oversubscribe --mca btl_vader_single_copy_mechanism none -np 3 ";
  const fs::path bad = d / "bad.toml";
  std::ofstream(bad) << fault_case << fault_group("segfault") << fault_group("exit") << fault_group("throw")
                     << fault_group("hang", "timeout = 2\n") << "[[runs]]\nname = \"after\"\nintegrators = [\"rk4\"]\nsteps = [0.025]\n";
  const int mpi_status = std::system(("env LIESIM_PLUGIN_PATH= " + mpirun + liesim_exe + study_plugins + "study " + bad.string() +
                                      " --no-plots --out " + (d / "mpi").string() + " >'" + (d / "mpi.log").string() + "' 2>&1")
                                         .c_str());
  CHECK((WIFEXITED(mpi_status) && WEXITSTATUS(mpi_status) == 3));
  REQUIRE(run_logged("study " + bad.string() + " --jobs 1 --no-plots --out " + (d / "local").string(), d / "local.log") == 3);
  // Every deterministic column equal (plan position, status and messages included).
  CHECK(liesim::test::same_results(d / "mpi" / "results.csv", d / "local" / "results.csv"));
  CHECK(read_text(d / "mpi" / "manifest.json").find("\"engine\": \"mpi: 3 ranks (1 coordinator, 2 workers)") != std::string::npos);

  // A run whose process is killed from outside (SIGKILL) fails with that reason; the rest finish.
  const fs::path f = write_study(d, cut_study);
  const fs::path block = d / "block";
  fs::create_directories(block);
  const pid_t launcher = fork();
  REQUIRE(launcher >= 0);
  if (launcher == 0) {
    setenv("LIESIM_PLUGIN_PATH", "", 1);
    setenv("LIESIM_TEST_BLOCK_DIR", block.c_str(), 1);
    const std::string cmd = mpirun + "-x LIESIM_TEST_BLOCK_DIR -x LIESIM_PLUGIN_PATH " + liesim_exe + study_plugins + "study " +
                            f.string() + " --no-plots --out " + (d / "killed").string() + " >'" + (d / "killed.log").string() + "' 2>&1";
    execl("/bin/sh", "sh", "-c", cmd.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  for (int i = 0; i < 12000 && !fs::exists(block / "blocked"); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));  // the pid is written
  const long victim = std::atol(read_text(block / "blocked").c_str());
  REQUIRE(victim > 1);
  kill(static_cast<pid_t>(victim), SIGKILL);
  int status = 0;
  waitpid(launcher, &status, 0);
  CHECK((WIFEXITED(status) && WEXITSTATUS(status) == 3));
  const auto t = liesim::test::read_table(d / "killed" / "results.csv");
  REQUIRE(t.rows.size() == 7);
  int ok = 0;
  for (const auto& row : t.rows) {
    if (row[t.column("status")] == "ok") ++ok;
    else CHECK(row[t.column("error_message")].find("SIGKILL") != std::string::npos);
  }
  CHECK(ok == 6);
  fs::remove_all(d);
#endif
}

TEST_CASE("audit: a stray plugin offering a shipped method's name is refused with both files named, or chosen by file") {
  const std::string stray_dir = LIESIM_TEST_STRAY_PLUGIN_DIR;
  const std::string shipped = std::string(LIESIM_TEST_PLUGIN_DIR) + "/liesim_classical_rk.so";
  const std::string stray = stray_dir + "/liesim_test_stray.so";
  auto sh = [&](const std::string& args) {
    const fs::path log = fs::temp_directory_path() / ("liesim_stray_" + std::to_string(::getpid()) + ".log");
    const int status = std::system(("env LIESIM_PLUGIN_PATH= " + liesim_exe + " --plugin-path " + stray_dir + " " + args + " >" +
                                    log.string() + " 2>&1").c_str());
    std::ifstream in(log);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    fs::remove(log);
    return std::pair<int, std::string>(WIFEXITED(status) ? WEXITSTATUS(status) : -1, text);
  };
  const std::string run = "run --model rigid_body --t-end 0.1 --step 0.01 --integrator ";
  const auto [refused, why] = sh(run + "rk4");
  CHECK(refused == 1);
  CHECK(why.find("method 'rk4' is provided by 2 plugin files") != std::string::npos);
  CHECK(why.find(stray) != std::string::npos);
  CHECK(why.find(shipped) != std::string::npos);
  CHECK(why.find("--integrator ") != std::string::npos);
  // Not structured bindings: CHECK_MESSAGE captures its message in a lambda, which C++17 (clang)
  // does not allow for a structured binding.
  const std::pair<int, std::string> chosen = sh(run + shipped + ":rk4");
  CHECK_MESSAGE(chosen.first == 0, chosen.second);
  CHECK(chosen.second.find("with rk4") != std::string::npos);
  const std::pair<int, std::string> other = sh(run + stray + ":rk4");
  CHECK_MESSAGE(other.first == 0, other.second);
  const auto [absent, absent_text] = sh(run + stray + ":rk45");
  CHECK(absent == 1);
  CHECK(absent_text.find("offers method 'rk45'") != std::string::npos);
}

TEST_CASE("a case's output times (outputs = [...] or output_grid) are every run's series times, exactly") {
  const fs::path d = fresh_dir("output_times");
  const fs::path f = write_study(d, R"(name = "output_times"
[reference]
integrator = "rkmk5"
step = 0.01
[[case]]
name = "grid"
model = "rigid_body"
t_end = 1.0
output_grid = 0.25
[[case]]
name = "list"
model = "rigid_body"
t_end = 1.0
outputs = [0.1, 0.35, 0.8]
[[runs]]
integrators = ["rkmk45", "dopri45", "cvode_bdf"]
tolerances = [1e-8]
series = "all"
)");
  REQUIRE(run("study " + f.string() + " --no-plots --out " + (d / "out").string()) == 0);
  const auto table = liesim::test::read_table(d / "out" / "results.csv");
  REQUIRE(table.rows.size() == 6);
  for (const auto& row : table.rows) {
    const std::string index = row[table.column("index")];
    const bool grid = row[table.column("case")] == "grid";
    CAPTURE(index);
    const auto series = liesim::test::read_table(d / "out" / "series" / (index + ".csv"));
    std::vector<double> times;
    for (const auto& r : series.rows) times.push_back(std::stod(r[0]));
    CHECK(times == (grid ? std::vector<double>{0, 0.25, 0.5, 0.75, 1.0} : std::vector<double>{0, 0.1, 0.35, 0.8}));
  }
  // Bad times are refused with the file, the line and the fix.
  const fs::path bad = write_study(d, R"(name = "bad"
[reference]
integrator = "rkmk5"
step = 0.01
[[case]]
name = "late"
model = "rigid_body"
t_end = 1.0
outputs = [0.5, 2.0]
[[runs]]
integrators = ["rk4"]
steps = [0.1]
)");
  CHECK(run_logged("study " + bad.string() + " --out " + (d / "bad").string(), d / "bad.txt") == 1);
  const std::string text = read_text(d / "bad.txt");
  CHECK(text.find("study.toml:9: case 'late': output time 2 (number 2 of 2) is outside the run's time span [0, 1]") != std::string::npos);
  fs::remove_all(d);
}

TEST_CASE("error = \"max\": orders, report and plots measure the error along the trajectory (over the output times)") {
  const fs::path d = fresh_dir("error_max");
  const fs::path f = write_study(d, R"(name = "error_max"
error = "max"
[reference]
integrator = "rkmk5"
step = 0.001
[[case]]
name = "sphere"
model = "sphere_flow"
t_end = 3.0
parameters = { field = "contractive", c = "0.5", latitude = "10" }
output_grid = 0.1
[[runs]]
integrators = ["rkmk4", "rk3", "heun"]
steps = [0.2, 0.1, 0.05, 0.025]
)");
  REQUIRE(run("study " + f.string() + " --out " + (d / "out").string()) == 0);
  const auto table = liesim::test::read_table(d / "out" / "results.csv");
  REQUIRE(table.column("error:max") >= 0);
  for (const auto& row : table.rows) {
    // The maximum over the output times is at least the error at t_end (t_end is an output time).
    CHECK(std::stod(row[table.column("error:max")]) >= std::stod(row[table.column("error_final")]));
    CHECK(std::stod(row[table.column("error:rms")]) <= std::stod(row[table.column("error:max")]));
  }
  // The orders are fitted to the maximum error over the trajectory: rk3's interpolant (order 2)
  // and heun's keep the method's order.
  const auto orders = liesim::test::read_table(d / "out" / "orders.csv");
  REQUIRE(orders.rows.size() == 3);
  for (const auto& row : orders.rows) {
    CAPTURE(row[orders.column("integrator")]);
    REQUIRE_FALSE(row[orders.column("observed_order")].empty());
    CHECK(std::abs(std::stod(row[orders.column("observed_order")]) - std::stod(row[orders.column("nominal_order")])) < 0.3);
  }
  std::ifstream rep(d / "out" / "report.md");
  const std::string report((std::istreambuf_iterator<char>(rep)), std::istreambuf_iterator<char>());
  CHECK(report.find("(error = \"max\": the convergence orders, the work–precision fronts and plots) is the largest value over each "
                    "case's output times") != std::string::npos);
  CHECK(report.find("every one of the 12 runs' maximum errors is above 10x that") != std::string::npos);
  CHECK(fs::exists(d / "out" / "plots" / "convergence_sphere.png"));
  // error = "max" needs output times on every case.
  const fs::path bad = write_study(d, R"(name = "bad"
error = "rms"
[[case]]
name = "plain"
model = "rigid_body"
[[runs]]
integrators = ["rk4"]
steps = [0.1]
)");
  CHECK(run_logged("study " + bad.string() + " --out " + (d / "bad").string(), d / "bad.txt") == 1);
  const std::string text = read_text(d / "bad.txt");
  CHECK(text.find("study.toml:2: error = \"rms\" measures the error over each case's output times, but case 'plain' (line 3) has none")
        != std::string::npos);
  fs::remove_all(d);
}

TEST_CASE("invariant_error:NAME: the invariants' error against the reference's at the output times (not their drift from t0)") {
  // The damped oscillator loses energy physically (drift:energy ~ E0); its energy error against the
  // exact solution's energy at the same instants is the method's, order 4 for rk4.
  const fs::path d = fresh_dir("invariant_error");
  const fs::path f = write_study(d, R"(name = "invariant_error"
[reference]
integrator = "exact"
[[case]]
name = "damped"
model = "oscillator"
t_end = 5.0
parameters = { d = 0.3, k = 4 }
output_grid = 0.1
[[case]]
name = "plain"
model = "oscillator"
t_end = 5.0
parameters = { d = 0.3, k = 4 }
[[runs]]
integrators = ["rk4"]
steps = [0.05, 0.025]
)");
  REQUIRE(run("study " + f.string() + " --out " + (d / "out").string()) == 0);
  const auto table = liesim::test::read_table(d / "out" / "results.csv");
  const int error = table.column("invariant_error:energy"), drift = table.column("drift:energy");
  REQUIRE(error >= 0);
  std::map<std::string, double> by_step;
  for (const auto& row : table.rows) {
    const std::string c = row[table.column("case")];
    CAPTURE(c);
    if (c == "plain") {
      CHECK(row[error].empty());  // no output times: no error along the trajectory
      continue;
    }
    REQUIRE_FALSE(row[error].empty());
    CHECK(std::stod(row[error]) > 0);
    CHECK(std::stod(row[error]) < 1e-3 * std::stod(row[drift]));
    by_step[row[table.column("step")]] = std::stod(row[error]);
  }
  REQUIRE(by_step.size() == 2);
  // (by_step's keys in text order: "0.025" first)
  const double ratio = by_step.begin()->second > 0 ? std::prev(by_step.end())->second / by_step.begin()->second : 0;
  CHECK(std::log2(ratio) == doctest::Approx(4).epsilon(0.08));  // h = 0.05 against 0.025: order 4 (measured ratio 14.5: 3.86)
  fs::remove_all(d);
}

TEST_CASE("[[event]] tables: every run and the reference locate the events; event:WHEN and event_error:WHEN columns; bad tables refused") {
  // q = cos 2t: v = -2 sin 2t passes -1 at pi/12 (recorded), q passes 0 at pi/4 (stops every run and the
  // reference, so error_final compares the states at the event).
  const double pi = std::acos(-1.0);
  const fs::path d = fresh_dir("events");
  const fs::path f = write_study(d, R"(name = "events"
[[case]]
name = "osc"
model = "harmonic_oscillator"
t_end = 3.0
[[event]]
when = "q<0"
stop = true
[[event]]
when = "v<-1"
[[runs]]
integrators = ["rk4"]
steps = [0.1, 0.05, 0.025]
[[runs]]
name = "solvers"
integrators = ["cvode_bdf", "dopri45"]
tolerances = [1e-6, 1e-10]
)");
  REQUIRE(run("study " + f.string() + " --out " + (d / "out").string()) == 0);
  const auto table = liesim::test::read_table(d / "out" / "results.csv");
  REQUIRE(table.rows.size() == 7);
  const int stop = table.column("event:q<0"), rec = table.column("event:v<-1"), stop_err = table.column("event_error:q<0");
  REQUIRE(stop >= 0);
  REQUIRE(rec >= 0);
  REQUIRE(stop_err >= 0);
  std::map<double, double> rk4_error;  // by step
  for (const auto& row : table.rows) {
    CAPTURE(row[table.column("run_id")]);
    REQUIRE(row[table.column("status")] == "ok");
    const double t_stop = std::stod(row[stop]), t_rec = std::stod(row[rec]), err = std::stod(row[stop_err]);
    CHECK(std::abs(t_stop - pi / 4) < 1e-3);
    CHECK(std::abs(t_rec - pi / 12) < 1e-3);
    // The reference (rkmk45 at 1e-12) locates q<0 at pi/4 to 1e-10: the column is the run's own error.
    CHECK(std::abs(err - std::abs(t_stop - pi / 4)) < 1e-9);
    CHECK(std::stod(row[table.column("error_final")]) < 1e-2);  // both states at the event, near (0, -2)
    if (row[table.column("integrator")] == "rk4") rk4_error[std::stod(row[table.column("step")])] = err;
  }
  REQUIRE(rk4_error.size() == 3);
  CHECK(rk4_error.at(0.025) < rk4_error.at(0.05));
  CHECK(rk4_error.at(0.05) < rk4_error.at(0.1));
  const nlohmann::json ref = nlohmann::json::parse(read_text(d / "out" / "reference" / "osc.json"));
  CHECK(std::abs(ref.at("event_times").at("q<0").get<double>() - pi / 4) < 1e-10);
  CHECK(ref.at("event_accuracy").get<double>() < 1e-9);
  const std::string report = read_text(d / "out" / "report.md");
  CHECK(report.find("Event `q<0` (it ends every run and the reference: the error at T is the distance of the states at the event): "
                    "the reference locates it at t = 0.78539816339") != std::string::npos);
  CHECK(report.find("7 of the 7 finished runs locate it, their times") != std::string::npos);
  CHECK(report.find("Event `v<-1`: the reference locates it at t = 0.2617993877") != std::string::npos);
  // Bad tables: each refused before any run, with the line and the fix.
  const std::string head = "name = \"bad\"\n[[case]]\nname = \"osc\"\nmodel = \"harmonic_oscillator\"\n[[runs]]\nintegrators = [\"rk4\"]\nsteps = [0.1]\n";
  const std::vector<std::pair<std::string, std::string>> refused{
      {"[[event]]\nstop = true\n", "study.toml:8: [[event]] needs 'when'"},
      {"[[event]]\nwhen = \"q=0\"\n", "study.toml:9: event 'q=0': write NAME<VALUE"},
      {"[[event]]\nwhen = \"q<0\"\nstop = \"yes\"\n", "study.toml:10: key 'stop' must be true"},
      {"[[event]]\nwhen = \"q<0\"\ncases = [\"other\"]\n", "[[event]] 'q<0' names unknown case 'other'"},
      {"[[event]]\nwhen = \"q<0\"\n[[event]]\nwhen = \"q<0\"\n", "[[event]] 'q<0' is given twice for case 'osc'"},
      {"[reference]\nintegrator = \"exact\"\n[[event]]\nwhen = \"q<0\"\nstop = true\n", "[[event]] with stop = true needs an integrator reference"},
      {"[[event]]\nwhen = \"x<0\"\n", "'x' is neither a state column (q, v) nor an invariant (energy) nor an observable"}};
  int k = 0;
  for (const auto& entry : refused) {
    const std::string& table_text = entry.first;
    const std::string& message = entry.second;
    CAPTURE(table_text);
    const fs::path bad = write_study(d, head + table_text);
    const fs::path log = d / fmt::format("bad{}.txt", k++);
    CHECK(run_logged("study " + bad.string() + " --out " + (d / "bad").string(), log) == 1);
    CHECK(read_text(log).find(message) != std::string::npos);
  }
  fs::remove_all(d);
}
