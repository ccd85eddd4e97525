// End-to-end tests of the `liesim` command: list, describe, run, errors and output files.
#include <liesim/plugin.h>
#include <liesim/version.hpp>
#include <support/command.hpp>
#include <support/runpath.hpp>

#include <doctest/doctest.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>
#include <sys/wait.h>

namespace fs = std::filesystem;

namespace {

using liesim::test::Result;

Result run_liesim(const std::string& args) {
  return liesim::test::sh(std::string("env LIESIM_PLUGIN_PATH= ") + LIESIM_TEST_BINARY_DIR + "/bin/liesim " + args);
}

bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

std::vector<std::string> lines(const fs::path& file) {
  std::ifstream in(file);
  std::vector<std::string> out;
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

fs::path temp_dir() {
  const fs::path d = fs::temp_directory_path() / ("liesim_cli_" + std::to_string(::getpid()));
  fs::create_directories(d);
  return d;
}

}  // namespace

TEST_CASE("list shows models and methods, and as JSON") {
  const auto r = run_liesim("list");
  CHECK(r.code == 0);
  for (const char* name : {"pendulum_chain", "rigid_body", "lie_euler", "rkmk4", "rk4", "rkmk45"}) CHECK(has(r.out, name));
  const auto j = run_liesim("list --json");
  REQUIRE(j.code == 0);
  const auto doc = nlohmann::json::parse(j.out);
  CHECK(doc["models"].size() >= 2);
  CHECK(doc["failures"].empty());
}

TEST_CASE("list with broken plugins shows the failures after the plugins and exits 0") {
  const auto r = run_liesim(std::string("list --plugin-path ") + LIESIM_TEST_BINARY_DIR + "/test_plugins");
  CHECK(r.code == 0);
  const auto loaded = r.out.find("spin");
  const auto failed = r.out.find("plugins that failed to load");
  REQUIRE(loaded != std::string::npos);
  REQUIRE(failed != std::string::npos);
  CHECK(loaded < failed);
  CHECK(has(r.out, "liesim_no_entry.so: no entry point"));
  CHECK(has(r.out, "liesim_type_throws.so: its entry point returned no plugin table: deliberate failure in the factory"));
  const auto run = run_liesim(std::string("run --plugin-path ") + LIESIM_TEST_BINARY_DIR +
                          "/test_plugins --model type_throws --integrator rkmk4 --step 0.1");
  CHECK(run.code != 0);
  CHECK(has(run.out, "liesim_type_throws.so"));
  CHECK(has(run.out, "deliberate failure"));
}

TEST_CASE("describe prints a model's conventions and a method's options") {
  const auto m = run_liesim("describe pendulum_chain");
  CHECK(m.code == 0);
  for (const char* part : {"SPACE", "GROUP", "ACTION", "GENERATOR", "EMBEDDING", "INVARIANTS", "PARAMETERS", "SOURCE",
                           "rotation first", "q1_x", "q1_dot_w1", "chain_length"})
    CHECK(has(m.out, part));
  const auto a = run_liesim("describe rkmk45 --json");
  REQUIRE(a.code == 0);
  const auto doc = nlohmann::json::parse(a.out);
  CHECK(doc["order"] == 5);
  CHECK(doc["embedded_order"] == 4);
  bool theta = false, controller = false;
  for (const auto& o : doc["step_control_options"]) {
    theta = theta || o["name"] == "theta";
    controller = controller || (o["name"] == "controller" && o["default"] == "i");
  }
  CHECK(theta);
  CHECK(controller);
  const auto u = run_liesim("describe nothing_like_this");
  CHECK(u.code != 0);
  CHECK(has(u.out, "unknown integrator 'nothing_like_this'"));
}

TEST_CASE("observables: describe --param lists them, run writes them after the invariants and summarises them") {
  const auto plain = run_liesim("describe quadrotor_load");
  REQUIRE(plain.code == 0);
  CHECK(!has(plain.out, "observables ("));  // open loop: none
  const auto d = run_liesim("describe quadrotor_load --param control=tracking");
  REQUIRE(d.code == 0);
  CHECK(has(d.out, "state layout with these parameters"));
  CHECK(has(d.out, "observables (columns after the invariants in --output CSV files):"));
  CHECK(has(d.out, "tracking_error         [m] |y - y_d(t)|"));
  const auto j = run_liesim("describe quadrotor_load --json --param=control=tracking");
  REQUIRE(j.code == 0);
  const auto doc = nlohmann::json::parse(j.out);
  REQUIRE(doc["observables"].size() == 7);
  CHECK(doc["observables"][0]["name"] == "tracking_error");
  CHECK(doc["observables"][0]["unit"] == "m");
  const auto bad = run_liesim("describe quadrotor_load --param control=closed");
  CHECK(bad.code != 0);
  CHECK(has(bad.out, "'closed' is not one of: open_loop, tracking"));
  const auto method = run_liesim("describe rk4 --param N=2");
  CHECK(method.code != 0);
  CHECK(has(method.out, "--param sets a model's parameters; 'rk4' is an integrator method"));
  CHECK(run_liesim("describe quadrotor_load --bogus").code != 0);

  const fs::path dir = temp_dir();
  const auto r = run_liesim("run --model quadrotor_load --param control=tracking --integrator rkmk4 --t-end 1 --step 0.01 --output " +
                            (dir / "q.csv").string() + " --summary " + (dir / "q.json").string());
  REQUIRE(r.code == 0);
  const auto rows = lines(dir / "q.csv");
  REQUIRE(rows.size() == 102);
  CHECK(has(rows[0], ",R2_orthogonality,tracking_error,link1_direction_error,link2_direction_error,yd_x,yd_y,yd_z,input_power"));
  std::ifstream in(dir / "q.json");
  const auto sum = nlohmann::json::parse(in);
  const double final_error = sum["observables"]["tracking_error"]["final"].get<double>();
  CHECK(final_error > 1.0);
  CHECK(final_error < 1.4);
  CHECK(sum["observables"]["tracking_error"]["max"].get<double>() > 2.5);  // the transient peak near t = 0.5
  CHECK(sum["observables"]["yd_x"]["final"].get<double>() == doctest::Approx(-1.5).epsilon(1e-12));
}

TEST_CASE("--invariants-every K samples the drift at every K-th step and the last, and the summary says so") {
  const fs::path d = temp_dir();
  const auto every = run_liesim("run --model pendulum_chain --integrator rk4 --t-end 2 --step 0.01 --summary " + (d / "a.json").string());
  const auto sampled = run_liesim("run --model pendulum_chain --integrator rk4 --t-end 2 --step 0.01 --invariants-every 50 --summary " +
                                  (d / "b.json").string());
  REQUIRE(every.code == 0);
  REQUIRE(sampled.code == 0);
  std::ifstream fa(d / "a.json"), fb(d / "b.json");
  const auto a = nlohmann::json::parse(fa), b = nlohmann::json::parse(fb);
  CHECK(a["final_state"] == b["final_state"]);  // the run itself is the same
  CHECK(b["invariants_sampled"] == "every 50-th output point and the last");
  CHECK(a["invariants_sampled"].get<std::string>().rfind("every output point", 0) == 0);
  const double all = a["invariants"]["energy"]["max_abs_drift"], some = b["invariants"]["energy"]["max_abs_drift"];
  CHECK(some <= all);  // fewer samples never see a larger drift
  CHECK(some > 0);
  CHECK(a["invariants"]["energy"]["final"] == b["invariants"]["energy"]["final"]);  // the last point is always sampled
  const auto text = run_liesim("run --model pendulum_chain --integrator rk4 --t-end 0.1 --step 0.01 --invariants-every 3");
  CHECK(has(text.out, "max |drift| over every 3-th output point and the last"));
  CHECK(run_liesim("run --model pendulum_chain --integrator rk4 --t-end 0.1 --step 0.01 --invariants-every 0").code != 0);
}

TEST_CASE("run writes the CSV time series and the JSON summary") {
  const fs::path d = temp_dir();
  const auto r = run_liesim("run --model pendulum_chain --integrator rkmk4 --t-end 1 --step 0.01 --output " +
                        (d / "out.csv").string() + " --summary " + (d / "sum.json").string());
  REQUIRE(r.code == 0);
  // One line of result, naming where the files went.
  CHECK(has(r.out, "model pendulum_chain with rkmk4: t = 1 reached in 100 steps (0 rejected); written: summary "));
  CHECK(has(r.out, "time series " + (d / "out.csv").string()));
  const auto rows = lines(d / "out.csv");
  REQUIRE(rows.size() == 102);  // header + initial point + 100 steps
  CHECK(rows[0] == "t,q1_x,q1_y,q1_z,w1_x,w1_y,w1_z,q2_x,q2_y,q2_z,w2_x,w2_y,w2_z,energy,q1_norm_minus_1,q1_dot_w1,q2_norm_minus_1,q2_dot_w2");
  std::ifstream in(d / "sum.json");
  const auto j = nlohmann::json::parse(in);
  CHECK(j["model"] == "pendulum_chain");
  CHECK(j["integrator"] == "rkmk4");
  CHECK(j["t_end"] == 1.0);
  CHECK(j["final_state"].size() == 12);
  CHECK(j["stats"]["steps"] == 100);
  CHECK(j["stats"]["rejected_steps"] == 0);
  CHECK(j["stats"]["f_evals"] == 400);
  CHECK(j["parameters"]["N"] == "2");
  CHECK(j["invariants"]["q1_norm_minus_1"]["max_abs_drift"].get<double>() < 1e-13);
  CHECK(j["invariants"]["energy"]["initial"].get<double>() == doctest::Approx(23.3101525703).epsilon(1e-10));
  CHECK(j["plugins"]["model"]["version"] == "0.2.0");
  CHECK(j.contains("wall_time_s"));
  CHECK(j["cpu_time_s"].get<double>() > 0);
  CHECK(j["cpu_time_s"].get<double>() <= j["wall_time_s"].get<double>() + 1e-3);
  // The last CSV row is the final state of the summary.
  std::istringstream last(rows.back());
  std::string cell;
  std::getline(last, cell, ',');
  CHECK(std::stod(cell) == 1.0);
  std::getline(last, cell, ',');
  CHECK(std::stod(cell) == doctest::Approx(j["final_state"][0].get<double>()).epsilon(1e-15));
  fs::remove_all(d);
}

TEST_CASE("adaptive runs write the step log") {
  const fs::path d = temp_dir();
  const auto r = run_liesim("run --model pendulum_chain --integrator rkmk45 --t-end 3 --atol 1e-6 --option error_norm=l2 --steps " +
                        (d / "steps.csv").string() + " --summary " + (d / "s.json").string());
  REQUIRE(r.code == 0);
  const auto rows = lines(d / "steps.csv");
  CHECK(rows[0] == "t,h,error,accepted");
  std::ifstream in(d / "s.json");
  const auto j = nlohmann::json::parse(in);
  CHECK(rows.size() == 1 + j["stats"]["steps"].get<std::size_t>() + j["stats"]["rejected_steps"].get<std::size_t>());
  fs::remove_all(d);
}

TEST_CASE("bad input gets a clear error and a non-zero exit") {
  struct Case {
    std::string args, message;
  };
  const std::vector<Case> cases{
      {"run --model nope --integrator rk4 --step 0.1", "unknown model 'nope'"},
      {"run --model rigid_body --integrator nope --step 0.1", "unknown integrator 'nope'"},
      {"run --model rigid_body --integrator rk4 --step 0.1 --param J=1", "unknown parameter 'J' of model 'rigid_body'"},
      {"run --model rigid_body --integrator rk4 --step 0.1 --param I=1,2", "expected 3 value(s), got 2"},
      {"run --model rigid_body --integrator rk4 --step 0.1 --param I=1,-2,3", "moment I2 = -2 must be positive"},
      {"run --model rigid_body --integrator rk4 --step 0.1 --option foo=1", "unknown option 'foo' of method 'rk4'"},
      {"run --model rigid_body --integrator rk4", "give a fixed step (--step H) or tolerances"},
      {"run --model rigid_body --integrator rk4 --atol 1e-6", "runs with a fixed step only"},
      {"run --model rigid_body --integrator rk4 --step abc", "run:"},
      {"run --model pendulum_chain --integrator rk4 --step 0.1 --param q0=1,0,0.1", "|q1|"},
      {"run --model pendulum_chain --integrator rk4 --step 0.1 --param q0=1,0,0 --param w0=1,0,0", "q1 . w1"},
      {"run --model pendulum_chain --integrator rk4 --step 0.1 --param N=0", "parameter 'N' of model 'pendulum_chain' must be in [1"},
      {"run --model pendulum_chain --integrator rk4 --step 0.1 --param m=1,2,3", "expected 1 or 2 value(s), got 3"},
      {"run --model pendulum_chain --integrator rk4 --step 0.1 --param L=1 --param chain_length=2", "exclude each other"},
      {"run --model pendulum_chain --integrator rkmk45 --atol 1e-6 --option theta=2", "theta"},
      {"run --model pendulum_chain --integrator rkmk45 --atol 1e-6 --option controller=pd",
       "step-control option 'controller': unknown controller 'pd'; known: i, pi, h211b, pid"},
      {"run --model pendulum_chain --integrator rkmk45 --atol 1e-6 --option pi_beta1=0.5",
       "step-control option 'pi_beta1' applies to controller=pi only (this run has controller=i)"},
      {"run --model pendulum_chain --integrator rkmk45 --atol 1e-6 --option controller=pi --option pi_beta2=0.8",
       "pi_beta1 - pi_beta2, the PI controller's integral gain, must be positive"},
      {"run --model pendulum_chain --integrator rkmk45 --atol 1e-6 --option controller=pi --option pi_beta1=abc", "'abc' is not a number"},
      {"run --model pendulum_chain --integrator rkmk45 --atol 1e-6 --option controller=h211b --option controller_b=-1",
       "step-control option 'controller_b' must be positive"},
      {"run --model pendulum_chain --integrator rkmk45 --atol 1e-6 --option controller=pi --option controller_b=4",
       "applies to controller=h211b or controller=pid only"},
      {"run --model pendulum_chain --integrator arkode_erk --atol 1e-6 --rtol 1e-6 --option adaptivity=soderlind",
       "'soderlind' is not one of: default, pid, pi, i, explicit_gustafsson, implicit_gustafsson, imex_gustafsson"},
      {"run --model pendulum_chain --integrator rkmk4 --step 0.1 --option dexpinv=magic", "is not one of: exact, series"},
      {"frobnicate", "unknown command 'frobnicate'"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.args);
    const auto r = run_liesim(c.args);
    CHECK(r.code != 0);
    CHECK(has(r.out, c.message));
    CAPTURE(r.out);
  }
}

TEST_CASE("a run that blows up stops with a clear error and keeps the rows written so far") {
  const fs::path d = temp_dir();
  const auto r = run_liesim("run --model pendulum_chain --integrator euler --t-end 100 --step 0.5 --param g=1e300 --output " +
                        (d / "out.csv").string() + " --summary " + (d / "s.json").string());
  CHECK(r.code != 0);
  // The state's norm passes 1e6 max(1, |y0|) at the first step, before it overflows.
  CHECK(has(r.out, "diverged at t = 0.5: |y| = "));
  const auto rows = lines(d / "out.csv");
  CHECK(rows.size() >= 2);  // header and the points before the failure
  std::ifstream in(d / "s.json");
  const auto j = nlohmann::json::parse(in);
  CHECK(j["status"] == "failed");
  CHECK(has(j["error"].get<std::string>(), "diverged at t = "));
  fs::remove_all(d);
}

TEST_CASE("a model with an exact solution reports the error against it") {
  const fs::path d = temp_dir();
  const auto r = run_liesim("run --model oscillator --integrator rk4 --t-end 10 --step 0.1 --summary " + (d / "s.json").string());
  REQUIRE(r.code == 0);
  std::ifstream in(d / "s.json");
  const auto j = nlohmann::json::parse(in);
  REQUIRE(j.contains("exact_error"));
  CHECK(j["exact_error"].get<double>() > 1e-8);  // RK4's error with h = 0.1, measured 4.2e-6
  CHECK(j["exact_error"].get<double>() < 1e-5);
  const auto text = run_liesim("run --model oscillator --integrator rk4 --t-end 10 --step 0.1");
  CHECK(has(text.out, "error against the exact solution at t = 10"));
  fs::remove_all(d);
}

TEST_CASE("review regressions: stray words, set-up failures, unwritable outputs, step sizes") {
  const fs::path d = temp_dir();
  // A stray word (a forgotten --param) is an error, not silently ignored.
  auto r = run_liesim("run --model pendulum_chain --integrator rkmk4 --step 0.1 --param N=3 chain_length=5");
  CHECK(r.code != 0);
  CHECK(has(r.out, "unexpected argument 'chain_length=5'"));
  r = run_liesim("run --model rigid_body --integrator rk4 stray --step=0.1 --t-end 1");
  CHECK(r.code != 0);
  CHECK(has(r.out, "unexpected argument 'stray'"));
  // A method that cannot run the model is refused before anything is written (no empty summary).
  r = run_liesim("run --model rigid_body --integrator ida --atol 1e-6 --rtol 1e-6 --summary " + (d / "s.json").string());
  CHECK(r.code != 0);
  CHECK(has(r.out, "formulation=cartesian_dae"));
  CHECK_FALSE(fs::exists(d / "s.json"));
  r = run_liesim("run --model rigid_body --integrator cvode_bdf --step 0.1");
  CHECK(r.code != 0);
  CHECK(has(r.out, "CVODE has no fixed-step mode"));
  // Output that cannot be written is an error.
  CHECK(run_liesim("run --model rigid_body --integrator rk4 --step 0.1 --summary /dev/full").code != 0);
  CHECK(run_liesim("run --model rigid_body --integrator rk4 --step 0.1 --output /dev/full").code != 0);
  // Step sizes: larger than the span, or so small that the count overflows, are refused.
  r = run_liesim("run --model rigid_body --integrator rk4 --step 5 --t-end 1");
  CHECK(r.code != 0);
  CHECK(has(r.out, "larger than the time span"));
  r = run_liesim("run --model rigid_body --integrator rk4 --step 1e-300 --t-end 1");
  CHECK(r.code != 0);
  CHECK(has(r.out, "exceed max_steps"));
  // Adaptive runs end exactly at t_end: no round-off sliver, and h_min does not apply to the
  // step clipped to reach t_end.
  CHECK(run_liesim("run --model pendulum_chain --integrator rkmk45 --t-end 1 --atol 1e-1 --rtol 1e-1 --option h_max=0.1 --option h0=0.1").code == 0);
  CHECK(run_liesim("run --model pendulum_chain --integrator rkmk45 --t-end 1.005 --atol 1e-1 --rtol 1e-1 --option h_min=0.01 "
                   "--option h_max=0.1 --option h0=0.1").code == 0);
  // describe with a typo names both kinds.
  r = run_liesim("describe pendulum");
  CHECK(r.code != 0);
  CHECK(has(r.out, "neither a model nor an integrator method"));
  fs::remove_all(d);
}

TEST_CASE("--output-every writes every N-th point and always the last") {
  const fs::path d = temp_dir();
  REQUIRE(run_liesim("run --model rigid_body --integrator rk4 --step 0.01 --t-end 1.005 --output-every 10 --output " +
                     (d / "e.csv").string()).code == 0);
  const auto rows = lines(d / "e.csv");
  REQUIRE(rows.size() == 13);  // header, t = 0, 0.1, ..., 1.0, and the final t = 1.005
  CHECK(rows[2].rfind("0.1", 0) == 0);
  CHECK(std::stod(rows.back().substr(0, rows.back().find(','))) == doctest::Approx(1.005).epsilon(1e-15));
  CHECK(run_liesim("run --model rigid_body --integrator rk4 --step 0.01 --output-every 0 --output " + (d / "f.csv").string()).code != 0);
  fs::remove_all(d);
}

TEST_CASE("--outputs N, --output-times and --output-grid write exactly the requested times, fixed step or adaptive") {
  const fs::path d = temp_dir();
  auto times = [&](const fs::path& f) {
    std::vector<double> t;
    const auto rows = lines(f);
    for (std::size_t k = 1; k < rows.size(); ++k) t.push_back(std::stod(rows[k].substr(0, rows[k].find(','))));
    return t;
  };
  REQUIRE(run_liesim("run --model rigid_body --integrator rk4 --step 0.001 --t-end 1 --outputs 10 --output " + (d / "f.csv").string())
              .code == 0);
  const auto fixed = times(d / "f.csv");
  REQUIRE(fixed.size() == 11);  // t = 0, 0.1, ..., 1 (not the 1001 steps)
  for (std::size_t k = 0; k < fixed.size(); ++k) CHECK(fixed[k] == doctest::Approx(0.1 * static_cast<double>(k)).epsilon(1e-15));
  // Adaptive: the requested times exactly (the dense output inside the steps), never the nearest step.
  REQUIRE(run_liesim("run --model rigid_body --integrator rkmk45 --rtol 1e-10 --atol 1e-10 --t-end 2 --outputs 4 --output " +
                     (d / "a.csv").string()).code == 0);
  CHECK(times(d / "a.csv") == std::vector<double>{0, 0.5, 1, 1.5, 2});
  REQUIRE(run_liesim("run --model rigid_body --integrator dopri45 --rtol 1e-8 --atol 1e-8 --t-end 2 --output-times 0.1,0.35,1.7 --output " +
                     (d / "t.csv").string()).code == 0);
  CHECK(times(d / "t.csv") == std::vector<double>{0, 0.1, 0.35, 1.7});
  REQUIRE(run_liesim("run --model rigid_body --integrator cvode_bdf --rtol 1e-8 --atol 1e-8 --t-end 1 --output-grid 0.25 --output " +
                     (d / "g.csv").string()).code == 0);
  CHECK(times(d / "g.csv") == std::vector<double>{0, 0.25, 0.5, 0.75, 1});
  // Bad output settings: refused, each message naming the problem.
  const std::string rk4_run = "run --model rigid_body --integrator rk4 --step 0.01 ";
  const std::pair<std::string, std::string> refused[] = {
      {"--outputs 10 --output-every 2 --output " + (d / "b.csv").string(), "--outputs and --output-every each choose the output points"},
      {"--output-times 0.5,0.2", "output times must increase"},
      {"--output-times 0.5,3", "outside the run's time span [0, 1]"},
      {"--output-times 0.5,x", "not a comma-separated list of numbers"},
      {"--output-grid -1", "--output-grid must be a positive finite time step"},
      {"--outputs 2000000000", "--outputs must be in [1, 10000000]"}};
  for (const auto& entry : refused) {
    CAPTURE(entry.first);
    const auto r = run_liesim(rk4_run + entry.first);
    CHECK(r.code != 0);
    CHECK(has(r.out, entry.second));
  }
  fs::remove_all(d);
}

TEST_CASE("no binary or plugin of the build loads libraries from the working directory") {
  // An empty RUNPATH element (e.g. the ':' padding of in-place RUNPATH editing) or a relative one
  // makes the loader search the current directory: running liesim in a downloaded folder would
  // load that folder's libfmt.so. Every element must be absolute or $ORIGIN-based.
  const fs::path build = LIESIM_TEST_BINARY_DIR;
  const auto scan = liesim::test::scan_runpaths({build / "bin", build / "lib", build / "lib" / "liesim" / "plugins"});
  CHECK(scan.unsafe == std::vector<std::string>{});
  CHECK(scan.elf_files >= 20);  // the command, the kernel, every plugin and test program
}

TEST_CASE("every output file reports a write failure, and two outputs may not share a file") {
  const std::string base = "run --model rigid_body --integrator rkmk45 --rtol 1e-6 --atol 1e-6 --t-end 1 ";
  for (const char* option : {"--steps", "--output", "--summary"}) {
    CAPTURE(option);
    const auto r = run_liesim(base + option + " /dev/full");
    CHECK(r.code != 0);
    CHECK(has(r.out, "'/dev/full' failed (disk full or not writable)"));
  }
  const fs::path dir = fs::path(LIESIM_TEST_BINARY_DIR) / "test_cli_same_file";
  fs::create_directories(dir);
  const std::string a = (dir / "a.csv").string(), a_again = (dir / "." / "a.csv").string();
  const auto same = run_liesim(base + "--output " + a + " --summary " + a_again);
  CHECK(same.code != 0);
  CHECK(has(same.out, "--output and --summary name the same file"));
  const auto steps = run_liesim(base + "--steps " + a + " --output " + a);
  CHECK(steps.code != 0);
  CHECK(has(steps.out, "name the same file"));
  fs::remove_all(dir);
}

TEST_CASE("liesim --version names the release and the plugin ABI") {
  for (const char* flag : {"--version", "version"}) {
    const auto r = run_liesim(flag);
    CHECK(r.code == 0);
    CHECK(has(r.out, fmt::format("liesim {} (plugin ABI {}.{}", LIESIM_VERSION, LIESIM_ABI_MAJOR, LIESIM_ABI_MINOR)));
  }
}

TEST_CASE("every command has its own help: liesim CMD --help and liesim help CMD") {
  const auto run_help = run_liesim("run --help");
  CHECK(run_help.code == 0);
  CHECK(has(run_help.out, "liesim run --model NAME"));
  CHECK(!has(run_help.out, "liesim study"));
  CHECK(has(run_help.out, "--plugin-path DIR"));
  const auto study_help = run_liesim("help study");
  CHECK(study_help.code == 0);
  CHECK(has(study_help.out, "--shard I/N"));
  CHECK(has(study_help.out, "liesim study merge"));
  CHECK(run_liesim("study merge -h").code == 0);
  const auto unknown = run_liesim("help nope");
  CHECK(unknown.code == 2);
  CHECK(has(unknown.out, "unknown command 'nope'"));
}

TEST_CASE("a variational method's diagnostics reach the CSV, the step log, the summary and describe") {
  const fs::path d = temp_dir();
  const Result r = run_liesim("run --model double_well --integrator vi_adaptive --step 0.01 --t-end 2 --outputs 4 --output " +
                              (d / "a.csv").string() + " --steps " + (d / "s.csv").string() + " --summary " + (d / "a.json").string());
  REQUIRE(r.code == 0);
  const auto csv = lines(d / "a.csv");
  REQUIRE(csv.size() == 6);  // header, t0, 4 outputs
  CHECK(csv[0] == "t,q,v,energy,h_k,discrete_energy,residual_momentum,residual_energy,condition");
  CHECK(has(csv[1], ",nan,nan,nan,nan,nan"));  // no step yet at t0
  const auto steps = lines(d / "s.csv");
  CHECK(steps[0] == "t,h,error,accepted,h_k,discrete_energy,residual_momentum,residual_energy,condition");
  CHECK(steps.size() > 150);  // one row per step the solver took
  std::ifstream in(d / "a.json");
  const auto j = nlohmann::json::parse(in);
  CHECK(j["invariants"]["discrete_energy"]["max_abs_drift"].get<double>() < 1e-14);
  CHECK(j["diagnostics"]["h_k"]["max"].get<double>() <= 0.0100000001);
  CHECK(j["stats"]["steps"].get<long>() == static_cast<long>(steps.size()) - 1);
  const Result dm = run_liesim("describe double_well");
  CHECK(has(dm.out, "mechanical description"));
  const Result di = run_liesim("describe vi_adaptive --json");
  const auto jd = nlohmann::json::parse(di.out);
  CHECK(jd["needs_mechanics"].get<bool>());
  CHECK(jd["needs"] == "mechanical");
  CHECK(jd["diagnostics"].size() == 5);
  const Result bad = run_liesim("run --model rigid_body --integrator vi_midpoint --step 0.1 --t-end 1");
  CHECK(bad.code != 0);
  CHECK(has(bad.out, "mechanical description"));
  fs::remove_all(d);
}

TEST_CASE("audit: relative names and dangling symbolic links to one file are the same file; study --out \"\" is an error") {
  const std::string base = "run --model rigid_body --integrator rkmk45 --rtol 1e-6 --atol 1e-6 --t-end 1 ";
  const fs::path dir = temp_dir() / "same_file";
  fs::create_directories(dir);
  // y.csv and ./y.csv from the working directory.
  const auto relative = liesim::test::sh(fmt::format("cd {} && env LIESIM_PLUGIN_PATH= {}/bin/liesim {} --output y.csv --steps ./y.csv",
                                                     dir.string(), LIESIM_TEST_BINARY_DIR, base));
  CHECK(relative.code == 1);
  CHECK(has(relative.out, "--output and --steps name the same file"));
  // Two links to one file that does not exist yet (dangling): a write through either creates it.
  fs::create_symlink(dir / "target.csv", dir / "link1.csv");
  fs::create_symlink("link1.csv", dir / "link2.csv");
  const auto links = run_liesim(base + "--output " + (dir / "link2.csv").string() + " --summary " + (dir / "target.csv").string());
  CHECK(links.code == 1);
  CHECK(has(links.out, "name the same file"));
  const auto distinct = run_liesim(base + "--output " + (dir / "one.csv").string() + " --steps " + (dir / "two.csv").string());
  CHECK(distinct.code == 0);
  const auto out = run_liesim(std::string("study ") + LIESIM_TEST_SOURCE_DIR + "/studies/quickstart.toml --out \"\"");
  CHECK(out.code == 1);
  CHECK(has(out.out, "--out needs a folder"));
  const auto timeout = run_liesim("run --model rigid_body --integrator rk4 --step 0.1 --t-end 1 --run-timeout 1e10");
  CHECK(timeout.code == 1);
  CHECK(has(timeout.out, "--run-timeout must be"));
  fs::remove_all(dir);
}

TEST_CASE("a world-writable plugin folder is warned about, and its plugins still listed") {
  const fs::path dir = temp_dir() / "open_folder";
  fs::create_directories(dir);
  fs::permissions(dir, fs::perms::all);
  const auto r = run_liesim("--plugin-path " + dir.string() + " list");
  CHECK(r.code == 0);
  CHECK(has(r.out, "liesim: warning: the plugin folder " + dir.string() + " is writable by every user"));
  CHECK(has(r.out, "rigid_body"));
  fs::permissions(dir, fs::perms::owner_all);
  CHECK_FALSE(has(run_liesim("--plugin-path " + dir.string() + " list").out, "writable by every user"));
  fs::remove_all(dir);
}

TEST_CASE("a study run that blows up ends as diverged, with the time; the others are ok") {
  const fs::path d = temp_dir() / "diverged";
  fs::create_directories(d);
  std::ofstream(d / "s.toml") << R"(name = "blowup"
[reference]
integrator = "rk4"
step = 0.001
[[case]]
name = "osc"
model = "oscillator"
t_end = 100
[[runs]]
integrators = ["euler", "rk4"]
steps = [1.0]
)";
  const auto r = run_liesim("study " + (d / "s.toml").string() + " --out " + (d / "out").string() + " --no-plots --jobs 1");
  CHECK(r.code == 3);
  std::ifstream in(d / "out" / "results.csv");
  std::string header, euler, rk4;
  std::getline(in, header);
  std::getline(in, euler);
  std::getline(in, rk4);
  CHECK(has(euler, ",diverged,"));
  CHECK(has(euler, "diverged at t = "));
  CHECK(has(rk4, ",ok,"));  // |R(i h)| < 1 for rk4 at h = 1: stable
  fs::remove_all(d);
}

