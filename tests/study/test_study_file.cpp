// Study files: valid files expand as written; invalid ones are refused naming file, line and key.
#include <liesim/sdk/status.hpp>
#include <liesim/study/study_file.hpp>
#include <liesim/study/results_table.hpp>
#include <liesim/study/study_runner.hpp>
#include <support/plugins.hpp>

#include <doctest/doctest.h>

#include <chrono>
#include <filesystem>
#include <string>

namespace fs = std::filesystem;
using namespace liesim;
using namespace liesim::study;

namespace {
std::string error_of(const std::string& text) {
  try {
    (void)parse_study(text, "s.toml");
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

const char* valid = R"(name = "t"
[[case]]
name = "p"
model = "pendulum_chain"
t_end = 1.0
parameters = { N = 2, q0 = [0.6, 0.0, 0.8] }
sweep = { N = [1, 2, 3], m = [1, 2] }

[[case]]
name = "r"
model = "rigid_body"

[[runs]]
integrators = ["rkmk4", "rk4"]
steps = [0.1, 0.05]
cases = ["p"]

[[runs]]
name = "ad"
integrators = ["rkmk45"]
tolerances = [1e-6]
options = { error_norm = "l2", theta = 0.9 }
)";
}  // namespace

TEST_CASE("a valid study expands sweeps and run groups") {
  const StudySpec s = parse_study(valid, "s.toml");
  CHECK(s.name == "t");
  CHECK(s.output == "results/t");
  REQUIRE(s.cases.size() == 7);  // 3 x 2 sweep of p, plus r
  CHECK(s.cases[0].name == "p[N=1,m=1]");
  CHECK(s.cases[0].parameters.at("q0") == "0.6,0,0.8");
  CHECK(s.cases[5].parameters.at("N") == "3");
  CHECK(s.reference.integrator == "rkmk45");
  const auto items = expand(s);
  CHECK(items.size() == 6 * 2 * 2 + 7 * 1);
  CHECK(items[0].id == "runs1|p[N=1,m=1]|rkmk4|h|0.1");
  CHECK(items[1].series == false);
  CHECK(items[0].series == true);  // coarsest step writes the time series
  CHECK(items.back().group->options.at("theta") == "0.9");
}

TEST_CASE("invalid study files are refused with file, line and key") {
  CHECK(error_of("name = \"x\"\nfoo = 1\n").find("s.toml:2: unknown key 'foo' in the study") == 0);
  CHECK(error_of("name = 3\n").find("s.toml:1: key 'name' must be a string") == 0);
  CHECK(error_of("name = \"x\"\n[[case]]\nname = \"a\"\nmodel = \"m\"\nt_end = -1\n").find("s.toml:5: key 't_end' must be a positive") == 0);
  CHECK(error_of("name = \"x\"\n[[case]]\nname = \"a\"\nmodel = \"m\"\nsweep = { N = [] }\n").find("s.toml:5: sweep 'N' is empty") == 0);
  CHECK(error_of("name = \"x\"\n[[case]]\nname = \"a\"\nmodel = \"m\"\n[[runs]]\nintegrators = []\nsteps=[1]\n").find("s.toml:6: key 'integrators': empty list") == 0);
  CHECK(error_of("name = \"x\"\n[[case]]\nname = \"a\"\nmodel = \"m\"\n[[runs]]\nintegrators = [\"rk4\"]\n").find("exactly one of 'steps'") != std::string::npos);
  CHECK(error_of("name = \"x\"\n[[case]]\nname = \"a\"\nmodel = \"m\"\n[[runs]]\nintegrators = [\"rk4\"]\nsteps = [0.1]\ncases = [\"b\"]\n").find("unknown case 'b'") != std::string::npos);
  CHECK(error_of("name = \"x\"\n[[case]]\nname = \"a\"\nmodel = \"m\"\n[[runs]]\nintegrators = [\"rk4\"]\nsteps = [\"big\"]\n").find("s.toml:7: key 'steps' must be a number") == 0);
  CHECK(error_of("name = \"x\"\n[[case]\n").find("s.toml:2:") == 0);  // TOML syntax error
  CHECK(error_of("name = \"x\"\n").find("needs at least one [[case]]") != std::string::npos);
  const std::string two_groups = "name = \"x\"\n[[case]]\nname = \"a\"\nmodel = \"m\"\n[[runs]]\nname = \"fixed\"\n"
                                 "integrators = [\"rk4\"]\nsteps = [0.1]\n[[runs]]\nintegrators = [\"rk4\"]\n";
  // A matched group cannot be matched in turn (it has neither tolerances nor steps of its own).
  CHECK(error_of(two_groups + "name = \"m1\"\nmatch_steps_of = \"fixed\"\n[[runs]]\nintegrators = [\"rk4\"]\nmatch_steps_of = \"m1\"\n")
            .find("s.toml:13: match_steps_of = 'm1' must name a group with 'tolerances' (adaptive runs) or 'steps'") == 0);
  CHECK(error_of(two_groups + "match_error_of = \"later\"\n").find("must name an earlier [[runs]] group") != std::string::npos);
  CHECK(error_of(two_groups + "match_error_of = \"fixed\"\nmatch_steps_of = \"fixed\"\n").find("exactly one of") != std::string::npos);
}

TEST_CASE("[[figure]] tables: kinds, columns, against and axes are checked with file and line") {
  const std::string base = "name = \"x\"\n[[case]]\nname = \"a\"\nmodel = \"m\"\n[[runs]]\nintegrators = [\"rk4\"]\nsteps = [0.1]\n[[figure]]\n";
  CHECK(error_of(base + "name = \"f\"\ncolumns = [\"y_x\"]\n").empty());
  CHECK(error_of(base + "columns = [\"y_x\"]\n").find("s.toml:8: [[figure]] needs a 'name'") == 0);
  CHECK(error_of(base + "name = \"a b\"\ncolumns = [\"y_x\"]\n").find("must be letters, digits") != std::string::npos);
  CHECK(error_of(base + "name = \"f\"\nkind = \"pie\"\ncolumns = [\"y_x\"]\n").find("s.toml:10: [[figure]] kind must be series, path or strobe") == 0);
  // Strobe figures: the model's scene at exposures; no columns.
  CHECK(error_of(base + "name = \"f\"\nkind = \"strobe\"\nexposures = 6\nrun = \"rk4\"\n").empty());
  CHECK(error_of(base + "name = \"f\"\nkind = \"strobe\"\ntimes = [0, 0.5, 1]\n").empty());
  CHECK(error_of(base + "name = \"f\"\nkind = \"strobe\"\ncolumns = [\"a\"]\n").find("key 'columns' does not apply to a strobe figure") !=
        std::string::npos);
  CHECK(error_of(base + "name = \"f\"\nkind = \"strobe\"\nexposures = 1\n").find("exposures") != std::string::npos);
  CHECK(error_of(base + "name = \"f\"\nkind = \"strobe\"\ntimes = [1, 0.5]\n").find("must be increasing") != std::string::npos);
  CHECK(error_of(base + "name = \"f\"\ncolumns = [\"a\"]\nexposures = 4\n").find("applies to strobe figures") != std::string::npos);
  CHECK(error_of(base + "name = \"f\"\n").find("needs 'columns'") != std::string::npos);
  CHECK(error_of(base + "name = \"f\"\nkind = \"path\"\ncolumns = [\"a\", \"b\", \"c\", \"d\"]\n").find("a path has 2 or 3 columns") !=
        std::string::npos);
  CHECK(error_of(base + "name = \"f\"\ncolumns = [\"a\", \"b\"]\nagainst = [\"c\"]\n").find("one column per entry") != std::string::npos);
  CHECK(error_of(base + "name = \"f\"\nkind = \"path\"\ncolumns = [\"a\", \"b\"]\ninvert = [\"z\"]\n").find("invert names axes") !=
        std::string::npos);
  CHECK(error_of(base + "name = \"f\"\ncolumns = [\"a\"]\nlog = 1\n").find("key 'log' must be true or false") != std::string::npos);
  CHECK(error_of(base + "name = \"f\"\nkind = \"path\"\ncolumns = [\"a\", \"b\"]\nreference = true\n").empty());
  CHECK(error_of(base + "name = \"f\"\ncolumns = [\"a\"]\nreference = \"yes\"\n").find("key 'reference' must be true or false") != std::string::npos);
  CHECK(error_of(base + "name = \"f\"\nkind = \"strobe\"\nreference = true\n").find("does not apply to a strobe figure") != std::string::npos);
  CHECK(error_of(base + "name = \"f\"\ncolumns = [\"a\"]\ncases = [\"b\"]\n").find("[[figure]] 'f' names unknown case 'b'") != std::string::npos);
  // x = "step" (iterations) and together = true (one figure of several cases).
  CHECK(error_of(base + "name = \"f\"\ncolumns = [\"a\"]\nx = \"step\"\ntogether = true\n").empty());
  CHECK(error_of(base + "name = \"f\"\ncolumns = [\"a\"]\nx = \"k\"\n").find("x must be \"t\" (time) or \"step\"") != std::string::npos);
  CHECK(error_of(base + "name = \"f\"\nkind = \"path\"\ncolumns = [\"a\", \"b\"]\nx = \"step\"\n").find("key 'x' applies to series figures") !=
        std::string::npos);
  CHECK(error_of(base + "name = \"f\"\ncolumns = [\"a\"]\nreference = true\nx = \"step\"\n").find("the reference (reference = true) has none") !=
        std::string::npos);
  CHECK(error_of(base + "name = \"f\"\ncolumns = [\"a\"]\ntogether = 1\n").find("key 'together' must be true") != std::string::npos);
  CHECK(error_of(base + "name = \"f\"\ncolumns = [\"a\"]\nreference = true\ntogether = true\n").find("give one of them") != std::string::npos);
  CHECK(error_of(base + "name = \"f\"\nkind = \"strobe\"\ntogether = true\n").find("does not apply to a strobe figure") != std::string::npos);
  const std::string adaptive = "name = \"x\"\n[[case]]\nname = \"a\"\nmodel = \"m\"\n[[runs]]\nname = \"tol\"\nintegrators = [\"rk4\"]\n"
                               "tolerances = [1e-6]\n[[figure]]\nname = \"f\"\ncolumns = [\"a\"]\nx = \"step\"\n";
  CHECK(error_of(adaptive).find("x = \"step\" needs fixed-step runs, but [[runs]] 'tol' (line 5) writes series of adaptive runs") !=
        std::string::npos);
  CHECK(error_of(adaptive + "cases = [\"a\"]\n[[runs]]\nintegrators = [\"rk4\"]\nsteps = [0.1]\n").find("needs fixed-step runs") != std::string::npos);
  CHECK(error_of(base + "name = \"f\"\ncolumns = [\"a\"]\n[[figure]]\nname = \"f\"\ncolumns = [\"a\"]\n").find("declared twice") !=
        std::string::npos);
}

TEST_CASE("[[figure]] columns must be columns of some run's series (state, invariants, observables), before anything runs") {
  const std::string base = R"(name = "t"
[[case]]
name = "q"
model = "quadrotor_load"
t_end = 0.1
parameters = { control = "tracking" }
[[runs]]
integrators = ["rkmk4"]
steps = [0.05]
)";
  const auto error_running = [](const std::string& text) {
    RunOptions o;
    o.out = "/nonexistent/should/not/be/created";
    try {
      (void)run_study(test::registry(), parse_study(text, "s.toml"), o);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  const std::string unknown = error_running(base + "[[figure]]\nname = \"f\"\ncolumns = [\"tracking_eror\"]\n");
  CHECK(unknown.find("s.toml:10: [[figure]] 'f': no series has a column 'tracking_eror' (columns: t, ") == 0);
  CHECK(unknown.find("tracking_error") != std::string::npos);  // the observable is listed among the columns
  CHECK(!fs::exists("/nonexistent/should/not/be/created"));
  const std::string none = error_running(std::string(base).replace(base.find("steps = [0.05]"), 14, "steps = [0.05]\nseries = \"none\"") +
                                         "[[figure]]\nname = \"f\"\ncolumns = [\"y_x\"]\n");
  CHECK(none.find("no run of its cases writes a time series") != std::string::npos);
}

TEST_CASE("one-step groups: need steps and a pair on every case they run; their runs write no series") {
  const std::string base = "name = \"x\"\n[[case]]\nname = \"a\"\nmodel = \"sphere_flow\"\npair = { latitude = 30 }\n"
                           "[[case]]\nname = \"b\"\nmodel = \"sphere_flow\"\n[[runs]]\nintegrators = [\"geodesic_euler\"]\n";
  CHECK(error_of(base + "steps = [0.1]\none_step = true\n").find("one_step = true but case 'b' has no 'pair'") != std::string::npos);
  CHECK(error_of(base + "tolerances = [1e-6]\none_step = true\n").find("a one_step group takes one step of each size in 'steps'") !=
        std::string::npos);
  CHECK(error_of(base + "steps = [0.1]\none_step = 1\n").find("key 'one_step' must be true or false") != std::string::npos);
  CHECK(error_of("name = \"x\"\n[[case]]\nname = \"a\"\nmodel = \"m\"\npair = {}\n").find("key 'pair' is empty") != std::string::npos);
  const StudySpec s = parse_study(base + "steps = [0.1, 0.2]\none_step = true\ncases = [\"a\"]\nseries = \"all\"\n", "s.toml");
  REQUIRE(s.cases[0].pair.at("latitude") == "30");
  const auto items = expand(s);
  REQUIRE(items.size() == 2);
  for (const auto& i : items) CHECK_FALSE(i.series);
}

TEST_CASE("matched groups expand to one run per adaptive run of the same case") {
  const StudySpec s = parse_study(std::string(valid) + "[[runs]]\nname = \"same_steps\"\nintegrators = [\"rkmk5\"]\nmatch_steps_of = \"ad\"\n"
                                                      "[[runs]]\nname = \"same_error\"\nintegrators = [\"rkmk5\", \"rk4\"]\nmatch_error_of = \"ad\"\n",
                                  "s.toml");
  CHECK(s.groups[2].match == "steps");
  CHECK(s.groups[3].match == "error");
  const auto items = expand(s);
  REQUIRE(items.size() == 6 * 2 * 2 + 7 + 7 + 2 * 7);
  const RunItem& last = items.back();
  CHECK(last.integrator == "rk4");
  CHECK(last.matched >= 0);
  CHECK(items[static_cast<std::size_t>(last.matched)].group->name == "ad");
  CHECK(items[static_cast<std::size_t>(last.matched)].case_spec == last.case_spec);
  CHECK(last.id.find("|match_error|") != std::string::npos);
  CHECK(items[24 + 7].id.find("|match|") != std::string::npos);
}

TEST_CASE("names and settings are checked before anything runs, with the line of the case") {
  const char* text = R"(name = "t"
[[case]]
name = "p"
model = "pendulum_chain"
parameters = { N = 0 }
[[runs]]
integrators = ["rkmk4"]
steps = [0.1]
)";
  const StudySpec s = parse_study(text, "s.toml");
  RunOptions o;
  o.out = "/nonexistent/should/not/be/created";
  try {
    (void)run_study(test::registry(), s, o);
    FAIL("expected an error");
  } catch (const Error& e) {
    const std::string m = e.what();
    CHECK(m.find("s.toml:2: case 'p' with integrator 'rkmk4'") == 0);
    CHECK(m.find("parameter 'N' of model 'pendulum_chain' must be in [1") != std::string::npos);
  }
  const std::string unknown = std::string(text).replace(std::string(text).find("rkmk4"), 5, "nomethod");
  try {
    (void)run_study(test::registry(), parse_study(unknown, "s.toml"), o);
    FAIL("expected an error");
  } catch (const Error& e) {
    CHECK(std::string(e.what()).find("unknown integrator 'nomethod'") != std::string::npos);
  }
  // A one-step case's pair is validated too, before anything runs.
  const char* pair = R"(name = "t"
[[case]]
name = "s"
model = "sphere_flow"
pair = { latitude = 120 }
[[runs]]
integrators = ["geodesic_euler"]
steps = [0.1]
one_step = true
)";
  try {
    (void)run_study(test::registry(), parse_study(pair, "s.toml"), o);
    FAIL("expected an error");
  } catch (const Error& e) {
    CHECK(std::string(e.what()).find("parameter 'latitude': 120 is not in [-90, 90]") != std::string::npos);
  }
  CHECK_FALSE(std::filesystem::exists(o.out));
}

