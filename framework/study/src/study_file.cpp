// Study files (TOML, read with toml++): strict keys and types, errors with file, line and key.
#include <liesim/sdk/status.hpp>
#include <liesim/host/driver.hpp>
#include <liesim/study/study_file.hpp>
#include <liesim/host/child_process.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>
// toml++ compiled into this file (header-only; framework/CMakeLists.txt), its symbols hidden: the
// kernel exports none of them and no command loads a shared toml++ library at its start.
#if defined(TOML_HEADER_ONLY) && TOML_HEADER_ONLY  // (tested before toml.h defines it by default)
#define LIESIM_TOML_HIDDEN 1
#pragma GCC visibility push(hidden)
#endif
#include <toml++/toml.h>
#ifdef LIESIM_TOML_HIDDEN
#pragma GCC visibility pop
#endif

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace liesim::study {

namespace {

/// Error reporter bound to a file.
struct Where {
  std::string file;
  [[noreturn]] void fail(const toml::node& n, const std::string& what) const {
    throw Error(fmt::format("{}:{}: {}", file, n.source().begin.line, what));
  }
  [[noreturn]] void fail(int line, const std::string& what) const { throw Error(fmt::format("{}:{}: {}", file, line, what)); }
};

void check_keys(const Where& w, const toml::table& t, const std::string& section, const std::vector<std::string>& allowed) {
  for (auto&& [k, v] : t) {
    const std::string key(k.str());
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end())
      w.fail(v, fmt::format("unknown key '{}' in {} (allowed: {})", key, section, fmt::join(allowed, ", ")));
  }
}

std::string get_string(const Where& w, const toml::node& n, const std::string& key) {
  if (!n.is_string()) w.fail(n, fmt::format("key '{}' must be a string", key));
  return *n.value<std::string>();
}

double get_number(const Where& w, const toml::node& n, const std::string& key) {
  if (!n.is_number()) w.fail(n, fmt::format("key '{}' must be a number", key));
  // An integer beyond 2^53 has no exact double (and toml++ refuses to convert it): say so.
  if (n.is_integer()) {
    const std::int64_t v = *n.value_exact<std::int64_t>();
    constexpr std::int64_t exact = std::int64_t{1} << 53;
    if (v > exact || v < -exact)
      w.fail(n, fmt::format("key '{}' = {}: an integer beyond 2^53 is not exact as a number; write it as a float (e.g. {:.17g})",
                            key, v, static_cast<double>(v)));
    return static_cast<double>(v);
  }
  return *n.value_exact<double>();
}

double get_positive(const Where& w, const toml::node& n, const std::string& key) {
  const double v = get_number(w, n, key);
  if (!(v > 0) || !std::isfinite(v)) w.fail(n, fmt::format("key '{}' must be a positive finite number (got {})", key, v));
  return v;
}

/// A time limit in seconds: positive and at most max_time_limit_s (a longer one would overflow
/// the clock's deadline).
double get_time_limit(const Where& w, const toml::node& n, const std::string& key) {
  const double v = get_positive(w, n, key);
  if (v > max_time_limit_s) w.fail(n, fmt::format("key '{}' = {:g} s is longer than liesim's limit of {:g} s (31 years)", key, v, max_time_limit_s));
  return v;
}

/// An integer in [lo, hi], checked on TOML's 64-bit value before any conversion.
int get_integer(const Where& w, const toml::node& n, const std::string& key, int lo, int hi) {
  if (!n.is_integer()) w.fail(n, fmt::format("key '{}' must be an integer", key));
  const std::int64_t v = *n.value<std::int64_t>();
  if (v < lo || v > hi) w.fail(n, fmt::format("key '{}' must be an integer in [{}, {}] (got {})", key, lo, hi, v));
  return static_cast<int>(v);
}

/// A setting value as text: strings as they are, numbers in round-trip form, arrays of numbers
/// joined by commas (vector parameters), booleans as true/false.
std::string as_setting(const Where& w, const toml::node& n, const std::string& key) {
  if (n.is_string()) return *n.value<std::string>();
  if (n.is_integer()) return std::to_string(*n.value<int64_t>());
  if (n.is_floating_point()) return fmt::format("{}", *n.value<double>());
  if (n.is_boolean()) return *n.value<bool>() ? "true" : "false";
  if (const auto* a = n.as_array()) {
    std::vector<std::string> items;
    for (auto&& e : *a) {
      if (!e.is_number()) w.fail(e, fmt::format("key '{}': a vector value must hold numbers only", key));
      items.push_back(as_setting(w, e, key));
    }
    if (items.empty()) w.fail(n, fmt::format("key '{}': empty list", key));
    return fmt::format("{}", fmt::join(items, ","));
  }
  w.fail(n, fmt::format("key '{}' must be a string, a number or a list of numbers", key));
}

std::map<std::string, std::string> settings_table(const Where& w, const toml::node& n, const std::string& key) {
  const auto* t = n.as_table();
  if (!t) w.fail(n, fmt::format("key '{}' must be a table {{ KEY = VALUE, ... }}", key));
  std::map<std::string, std::string> out;
  for (auto&& [k, v] : *t) out[std::string(k.str())] = as_setting(w, v, std::string(key) + "." + std::string(k.str()));
  return out;
}

std::vector<std::string> string_list(const Where& w, const toml::node& n, const std::string& key) {
  const auto* a = n.as_array();
  if (!a) w.fail(n, fmt::format("key '{}' must be a list of strings", key));
  std::vector<std::string> out;
  for (auto&& e : *a) out.push_back(get_string(w, e, key));
  if (out.empty()) w.fail(n, fmt::format("key '{}': empty list", key));
  return out;
}

std::vector<double> positive_list(const Where& w, const toml::node& n, const std::string& key) {
  const auto* a = n.as_array();
  if (!a) w.fail(n, fmt::format("key '{}' must be a list of numbers", key));
  std::vector<double> out;
  for (auto&& e : *a) out.push_back(get_positive(w, e, key));
  if (out.empty()) w.fail(n, fmt::format("key '{}': empty list", key));
  return out;
}

const toml::array& table_array(const Where& w, const toml::node& n, const std::string& key) {
  const auto* a = n.as_array();
  if (!a || !a->is_array_of_tables()) w.fail(n, fmt::format("'{}' must be written as [[{}]] tables", key, key));
  return *a;
}

/// Whether `name` is a case's name, or the base name of swept cases ("name[key=value]").
bool names_case(const std::vector<CaseSpec>& cases, const std::string& name) {
  return std::any_of(cases.begin(), cases.end(), [&](const CaseSpec& c) { return selects({name}, c.name); });
}

FigureSpec make_figure(const Where& w, const toml::table& t, const std::vector<FigureSpec>& earlier) {
  check_keys(w, t, "[[figure]]", {"name", "kind", "columns", "against", "log", "invert", "reference", "x", "together", "title", "cases", "exposures",
                                        "times", "run"});
  FigureSpec f;
  f.line = static_cast<int>(t.source().begin.line);
  if (!t.contains("name")) w.fail(f.line, "[[figure]] needs a 'name' (part of its file name)");
  f.name = get_string(w, *t.get("name"), "name");
  if (f.name.empty() || f.name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") != std::string::npos)
    w.fail(*t.get("name"), fmt::format("[[figure]] name '{}' must be letters, digits, '_' or '-'", f.name));
  for (const auto& e : earlier)
    if (e.name == f.name) w.fail(f.line, fmt::format("[[figure]] '{}' is declared twice (line {})", f.name, e.line));
  f.kind = t.contains("kind") ? get_string(w, *t.get("kind"), "kind") : "series";
  if (f.kind != "series" && f.kind != "path" && f.kind != "strobe")
    w.fail(*t.get("kind"), fmt::format("[[figure]] kind must be series, path or strobe (got '{}')", f.kind));
  if (f.kind == "strobe") {
    // The model's scene at several times: no columns; which run, how many exposures or which times.
    for (const char* key : {"columns", "against", "log", "invert", "reference", "x", "together"})
      if (const auto* n = t.get(key)) w.fail(*n, fmt::format("[[figure]] '{}': key '{}' does not apply to a strobe figure", f.name, key));
    if (const auto* n = t.get("exposures")) f.exposures = get_integer(w, *n, "exposures", 2, 100);
    if (const auto* n = t.get("times")) {
      if (!n->is_array()) w.fail(*n, "key 'times' must be a list of times");
      for (auto&& v : *n->as_array()) f.times.push_back(get_number(w, v, "times"));
      if (f.times.empty()) w.fail(*n, "key 'times' needs at least one time");
      for (std::size_t k = 1; k < f.times.size(); ++k)
        if (!(f.times[k] > f.times[k - 1])) w.fail(*n, "key 'times' must be increasing");
    }
    if (const auto* n = t.get("run")) f.run = get_string(w, *n, "run");
    if (const auto* n = t.get("title")) f.title = get_string(w, *n, "title");
    if (const auto* n = t.get("cases")) f.cases = string_list(w, *n, "cases");
    return f;
  }
  for (const char* key : {"exposures", "times", "run"})
    if (const auto* n = t.get(key)) w.fail(*n, fmt::format("[[figure]] '{}': key '{}' applies to strobe figures", f.name, key));
  if (!t.contains("columns")) w.fail(f.line, fmt::format("[[figure]] '{}' needs 'columns' (names of series columns)", f.name));
  f.columns = string_list(w, *t.get("columns"), "columns");
  if (f.kind == "series" && f.columns.size() > 8)
    w.fail(*t.get("columns"), fmt::format("[[figure]] '{}': a series figure has at most 8 columns (got {})", f.name, f.columns.size()));
  if (f.kind == "path" && f.columns.size() != 2 && f.columns.size() != 3)
    w.fail(*t.get("columns"), fmt::format("[[figure]] '{}': a path has 2 or 3 columns (x, y[, z]), got {}", f.name, f.columns.size()));
  if (const auto* n = t.get("against")) {
    f.against = string_list(w, *n, "against");
    if (f.against.size() != f.columns.size())
      w.fail(*n, fmt::format("[[figure]] '{}': 'against' needs one column per entry of 'columns' ({}), got {}", f.name,
                             f.columns.size(), f.against.size()));
  }
  if (const auto* n = t.get("log")) {
    if (!n->is_boolean()) w.fail(*n, "key 'log' must be true or false");
    f.log = *n->value<bool>();
    if (f.log && f.kind == "path") w.fail(*n, "key 'log' applies to series figures");
  }
  if (const auto* n = t.get("reference")) {
    if (!n->is_boolean()) w.fail(*n, "key 'reference' must be true or false");
    f.reference = *n->value<bool>();
  }
  if (const auto* n = t.get("x")) {
    f.x = get_string(w, *n, "x");
    if (f.x != "t" && f.x != "step")
      w.fail(*n, fmt::format("[[figure]] '{}': x must be \"t\" (time) or \"step\" (the step number t / h of fixed-step runs, e.g. "
                             "an optimiser's iterations), got '{}'", f.name, f.x));
    if (f.kind == "path") w.fail(*n, "key 'x' applies to series figures (a path's axes are its columns)");
    if (f.x == "step" && f.reference) w.fail(*n, "x = \"step\" counts a run's fixed steps: the reference (reference = true) has none");
  }
  if (const auto* n = t.get("together")) {
    if (!n->is_boolean()) w.fail(*n, "key 'together' must be true (one figure of all its cases) or false (one per case)");
    f.together = *n->value<bool>();
    if (f.together && f.reference)
      w.fail(*n, "key 'together' draws several cases in one figure; reference = true draws one case's reference: give one of them");
  }
  if (const auto* n = t.get("invert")) {
    f.invert = string_list(w, *n, "invert");
    for (const auto& a : f.invert)
      if (a != "x" && a != "y" && (a != "z" || f.columns.size() != 3))
        w.fail(*n, fmt::format("[[figure]] '{}': invert names axes of the path (x, y{}), got '{}'", f.name,
                               f.columns.size() == 3 ? ", z" : "", a));
  }
  if (const auto* n = t.get("title")) f.title = get_string(w, *n, "title");
  if (const auto* n = t.get("cases")) f.cases = string_list(w, *n, "cases");
  return f;
}

/// An [[event]] table: `when = "NAME<VALUE"` (or '>'), `stop` (end the runs there; default false:
/// record), `cases` (default all); added to the cases it selects (after their sweeps). Returns `stop`.
bool add_event(const Where& w, const toml::table& t, std::vector<CaseSpec>& cases) {
  check_keys(w, t, "[[event]]", {"when", "stop", "cases"});
  const int line = static_cast<int>(t.source().begin.line);
  if (!t.contains("when")) w.fail(line, "[[event]] needs 'when', e.g. when = \"q<0\" (a state column, an invariant or an observable falling below a value)");
  const std::string when = get_string(w, *t.get("when"), "when");
  try {
    parse_event_text(when, true);
  } catch (const Error& e) {
    w.fail(*t.get("when"), e.what());
  }
  bool stop = false;
  if (const auto* n = t.get("stop")) {
    if (!n->is_boolean()) w.fail(*n, "key 'stop' must be true (the event ends the run) or false (it is recorded)");
    stop = *n->value<bool>();
  }
  std::vector<std::string> selection;
  if (const auto* n = t.get("cases")) {
    selection = string_list(w, *n, "cases");
    for (const auto& name : selection)
      if (!names_case(cases, name)) w.fail(*n, fmt::format("[[event]] '{}' names unknown case '{}'", when, name));
  }
  for (auto& c : cases) {
    if (!selects(selection, c.name)) continue;
    for (const auto* list : {&c.stop_when, &c.events})
      if (std::find(list->begin(), list->end(), when) != list->end())
        w.fail(line, fmt::format("[[event]] '{}' is given twice for case '{}'", when, c.name));
    (stop ? c.stop_when : c.events).push_back(when);
  }
  return stop;
}

/// Expand a case with `sweep = { KEY = [v1, v2], ... }` into the Cartesian product of values.
void add_case(const Where& w, const toml::table& t, std::vector<CaseSpec>& cases, std::set<std::string>& names) {
  check_keys(w, t, "[[case]]", {"name", "model", "parameters", "pair", "t_end", "outputs", "output_grid", "sweep"});
  CaseSpec c;
  c.line = static_cast<int>(t.source().begin.line);
  if (!t.contains("name")) w.fail(c.line, "[[case]] needs a 'name'");
  if (!t.contains("model")) w.fail(c.line, "[[case]] needs a 'model'");
  c.name = get_string(w, *t.get("name"), "name");
  if (c.name.empty()) w.fail(*t.get("name"), "a case 'name' must not be empty");
  c.model = get_string(w, *t.get("model"), "model");
  if (const auto* n = t.get("parameters")) c.parameters = settings_table(w, *n, "parameters");
  if (const auto* n = t.get("pair")) {
    c.pair = settings_table(w, *n, "pair");
    if (c.pair.empty()) w.fail(*n, "key 'pair' is empty: give the parameters of the second initial point, e.g. { latitude = 30 }");
  }
  if (const auto* n = t.get("t_end")) c.t_end = get_positive(w, *n, "t_end");
  if (const auto* n = t.get("outputs")) {
    if (const auto* times = n->as_array()) {
      if (times->empty()) w.fail(*n, "key 'outputs' is an empty list: give the output times [T1, T2, ...] or a count N");
      for (auto&& v : *times) c.output_times.push_back(get_number(w, v, "outputs"));
    } else {
      c.outputs = get_integer(w, *n, "outputs", 1, max_outputs);
    }
  }
  if (const auto* n = t.get("output_grid")) {
    if (!c.output_times.empty()) w.fail(*n, "give the output times as 'outputs = [T1, T2, ...]' or as 'output_grid = DT', not both");
    try {
      c.output_times = output_grid(0.0, c.t_end, get_positive(w, *n, "output_grid"));
    } catch (const Error& e) {
      w.fail(*n, fmt::format("key 'output_grid': {}", e.what()));
    }
  }
  if (!c.output_times.empty()) {
    RunSpec span;
    span.t_end = c.t_end;
    span.output_times = c.output_times;
    try {
      check_output_times(span);
    } catch (const Error& e) {
      w.fail(*t.get(t.contains("outputs") ? "outputs" : "output_grid"), fmt::format("case '{}': {}", c.name, e.what()));
    }
  }
  std::vector<CaseSpec> expanded{c};
  if (const auto* n = t.get("sweep")) {
    const auto* s = n->as_table();
    if (!s) w.fail(*n, "key 'sweep' must be a table { PARAMETER = [values...] }");
    if (s->empty()) w.fail(*n, "key 'sweep' is empty");
    for (auto&& [k, v] : *s) {
      const std::string key(k.str());
      const auto* values = v.as_array();
      if (!values) w.fail(v, fmt::format("sweep '{}' must be a list of values", key));
      if (values->empty()) w.fail(v, fmt::format("sweep '{}' is empty: give at least one value", key));
      if (expanded.size() * values->size() + cases.size() > max_cases)
        w.fail(v, fmt::format("the sweep makes more than {} cases: split the study (liesim study --shard) or sweep fewer values",
                              max_cases));
      std::vector<CaseSpec> next;
      for (const auto& base : expanded)
        for (auto&& value : *values) {
          CaseSpec e = base;
          const std::string text = as_setting(w, value, "sweep." + key);
          e.parameters[key] = text;
          e.name = base.name.back() == ']' ? base.name.substr(0, base.name.size() - 1) + "," + key + "=" + text + "]"
                                           : base.name + "[" + key + "=" + text + "]";
          next.push_back(std::move(e));
        }
      expanded = std::move(next);
    }
  }
  for (auto& e : expanded) {
    if (!names.insert(e.name).second) w.fail(c.line, fmt::format("case name '{}' is used twice", e.name));
    cases.push_back(std::move(e));
  }
}

GroupSpec make_group(const Where& w, const toml::table& t, int index) {
  check_keys(w, t, "[[runs]]", {"name", "integrators", "steps", "tolerances", "match_steps_of", "match_error_of", "options", "cases",
                            "series", "timeout", "one_step", "tableau"});
  GroupSpec g;
  g.line = static_cast<int>(t.source().begin.line);
  g.name = t.contains("name") ? get_string(w, *t.get("name"), "name") : fmt::format("runs{}", index + 1);
  if (!t.contains("integrators")) w.fail(g.line, "[[runs]] needs 'integrators' (a list of method names)");
  g.integrators = string_list(w, *t.get("integrators"), "integrators");
  if (const auto* n = t.get("steps")) g.steps = positive_list(w, *n, "steps");
  if (const auto* n = t.get("tolerances")) g.tolerances = positive_list(w, *n, "tolerances");
  int matches = 0;
  for (const char* kind : {"steps", "error"})
    if (const auto* n = t.get(fmt::format("match_{}_of", kind))) {
      g.match_of = get_string(w, *n, fmt::format("match_{}_of", kind));
      g.match = kind;
      ++matches;
    }
  if (!g.steps.empty() + !g.tolerances.empty() + matches != 1)
    w.fail(g.line, "[[runs]] needs exactly one of 'steps' (fixed step sizes), 'tolerances' (rtol = atol), "
                   "'match_steps_of' or 'match_error_of' (the name of an adaptive group)");
  if (const auto* n = t.get("options")) g.options = settings_table(w, *n, "options");
  if (const auto* n = t.get("tableau")) {
    // A coefficient table file for methods rk and rkmk (a scheme for cf): option tableau, its path from the study file's folder.
    if (g.options.contains("tableau")) w.fail(*n, "give the table once: 'tableau' or options.tableau, not both");
    const std::string path = get_string(w, *n, "tableau");
    if (path.empty()) w.fail(*n, "key 'tableau' must name a table file (it is empty)");
    namespace fs = std::filesystem;
    const fs::path p(path);
    g.options["tableau"] = (p.is_absolute() ? p : fs::absolute(fs::path(w.file).parent_path() / p)).lexically_normal().string();
  }
  if (const auto* n = t.get("cases")) g.cases = string_list(w, *n, "cases");
  if (const auto* n = t.get("timeout")) g.timeout = get_time_limit(w, *n, "timeout");
  if (const auto* n = t.get("one_step")) {
    if (!n->is_boolean()) w.fail(*n, "key 'one_step' must be true or false");
    g.one_step = *n->value<bool>();
    if (g.one_step && g.steps.empty())
      w.fail(*n, "a one_step group takes one step of each size in 'steps': give 'steps' (not tolerances or a match)");
  }
  if (const auto* n = t.get("series")) {
    g.series = get_string(w, *n, "series");
    if (g.series != "coarsest" && g.series != "all" && g.series != "none")
      w.fail(*n, fmt::format("key 'series' must be coarsest, all or none (got '{}')", g.series));
  }
  return g;
}

}  // namespace

StudySpec parse_study(const std::string& text, const std::string& file) {
  const Where w{file};
  toml::table root;
  try {
    root = toml::parse(text, file);
  } catch (const toml::parse_error& e) {
    throw Error(fmt::format("{}:{}: {}", file, e.source().begin.line, e.description()));
  }
  check_keys(w, root, "the study",
             {"name", "description", "output", "repeat", "timeout", "error", "reference", "case", "runs", "figure", "event"});
  StudySpec s;
  s.file = file;
  s.text = text;
  if (!root.contains("name")) w.fail(1, "the study needs a 'name'");
  s.name = get_string(w, *root.get("name"), "name");
  // The name is the default output folder results/<name>: one plain folder name.
  if (s.name.empty() || s.name == "." || s.name == ".." || s.name.find_first_of("/\\") != std::string::npos)
    w.fail(*root.get("name"), fmt::format("the study 'name' must be a plain folder name: no '/', not '.' or '..' (got '{}')", s.name));
  if (const auto* n = root.get("description")) s.description = get_string(w, *n, "description");
  s.output = root.contains("output") ? get_string(w, *root.get("output"), "output") : "results/" + s.name;
  if (s.output.empty()) w.fail(*root.get("output"), "key 'output' must name a folder (it is empty)");
  if (const auto* n = root.get("repeat")) s.repeat = get_integer(w, *n, "repeat", 1, max_repeat);
  if (const auto* n = root.get("timeout")) s.timeout = get_time_limit(w, *n, "timeout");
  if (const auto* n = root.get("reference")) {
    const auto* t = n->as_table();
    if (!t) w.fail(*n, "[reference] must be a table");
    check_keys(w, *t, "[reference]", {"integrator", "step", "rtol", "atol", "options", "timeout"});
    ReferenceSpec& r = s.reference;
    r.line = static_cast<int>(t->source().begin.line);
    if (const auto* v = t->get("integrator")) r.integrator = get_string(w, *v, "integrator");
    if (const auto* v = t->get("step")) r.step = get_positive(w, *v, "step");
    if (const auto* v = t->get("rtol")) r.rtol = get_positive(w, *v, "rtol");
    if (const auto* v = t->get("atol")) r.atol = get_positive(w, *v, "atol");
    if (const auto* v = t->get("options")) r.options = settings_table(w, *v, "options");
    if (const auto* v = t->get("timeout")) r.timeout = get_time_limit(w, *v, "timeout");
  }
  if (!root.contains("case")) w.fail(1, "the study needs at least one [[case]]");
  std::set<std::string> case_names;
  for (auto&& c : table_array(w, *root.get("case"), "case")) add_case(w, *c.as_table(), s.cases, case_names);
  if (!root.contains("runs")) w.fail(1, "the study needs at least one [[runs]] group");
  int index = 0;
  for (auto&& g : table_array(w, *root.get("runs"), "runs")) s.groups.push_back(make_group(w, *g.as_table(), index++));
  if (const auto* f = root.get("figure"))
    for (auto&& t : table_array(w, *f, "figure")) s.figures.push_back(make_figure(w, *t.as_table(), s.figures));
  // A matched group refers to an earlier adaptive group.
  for (std::size_t k = 0; k < s.groups.size(); ++k) {
    const GroupSpec& g = s.groups[k];
    if (g.match_of.empty()) continue;
    const auto it = std::find_if(s.groups.begin(), s.groups.begin() + static_cast<long>(k),
                                 [&](const GroupSpec& o) { return o.name == g.match_of; });
    if (it == s.groups.begin() + static_cast<long>(k))
      w.fail(g.line, fmt::format("match_{}_of = '{}' must name an earlier [[runs]] group", g.match, g.match_of));
    // Adaptive runs (tolerances), or methods whose steps their dynamics choose (vi_adaptive with
    // its first step given); not another matched group.
    if (it->tolerances.empty() && it->steps.empty())
      w.fail(g.line, fmt::format("match_{}_of = '{}' must name a group with 'tolerances' (adaptive runs) or 'steps' (methods that "
                                 "choose their own later steps, e.g. vi_adaptive)", g.match, g.match_of));
  }
  // Every case a group names must exist (by base name or full name).
  for (const auto& g : s.groups)
    for (const auto& name : g.cases)
      if (!names_case(s.cases, name)) w.fail(g.line, fmt::format("[[runs]] '{}' names unknown case '{}'", g.name, name));
  for (const auto& f : s.figures) {
    for (const auto& name : f.cases)
      if (!names_case(s.cases, name)) w.fail(f.line, fmt::format("[[figure]] '{}' names unknown case '{}'", f.name, name));
    // x = "step": every run the figure draws takes fixed steps of one size.
    if (f.x == "step")
      for (const auto& g : s.groups)
        if (g.series != "none" && (g.steps.empty() || g.one_step) &&
            std::any_of(s.cases.begin(), s.cases.end(), [&](const CaseSpec& c) { return selects(f.cases, c.name) && selects(g.cases, c.name); }))
          w.fail(f.line, fmt::format("[[figure]] '{}': x = \"step\" needs fixed-step runs, but [[runs]] '{}' (line {}) writes series of "
                                     "{} runs for its cases: give that group series = \"none\", or the figure cases without it",
                                     f.name, g.name, g.line, g.one_step ? "one-step" : g.match_of.empty() ? "adaptive" : "matched"));
  }
  if (const auto* e = root.get("event")) {
    for (auto&& t : table_array(w, *e, "event")) {
      // A terminal event ends the reference where it ends the runs; the exact solution knows no event.
      if (add_event(w, *t.as_table(), s.cases) && s.reference.integrator == "exact")
        w.fail(t, "[[event]] with stop = true needs an integrator reference (it ends the reference at the event too; the exact "
                  "solution is evaluated at t_end): give [reference] an integrator, or record the event (stop = false)");
    }
  }
  // A one-step group measures distance ratios: each of its cases needs a second initial point.
  for (const auto& g : s.groups) {
    if (!g.one_step) continue;
    for (const auto& c : s.cases) {
      const bool selected = selects(g.cases, c.name);
      if (selected && c.pair.empty())
        w.fail(g.line, fmt::format("[[runs]] '{}' has one_step = true but case '{}' has no 'pair' (the second initial point's "
                                   "parameters); add one, or name only cases with a pair in 'cases'", g.name, c.name));
    }
  }
  if (const auto* n = root.get("error")) {
    s.error = get_string(w, *n, "error");
    s.error_line = static_cast<int>(n->source().begin.line);
    if (s.error != "final" && s.error != "max" && s.error != "rms")
      w.fail(*n, fmt::format("key 'error' must be final (at t_end), max or rms (over the cases' output times); got '{}'", s.error));
    if (s.error != "final")
      for (const auto& c : s.cases)
        if (c.output_times.empty())
          w.fail(*n, fmt::format("error = \"{}\" measures the error over each case's output times, but case '{}' (line {}) has none: "
                                 "give it 'outputs = [T1, T2, ...]' or 'output_grid = DT'", s.error, c.name, c.line));
  }
  return s;
}

StudySpec load_study(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) throw Error(fmt::format("study file '{}' does not exist or is not a file", path));
  std::ifstream in(path);
  if (!in) throw Error(fmt::format("cannot read study file '{}'", path));
  std::stringstream ss;
  ss << in.rdbuf();
  return parse_study(ss.str(), path);
}

