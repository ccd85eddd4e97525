// The opening summary of report.md: per case, which runs won on error per cost, which methods kept
// the invariants, what failed, and the plots to look at first.
#include <liesim/study/report.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace liesim::study {

namespace {

std::string setting_of(const RunRecord& r) {
  return r.step > 0 ? fmt::format("h = {:g}", r.step) : r.tolerance > 0 ? fmt::format("tol = {:g}", r.tolerance) : std::string("–");
}

/// Energies (which only symplectic or energy-preserving methods keep) are reported apart from the
/// invariants that measure the manifold or another conserved quantity.
bool is_energy(const std::string& name) { return name.find("energy") != std::string::npos || name == "hamiltonian"; }

/// The name with each run of digits that follows a letter replaced by '*' (an index):
/// q1_norm_minus_1 and q2_norm_minus_1 are the group q*_norm_minus_1.
std::string name_group(const std::string& name) {
  std::string g;
  for (std::size_t i = 0; i < name.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(name[i])) || i == 0 || !std::isalpha(static_cast<unsigned char>(name[i - 1]))) {
      g += name[i];
      continue;
    }
    g += '*';
    while (i + 1 < name.size() && std::isdigit(static_cast<unsigned char>(name[i + 1]))) ++i;
  }
  return g;
}

/// One work-precision front (the runs no other run beats on both `cost` and error), as a line:
/// the method on it most often, then the front, cheapest first.
template <class Cost, class Text>
void write_front(std::ostream& o, std::vector<const RunRecord*> runs, const std::string& error, const std::string& measure, Cost cost, Text text) {
  const auto e = [&](const RunRecord* r) { return measured_error(*r, error); };
  runs.erase(std::remove_if(runs.begin(), runs.end(), [&](const RunRecord* r) { return !(cost(r) >= 0) || !std::isfinite(cost(r)); }),
             runs.end());
  std::sort(runs.begin(), runs.end(), [&](const RunRecord* a, const RunRecord* b) {
    return cost(a) != cost(b) ? cost(a) < cost(b) : e(a) < e(b);
  });
  std::vector<std::string> front;
  std::map<std::string, int> front_count;
  double best = std::numeric_limits<double>::infinity();
  for (const auto* r : runs)
    if (e(r) < best) {
      best = e(r);
      front.push_back(fmt::format("{} ({}): {:.1e} at {}", r->integrator, setting_of(*r), e(r), text(cost(r))));
      ++front_count[r->integrator];
    }
  if (front.empty()) return;
  std::vector<std::pair<int, std::string>> ranked;
  for (const auto& [m, k] : front_count) ranked.push_back({-k, m});
  std::sort(ranked.begin(), ranked.end());
  o << fmt::format("* {}: {} on the work–precision front most often ({} of its {} points); the front, cheapest first: {}.\n", measure,
                   ranked.front().second, -ranked.front().first, front.size(), fmt::join(front, "; "));
}

}  // namespace

void write_summary(std::ostream& o, const std::string& out, const StudyResult& result, const std::string& error) {
  std::set<std::string> cases;
  for (const auto& r : result.records) cases.insert(r.case_name);
  o << "## Summary\n\n";
  for (const auto& c : cases) {
    std::vector<const RunRecord*> runs, failed;
    for (const auto& r : result.records)
      if (r.case_name == c) (r.status == "ok" ? runs : failed).push_back(&r);
    o << fmt::format("**{}** — {} runs, {} failed.\n\n", c, runs.size() + failed.size(), failed.size());
    // The work-precision fronts: runs that no other run beats on both cost and error, with the
    // cost counted three ways, each statement naming its measure. Evaluations say nothing of what
    // one costs (a BDF evaluation comes with Newton iterations and linear solves): the CPU-time
    // front (the medians of the timing runs) says what the machine spends, whatever else ran on
    // it; the wall-time front says what a user waited, load included.
    std::vector<const RunRecord*> measured;
    for (const auto* r : runs)
      if (std::isfinite(measured_error(*r, error)) && measured_error(*r, error) > 0) measured.push_back(r);
    const auto evaluations = [](const RunRecord* r) { return static_cast<double>(r->stats.counters.f_evals + r->stats.counters.F_evals); };
    const auto cpu = [](const RunRecord* r) { return r->cpu_time_s; };
    const auto wall = [](const RunRecord* r) { return r->wall_time_s; };
    const auto seconds = [](double v) { return fmt::format("{:.2e} s", v); };
    write_front(o, measured, error, "Error per cost (f + F evaluations)", evaluations, [](double v) { return fmt::format("{:.0f}", v); });
    write_front(o, measured, error, "Error per CPU time (medians of the timing runs, s)", cpu, seconds);
    write_front(o, measured, error, "Error per wall time (medians of the timing runs, s)", wall, seconds);
    // Invariants, each on its own (a manifold constraint, a Casimir and a momentum are kept by
    // different methods): the worst drift of each method over its runs; invariants whose names
    // differ only in their numbers (q1_norm, q2_norm, ...) form one line; energies apart.
    std::map<std::string, std::map<std::string, std::pair<double, std::string>>> worst;  // group -> method -> (drift, name)
    for (const auto* r : runs)
      for (const auto& [name, d] : r->drift) {
        if (is_energy(name)) continue;
        auto& w = worst[name_group(name)].try_emplace(r->integrator, -1.0, std::string()).first->second;
        if (d > w.first || std::isnan(d)) w = {d, name};
      }
    if (!worst.empty()) o << "* Invariants other than the energy, each on its own (kept: max drift <= 1e-10 in every run of the method):\n";
    for (const auto& [group, by_method] : worst) {
      std::vector<std::string> kept, drifted;
      for (const auto& [m, w] : by_method) {
        if (w.first < 0) continue;
        if (w.first <= 1e-10) kept.push_back(m);
        else drifted.push_back(group == w.second ? fmt::format("{} ({:.1e})", m, w.first) : fmt::format("{} ({} {:.1e})", m, w.second, w.first));
      }
      o << fmt::format("  * `{}` kept by {}; drifted: {}.\n", group, kept.empty() ? std::string("no method") : fmt::format("{}", fmt::join(kept, ", ")),
                       drifted.empty() ? std::string("none") : fmt::format("{}", fmt::join(drifted, ", ")));
    }
    if (!failed.empty()) {
      std::vector<std::string> what;
      for (const auto* r : failed) {
        if (what.size() == 3) break;
        std::string msg = r->error.size() > 160 ? r->error.substr(0, 157) + "..." : r->error;
        what.push_back(fmt::format("{} ({}): {}", r->integrator, setting_of(*r), msg));
      }
      o << fmt::format("* Failed: {}{}.\n", fmt::join(what, "; "), failed.size() > 3 ? fmt::format("; and {} more", failed.size() - 3) : "");
    }
    std::string safe;
    for (char ch : c) safe += std::isalnum(static_cast<unsigned char>(ch)) || ch == '-' || ch == '_' ? ch : '_';
    std::vector<std::string> first;
    for (const char* kind : {"work_precision", "convergence", "drift"})
      if (fs::exists(fs::path(out) / "plots" / fmt::format("{}_{}.png", kind, safe)))
        first.push_back(fmt::format("[{}](plots/{}_{}.png)", kind, kind, safe));
    if (!first.empty()) o << fmt::format("* Look first at: {}.\n", fmt::join(first, ", "));
    o << "\n";
  }
}

}  // namespace liesim::study