TEST_CASE("rk and rkmk run a table file given by --tableau (a path from the working folder); a wrong one is refused before running") {
  const std::string tables = std::string(LIESIM_TEST_SOURCE_DIR) + "/tests/methods/tables/";
  const fs::path dir = fs::temp_directory_path() / fmt::format("liesim_cli_tableau_{}", ::getpid());
  fs::create_directories(dir);
  const std::string summary = (dir / "s.json").string();
  for (const char* method : {"rk", "rkmk"}) {
    CAPTURE(method);
    const auto r = run_liesim(fmt::format("run --model pendulum_chain --integrator {} --tableau {}cash_karp.toml --rtol 1e-8 --atol 1e-8 "
                                          "--t-end 0.5 --summary {}",
                                          method, tables, summary));
    CAPTURE(r.out);
    REQUIRE(r.code == 0);
    std::ifstream in(summary);
    const auto doc = nlohmann::json::parse(in);
    CHECK(doc["method"]["order"] == 5);
    CHECK(doc["method"]["embedded_order"] == 4);
    CHECK(has(doc["method"]["summary"].get<std::string>(), "[CASH_KARP_6_5_4]"));
    const auto wrong = run_liesim(fmt::format("run --model pendulum_chain --integrator {} --tableau {}cash_karp_wrong.toml --step 0.01", method,
                                              tables));
    CHECK(wrong.code != 0);
    CHECK(has(wrong.out, "fails the order-3 condition of tree [[τ]]: sum b_i a_ij c_j = 1/6"));
    const auto twice = run_liesim(fmt::format("run --model pendulum_chain --integrator {} --tableau a.toml --option tableau=b.toml --step 0.1",
                                              method));
    CHECK(twice.code != 0);
    CHECK(has(twice.out, "give the table once"));
    const auto missing = run_liesim(fmt::format("run --model pendulum_chain --integrator {} --tableau /nonexistent.toml --step 0.1", method));
    CHECK(missing.code != 0);
    CHECK(has(missing.out, "cannot read the table file '/nonexistent.toml'"));
  }
  // A relative path is from the working folder.
  const auto rel = liesim::test::sh(fmt::format("cd {} && {}/bin/liesim run --model pendulum_chain --integrator rk --tableau "
                                                "tests/methods/tables/cash_karp.toml --step 0.1 --t-end 0.2 2>&1",
                                                LIESIM_TEST_SOURCE_DIR, LIESIM_TEST_BINARY_DIR));
  CHECK(rel.code == 0);
  const auto d = run_liesim("describe rkmk");
  CHECK(d.code == 0);
  CHECK(has(d.out, "order and embedded order: its table's (--tableau FILE"));
  fs::remove_all(dir);
}