bool selects(const std::vector<std::string>& selection, const std::string& case_name) {
  return selection.empty() || std::any_of(selection.begin(), selection.end(), [&](const std::string& n) {
           return case_name == n || case_name.rfind(n + "[", 0) == 0;
         });
}

std::vector<RunItem> expand(const StudySpec& s) {
  std::vector<RunItem> out;
  auto check_size = [&] {
    if (out.size() > max_runs)
      throw Error(fmt::format("{}: the study expands to more than {} runs: split it into several studies or shards "
                              "(liesim study --shard I/N), or use fewer steps, tolerances or sweep values",
                              s.file, max_runs));
  };
  for (const auto& g : s.groups)
    for (const auto& c : s.cases) {
      const bool selected = selects(g.cases, c.name);
      if (!selected) continue;
      for (const auto& integrator : g.integrators) {
        std::string opts;
        for (const auto& [k, val] : g.options) opts += fmt::format(";{}={}", k, val);
        if (!g.match_of.empty()) {
          // One run per run of the matched group on this case (that group was expanded earlier).
          const std::size_t known = out.size();
          for (std::size_t m = 0; m < known; ++m) {
            if (out[m].group->name != g.match_of || out[m].case_spec != &c) continue;
            RunItem r;
            r.index = static_cast<int>(out.size());
            r.case_spec = &c;
            r.group = &g;
            r.integrator = integrator;
            r.matched = out[m].index;
            r.series = g.series == "all";
            r.id = fmt::format("{}|{}|{}|{}|{}{}", g.name, c.name, integrator, g.match == "steps" ? "match" : "match_error",
                               out[m].id, opts);
            out.push_back(std::move(r));
          }
          check_size();
          continue;
        }
        const auto& values = g.steps.empty() ? g.tolerances : g.steps;
        const double coarsest = *std::max_element(values.begin(), values.end());
        for (const double v : values) {
          RunItem r;
          r.index = static_cast<int>(out.size());
          r.case_spec = &c;
          r.group = &g;
          r.integrator = integrator;
          (g.steps.empty() ? r.tolerance : r.step) = v;
          r.series = !g.one_step && (g.series == "all" || (g.series == "coarsest" && v == coarsest));
          r.id = fmt::format("{}|{}|{}|{}|{}{}", g.name, c.name, integrator, g.steps.empty() ? "tol" : "h", v, opts);
          out.push_back(std::move(r));
        }
        check_size();
      }
    }
  // Every run has an id of its own: --resume and merge find rows by it, and two runs with one id
  // would be merged silently (a repeated step value, two [[runs]] groups of one name).
  std::map<std::string, const RunItem*> seen;
  for (const auto& r : out) {
    const auto [it, added] = seen.emplace(r.id, &r);
    if (!added)
      throw Error(fmt::format("{}:{}: [[runs]] '{}' makes the run '{}' a second time (first made by [[runs]] '{}', line {}): a "
                              "repeated step, tolerance or integrator, or two [[runs]] groups with one name; remove the repeat or "
                              "rename the group", s.file, r.group->line, r.group->name, r.id, it->second->group->name,
                              it->second->group->line));
  }
  return out;
}

}  // namespace liesim::study
