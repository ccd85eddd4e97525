// The motion of runs as data and as a page: the poses of a model's bodies (its scene, ABI 2.8) at
// the frame times of one or more runs' series, in the document of docs/view-format.md, and the
// self-contained viewer page (three.js embedded) that shows it. Host side: liesim view,
// liesim run --view, liesim study (a page per case) and liesim figure strobe.
#pragma once
#include <liesim/sdk/model_view.hpp>
#include <liesim/sdk/scene.hpp>

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace liesim {

/// One run to show: its series file (CSV as `liesim run --output` and studies write it: t, the
/// state in the model's layout, then invariants, observables and diagnostics).
struct ViewRun {
  std::string label;   ///< e.g. "rkmk4 h = 0.01"
  std::string series;  ///< path of the CSV
};

struct ViewOptions {
  std::string title;
  std::size_t frame_budget = 2000;  ///< at most this many frames (the first run's samples thinned evenly)
  std::vector<double> times;        ///< the frame times instead (nearest sample of the first run), e.g. a strobe's exposures
  int exposures = 0;                ///< > 1 (and no times): this many frame times evenly over the first run's span
};

/// The scene's JSON form (docs/view-format.md "scene", without the paths' points).
nlohmann::json scene_json(const Scene& scene);

/// Throws liesim::Error naming what is wrong with a model's scene: no bodies, an unknown shape, a
/// size or extent not finite and positive where it must be, a zero up vector, a path through an
/// observable the model does not have (`observables`: its names).
void check_scene(const Scene& scene, const std::vector<std::string>& observables);

/// The view document of `runs` (run 0 first: frame times, paths and distances are its). Runs the
/// model's code (scene poses, observables, distance): call it where plugin code may run. Throws
/// liesim::Error for a series that is not the model's (its columns) or cannot be read.
nlohmann::json view_data(const ModelView& model, const std::vector<ViewRun>& runs, const ViewOptions& options);

/// The viewer page with `data` embedded, written atomically to `path`; the template is
/// share/liesim/viewer.html beside the executable (as installed). Throws liesim::Error.
void write_view_page(const nlohmann::json& data, const std::string& path);

}  // namespace liesim
