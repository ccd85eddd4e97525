// results.csv's schema round-trips for every column type: the header read back into its columns,
// a row read back into its record (as a run's process reports it), a file read back (as --resume
// and `study merge` read it) and written again.
#include <liesim/study/results_table.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <utility>
#include <unistd.h>

using namespace liesim;
using namespace liesim::study;

namespace {

/// A record with every field set to a value that is not its default, with numbers that
/// only an exact round trip keeps and texts that need quoting.
RunRecord full_record(int index) {
  RunRecord r;
  r.index = index;
  r.id = "g|c, \"quoted\"|rk4|h|0.1";
  r.group = "g,1";
  r.case_name = "c \"one\"";
  r.model = "pendulum_chain";
  r.integrator = "rkmk45";
  r.family = "lie_rk";
  r.lie_group = true;
  r.order = -5;
  r.step = 0.1;
  r.tolerance = 1e-300;
  r.t_end = 1.0 / 3.0;
  r.status = "diverged";
  r.error = "diverged at t = 0.5, since |y| > 1e6";
  r.error_final = 4.9406564584124654e-324;
  r.distance_final = -0.0;
  r.error_max = 2.2250738585072009e-308;
  r.error_rms = std::numeric_limits<double>::max();
  r.stats.steps = std::numeric_limits<std::int64_t>::max();
  r.stats.rejected_steps = 2;
  r.stats.counters.f_evals = 3;
  r.stats.counters.F_evals = 4;
  r.stats.counters.exps = 5;
  r.stats.counters.dexpinv_calls = 6;
  r.stats.counters.brackets = 7;
  r.stats.counters.projections = 8;
  r.stats.rhs_evals_jac = 9;
  r.stats.jac_evals = 10;
  r.stats.nonlinear_iters = 11;
  r.stats.nonlinear_conv_fails = 12;
  r.stats.h_min_used = 1e-7;
  r.stats.h_max_used = 0.25;
  r.wall_time_s = 0.1 + 0.2;
  r.cpu_time_s = std::numeric_limits<double>::quiet_NaN();  // an empty cell
  r.paired_time_ratio = 1.5;
  r.distance_ratio = 0.999999999999999;
  r.parameters = {{"q0", "0.7071067811865476,0,0.7071067811865476"}, {"N", "2"}};
  r.options = {{"rtol", "1e-6"}};  // "tableau" absent: an empty cell
  r.drift = {{"energy", 1e-12}, {"q1_dot_w1", -3e-15}};
  r.diagnostic_max = {{"newton_iterations", 4}};
  r.observable_final = {{"tip_x", 0.5}};
  r.event_time = {{"q<0", 0.75}};
  r.event_error = {{"q<0", 1e-9}};
  return r;
}

ResultColumns full_columns() {
  ResultColumns c;
  c.parameters = {"N", "q0"};
  c.options = {"rtol", "tableau"};
  c.invariants = {"energy", "q1_dot_w1"};
  c.diagnostics = {"newton_iterations"};
  c.observables = {"tip_x"};
  c.events = {"q<0", "t>1"};
  c.trajectory_errors = true;
  return c;
}

void check_same(const RunRecord& a, const RunRecord& b) {
  auto same = [](double x, double y) { return (std::isnan(x) && std::isnan(y)) || (x == y && std::signbit(x) == std::signbit(y)); };
  CHECK(a.index == b.index);
  CHECK(a.id == b.id);
  CHECK(a.group == b.group);
  CHECK(a.case_name == b.case_name);
  CHECK(a.lie_group == b.lie_group);
  CHECK(a.order == b.order);
  CHECK(a.status == b.status);
  CHECK(a.error == b.error);
  for (auto [x, y] : std::initializer_list<std::pair<double, double>>{{a.step, b.step}, {a.tolerance, b.tolerance}, {a.t_end, b.t_end}, {a.error_final, b.error_final},
                      {a.distance_final, b.distance_final}, {a.error_max, b.error_max}, {a.error_rms, b.error_rms},
                      {a.stats.h_min_used, b.stats.h_min_used}, {a.wall_time_s, b.wall_time_s}, {a.cpu_time_s, b.cpu_time_s},
                      {a.paired_time_ratio, b.paired_time_ratio}, {a.distance_ratio, b.distance_ratio}})
    CHECK(same(x, y));
  CHECK(a.stats.steps == b.stats.steps);
  CHECK(a.stats.counters.projections == b.stats.counters.projections);
  CHECK(a.stats.nonlinear_conv_fails == b.stats.nonlinear_conv_fails);
  CHECK(a.parameters == b.parameters);
  CHECK(a.options == b.options);
  CHECK(a.drift == b.drift);
  CHECK(a.diagnostic_max == b.diagnostic_max);
  CHECK(a.observable_final == b.observable_final);
  CHECK(a.event_time == b.event_time);
  CHECK(a.event_error == b.event_error);
}

}  // namespace