TEST_CASE("a method that cannot run a case is refused before anything runs") {
  const char* text = R"(name = "t"
[[case]]
name = "rb"
model = "rigid_body"
[[runs]]
integrators = ["cvode_bdf"]
steps = [0.1]
)";
  RunOptions o;
  o.out = "/nonexistent/should/not/be/created";
  const std::string e = error_of(text);
  CHECK(e.empty());  // the file itself is valid
  try {
    (void)run_study(test::registry(), parse_study(text, "s.toml"), o);
    FAIL("expected an error");
  } catch (const Error& err) {
    CHECK(std::string(err.what()).find("CVODE has no fixed-step mode") != std::string::npos);
  }
}

TEST_CASE("counts are bounded and range-checked on TOML's 64-bit integers; names cannot leave results/; sweeps plan in linear time") {
  const std::string tail = "\n[[case]]\nname = \"p\"\nmodel = \"rigid_body\"\n[[runs]]\nintegrators = [\"rk4\"]\nsteps = [0.1]\n";
  CHECK(error_of("name = \"t\"\nrepeat = 4294967297" + tail).find("'repeat' must be an integer in [1, 1000] (got 4294967297)") !=
        std::string::npos);
  CHECK(error_of("name = \"t\"" + tail + "outputs = 2147483648\n").find("unknown key") != std::string::npos);  // a [[runs]] key
  CHECK(error_of("name = \"t\"\n[[case]]\nname = \"p\"\nmodel = \"rigid_body\"\noutputs = 2147483648\n[[runs]]\nintegrators = "
                 "[\"rk4\"]\nsteps = [0.1]\n")
            .find("'outputs' must be an integer in [1, 10000000] (got 2147483648)") != std::string::npos);
  for (const char* name : {"../escape", "a/b", "..", "."})
    CHECK(error_of(std::string("name = \"") + name + "\"" + tail).find("must be a plain folder name") != std::string::npos);
  // 200 x 200 = 40,000 cases are planned (case names checked with a set: linear), 1000 x 1000 refused by the bound.
  auto sweep = [](int n) {
    std::string values;
    for (int i = 0; i < n; ++i) {
      if (i) values += ',';
      values += std::to_string(i);
    }
    return "name = \"t\"\n[[case]]\nname = \"p\"\nmodel = \"rigid_body\"\nsweep = { a = [" + values + "], b = [" + values +
           "] }\n[[runs]]\nintegrators = [\"rk4\"]\nsteps = [0.1]\n";
  };
  const auto start = std::chrono::steady_clock::now();
  const StudySpec big = parse_study(sweep(200), "s.toml");
  CHECK(big.cases.size() == 40000);
  CHECK(expand(big).size() == 40000);
  CHECK(error_of(sweep(1000)).find("the sweep makes more than 100000 cases") != std::string::npos);
  CHECK(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < 2.0);
}

