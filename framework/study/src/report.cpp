// Manifest, orders table, plots (through the shipped matplotlib script) and the Markdown report.
#include <liesim/plugin.h>
#include <liesim/host/share_scripts.hpp>
#include <liesim/study/case_views.hpp>
#include <liesim/study/report.hpp>
#include <liesim/version.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <algorithm>
#include <map>
#include <ostream>
#include <set>
#include <thread>
#include <utility>

namespace fs = std::filesystem;

namespace liesim::study {

std::string utc_now() {
  const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

namespace {
std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
  return "unknown";
}
}  // namespace

void write_manifest(const std::string& out, const StudySpec& study, const Registry& registry, const std::string& started,
                    const std::string& finished, int jobs, const std::string& shard, const std::vector<std::string>& merged_from,
                    const std::string& engine) {
  nlohmann::json plugins = nlohmann::json::array();
  // From the manifests (the coordinator loads no plugin): every plugin on the search path.
  for (const auto& c : registry.candidates())
    if (c.manifest)
      plugins.push_back({{"name", c.manifest->name}, {"version", c.manifest->version},
                         {"abi", fmt::format("{}.{}", c.manifest->abi_major, c.manifest->abi_minor)},
                         {"kind", c.manifest->kind == PluginKind::model ? "model" : "integrator"}, {"file", c.file.string()}});
  char host[256] = {};
  if (::gethostname(host, sizeof host - 1) != 0) host[0] = '\0';
  nlohmann::json j = {
      {"study", {{"name", study.name}, {"file", study.file}, {"text", study.text}}},
      {"liesim", {{"version", LIESIM_VERSION}, {"abi", fmt::format("{}.{}", LIESIM_ABI_MAJOR, LIESIM_ABI_MINOR)}, {"build_token", LIESIM_BUILD_TOKEN}}},
      {"plugins", plugins},
      {"machine", {{"host", host}, {"cpu", cpu_model()}, {"cores", std::thread::hardware_concurrency()}}},
      {"jobs", jobs},
      {"started", started},
      {"finished", finished}};
  // Timings are comparable only between runs on one host: a shard says which one it was.
  if (!shard.empty()) j["shard"] = shard;
  if (!merged_from.empty()) j["merged_from"] = merged_from;
  if (!engine.empty()) j["engine"] = engine;
  std::ofstream o(fs::path(out) / "manifest.json");
  o << j.dump(2) << "\n";
}

void write_orders(const std::string& out, const std::vector<OrderFit>& orders) {
  std::ofstream o(fs::path(out) / "orders.csv");
  o << "case,integrator,group,nominal_order,observed_order,h_from,h_to,points,note\n";
  for (const auto& f : orders)
    o << fmt::format("\"{}\",{},{},{},{},{},{},{},\"{}\"\n", f.case_name, f.integrator, f.group, f.nominal,
                     std::isnan(f.observed) ? "" : fmt::format("{:.3f}", f.observed), f.h_from, f.h_to, f.points, f.note);
}

std::string draw_plots(const std::string& out, int processes) {
  const fs::path script = share_folder() / "plot_study.py";
  if (!fs::exists(script)) return fmt::format("no plots: the plotting script {} is missing (reinstall liesim)", script.string());
  // Python in isolated mode (-I), so that nothing in the working directory (a matplotlib.py in a
  // downloaded study folder) or in PYTHON* variables is imported.
  const std::string python = python_with_matplotlib();
  if (python.empty())
    return "no plots: python3 with matplotlib is not installed (sudo apt-get install python3-matplotlib), then run `liesim plot " + out + "`";
  // The figures split into `processes` shares drawn side by side (plot_study.py --part K/N), each
  // with its own log: plot.log, plot-2.log, ...
  const int n = std::max(1, processes);
  std::vector<std::pair<pid_t, std::string>> parts;
  for (int k = 1; k <= n; ++k) {
    const std::string log = (fs::path(out) / (k == 1 ? std::string("plot.log") : fmt::format("plot-{}.log", k))).string();
    parts.emplace_back(start_program({python, "-I", script.string(), "--progress-fd", "3", "--part", fmt::format("{}/{}", k, n), out}, log),
                       log);
  }
  std::string failed;
  for (const auto& [pid, log] : parts)
    if (wait_program(pid) != 0 && failed.empty()) failed = log;
  if (!failed.empty()) return fmt::format("plotting failed: see {}; rerun with `liesim plot {}`", failed, out);
  return {};
}

namespace {

/// Constant-step runs beside the adaptive runs they match (match_steps_of, match_error_of).
void write_matched_runs(std::ostream& o, const StudySpec& study, const StudyResult& result) {
  const std::vector<RunItem> items = expand(study);
  std::map<int, const RunRecord*> by_index;
  for (const auto& r : result.records) by_index[r.index] = &r;
  for (const char* kind : {"steps", "error"}) {
    bool any = false;
    for (const auto& item : items) {
      if (item.matched < 0 || item.group->match != kind) continue;
      const auto a = by_index.find(item.matched), c = by_index.find(item.index);
      if (a == by_index.end() || c == by_index.end()) continue;
      const RunRecord &ad = *a->second, &co = *c->second;
      if (!any) {
        o << (std::string(kind) == "steps"
                  ? "## Variable against constant step, same number of steps (`match_steps_of`)\n\n"
                    "The time ratio is measured side by side: the two runs timed alternately, the study's `repeat` "
                    "times each (more for runs under 20 ms in all), ratio of the median CPU times.\n\n"
                    "| case | adaptive method | tol | steps (rejected) | error | constant-step method | error | "
                    "error ratio constant / adaptive | time ratio constant / adaptive |\n"
                    "|---|---|---|---|---|---|---|---|---|\n"
                  : "## Variable against constant step at equal accuracy (`match_error_of`)\n\n"
                    "The constant-step method runs with the fewest equal steps whose error at T is at most the adaptive "
                    "run's. CPU times are medians of the study's `repeat` timing runs (more for runs under 20 ms in all), measured side by side (the two "
                    "runs timed alternately); the f ratio counts f and F evaluations, rejected steps included.\n\n"
                    "| case | adaptive method | tol | steps (rejected) | error | CPU time [s] | constant-step method | steps | "
                    "error | CPU time [s] | time ratio constant / adaptive | f ratio |\n"
                    "|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        any = true;
      }
      auto err = [](const RunRecord& r) { return r.status == "ok" ? fmt::format("{:.2e}", r.error_final) : "failed"; };
      const auto f_of = [](const RunRecord& r) { return static_cast<double>(r.stats.counters.f_evals + r.stats.counters.F_evals); };
      const std::string time_ratio =
          co.status == "ok" && std::isfinite(co.paired_time_ratio) ? fmt::format("{:.2f}", co.paired_time_ratio) : "–";
      if (std::string(kind) == "steps")
        o << fmt::format("| {} | {} | {:.3g} | {} ({}) | {} | {} | {} | {} | {} |\n", co.case_name, ad.integrator, ad.tolerance,
                         ad.stats.steps, ad.stats.rejected_steps, err(ad), co.integrator, err(co),
                         ad.status == "ok" && co.status == "ok" ? fmt::format("{:.2f}", co.error_final / ad.error_final) : "–",
                         time_ratio);
      else
        // Both CPU times from the side-by-side timing (the adaptive run's median is the
        // constant-step run's divided by the ratio), so that they divide to the ratio shown.
        o << fmt::format("| {} | {} | {:.3g} | {} ({}) | {} | {} | {} | {} | {} | {:.3g} | {} | {} |\n", co.case_name,
                         ad.integrator, ad.tolerance, ad.stats.steps, ad.stats.rejected_steps, err(ad),
                         std::isfinite(co.paired_time_ratio) ? fmt::format("{:.3g}", co.cpu_time_s / co.paired_time_ratio) : "–",
                         co.integrator, co.status == "ok" ? std::to_string(co.stats.steps) : "–", err(co), co.cpu_time_s,
                         time_ratio, co.status == "ok" && f_of(ad) > 0 ? fmt::format("{:.2f}", f_of(co) / f_of(ad)) : "–");
    }
    if (any) o << "\n";
  }
}

/// The events of case `c` ([[event]] tables): where the reference locates each, and how far the
/// runs' times lie from it (columns event:WHEN and event_error:WHEN).
void write_events(std::ostream& o, const StudySpec& study, const StudyResult& result, const std::string& c) {
  const auto ref = result.references.find(c);
  if (ref == result.references.end()) return;
  const auto spec = std::find_if(study.cases.begin(), study.cases.end(), [&](const CaseSpec& k) { return k.name == c; });
  for (const auto& [when, t_ref] : ref->second.event_times) {
    const bool stops = spec != study.cases.end() && std::count(spec->stop_when.begin(), spec->stop_when.end(), when) > 0;
    std::size_t runs = 0, located = 0;
    const RunRecord* best = nullptr;
    const RunRecord* worst = nullptr;
    for (const auto& r : result.records) {
      if (r.case_name != c || r.status != "ok") continue;
      ++runs;
      const auto e = r.event_error.find(when);
      if (e == r.event_error.end()) continue;
      ++located;
      if (!best || e->second < best->event_error.at(when)) best = &r;
      if (!worst || e->second > worst->event_error.at(when)) worst = &r;
    }
    const auto label = [](const RunRecord* r) {
      return fmt::format("{}, {}", r->integrator, r->step > 0 ? fmt::format("h = {:.6g}", r->step) : fmt::format("tol = {:.3g}", r->tolerance));
    };
    o << fmt::format("Event `{}`{}: the reference locates it at t = {:.15g} (within {:.1e} of the loosened reference's time); {} of "
                     "the {} finished runs locate it{} (columns `event:{}`, `event_error:{}` of results.csv).\n\n",
                     when, stops ? " (it ends every run and the reference: the error at T is the distance of the states at the event)" : "",
                     t_ref, ref->second.event_accuracy, located, runs,
                     best ? fmt::format(", their times {:.1e} ({}) to {:.1e} ({}) from the reference's", best->event_error.at(when),
                                        label(best), worst->event_error.at(when), label(worst))
                          : std::string(),
                     when, when);
  }
}


/// A case's method labels: the integrator's name, with its group where it runs in several groups
/// of the case (e.g. with different options).
struct Labels {
  std::map<std::string, std::set<std::string>> groups_of;
  Labels(const StudyResult& result, const std::string& c) {
    for (const auto& r : result.records)
      if (r.case_name == c) groups_of[r.integrator].insert(r.group);
  }
  std::string operator()(const std::string& integrator, const std::string& group) const {
    const auto it = groups_of.find(integrator);
    return it != groups_of.end() && it->second.size() > 1 ? fmt::format("{} ({})", integrator, group) : integrator;
  }
};

/// Errors along the trajectory (over the case's output times, against the reference's dense
/// output): how far the reference judges them. Returns whether the case has them.
bool write_trajectory_note(std::ostream& o, const StudyResult& result, const std::string& c) {
  bool along = false;
  for (const auto& r : result.records) along = along || (r.case_name == c && !std::isnan(r.error_max));
  if (!along) return false;
  const auto ref = result.references.find(c);
  const double floor = ref != result.references.end() ? ref->second.trajectory_accuracy : 0.0;
  std::size_t points = 0, near = 0;
  for (const auto& r : result.records)
    if (r.case_name == c && !std::isnan(r.error_max)) {
      ++points;
      if (r.error_max <= 10 * floor) ++near;
    }
  o << fmt::format("Errors along the trajectory (columns `error:max`, `error:rms` of results.csv): the largest and the RMS "
                   "error over the case's output times, against the reference's dense output there, whose own accuracy "
                   "estimate over those times is {:.2e} (the largest difference to the loosened reference); {}.\n\n",
                   floor,
                   near == 0 ? fmt::format("every one of the {} runs' maximum errors is above 10x that, so the reference judges them all", points)
                             : fmt::format("{} of the {} runs have a maximum error within 10x of it: their trajectory errors are "
                                           "bounded by the reference's, not measured (tighten the [reference])", near, points));
  return true;
}

/// One row per run of the case: its setting, status, errors, work, drifts and time.
void write_runs_table(std::ostream& o, const StudyResult& result, const std::string& c, bool along, const Labels& label_of) {
  o << "| method | step / tol | status | error at T |" << (along ? " max error over the outputs | RMS error |" : "")
    << " steps | rejected | f + F evals | exps | energy drift | max drift of the other invariants | wall time [s] |\n";
  o << "|---|---|---|---|" << (along ? "---|---|" : "") << "---|---|---|---|---|---|---|\n";
  for (const auto& r : result.records) {
    if (r.case_name != c) continue;
    const std::string label = label_of(r.integrator, r.group);
    // Energy is reported apart: the other invariants are mostly constraints (|q| - 1, q.w, ...).
    std::string energy = "–", worst = "–";
    double drift = -1;
    for (const auto& [k, v] : r.drift) {
      if (k == "energy") energy = fmt::format("{:.1e}", v);
      else if (v > drift || std::isnan(v)) {
        drift = v;
        worst = fmt::format("{:.1e} ({})", v, k);
      }
    }
    const auto sci = [](double v) { return std::isnan(v) ? std::string("–") : fmt::format("{:.2e}", v); };
    o << fmt::format("| {} | {} | {} | {} |{} {} | {} | {} | {} | {} | {} | {:.3g} |\n", label,
                     r.step > 0 ? fmt::format("h = {:.6g}", r.step) : r.tolerance > 0 ? fmt::format("tol = {:.3g}", r.tolerance) : "–",
                     r.status == "ok" ? "ok" : "failed: " + r.error.substr(0, 80), sci(r.error_final),
                     along ? fmt::format(" {} | {} |", sci(r.error_max), sci(r.error_rms)) : std::string(), r.stats.steps,
                     r.stats.rejected_steps, r.stats.counters.f_evals + r.stats.counters.F_evals, r.stats.counters.exps,
                     energy, worst, r.wall_time_s);
  }
  o << "\n";
}

/// One-step groups: the distance ratio of the two initial points after one step, against h.
void write_distance_ratios(std::ostream& o, const StudyResult& result, const std::string& c, const Labels& label_of) {
  std::map<std::string, std::map<double, double>> ratios;  // label -> h -> ratio
  for (const auto& r : result.records)
    if (r.case_name == c && !std::isnan(r.distance_ratio))
      ratios[label_of(r.integrator, r.group)][r.step] = r.distance_ratio;
  if (!ratios.empty()) {
    std::set<double> hs;
    for (const auto& [label, byh] : ratios)
      for (const auto& [h, v] : byh) hs.insert(h);
    o << "One step of size h from the case's point p and its pair q: d(φ_h(p), φ_h(q)) / d(p, q) (> 1: the step expands "
         "the distance):\n\n| method |";
    for (double h : hs) o << fmt::format(" h = {:g} |", h);
    o << "\n|---|";
    for (std::size_t k = 0; k < hs.size(); ++k) o << "---|";
    o << "\n";
    for (const auto& [label, byh] : ratios) {
      o << "| " << label << " |";
      for (double h : hs) {
        auto it = byh.find(h);
        o << (it == byh.end() ? std::string(" – |") : fmt::format(" {:.6g} |", it->second));
      }
      o << "\n";
    }
    o << "\n";
  }
}

/// The observed orders of the case's convergence sweeps.
void write_order_table(std::ostream& o, const StudyResult& result, const std::string& c, const Labels& label_of) {
  bool any = false;
  for (const auto& f : result.orders) {
    if (f.case_name != c) continue;
    if (!any) o << "Observed orders (least-squares slope of log error against log h over the asymptotic range):\n\n| method | nominal | observed | h range | points |\n|---|---|---|---|---|\n";
    any = true;
    o << fmt::format("| {} | {} | {} | {} | {} |\n",
                     label_of(f.integrator, f.group), f.nominal,
                     std::isnan(f.observed) ? "–" : fmt::format("{:.2f}", f.observed),
                     std::isnan(f.observed) ? f.note : fmt::format("{:.3g} … {:.3g}", f.h_from, f.h_to), f.points);
  }
  if (any) o << "\n";
}

/// The case's viewer page and plots, where they were made.
void write_case_pictures(std::ostream& o, const std::string& out, const StudySpec& study, const std::string& c, const std::string& plot_note) {
  if (fs::exists(fs::path(out) / view_page_name(c)))
    o << fmt::format("The motion in the browser: [{}]({}) (its runs that wrote a series, side by side; `liesim view`).\n\n",
                     view_page_name(c), view_page_name(c));
  if (plot_note.empty()) {
    const std::string safe = file_safe(c);
    std::vector<std::string> kinds{"convergence", "work_precision", "drift", "step_size"};
    for (const FigureSpec& f : study.figures) kinds.push_back("figure_" + f.name);  // the study's [[figure]] tables
    for (const auto& kind : kinds)
      if (fs::exists(fs::path(out) / "plots" / fmt::format("{}_{}.png", kind, safe)))
        o << fmt::format("![{} {}](plots/{}_{}.png)\n\n", kind, c, kind, safe);
  }
}

/// A case's section: its reference, trajectory errors, events, runs, distance ratios, orders and pictures.
void write_case(std::ostream& o, const std::string& out, const StudySpec& study, const StudyResult& result, const std::string& c,
                const std::string& plot_note) {
  o << fmt::format("## Case `{}`\n\n", c);
  const auto ref = result.references.find(c);
  if (ref != result.references.end())
    o << fmt::format("Reference accuracy estimate (difference to the reference with 10x looser tolerances, or twice the step): {:.2e}.\n\n", ref->second.accuracy);
  const bool along = write_trajectory_note(o, result, c);
  write_events(o, study, result, c);
  const Labels label_of(result, c);
  write_runs_table(o, result, c, along, label_of);
  write_distance_ratios(o, result, c, label_of);
  write_order_table(o, result, c, label_of);
  write_case_pictures(o, out, study, c, plot_note);
}

}  // namespace

void write_report(const std::string& out, const StudySpec& study, const StudyResult& result, const std::string& plot_note) {
  std::ofstream o(fs::path(out) / "report.md");
  o << fmt::format("# Study: {}\n\n", study.name);
  if (!study.description.empty()) o << study.description << "\n\n";
  if (result.interrupted)
    o << fmt::format("**Interrupted:** {} of {} runs were not made; `liesim study {} --resume` finishes the study.\n\n",
                     result.not_run, result.not_run + static_cast<int>(result.records.size()), study.file);
  o << fmt::format("Study file: `{}`. Reference: `{}` ({}), computed once per case; {}.\n\n",
                   study.file, study.reference.integrator,
                   study.reference.step > 0 ? fmt::format("h = {}", study.reference.step)
                                            : fmt::format("rtol = {}, atol = {}", study.reference.rtol, study.reference.atol),
                   study.error == "final"
                       ? "the error of a run is the Euclidean norm of its final state minus the reference's in the embedding"
                       : fmt::format("the error of a run (error = \"{}\": the convergence orders, the work–precision fronts and plots) is "
                                     "the {} over each case's output times of the Euclidean norm of its state minus the reference's "
                                     "dense output there, in the embedding (the error at t_end is reported beside it)",
                                     study.error, study.error == "max" ? "largest value" : "root mean square"));
  write_summary(o, out, result, study.error);
  std::set<std::string> cases;
  for (const auto& r : result.records) cases.insert(r.case_name);
  for (const auto& c : cases) write_case(o, out, study, result, c, plot_note);
  write_matched_runs(o, study, result);
  if (plot_note.empty()) {
    // [[figure]] tables with together = true: one figure of several cases.
    bool heading = false;
    for (const FigureSpec& f : study.figures) {
      const std::string file = fmt::format("figure_{}.png", f.name);
      if (!f.together || !fs::exists(fs::path(out) / "plots" / file)) continue;
      if (!std::exchange(heading, true)) o << "## Figures across cases\n\n";
      o << fmt::format("![{}](plots/{})\n\n", f.title.empty() ? f.name : f.title, file);
    }
  }
  if (plot_note.empty() && fs::exists(fs::path(out) / "plots")) {
    std::vector<std::string> sweeps;
    for (const auto& e : fs::directory_iterator(fs::path(out) / "plots"))
      if (e.path().filename().string().rfind("sweep_", 0) == 0 && e.path().extension() == ".png") sweeps.push_back(e.path().filename().string());
    std::sort(sweeps.begin(), sweeps.end());
    if (!sweeps.empty()) o << "## Parameter sweeps\n\n";
    for (const auto& f : sweeps) o << fmt::format("![{}](plots/{})\n\n", f, f);
  }
  if (!plot_note.empty()) o << "**Plots:** " << plot_note << "\n";
  o << fmt::format("\n{} runs ({} taken from an interrupted earlier execution). Raw data: `results.csv`, `orders.csv`, "
                   "`series/` (invariant time series), `steps/` (adaptive step sizes), `manifest.json`.\n",
                   result.records.size(), result.skipped);
}

}  // namespace liesim::study
