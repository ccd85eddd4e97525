// The viewer pages of a study: one per case, its runs that wrote a time series side by side.
#pragma once
#include <liesim/registry.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace liesim::study {

/// What to show of a study folder.
struct CaseViews {
  std::string folder;              ///< the study's output folder (results.csv, series/)
  std::vector<std::string> runs;   ///< integrator names or run indices to show; empty: every run with a series
  std::size_t frame_budget = 2000;
  std::string out;                 ///< folder of the pages; empty: `folder`
};

/// Writes OUT/view_<case>.html for each case with runs that wrote a series (`liesim view`'s pages),
/// at most 8 runs a page (the first eight, in results.csv order), and returns the files written.
/// Runs the models' code (their scenes): call it in a child process. Throws liesim::Error when the
/// folder is no study's, no run wrote a series, or a model has no scene.
std::vector<std::string> write_case_views(const Registry& registry, const CaseViews& what);

}  // namespace liesim::study
