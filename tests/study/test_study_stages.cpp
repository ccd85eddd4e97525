// The stages of a study one by one (framework/study/src/execution.hpp), in process: the plan,
// the output folder and --resume, the references and their cache, one run measured.
#include <framework/study/src/execution.hpp>

#include <support/plugins.hpp>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace liesim;
using namespace liesim::study;

namespace {

fs::path fresh_dir(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / ("liesim_stages_" + std::to_string(::getpid()) + "_" + name);
  fs::remove_all(d);
  return d;
}

const char* exact_study = R"(name = "stages"
[reference]
integrator = "exact"
[[case]]
name = "osc"
model = "oscillator"
t_end = 1.0
parameters = { d = 0.3, k = 4 }
[[runs]]
integrators = ["rk4", "rkmk4"]
steps = [0.1, 0.05]
[[runs]]
name = "adaptive"
integrators = ["dopri45"]
tolerances = [1e-6]
)";

RunOptions options_for(const fs::path& out) {
  RunOptions o;
  o.out = out.string();
  return o;
}

}  // namespace

TEST_CASE("plan: every run validated, probes shared, columns collected; refusals name the study file's line") {
  const StudySpec s = parse_study(exact_study, "stages.toml");
  const StudyPlan plan = plan_study(test::registry(), s, options_for("unused"));
  REQUIRE(plan.items.size() == 5);
  REQUIRE(plan.plans.size() == 5);
  for (const auto& p : plan.plans) CHECK(p.state == RunPlan::State::ok);
  CHECK(plan.plans[0].method.order == 4);
  CHECK(plan.plans[0].family == "classical_rk");
  CHECK(plan.plans[2].family == "lie_rk");
  CHECK(plan.runs_of_shard == 5);
  CHECK(plan.needed_cases == std::set<std::string>{"osc"});
  CHECK(std::find(plan.columns.parameters.begin(), plan.columns.parameters.end(), "k") != plan.columns.parameters.end());
  CHECK(std::find(plan.columns.parameters.begin(), plan.columns.parameters.end(), "x0") != plan.columns.parameters.end());
  CHECK_FALSE(plan.columns.options.empty());
  CHECK_FALSE(plan.columns.invariants.empty());
  // A shard has its share of the runs.
  RunOptions sharded = options_for("unused");
  sharded.shard = 2;
  sharded.shards = 2;
  CHECK(plan_study(test::registry(), s, sharded).runs_of_shard == 2);
  sharded.shard = 3;
  CHECK_THROWS_WITH_AS(plan_study(test::registry(), s, sharded), "shard 3/2: the shard must be in 1..2", Error);
  // A parameter the model does not have: the study file's line of the case, and the group's.
  std::string bad = exact_study;
  bad.replace(bad.find("d = 0.3"), 7, "dd = 0.3");
  try {
    (void)plan_study(test::registry(), parse_study(bad, "bad.toml"), options_for("unused"));
    FAIL("a parameter the model does not have was accepted");
  } catch (const Error& e) {
    const std::string what = e.what();
    CAPTURE(what);
    CHECK(what.rfind("bad.toml:4: case 'osc' with integrator 'rk4' ([[runs]] 'runs1', line 9): unknown parameter 'dd'", 0) == 0);
  }
}

