// What a study leaves behind besides results.csv: manifest, orders, plots and report.
#pragma once
#include <liesim/host/registry.hpp>
#include <liesim/study/study_runner.hpp>

#include <ostream>
#include <string>
#include <vector>

namespace liesim::study {

/// OUT/manifest.json: the study file, liesim and plugin versions, build info, machine (host,
/// CPU, cores), times; a shard's "I/N", or the folders a merge joined; the engine (local jobs, or
/// MPI ranks and their hosts).
void write_manifest(const std::string& out, const StudySpec& study, const Registry& registry, const std::string& started,
                    const std::string& finished, int jobs, const std::string& shard = "",
                    const std::vector<std::string>& merged_from = {}, const std::string& engine = "");
/// OUT/orders.csv: observed order per case and method with the step range used.
void write_orders(const std::string& out, const std::vector<OrderFit>& orders);
/// Draw the plots by running the shipped matplotlib script, its figures shared among `processes`
/// side by side; returns "" or a message saying why there are no plots and how to get them.
std::string draw_plots(const std::string& out, int processes = 1);
/// OUT/report.md: purpose, results per method, observed orders, plots.
void write_report(const std::string& out, const StudySpec& study, const StudyResult& result, const std::string& plot_note);
/// The report's opening summary, per case: the work–precision front (runs no other run beats on
/// both f + F evaluations and error), the methods that kept the non-energy invariants to 1e-10 and
/// those that did not, the failed runs, and the plots to look at first.
/// `error`: the study's error measure (StudySpec::error) the fronts use.
void write_summary(std::ostream& o, const std::string& out, const StudyResult& result, const std::string& error = "final");
/// Current UTC time in ISO 8601.
std::string utc_now();

}  // namespace liesim::study
