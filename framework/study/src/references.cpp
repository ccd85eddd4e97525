// Stage 3 of a study: one reference per case, cached in OUT/reference/<case>.json (keyed by
// everything that makes it), each computed in a child process: a crash or a time limit fails
// that case's runs only.
#include "execution.hpp"

#include <liesim/host/output.hpp>
#include <liesim/sdk/plugin.hpp>
#include <liesim/study/case_views.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <limits>
#include <optional>

namespace fs = std::filesystem;

namespace liesim::study {

namespace {

/// The model's exact solution at t_end and the case's output times (reference integrator "exact").
Reference exact_reference(const Registry& registry, const CaseSpec& c) {
  const LoadedPlugin& plugin = registry.model(c.model);
  const Settings params(plugin.model->parameters(), c.parameters, fmt::format("parameter of model '{}'", c.model));
  std::string error;
  std::unique_ptr<ModelView> m(plugin.model->create(params, error));
  if (!m) throw Error(error);
  Eigen::VectorXd y(m->size());
  if (!m->has_exact_solution() || m->exact_solution(c.t_end, y) != Status::ok)
    throw Error(fmt::format("model '{}' has no exact solution for these parameters; give [reference] an integrator", c.model));
  Reference ref;
  ref.y.assign(y.data(), y.data() + y.size());
  ref.accuracy = 0.0;
  for (const double t : c.output_times) {
    if (m->exact_solution(t, y) != Status::ok)
      throw Error(fmt::format("model '{}' has no exact solution at the output time {}; give [reference] an integrator", c.model, t));
    ref.trajectory.insert(ref.trajectory.end(), y.data(), y.data() + y.size());
  }
  return ref;
}

/// One integrator reference run: its final state, the states at the case's output times (its
/// dense output) and the events' times; `series_file` ("" none) receives about 2,000 rows of its
/// time series for the viewer pages (every k-th step of a fixed-step run; every step of an
/// adaptive one).
Eigen::VectorXd reference_run(const Registry& registry, const StudySpec& s, const CaseSpec& c, double step, double rtol, double atol,
                              std::vector<double>& trajectory, std::map<std::string, double>& events, const std::string& series_file) {
  RunRequest q = request_for(c, s.reference.integrator, step, 0.0, s.reference.options);
  q.rtol = step > 0 ? 0.0 : rtol;
  q.atol = step > 0 ? 0.0 : atol;
  PreparedRun p = prepare_run(registry, q);
  TrajectoryRecorder recorder;
  recorder.t0 = p.spec.t0;
  ObserverList observers;
  observers.add(recorder);
  std::unique_ptr<CsvWriter> csv;
  std::optional<Thinning> thinned;
  if (!series_file.empty()) {
    csv = std::make_unique<CsvWriter>(series_file, *p.model);
    const long every = step > 0 ? std::max(1L, std::lround((c.t_end - p.spec.t0) / step / 2000.0)) : 1L;
    thinned.emplace(Thinning::every_nth(*csv, every, p.model->size()));
    observers.add(*thinned);
  }
  const RunResult result = execute(p, observers);
  if (thinned) thinned->finish();
  if (!c.output_times.empty()) trajectory = std::move(recorder.states);
  events = first_event_times(result, p.spec);
  return result.y;
}

/// A case's reference, with its accuracy estimated against the same run loosened (twice the step,
/// or ten times the tolerances); `series`: where it writes its time series ("" none).
Reference compute_reference(const Registry& registry, const StudySpec& s, const CaseSpec& c, const std::string& series) {
  const ReferenceSpec& r = s.reference;
  if (r.integrator == "exact") return exact_reference(registry, c);
  Reference ref;
  std::vector<double> loose_trajectory;
  std::map<std::string, double> loose_events;
  const Eigen::VectorXd y = reference_run(registry, s, c, r.step, r.rtol, r.atol, ref.trajectory, ref.event_times, series);
  const Eigen::VectorXd loose = r.step > 0 ? reference_run(registry, s, c, 2 * r.step, 0, 0, loose_trajectory, loose_events, "")
                                           : reference_run(registry, s, c, 0, 10 * r.rtol, 10 * r.atol, loose_trajectory, loose_events, "");
  ref.y.assign(y.data(), y.data() + y.size());
  ref.accuracy = (y - loose).norm();
  for (const auto& [name, t] : ref.event_times) {
    const auto it = loose_events.find(name);
    ref.event_accuracy = std::max(ref.event_accuracy, it == loose_events.end() ? std::numeric_limits<double>::infinity() : std::abs(t - it->second));
  }
  const auto n = static_cast<std::size_t>(y.size());
  for (std::size_t k = 0; k + n <= ref.trajectory.size() && k + n <= loose_trajectory.size(); k += n) {
    double d = 0;
    for (std::size_t i = 0; i < n; ++i) d += (ref.trajectory[k + i] - loose_trajectory[k + i]) * (ref.trajectory[k + i] - loose_trajectory[k + i]);
    ref.trajectory_accuracy = std::max(ref.trajectory_accuracy, std::sqrt(d));
  }
  return ref;
}

/// What makes a case's reference (its cache key): the case, the [reference] settings, the build
/// and the plugins' versions (from the manifests: the coordinator loads no plugin).
std::string reference_key(const Registry& registry, const StudySpec& s, const CaseSpec& c) {
  nlohmann::json j = {{"model", c.model}, {"parameters", c.parameters}, {"t_end", c.t_end},
                      {"integrator", s.reference.integrator}, {"step", s.reference.step}, {"rtol", s.reference.rtol},
                      {"atol", s.reference.atol}, {"options", s.reference.options}, {"build", LIESIM_BUILD_TOKEN}};
  if (!c.output_times.empty()) j["output_times"] = c.output_times;
  if (!c.stop_when.empty()) j["stop_when"] = c.stop_when;
  if (!c.events.empty()) j["events"] = c.events;
  try {
    if (const PluginCandidate* m = registry.find_model(c.model); m && m->manifest) j["model_version"] = m->manifest->version;
    if (s.reference.integrator != "exact")
      if (const PluginCandidate* f = registry.find_method(s.reference.integrator); f->manifest)
        j["integrator_version"] = f->manifest->version;
  } catch (const Error&) {
  }
  return j.dump();
}

/// The cached reference of a case whose settings are `key`, if there is one.
std::optional<Reference> cached_reference(const fs::path& file, const std::string& key) {
  try {
    std::ifstream in(file);
    const auto j = nlohmann::json::parse(in);
    if (j.at("settings") != key) return std::nullopt;
    Reference ref = reference_from_json(j);
    ref.settings = key;
    return ref;
  } catch (const std::exception&) {  // none, or unreadable: compute it
    return std::nullopt;
  }
}

}  // namespace

bool compute_references(Execution& ex, Engine& engine) {
  const StudySpec& study = ex.study;
  std::vector<int> to_compute;
  std::vector<std::string> keys(study.cases.size());
  auto file_of = [&](const CaseSpec& c, const char* extension) { return ex.out / "reference" / (file_safe(c.name) + extension); };
  // A worker rank (MPI) computes the references it is handed; the coordinator decides which.
  for (std::size_t k = 0; k < study.cases.size() && !engine.worker(); ++k) {
    const CaseSpec& c = study.cases[k];
    if (ex.plan.reference_failure.count(c.name) || !ex.plan.needed_cases.count(c.name)) continue;
    keys[k] = reference_key(ex.registry, study, c);
    if (auto ref = cached_reference(file_of(c, ".json"), keys[k]))
      ex.result.references[c.name] = std::move(*ref);
    else
      to_compute.push_back(static_cast<int>(k));
  }
  Phase phase;
  phase.limit = [&](int) { return study.reference.timeout > 0 ? study.reference.timeout : ex.plan.study_limit; };
  phase.job = [&](int k) {
    const CaseSpec& c = study.cases[static_cast<std::size_t>(k)];
    return reference_json(compute_reference(ex.registry, study, c, file_of(c, ".csv").string())).dump();
  };
  phase.context = [](int) { return std::string(); };
  phase.apply = [](int, const std::string&) {};
  phase.done = [&](int k, const ChildOutcome& o) {
    const CaseSpec& c = study.cases[static_cast<std::size_t>(k)];
    try {
      if (!o.answered()) throw Error(o.reason());
      Reference& ref = ex.result.references[c.name] = reference_from_json(nlohmann::json::parse(o.text));
      ref.settings = keys[static_cast<std::size_t>(k)];
      nlohmann::json cached = reference_json(ref);
      cached["case"] = c.name;
      cached["settings"] = ref.settings;
      std::ofstream file(file_of(c, ".json"));
      file << cached.dump(2) << "\n";
    } catch (const std::exception& e) {
      ex.result.references.erase(c.name);
      ex.plan.reference_failure[c.name] = fmt::format("reference for case '{}' failed: {} (choose another [reference] integrator or "
                                                      "settings)", c.name, e.what());
    }
  };
  return engine.run(to_compute, ex.opt, phase);
}

nlohmann::json reference_json(const Reference& ref) {
  nlohmann::json j{{"final_state", ref.y}, {"accuracy", ref.accuracy}};
  if (!ref.trajectory.empty()) {
    j["trajectory"] = ref.trajectory;
    j["trajectory_accuracy"] = ref.trajectory_accuracy;
  }
  if (!ref.event_times.empty()) {
    j["event_times"] = ref.event_times;
    j["event_accuracy"] = ref.event_accuracy;
  }
  return j;
}

Reference reference_from_json(const nlohmann::json& j) {
  Reference ref;
  ref.y = j.at("final_state").get<std::vector<double>>();
  ref.accuracy = j.at("accuracy").get<double>();
  if (j.contains("trajectory")) {
    ref.trajectory = j.at("trajectory").get<std::vector<double>>();
    ref.trajectory_accuracy = j.at("trajectory_accuracy").get<double>();
  }
  if (j.contains("event_times")) {
    ref.event_times = j.at("event_times").get<std::map<std::string, double>>();
    ref.event_accuracy = j.at("event_accuracy").get<double>();
  }
  return ref;
}

}  // namespace liesim::study