TEST_CASE("output: results.csv starts with the header; --resume keeps this plan's rows and refuses a changed study") {
  const fs::path d = fresh_dir("output");
  const StudySpec s = parse_study(exact_study, "stages.toml");
  Execution first(test::registry(), s, options_for(d), plan_study(test::registry(), s, options_for(d)));
  {
    auto results = open_results(first);
    REQUIRE(results);
    RunRecord r = base_record(first, first.plan.items[1], first.matched_step[1]);
    r.status = "ok";
    const std::string row = csv_row(r, first.plan.columns);
    std::fwrite(row.data(), 1, row.size(), results.get());
    RunRecord stranger = base_record(first, first.plan.items[2], first.matched_step[2]);
    stranger.id = "not a run of this plan";
    const std::string other = csv_row(stranger, first.plan.columns);
    std::fwrite(other.data(), 1, other.size(), results.get());
  }
  first.result.lock.reset();
  CHECK(fs::exists(d / "study.toml"));
  CHECK(fs::is_directory(d / "reference"));
  RunOptions resume = options_for(d);
  resume.resume = true;
  Execution again(test::registry(), s, resume, first.plan);
  const auto results = open_results(again);
  CHECK(again.result.skipped == 1);
  CHECK(again.done == std::set<std::string>{first.plan.items[1].id});
  again.result.lock.reset();
  // The study changed since: --resume refuses.
  StudySpec changed = s;
  changed.text += "\n# changed\n";
  Execution refused(test::registry(), changed, resume, first.plan);
  CHECK_THROWS_WITH_AS(open_results(refused), doctest::Contains("the study file changed since"), Error);
  fs::remove_all(d);
}

TEST_CASE("references: the exact solution, computed in a child process, then read from its cache") {
  const fs::path d = fresh_dir("references");
  const StudySpec s = parse_study(exact_study, "stages.toml");
  Execution ex(test::registry(), s, options_for(d), plan_study(test::registry(), s, options_for(d)));
  const auto results = open_results(ex);
  LocalEngine engine;
  REQUIRE(compute_references(ex, engine));
  REQUIRE(ex.result.references.count("osc"));
  const Reference computed = ex.result.references.at("osc");
  const auto model = test::make_model("oscillator", {{"d", "0.3"}, {"k", "4"}});
  Eigen::VectorXd y(model->size());
  REQUIRE(model->exact_solution(1.0, y) == Status::ok);
  REQUIRE(computed.y.size() == static_cast<std::size_t>(y.size()));
  for (Eigen::Index i = 0; i < y.size(); ++i) CHECK(computed.y[static_cast<std::size_t>(i)] == y[i]);
  // The cache is read when its settings match: a marked value comes back as written.
  const fs::path cache = d / "reference" / "osc.json";
  REQUIRE(fs::exists(cache));
  nlohmann::json j = nlohmann::json::parse(std::ifstream(cache));
  j["final_state"][0] = 12345.0;
  std::ofstream(cache) << j.dump();
  ex.result.references.clear();
  REQUIRE(compute_references(ex, engine));
  CHECK(ex.result.references.at("osc").y[0] == 12345.0);
  ex.result.lock.reset();
  fs::remove_all(d);
}

TEST_CASE("one run measured: its error against the reference, the invariants' drift and its times") {
  const fs::path d = fresh_dir("measure");
  const StudySpec s = parse_study(exact_study, "stages.toml");
  Execution ex(test::registry(), s, options_for(d), plan_study(test::registry(), s, options_for(d)));
  const auto results = open_results(ex);
  LocalEngine engine;
  REQUIRE(compute_references(ex, engine));
  const RunRecord coarse = measure_run(ex, 0), fine = measure_run(ex, 1);  // rk4 at h = 0.1 and 0.05
  REQUIRE(coarse.status == "ok");
  REQUIRE(fine.status == "ok");
  CHECK(coarse.step == 0.1);
  CHECK(coarse.stats.steps == 10);
  CHECK(coarse.cpu_time_s > 0);
  CHECK_FALSE(coarse.drift.empty());
  // Fourth order: halving the step divides the error by about 16.
  const double ratio = coarse.error_final / fine.error_final;
  CAPTURE(ratio);
  CHECK(ratio > 12);
  CHECK(ratio < 20);
  // Without its case's reference a run fails with the reason, it does not throw.
  ex.result.references.clear();
  const RunRecord orphan = measure_run(ex, 0);
  CHECK(orphan.status == "failed");
  CHECK_FALSE(orphan.error.empty());
  ex.result.lock.reset();
  fs::remove_all(d);
}
