// The view document (docs/view-format.md) from a model and the series of its runs.
#include <liesim/sdk/status.hpp>
#include <liesim/host/view.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <optional>

namespace liesim {

using nlohmann::json;

namespace {

/// A series CSV read one row at a time: a header line of column names, then rows of numbers.
class SeriesReader {
 public:
  explicit SeriesReader(const std::string& path) : path_(path), in_(path) {
    if (!in_) throw Error(fmt::format("view: cannot open the series '{}' (give the CSV a run wrote with --output)", path));
    std::string header;
    if (!std::getline(in_, header) || header.empty())
      throw Error(fmt::format("view: the series '{}' is empty (no header line)", path));
    std::size_t start = 0;
    while (true) {
      const std::size_t comma = header.find(',', start);
      columns_.push_back(header.substr(start, comma - start));
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
    if (!columns_.empty() && !columns_.back().empty() && columns_.back().back() == '\r') columns_.back().pop_back();
  }
  const std::vector<std::string>& columns() const { return columns_; }
  const std::string& path() const { return path_; }
  /// The next row into `row` (columns().size() values); false at the end.
  bool next(std::vector<double>& row) {
    std::string line;
    while (std::getline(in_, line)) {
      ++line_;
      if (line.empty() || line == "\r") continue;
      row.assign(columns_.size(), 0.0);
      const char* p = line.c_str();
      for (std::size_t k = 0; k < columns_.size(); ++k) {
        char* end = nullptr;
        row[k] = std::strtod(p, &end);
        if (end == p)
          throw Error(fmt::format("view: {} line {}: column '{}' is not a number", path_, line_ + 1, columns_[k]));
        p = end;
        if (k + 1 < columns_.size()) {
          if (*p != ',') throw Error(fmt::format("view: {} line {}: {} values, the header names {}", path_, line_ + 1, k + 1, columns_.size()));
          ++p;
        }
      }
      return true;
    }
    return false;
  }

 private:
  std::string path_;
  std::ifstream in_;
  std::vector<std::string> columns_;
  long line_ = 0;
};

/// Rows of a series (by counting its lines: the first pass of a thinned read).
long count_rows(const std::string& path) {
  std::ifstream in(path);
  long rows = -1;  // the header
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line != "\r") ++rows;
  return std::max(0L, rows);
}

/// Six significant digits: what a picture needs, a third of the file of full precision. Non-finite: null.
json rounded(double v) {
  if (!std::isfinite(v)) return nullptr;
  return std::strtod(fmt::format("{:.6g}", v).c_str(), nullptr);
}

std::string colour_text(std::uint32_t c) { return fmt::format("#{:06x}", c & 0xffffffu); }

/// The runs' colours (Paul Tol's bright scheme, colour-blind safe); run 0 is drawn in the bodies' own colours.
const char* run_colour(std::size_t k) {
  static const char* palette[] = {"#222222", "#ee6677", "#4477aa", "#228833", "#ccbb44", "#66ccee", "#aa3377", "#bbbbbb"};
  return palette[k % (sizeof palette / sizeof *palette)];
}

}  // namespace

json scene_json(const Scene& scene) {
  json bodies = json::array();
  for (const auto& b : scene.bodies)
    bodies.push_back({{"name", b.name}, {"shape", shape_name(b.shape)}, {"size", b.size}, {"color", colour_text(b.color)}});
  json paths = json::array();
  for (const auto& p : scene.paths) paths.push_back({{"name", fmt::format("{}, {}, {}", p.x, p.y, p.z)}, {"observables", {p.x, p.y, p.z}}});
  return {{"bodies", bodies}, {"up", scene.up}, {"ground", std::isfinite(scene.ground) ? json(scene.ground) : json(nullptr)},
          {"extent", scene.extent}, {"paths", paths}};
}

void check_scene(const Scene& scene, const std::vector<std::string>& observables) {
  if (scene.bodies.empty())
    throw Error("the model states no scene (ABI 2.8: Model::scene() lists its bodies), so there is nothing to draw");
  for (const auto& b : scene.bodies) {
    if (shape_name(b.shape)[0] == '\0')
      throw Error(fmt::format("the model's scene: body '{}' has shape {}, which is none of sphere, box, cylinder, capsule, axes, "
                              "segment, arrow (plugin.h LIESIM_SHAPE_*)", b.name, static_cast<int>(b.shape)));
    for (double s : b.size)
      if (!std::isfinite(s) || s < 0)
        throw Error(fmt::format("the model's scene: body '{}' has size {} (sizes are finite and >= 0)", b.name, fmt::join(b.size, ", ")));
  }
  if (!(std::isfinite(scene.extent) && scene.extent > 0))
    throw Error(fmt::format("the model's scene has extent {} (a length scale: finite and > 0)", scene.extent));
  const double up = std::hypot(scene.up[0], scene.up[1], scene.up[2]);
  if (!(std::isfinite(up) && up > 0)) throw Error("the model's scene has no up direction (a nonzero finite vector)");
  for (const auto& p : scene.paths)
    for (const std::string* name : {&p.x, &p.y, &p.z})
      if (std::find(observables.begin(), observables.end(), *name) == observables.end())
        throw Error(fmt::format("the model's scene draws a path through '{}', which is none of its observables ({})", *name,
                                observables.empty() ? std::string("it has none") : fmt::format("{}", fmt::join(observables, ", "))));
}

namespace {

/// The frames of a page: run 0's sample times (thinned evenly to the frame budget, or those nearest
/// the times asked for), how many samples it has, and the scene's paths (the observables they name
/// at up to 2,000 of run 0's samples).
struct Frames {
  std::vector<double> times;
  long rows = 0;
  std::vector<std::vector<double>> path_points;  ///< per path: x, y, z of each point
};

Frames choose_frames(const ModelView& model, const Scene& scene, const std::vector<std::string>& observable_names, const ViewRun& run0,
                     const ViewOptions& options) {
  Frames frames;
  std::vector<double>& times = frames.times;
  const long rows = frames.rows = count_rows(run0.series);  // the thinning's stride, and what the page says
  const int n = model.size();
  Eigen::VectorXd obs(model.observable_count());
  std::vector<std::vector<double>>& path_points = frames.path_points;
  path_points.resize(scene.paths.size());
  SeriesReader first(run0.series);
  if (rows == 0) throw Error(fmt::format("view: the series '{}' has no rows", run0.series));
  std::vector<double> all_times;
  std::vector<double> row;
  const std::size_t budget = std::max<std::size_t>(2, options.frame_budget);
  const bool chosen = !options.times.empty() || options.exposures > 1;
  const bool thin = !chosen && static_cast<std::size_t>(rows) > budget;
  const long stride = thin ? (rows - 2) / static_cast<long>(budget - 1) + 1 : 1;  // ceil((rows - 1) / (budget - 1))
  // The paths (a desired trajectory): the observables at up to 2000 of run 0's samples, whatever the frames.
  const long path_stride = (rows - 1) / 2000 + 1;
  Eigen::VectorXd y0(n);
  for (long r = 0; first.next(row); ++r) {
    if (!scene.paths.empty() && (r % path_stride == 0 || r == rows - 1)) {
      for (int i = 0; i < n && i + 1 < static_cast<int>(row.size()); ++i) y0[i] = row[1 + i];
      if (y0.allFinite() && model.evaluate_observables(row[0], y0, obs) == Status::ok)
        for (std::size_t p = 0; p < scene.paths.size(); ++p)
          for (const std::string* name : {&scene.paths[p].x, &scene.paths[p].y, &scene.paths[p].z})
            path_points[p].push_back(obs[std::find(observable_names.begin(), observable_names.end(), *name) - observable_names.begin()]);
    }
    if (chosen) {
      all_times.push_back(row[0]);
    } else if (!thin) {
      times.push_back(row[0]);
    } else {
      // Every stride-th row and the last: a fixed-step run keeps a regular grid of frames.
      if (r % stride == 0 || r == rows - 1) times.push_back(row[0]);
    }
  }
  std::vector<double> wanted = options.times;
  if (wanted.empty() && options.exposures > 1 && !all_times.empty())
    for (int k = 0; k < options.exposures; ++k)
      wanted.push_back(all_times.front() + (all_times.back() - all_times.front()) * k / (options.exposures - 1));
  for (double t : wanted) {
    const auto it = std::min_element(all_times.begin(), all_times.end(), [t](double a, double b) { return std::abs(a - t) < std::abs(b - t); });
    if (it == all_times.end()) break;
    if (!times.empty() && *it <= times.back())
      throw Error(fmt::format("view: the times {} select the sample at t = {} twice (give increasing times at least a sample apart, "
                              "or fewer exposures)", fmt::join(wanted, ","), *it));
    times.push_back(*it);
  }
  return frames;
}

/// One run of the page at the frames: its poses, the shown columns' values and (after run 0) its
/// distance to run 0 in the model's space; run 0's states at the frames go to `states0`, the
/// columns it shows to `columns`.
json view_run(const ModelView& model, const Scene& scene, const ViewRun& source, std::size_t k, const std::vector<double>& times,
              const std::vector<std::string>& shown, std::vector<Eigen::VectorXd>& states0, json& columns) {
  const int n = model.size();
  const auto state = model.state_names();
  const std::size_t bodies = scene.bodies.size();
  Eigen::VectorXd poses(pose_size * static_cast<Eigen::Index>(bodies)), y(n);
  const double span = std::max({1.0, std::abs(times.front()), std::abs(times.back())});
  const double tolerance = 1e-9 * span;
  SeriesReader reader(source.series);
  const auto& cols = reader.columns();
  // t, the state, then the invariants (CsvWriter's order): a series of a larger instance (a longer
  // chain) has the state as a prefix, its next column tells it apart.
  std::vector<std::string> expected{"t"};
  expected.insert(expected.end(), state.begin(), state.end());
  for (const auto& i : model.invariants()) expected.push_back(i.name);
  if (cols.size() < expected.size() || !std::equal(expected.begin(), expected.end(), cols.begin()))
    throw Error(fmt::format("view: the series '{}' is not of this model (with these parameters): its columns begin {}, the model's "
                            "are {}", source.series, fmt::join(cols.begin(), cols.begin() + std::min(cols.size(), expected.size()), ", "),
                            fmt::join(expected, ", ")));
  std::vector<std::size_t> shown_at;  // where the shown columns are in this series
  std::vector<std::string> shown_here;
  for (const auto& name : shown)
    if (const auto it = std::find(cols.begin() + 1 + n, cols.end(), name); it != cols.end()) {
      shown_at.push_back(static_cast<std::size_t>(it - cols.begin()));
      shown_here.push_back(name);
    }
  if (k == 0) columns = shown_here;
  json run = {{"label", source.label}, {"color", run_colour(k)}, {"poses", json::array()}, {"values", json::array()},
              {"distance", json::array()}};
  std::vector<double> row, held;
  bool have = reader.next(row), ended = false;
  json last_pose = nullptr, last_distance = nullptr;
  for (std::size_t f = 0; f < times.size(); ++f) {
    const double t = times[f];
    // The latest sample at or before the frame (within round-off of it).
    while (have && row[0] <= t + tolerance) {
      held = row;
      have = reader.next(row);
    }
    if (!have && !held.empty() && held[0] < t - tolerance) ended = true;
    const bool at_frame = !held.empty() && std::abs(held[0] - t) <= tolerance;
    if (held.empty() || (ended && !at_frame)) {  // before its first sample, or after its end: last pose, no values
      run["poses"].push_back(last_pose);
      run["values"].push_back(nullptr);
      run["distance"].push_back(nullptr);
      continue;
    }
    for (int i = 0; i < n; ++i) y[i] = held[1 + i];
    json pose = nullptr;
    if (y.allFinite()) {
      if (model.scene_poses(held[0], y, poses) != Status::ok)
        throw Error(fmt::format("view: the model's scene poses failed at t = {} of '{}': {}", held[0], source.series, model.last_error()));
      pose = json::array();
      for (Eigen::Index i = 0; i < poses.size(); ++i) pose.push_back(rounded(poses[i]));
    }
    last_pose = pose;
    run["poses"].push_back(pose);
    json values = json::array();
    for (std::size_t c = 0; c < shown_at.size(); ++c) values.push_back(rounded(held[shown_at[c]]));
    run["values"].push_back(values);
    if (k == 0) {
      states0[f] = y;
      run["distance"].push_back(nullptr);
    } else {
      // Where the two have no sample at the same time, the last distance measured holds (as the poses do).
      const bool comparable = at_frame && states0[f].size() == n && y.allFinite() && states0[f].allFinite();
      if (comparable) last_distance = rounded(model.space().distance(y, states0[f]));
      run["distance"].push_back(last_distance);
    }
  }
  return run;
}

}  // namespace

json view_data(const ModelView& model, const std::vector<ViewRun>& runs, const ViewOptions& options) {
  if (runs.empty()) throw Error("view: no run to show");
  const Scene scene = model.scene();
  std::vector<std::string> observable_names;
  for (const auto& o : model.observables()) observable_names.push_back(o.name);
  check_scene(scene, observable_names);
  std::vector<std::string> shown;  // the invariants and observables, as the series has them
  for (const auto& i : model.invariants()) shown.push_back(i.name);
  for (const auto& o : observable_names) shown.push_back(o);
  // Run 0 chooses the frames.
  const Frames frames = choose_frames(model, scene, observable_names, runs[0], options);
  const std::vector<double>& times = frames.times;
  json doc = {{"format", "liesim-view 1"}, {"title", options.title}, {"scene", scene_json(scene)}, {"times", json::array()},
              {"thinned", nullptr}, {"columns", json::array()}, {"runs", json::array()}};
  for (double t : times) doc["times"].push_back(t);
  if (options.times.empty() && options.exposures <= 1 && static_cast<std::size_t>(frames.rows) > times.size())
    doc["thinned"] = {{"frames", times.size()}, {"samples", frames.rows}};
  std::vector<Eigen::VectorXd> states0(times.size());  // run 0's states at the frames, for distances
  for (std::size_t k = 0; k < runs.size(); ++k) doc["runs"].push_back(view_run(model, scene, runs[k], k, times, shown, states0, doc["columns"]));
  for (std::size_t p = 0; p < scene.paths.size(); ++p) {
    json points = json::array();
    for (std::size_t i = 0; i + 2 < frames.path_points[p].size(); i += 3)
      points.push_back({rounded(frames.path_points[p][i]), rounded(frames.path_points[p][i + 1]), rounded(frames.path_points[p][i + 2])});
    doc["scene"]["paths"][p]["points"] = points;
  }
  return doc;
}

}  // namespace liesim
