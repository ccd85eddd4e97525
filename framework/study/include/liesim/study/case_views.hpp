// Pictures of a study's motion from its models' scenes (ABI 2.8): the viewer page of each case, its
// runs that wrote a time series side by side, and the strobe [[figure]]s.
#pragma once
#include <liesim/host/registry.hpp>
#include <liesim/study/study_file.hpp>

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
  std::string title;               ///< the pages' title before ": case NAME"; empty: the folder's name
};

/// The pages written, and the cases left out because their model states no scene.
struct CaseViewPages {
  std::vector<std::string> pages, unpictured;
};

/// A case name as a file name part: letters, digits, '-' and '_' kept, the rest '_'.
std::string file_safe(const std::string& case_name);
/// The page of a case: view_<file_safe(case)>.html.
inline std::string view_page_name(const std::string& case_name) { return "view_" + file_safe(case_name) + ".html"; }

/// Writes OUT/view_<case>.html for each case with runs that wrote a series (`liesim view`'s pages):
/// the case's reference first where it wrote its series (reference/<case>.csv), then at most 8
/// runs (the first eight, in results.csv order). Runs the models' code (their scenes): call it in
/// a child process. Throws liesim::Error when the folder is no study's, no run wrote a series, or
/// no case's model has a scene.
CaseViewPages write_case_views(const Registry& registry, const CaseViews& what);

/// OUT/plots/figure_<name>_<case>.png and .pdf for each [[figure]] of kind strobe and each case it
/// selects: the model's scene at the figure's exposures, of the case's reference series (or of the
/// first run of its `run` method that wrote one), drawn by share/liesim/strobe.py. Runs the models'
/// code: call it in a child process. Returns the files written; throws liesim::Error.
std::vector<std::string> draw_strobe_figures(const Registry& registry, const StudySpec& spec, const std::string& out);

}  // namespace liesim::study
