// The requests of a study's runs and references, from its cases and run groups.
#include "execution.hpp"

namespace liesim::study {

RunRequest request_for(const CaseSpec& c, const std::string& integrator, double step, double tol,
                       const std::map<std::string, std::string>& options) {
  RunRequest q;
  q.model = c.model;
  q.parameters = c.parameters;
  q.method = integrator;
  q.options = options;
  q.t_end = c.t_end;
  q.step = step;
  q.rtol = tol;
  q.atol = tol;
  q.solver_outputs = c.outputs;
  q.output_times = c.output_times;
  q.stop_when = c.stop_when;
  q.events = c.events;
  return q;
}

RunRequest request_for(const RunItem& item, double step, bool second) {
  RunRequest q = request_for(*item.case_spec, item.integrator, step, item.tolerance, item.group->options);
  if (item.group->one_step) {
    q.t_end = step;
    q.output_times.clear();  // one step: no output inside it
  }
  if (second)
    for (const auto& [k, v] : item.case_spec->pair) q.parameters[k] = v;
  return q;
}

std::map<std::string, double> first_event_times(const RunResult& r, const RunSpec& spec) {
  std::map<std::string, double> times;
  for (const EventHit& hit : r.events) times.emplace(spec.events[hit.event].text, hit.t);
  return times;
}

}  // namespace liesim::study