TEST_CASE("audit: repeated run ids, integers beyond 2^53 and time limits past 1e9 s are refused before anything runs") {
  const std::string head = "name = \"t\"\n[[case]]\nname = \"p\"\nmodel = \"rigid_body\"\n";
  auto expand_error = [](const std::string& text) {
    try {
      (void)expand(parse_study(text, "s.toml"));
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  // A step given twice, and two [[runs]] groups of one name, would make one run id twice.
  CHECK(expand_error(head + "[[runs]]\nintegrators = [\"rk4\"]\nsteps = [0.1, 0.1]\n").find("makes the run 'runs1|p|rk4|h|0.1' a second time") !=
        std::string::npos);
  CHECK(expand_error(head + "[[runs]]\nname = \"g\"\nintegrators = [\"rk4\"]\nsteps = [0.1]\n[[runs]]\nname = \"g\"\nintegrators = "
                            "[\"rk4\"]\nsteps = [0.1]\n")
            .find("two [[runs]] groups with one name") != std::string::npos);
  CHECK(expand_error(head + "[[runs]]\nintegrators = [\"rk4\"]\nsteps = [0.1, 0.2]\n").empty());
  // 2^53 + 1 has no exact double: refused; 2^53 itself is exact.
  CHECK(error_of(head + "t_end = 9007199254740993\n[[runs]]\nintegrators = [\"rk4\"]\nsteps = [0.1]\n").find("beyond 2^53") !=
        std::string::npos);
  CHECK(error_of(head + "t_end = 9007199254740992\n[[runs]]\nintegrators = [\"rk4\"]\nsteps = [0.1]\n").empty());
  CHECK(error_of("timeout = 1e10\n" + head + "[[runs]]\nintegrators = [\"rk4\"]\nsteps = [0.1]\n").find("longer than liesim's limit") !=
        std::string::npos);
  CHECK(error_of("timeout = 1e9\n" + head + "[[runs]]\nintegrators = [\"rk4\"]\nsteps = [0.1]\n").empty());
}

TEST_CASE("audit: a subnormal number in a results row reads back exactly") {
  ResultColumns columns;
  RunRecord r;
  r.index = 0;
  r.id = "g|c|rk4|h|0.1";
  r.group = "g";
  r.case_name = "c";
  r.model = "rigid_body";
  r.integrator = "rk4";
  r.family = "classical_rk";
  r.status = "ok";
  r.step = 0.1;
  r.t_end = 1;
  r.error_final = 4.9406564584124654e-324;  // the smallest subnormal
  r.distance_final = 2.2250738585072009e-308;  // the largest subnormal
  std::string row = csv_row(r, columns);
  row.pop_back();  // the newline
  const auto back = parse_row(row, columns);
  REQUIRE(back.has_value());
  CHECK(back->error_final == r.error_final);
  CHECK(back->distance_final == r.distance_final);
}

TEST_CASE("a run group's 'tableau' is the option tableau of its methods, a path from the study file's folder") {
  const std::string base = R"(name = "t"
[[case]]
name = "p"
model = "pendulum_chain"
[[runs]]
integrators = ["rk", "rkmk"]
steps = [0.1]
)";
  const StudySpec s = parse_study(base + "tableau = \"tables/ck.toml\"\n", "/data/studies/s.toml");
  REQUIRE(s.groups.size() == 1);
  CHECK(s.groups[0].options.at("tableau") == "/data/studies/tables/ck.toml");
  const StudySpec a = parse_study(base + "tableau = \"/abs/../x.toml\"\n", "s.toml");
  CHECK(a.groups[0].options.at("tableau") == "/x.toml");
  // A study file named without a folder: the working folder.
  const StudySpec r = parse_study(base + "tableau = \"ck.toml\"\n", "s.toml");
  CHECK(r.groups[0].options.at("tableau") == (fs::current_path() / "ck.toml").lexically_normal().string());
  CHECK(error_of(base + "tableau = \"a.toml\"\noptions = { tableau = \"b.toml\" }\n").find("give the table once") != std::string::npos);
  CHECK(error_of(base + "tableau = \"\"\n").find("must name a table file") != std::string::npos);
  CHECK(error_of(base + "tableau = 3\n").find("'tableau'") != std::string::npos);
}
