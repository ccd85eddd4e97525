// results.csv: its schema (every column, its type, the record's field it holds) in one table,
// from which the header, the rows and their reading are made: the results table, the rows the
// runs' processes send back, `study merge` and `--resume` all go through it.
#include <liesim/study/results_table.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <optional>
#include <stdexcept>
#include <variant>

namespace liesim::study {

namespace {

/// A field of a record, as a column holds it: the record's own, its statistics' or its counters'.
using Field = std::variant<int RunRecord::*, bool RunRecord::*, double RunRecord::*, std::string RunRecord::*,
                           std::int64_t Stats::*, double Stats::*, std::int64_t Counters::*>;

struct Column {
  const char* name;
  Field field;
};

/// THE SCHEMA, first part: the columns every results table has, in order.
const Column fixed_columns[] = {
    {"index", &RunRecord::index}, {"run_id", &RunRecord::id}, {"group", &RunRecord::group}, {"case", &RunRecord::case_name},
    {"model", &RunRecord::model}, {"integrator", &RunRecord::integrator}, {"family", &RunRecord::family},
    {"lie_group", &RunRecord::lie_group}, {"order", &RunRecord::order}, {"step", &RunRecord::step},
    {"tolerance", &RunRecord::tolerance}, {"t_end", &RunRecord::t_end}, {"status", &RunRecord::status},
    {"error_message", &RunRecord::error}, {"error_final", &RunRecord::error_final}, {"distance_final", &RunRecord::distance_final},
    {"steps", &Stats::steps}, {"rejected_steps", &Stats::rejected_steps}, {"f_evals", &Counters::f_evals},
    {"F_evals", &Counters::F_evals}, {"exponentials", &Counters::exps}, {"dexpinv_calls", &Counters::dexpinv_calls},
    {"brackets", &Counters::brackets}, {"projections", &Counters::projections}, {"rhs_evals_jac", &Stats::rhs_evals_jac},
    {"jac_evals", &Stats::jac_evals}, {"nonlinear_iters", &Stats::nonlinear_iters},
    {"nonlinear_conv_fails", &Stats::nonlinear_conv_fails}, {"h_min_used", &Stats::h_min_used},
    {"h_max_used", &Stats::h_max_used}, {"wall_time_s", &RunRecord::wall_time_s}, {"cpu_time_s", &RunRecord::cpu_time_s},
    {"paired_time_ratio", &RunRecord::paired_time_ratio}, {"distance_ratio", &RunRecord::distance_ratio}};

/// Second part: where some case has output times (ResultColumns::trajectory_errors).
const Column trajectory_columns[] = {{"error:max", &RunRecord::error_max}, {"error:rms", &RunRecord::error_rms}};

/// Third part: named columns "PREFIX:NAME", one per name of a list of ResultColumns, each holding
/// the record's value for that name (an empty cell: none).
using Values = std::variant<std::map<std::string, std::string> RunRecord::*, std::map<std::string, double> RunRecord::*>;
struct NamedColumns {
  const char* prefix;
  std::vector<std::string> ResultColumns::*names;
  Values values;
};
const NamedColumns named_columns[] = {{"param", &ResultColumns::parameters, &RunRecord::parameters},
                                      {"option", &ResultColumns::options, &RunRecord::options},
                                      {"drift", &ResultColumns::invariants, &RunRecord::drift},
                                      {"invariant_error", &ResultColumns::invariant_errors, &RunRecord::invariant_error},
                                      {"max", &ResultColumns::diagnostics, &RunRecord::diagnostic_max},
                                      {"final", &ResultColumns::observables, &RunRecord::observable_final},
                                      {"event", &ResultColumns::events, &RunRecord::event_time},
                                      {"event_error", &ResultColumns::events, &RunRecord::event_error},
                                      {"arrival", &ResultColumns::arrivals, &RunRecord::arrival},
                                      {"pair_arrival", &ResultColumns::arrivals, &RunRecord::pair_arrival}};

template <class T> const T& at(const RunRecord& r, T RunRecord::*m) { return r.*m; }
template <class T> const T& at(const RunRecord& r, T Stats::*m) { return r.stats.*m; }
template <class T> const T& at(const RunRecord& r, T Counters::*m) { return r.stats.counters.*m; }
template <class T> T& at(RunRecord& r, T RunRecord::*m) { return r.*m; }
template <class T> T& at(RunRecord& r, T Stats::*m) { return r.stats.*m; }
template <class T> T& at(RunRecord& r, T Counters::*m) { return r.stats.counters.*m; }

std::string quote(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string q = "\"";
  for (char ch : s) {
    if (ch == '"') q += '"';
    q += ch == '\n' || ch == '\r' ? ' ' : ch;
  }
  return q + "\"";
}

/// A cell's text: numbers round-trip exactly (%.17g); NaN is an empty cell.
std::string cell(double v) { return std::isnan(v) ? "" : fmt::format("{:.17g}", v); }
std::string cell(int v) { return std::to_string(v); }
std::string cell(std::int64_t v) { return std::to_string(v); }
std::string cell(bool v) { return v ? "1" : "0"; }
std::string cell(const std::string& v) { return v; }

/// The number a cell holds (empty: NaN). A subnormal reads back as written: strtod reports it with
/// ERANGE, which std::stod would turn into an exception (a row that then could not be read back).
double to_num(const std::string& s) {
  if (s.empty()) return std::nan("");
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (end == s.c_str() || *end != '\0') throw std::invalid_argument("not a number: '" + s + "'");
  return v;
}
/// A cell read back into its field (throws on a malformed cell).
void read(const std::string& s, double& v) { v = to_num(s); }
void read(const std::string& s, int& v) { v = std::stoi(s); }
void read(const std::string& s, std::int64_t& v) { v = std::stoll(s); }
void read(const std::string& s, bool& v) { v = s == "1"; }
void read(const std::string& s, std::string& v) { v = s; }

/// The fixed and trajectory columns of a table, in order.
std::vector<const Column*> record_columns(const ResultColumns& c) {
  std::vector<const Column*> out;
  for (const Column& col : fixed_columns) out.push_back(&col);
  if (c.trajectory_errors)
    for (const Column& col : trajectory_columns) out.push_back(&col);
  return out;
}

}  // namespace

std::vector<std::string> ResultColumns::names() const {
  std::vector<std::string> n;
  for (const Column* col : record_columns(*this)) n.push_back(col->name);
  for (const NamedColumns& named : named_columns)
    for (const auto& name : this->*named.names) n.push_back(fmt::format("{}:{}", named.prefix, name));
  return n;
}

std::optional<ResultColumns> columns_from_header(const std::string& line) {
  bool complete = false;
  const auto names = split_csv(line, complete);
  constexpr std::size_t fixed = std::size(fixed_columns);
  if (!complete || names.size() < fixed) return std::nullopt;
  for (std::size_t k = 0; k < fixed; ++k)
    if (names[k] != fixed_columns[k].name) return std::nullopt;
  ResultColumns c;
  for (std::size_t k = fixed; k < names.size(); ++k) {
    const std::string& n = names[k];
    const auto colon = n.find(':');
    if (colon == std::string::npos) return std::nullopt;
    const std::string prefix = n.substr(0, colon), name = n.substr(colon + 1);
    if (prefix == "error") {
      c.trajectory_errors = true;  // (the header check below holds them to the trajectory columns)
      continue;
    }
    const auto named = std::find_if(std::begin(named_columns), std::end(named_columns), [&](const NamedColumns& m) { return prefix == m.prefix; });
    if (named == std::end(named_columns)) return std::nullopt;
    // Two column kinds may name one list (event:, event_error:): the first fills it.
    auto& list = c.*(named->names);
    if (std::find_if(std::begin(named_columns), named, [&](const NamedColumns& m) { return m.names == named->names; }) == named)
      list.push_back(name);
  }
  if (csv_header(c) != line + "\n") return std::nullopt;  // out of order, or not a header this schema writes
  return c;
}

std::string csv_header(const ResultColumns& c) {
  std::string line;
  for (const auto& n : c.names()) {
    if (!line.empty()) line += ',';
    line += quote(n);
  }
  return line + "\n";
}

std::string csv_row(const RunRecord& r, const ResultColumns& c) {
  std::string line;
  auto add = [&](const std::string& text) {
    if (!line.empty()) line += ',';
    line += quote(text);
  };
  for (const Column* col : record_columns(c)) std::visit([&](auto m) { add(cell(at(r, m))); }, col->field);
  for (const NamedColumns& named : named_columns)
    std::visit([&](auto m) {
      const auto& values = r.*m;
      for (const auto& name : c.*(named.names)) {
        const auto it = values.find(name);
        add(it == values.end() ? "" : cell(it->second));
      }
    }, named.values);
  return line + "\n";
}

std::optional<RunRecord> parse_row(const std::string& line, const ResultColumns& c) {
  bool complete = false;
  const auto f = split_csv(line, complete);
  if (!complete || f.size() != c.names().size()) return std::nullopt;
  try {
    RunRecord r;
    std::size_t k = 0;
    for (const Column* col : record_columns(c)) std::visit([&](auto m) { read(f[k++], at(r, m)); }, col->field);
    for (const NamedColumns& named : named_columns)
      std::visit([&](auto m) {
        auto& values = r.*m;
        for (const auto& name : c.*(named.names)) {
          if (!f[k].empty()) read(f[k], values[name]);
          ++k;
        }
      }, named.values);
    return r;
  } catch (const std::exception&) {
    return std::nullopt;  // a malformed row
  }
}

std::vector<std::string> split_csv(const std::string& line, bool& complete) {
  std::vector<std::string> out(1);
  bool in_quotes = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char ch = line[i];
    if (in_quotes) {
      if (ch == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        out.back() += '"';
        ++i;
      } else if (ch == '"') {
        in_quotes = false;
      } else {
        out.back() += ch;
      }
    } else if (ch == '"') {
      in_quotes = true;
    } else if (ch == ',') {
      out.emplace_back();
    } else {
      out.back() += ch;
    }
  }
  complete = !in_quotes;
  return out;
}

std::vector<RunRecord> read_results(const std::string& path, const ResultColumns& c) {
  std::ifstream in(path, std::ios::binary);
  std::vector<RunRecord> out;
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::string> lines;
  std::size_t start = 0;
  // Only complete lines count: a row without its newline was cut by an interruption.
  for (std::size_t nl; (nl = text.find('\n', start)) != std::string::npos; start = nl + 1)
    lines.push_back(text.substr(start, nl - start));
  if (lines.empty() || lines[0] + "\n" != csv_header(c)) return out;
  // A malformed row (cut by an interruption) is dropped and will be run again.
  for (std::size_t li = 1; li < lines.size(); ++li)
    if (auto r = parse_row(lines[li], c)) out.push_back(std::move(*r));
  return out;
}

}  // namespace liesim::study