TEST_CASE("results schema: the header reads back into its columns; every column kind is named in order") {
  const ResultColumns c = full_columns();
  std::string header = csv_header(c);
  header.pop_back();
  const auto back = columns_from_header(header);
  REQUIRE(back.has_value());
  CHECK(back->names() == c.names());
  CHECK(back->trajectory_errors);
  CHECK(back->events == c.events);
  const auto names = c.names();
  REQUIRE(names.size() == 34 + 2 + 2 + 2 + 2 + 1 + 1 + 2 + 2);
  CHECK(names.front() == "index");
  CHECK(names[34] == "error:max");
  CHECK(names.back() == "event_error:t>1");
  // Not a header of this schema: another first column, an unknown kind, columns out of order.
  CHECK_FALSE(columns_from_header("run_id," + header.substr(header.find(',') + 1)).has_value());
  CHECK_FALSE(columns_from_header(header + ",speed:x").has_value());
  CHECK_FALSE(columns_from_header(header + ",param:zz").has_value());
  CHECK_FALSE(columns_from_header(header + ",nocolon").has_value());
}

TEST_CASE("results schema: a row reads back into the same record, every field and type, and writes the same text") {
  const ResultColumns c = full_columns();
  const RunRecord r = full_record(3);
  std::string row = csv_row(r, c);
  REQUIRE(row.back() == '\n');
  row.pop_back();
  const auto back = parse_row(row, c);
  REQUIRE(back.has_value());
  check_same(r, *back);
  CHECK(back->event_error.count("t>1") == 0);  // an empty cell stays absent
  CHECK(back->options.count("tableau") == 0);
  CHECK(csv_row(*back, c) == row + "\n");
  // A malformed cell makes the row unreadable (it is run again), never a wrong record.
  std::string bad = row;
  bad.replace(0, 1, "x");
  CHECK_FALSE(parse_row(bad, c).has_value());
  CHECK_FALSE(parse_row(row + ",1", c).has_value());
}

TEST_CASE("results schema: a file reads back (resume, merge) without the row an interruption cut, and writes the same bytes") {
  const auto path = std::filesystem::temp_directory_path() / ("liesim_results_" + std::to_string(::getpid()) + ".csv");
  const ResultColumns c = full_columns();
  std::string text = csv_header(c);
  for (int i = 0; i < 3; ++i) text += csv_row(full_record(i), c);
  const std::string cut = csv_row(full_record(3), c);
  std::ofstream(path, std::ios::binary) << text << cut.substr(0, cut.size() / 2);
  std::string header = text.substr(0, text.find('\n'));
  const auto columns = columns_from_header(header);  // as `study merge` reads a shard's header
  REQUIRE(columns.has_value());
  const auto records = read_results(path.string(), *columns);
  REQUIRE(records.size() == 3);
  std::string again = csv_header(*columns);
  for (const auto& r : records) again += csv_row(r, *columns);
  CHECK(again == text);
  for (int i = 0; i < 3; ++i) check_same(records[static_cast<std::size_t>(i)], full_record(i));
  // Other columns (another study, another version): nothing is taken.
  ResultColumns other = c;
  other.observables.clear();
  CHECK(read_results(path.string(), other).empty());
  std::filesystem::remove(path);
}
