// What a study needs to know of each run before anything runs (its method's family and order,
// the parameters and options with their defaults, the columns its model and method write), found
// by preparing the run in a child process with a time limit: the coordinator never runs plugin
// code. A request the plugins refuse (an unknown key, a bad value, a method that refuses the
// model) is an error in the study file; a plugin that crashes, exits, hangs or cannot be used
// (PluginFault) fails the runs that need it, with the reason.
#pragma once
#include <liesim/host/child_process.hpp>
#include <liesim/host/run.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

namespace liesim::study {

/// Time limit of one plan probe when its runs have none.
inline constexpr double default_plan_limit_s = 60.0;

struct RunPlan {
  enum class State { ok, refused, fault };
  State state = State::fault;
  std::string message;  ///< refused / fault: why
  std::string family;
  MethodInfo method;
  std::map<std::string, std::string> parameters, options, control;
  std::vector<std::string> state_names, invariants, observables;
};

namespace plan_detail {
inline nlohmann::json to_json(const PreparedRun& p) {
  nlohmann::json diagnostics = nlohmann::json::array();
  for (const auto& d : p.method.diagnostics) diagnostics.push_back({{"name", d.name}, {"doc", d.doc}, {"conserved", d.conserved}});
  std::vector<std::string> invariants, observables;
  for (const auto& i : p.model->invariants()) invariants.push_back(i.name);
  for (const auto& o : p.model->observables()) observables.push_back(o.name);
  return {{"state", "ok"},
          {"family", p.integrator_plugin->name},
          {"method", {{"name", p.method.name}, {"order", p.method.order}, {"embedded_order", p.method.embedded_order},
                      {"lie_group", p.method.lie_group}, {"self_controlled", p.method.self_controlled},
                      {"diagnostics", diagnostics}}},
          {"parameters", p.parameters.values()},
          {"options", p.options.values()},
          {"control", kernel_option_values(p)},
          {"state_names", p.model->state_names()},
          {"invariants", invariants},
          {"observables", observables}};
}

inline RunPlan from_json(const nlohmann::json& j) {
  RunPlan r;
  const std::string state = j.at("state").get<std::string>();
  if (state != "ok") {
    r.state = state == "refused" ? RunPlan::State::refused : RunPlan::State::fault;
    r.message = j.at("message").get<std::string>();
    return r;
  }
  r.state = RunPlan::State::ok;
  r.family = j.at("family").get<std::string>();
  const auto& m = j.at("method");
  r.method.name = m.at("name").get<std::string>();
  r.method.order = m.at("order").get<int>();
  r.method.embedded_order = m.at("embedded_order").get<int>();
  r.method.lie_group = m.at("lie_group").get<bool>();
  r.method.self_controlled = m.at("self_controlled").get<bool>();
  for (const auto& d : m.at("diagnostics"))
    r.method.diagnostics.push_back({d.at("name").get<std::string>(), d.at("doc").get<std::string>(), d.at("conserved").get<bool>()});
  r.parameters = j.at("parameters").get<std::map<std::string, std::string>>();
  r.options = j.at("options").get<std::map<std::string, std::string>>();
  r.control = j.at("control").get<std::map<std::string, std::string>>();
  r.state_names = j.at("state_names").get<std::vector<std::string>>();
  r.invariants = j.at("invariants").get<std::vector<std::string>>();
  r.observables = j.at("observables").get<std::vector<std::string>>();
  return r;
}
}  // namespace plan_detail

/// One plan probe: the requests that must all prepare (a run, and the run from its pair's point).
struct PlanProbe {
  std::vector<RunRequest> requests;
  double limit_s = 0.0;  ///< <= 0: default_plan_limit_s
};

/// The answer of one probe (in the child): its plan, or why it has none, as JSON.
inline nlohmann::json probe_answer(const Registry& registry, const PlanProbe& probe) {
  try {
    nlohmann::json plan;
    for (std::size_t i = 0; i < probe.requests.size(); ++i) {
      const PreparedRun p = prepare_run(registry, probe.requests[i]);
      if (i == 0) plan = plan_detail::to_json(p);
    }
    return plan;
  } catch (const PluginFault& e) {
    return {{"state", "fault"}, {"message", e.what()}};
  } catch (const std::exception& e) {
    return {{"state", "refused"}, {"message", e.what()}};
  }
}

/// Probes planned together in one child (a fork and the plugins' loading shared).
inline constexpr std::size_t plan_batch = 16;

/// Prepare each probe's requests in child processes (at most `jobs` at once) and return the plan
/// of its first request, or why it has none. Probes go in batches of plan_batch to one child,
/// with the longest limit of the batch; a batch whose child does not answer (a crash, an exit, a
/// hang) is planned again probe by probe, so that the misbehaving one fails alone.
inline std::vector<RunPlan> plan_runs(const Registry& registry, const std::vector<PlanProbe>& probes, int jobs) {
  std::vector<RunPlan> plans(probes.size());
  // Each job: the probes it plans (one, or a batch).
  std::vector<std::vector<std::size_t>> batches;
  for (std::size_t k = 0; k < probes.size(); k += plan_batch) {
    batches.emplace_back();
    for (std::size_t i = k; i < std::min(probes.size(), k + plan_batch); ++i) batches.back().push_back(i);
  }
  std::vector<std::vector<std::size_t>> retry;
  for (const bool single : {false, true}) {
    const auto& work = single ? retry : batches;
    ChildPool pool;
    std::size_t next = 0, done = 0;
    while (done < work.size()) {
      while (pool.running() < static_cast<std::size_t>(std::max(1, jobs)) && next < work.size()) {
        const std::size_t b = next++;
        const std::vector<std::size_t>& members = work[b];
        double limit = 0;
        for (const std::size_t i : members) limit = std::max(limit, probes[i].limit_s > 0 ? probes[i].limit_s : default_plan_limit_s);
        pool.start(static_cast<int>(b), [&registry, &probes, &members] {
          nlohmann::json answers = nlohmann::json::array();
          for (const std::size_t i : members) answers.push_back(probe_answer(registry, probes[i]));
          return answers.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        }, limit, true);
      }
      const auto r = pool.wait(std::chrono::milliseconds(200));
      if (!r) continue;
      ++done;
      const std::vector<std::size_t>& members = work[static_cast<std::size_t>(r->first)];
      const ChildOutcome& o = r->second;
      if (!o.answered() && !single && members.size() > 1) {
        for (const std::size_t i : members) retry.push_back({i});
        continue;
      }
      try {
        if (!o.answered()) throw PluginFault(o.reason());
        const auto answers = nlohmann::json::parse(o.text);
        for (std::size_t m = 0; m < members.size(); ++m) plans[members[m]] = plan_detail::from_json(answers.at(m));
      } catch (const PluginFault& e) {
        for (const std::size_t i : members) {
          plans[i].state = RunPlan::State::fault;
          plans[i].message = fmt::format("the run's set-up failed: {}", e.what());
        }
      } catch (const std::exception& e) {
        for (const std::size_t i : members) {
          plans[i].state = RunPlan::State::fault;
          plans[i].message = fmt::format("preparing the run gave an unreadable answer ({})", e.what());
        }
      }
    }
  }
  return plans;
}

}  // namespace liesim::study