TEST_CASE("every command takes --key=value as well as --key value; its help lists every option with its meaning") {
  const fs::path d = temp_dir() / "key_value";
  fs::create_directories(d);
  // list, describe, run, the global --plugin-path.
  const auto list = run_liesim(std::string("list --json --plugin-path=") + LIESIM_TEST_BINARY_DIR + "/test_plugins");
  CHECK(list.code == 0);
  const auto describe = run_liesim("describe pendulum_chain --param=N=3");
  CHECK(describe.code == 0);
  CHECK(has(describe.out, "q3"));
  const auto run = run_liesim("run --model=rigid_body --integrator=rk4 --step=0.1 --t-end=0.5 --summary=" + (d / "s.json").string());
  CHECK(run.code == 0);
  CHECK(fs::exists(d / "s.json"));
  // study: a two-run study with --jobs=2 --out=DIR --no-plots --no-views.
  std::ofstream(d / "tiny.toml") << R"(name = "tiny"
[reference]
integrator = "rk4"
step = 0.001
[[case]]
name = "top"
model = "rigid_body"
t_end = 0.2
[[runs]]
integrators = ["rk4"]
steps = [0.1, 0.05]
)";
  const auto study = run_liesim("study " + (d / "tiny.toml").string() + " --jobs=2 --out=" + (d / "out").string() + " --no-plots --no-views");
  CHECK(study.code == 0);
  CHECK(fs::exists(d / "out" / "results.csv"));
  // The commands whose real work needs more set-up: their options are read (the error is about
  // the operand, not the option).
  const auto merge = run_liesim("study merge " + (d / "none").string() + " --out=" + (d / "merged").string());
  CHECK(merge.code == 1);
  CHECK_FALSE(has(merge.out, "unrecognised"));
  CHECK_FALSE(has(merge.out, "--out DIR"));
  const auto view = run_liesim("view " + (d / "none").string() + " --frames=10 --title=T");
  CHECK(has(view.out, "does not exist"));
  const auto figure = run_liesim("figure strobe " + (d / "none.csv").string() + " --model=pendulum_chain --out=" + (d / "f.png").string());
  CHECK(figure.code != 0);
  CHECK_FALSE(has(figure.out, "unrecognised"));
  const auto created = run_liesim("new model my_ball --lang=c --dir=" + (d / "my_ball").string());
  CHECK(created.code == 0);
  CHECK(fs::exists(d / "my_ball" / "CMakeLists.txt"));
  const auto manifest = run_liesim("manifest " + (d / "none.so").string() + " --output=" + (d / "m.json").string());
  CHECK(has(manifest.out, "no file"));
  // An unknown option is named, with the help to read; so is a stray word.
  const auto unknown = run_liesim("study " + (d / "tiny.toml").string() + " --jobz=2");
  CHECK(unknown.code == 1);
  CHECK(has(unknown.out, "jobz"));
  CHECK(has(unknown.out, "liesim study --help"));
  const auto stray = run_liesim("describe rk4 rk5");
  CHECK(has(stray.out, "unexpected argument 'rk5'"));
  // Help: every option of the command, with its meaning, from the table that parses it.
  const std::map<std::string, std::vector<std::string>> options{
      {"list", {"--json"}},
      {"describe", {"--json", "--param KEY=VALUE"}},
      {"run", {"--model NAME", "--integrator NAME", "--tableau FILE", "--output-grid DT", "--invariants-every K", "--run-timeout SECONDS"}},
      {"study", {"--jobs N", "--out DIR", "--resume", "--retry-failed", "--run-timeout SECONDS", "--shard I/N", "--no-plots", "--no-views"}},
      {"study merge", {"--out DIR", "--no-plots"}},
      {"view", {"--runs A,B,...", "--out FILE", "--frames N", "--title T"}},
      {"figure", {"--model M", "--param KEY=VALUE", "--out FILE", "--times T1,T2,...", "--exposures N", "--title T"}},
      {"new", {"--dir DIR", "--lang c++|c"}},
      {"manifest", {"--output FILE"}},
      {"plot", {}}};
  for (const auto& entry : options) {
    const std::string& command = entry.first;  // (clang 14: a structured binding cannot be captured)
    const std::vector<std::string>& names = entry.second;
    CAPTURE(command);
    const auto help = run_liesim(command + " --help");
    CHECK(help.code == 0);
    CHECK(has(help.out, "usage: liesim " + command));
    CHECK(has(help.out, "--plugin-path DIR"));
    for (const auto& n : names) {
      CAPTURE(n);
      const auto at = help.out.find("  " + n + " ");
      REQUIRE(at != std::string::npos);
      // Its meaning on the same line, after the name.
      const std::string line = help.out.substr(at, help.out.find('\n', at) - at);
      CHECK(line.size() > n.size() + 12);
    }
  }
  fs::remove_all(d);
}
