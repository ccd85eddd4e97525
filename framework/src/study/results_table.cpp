// results.csv writing and reading.
#include <liesim/study/results_table.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <stdexcept>
#include <fstream>
#include <iterator>
#include <optional>

namespace liesim::study {

namespace {

const std::vector<std::string> fixed_columns{
    "index", "run_id", "group", "case", "model", "integrator", "family", "lie_group", "order", "step", "tolerance",
    "t_end", "status", "error_message", "error_final", "distance_final", "steps", "rejected_steps", "f_evals",
    "F_evals", "exponentials", "dexpinv_calls", "brackets", "projections", "rhs_evals_jac", "jac_evals",
    "nonlinear_iters", "nonlinear_conv_fails", "h_min_used", "h_max_used", "wall_time_s", "cpu_time_s", "paired_time_ratio", "distance_ratio"};

std::string quote(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string q = "\"";
  for (char ch : s) {
    if (ch == '"') q += '"';
    q += ch == '\n' || ch == '\r' ? ' ' : ch;
  }
  return q + "\"";
}

std::string num(double v) { return std::isnan(v) ? "" : fmt::format("{:.17g}", v); }

/// The number a cell holds (empty: NaN). A subnormal reads back as written: strtod reports it with
/// ERANGE, which std::stod would turn into an exception (a row that then could not be read back).
double to_num(const std::string& s) {
  if (s.empty()) return std::nan("");
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (end == s.c_str() || *end != '\0') throw std::invalid_argument("not a number: '" + s + "'");
  return v;
}

}  // namespace

std::vector<std::string> ResultColumns::names() const {
  std::vector<std::string> n = fixed_columns;
  if (trajectory_errors) n.insert(n.end(), {"error:max", "error:rms"});
  for (const auto& p : parameters) n.push_back("param:" + p);
  for (const auto& o : options) n.push_back("option:" + o);
  for (const auto& i : invariants) n.push_back("drift:" + i);
  for (const auto& d : diagnostics) n.push_back("max:" + d);
  for (const auto& o : observables) n.push_back("final:" + o);
  for (const auto& e : events) n.push_back("event:" + e);
  for (const auto& e : events) n.push_back("event_error:" + e);
  return n;
}

std::optional<ResultColumns> columns_from_header(const std::string& line) {
  bool complete = false;
  const auto names = split_csv(line, complete);
  if (!complete || names.size() < fixed_columns.size() || !std::equal(fixed_columns.begin(), fixed_columns.end(), names.begin()))
    return std::nullopt;
  ResultColumns c;
  for (std::size_t k = fixed_columns.size(); k < names.size(); ++k) {
    const std::string& n = names[k];
    const auto colon = n.find(':');
    const std::string kind = n.substr(0, colon == std::string::npos ? 0 : colon), name = n.substr(colon + 1);
    if (kind == "error") c.trajectory_errors = true;  // (the header check below holds them to "error:max,error:rms")
    else if (kind == "param") c.parameters.push_back(name);
    else if (kind == "option") c.options.push_back(name);
    else if (kind == "drift") c.invariants.push_back(name);
    else if (kind == "max") c.diagnostics.push_back(name);
    else if (kind == "final") c.observables.push_back(name);
    else if (kind == "event") c.events.push_back(name);
    else if (kind != "event_error") return std::nullopt;  // (the header check below holds them to the events')
  }
  if (csv_header(c) != line + "\n") return std::nullopt;  // out of order
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
  const Stats& s = r.stats;
  std::vector<std::string> f{std::to_string(r.index), r.id, r.group, r.case_name, r.model, r.integrator, r.family,
                             r.lie_group ? "1" : "0", std::to_string(r.order), num(r.step), num(r.tolerance), num(r.t_end),
                             r.status, r.error, num(r.error_final), num(r.distance_final), std::to_string(s.steps),
                             std::to_string(s.rejected_steps), std::to_string(s.counters.f_evals),
                             std::to_string(s.counters.F_evals), std::to_string(s.counters.exps),
                             std::to_string(s.counters.dexpinv_calls), std::to_string(s.counters.brackets),
                             std::to_string(s.counters.projections), std::to_string(s.rhs_evals_jac),
                             std::to_string(s.jac_evals), std::to_string(s.nonlinear_iters),
                             std::to_string(s.nonlinear_conv_fails), num(s.h_min_used), num(s.h_max_used), num(r.wall_time_s),
                             num(r.cpu_time_s), num(r.paired_time_ratio), num(r.distance_ratio)};
  if (c.trajectory_errors) f.insert(f.end(), {num(r.error_max), num(r.error_rms)});
  for (const auto& p : c.parameters) {
    auto it = r.parameters.find(p);
    f.push_back(it == r.parameters.end() ? "" : it->second);
  }
  for (const auto& o : c.options) {
    auto it = r.options.find(o);
    f.push_back(it == r.options.end() ? "" : it->second);
  }
  const auto values = [&](const std::vector<std::string>& names, const std::map<std::string, double>& of) {
    for (const auto& n : names) {
      auto it = of.find(n);
      f.push_back(it == of.end() ? "" : num(it->second));
    }
  };
  values(c.invariants, r.drift);
  values(c.diagnostics, r.diagnostic_max);
  values(c.observables, r.observable_final);
  values(c.events, r.event_time);
  values(c.events, r.event_error);
  std::string line;
  for (std::size_t k = 0; k < f.size(); ++k) {
    if (k) line += ',';
    line += quote(f[k]);
  }
  return line + "\n";
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

std::optional<RunRecord> parse_row(const std::string& line, const ResultColumns& c) {
  bool complete = false;
  const auto f = split_csv(line, complete);
  if (!complete || f.size() != c.names().size()) return std::nullopt;
  try {
    RunRecord r;
    std::size_t k = 0;
    r.index = std::stoi(f[k++]);
    r.id = f[k++];
    r.group = f[k++];
    r.case_name = f[k++];
    r.model = f[k++];
    r.integrator = f[k++];
    r.family = f[k++];
    r.lie_group = f[k++] == "1";
    r.order = std::stoi(f[k++]);
    r.step = to_num(f[k++]);
    r.tolerance = to_num(f[k++]);
    r.t_end = to_num(f[k++]);
    r.status = f[k++];
    r.error = f[k++];
    r.error_final = to_num(f[k++]);
    r.distance_final = to_num(f[k++]);
    Stats& s = r.stats;
    for (std::int64_t* v : {&s.steps, &s.rejected_steps, &s.counters.f_evals, &s.counters.F_evals, &s.counters.exps,
                            &s.counters.dexpinv_calls, &s.counters.brackets, &s.counters.projections, &s.rhs_evals_jac,
                            &s.jac_evals, &s.nonlinear_iters, &s.nonlinear_conv_fails})
      *v = std::stoll(f[k++]);
    s.h_min_used = to_num(f[k++]);
    s.h_max_used = to_num(f[k++]);
    r.wall_time_s = to_num(f[k++]);
    r.cpu_time_s = to_num(f[k++]);
    r.paired_time_ratio = to_num(f[k++]);
    r.distance_ratio = to_num(f[k++]);
    if (c.trajectory_errors) {
      r.error_max = to_num(f[k++]);
      r.error_rms = to_num(f[k++]);
    }
    for (const auto& p : c.parameters) {
      if (!f[k].empty()) r.parameters[p] = f[k];
      ++k;
    }
    for (const auto& o : c.options) {
      if (!f[k].empty()) r.options[o] = f[k];
      ++k;
    }
    const auto values = [&](const std::vector<std::string>& names, std::map<std::string, double>& into) {
      for (const auto& n : names) {
        if (!f[k].empty()) into[n] = to_num(f[k]);
        ++k;
      }
    };
    values(c.invariants, r.drift);
    values(c.diagnostics, r.diagnostic_max);
    values(c.observables, r.observable_final);
    values(c.events, r.event_time);
    values(c.events, r.event_error);
    return r;
  } catch (const std::exception&) {
    return std::nullopt;  // a malformed row
  }
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
