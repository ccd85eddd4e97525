// `liesim study merge DIR... --out DIR`: shards checked against each other, then joined.
#include <liesim/study/merge.hpp>
#include <liesim/study/output_folder.hpp>
#include <liesim/study/results_table.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>

namespace fs = std::filesystem;

namespace liesim::study {

namespace {

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw Error(fmt::format("cannot read '{}'", p.string()));
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

struct Shard {
  fs::path dir;
  nlohmann::json manifest;
  int index = 0, count = 0;
};

/// The versions that must agree between shards: liesim's build and every plugin's version.
nlohmann::json versions(const nlohmann::json& manifest) {
  nlohmann::json plugins = nlohmann::json::object();
  for (const auto& p : manifest.at("plugins")) plugins[p.at("name").get<std::string>()] = p.at("version");
  return {{"liesim", manifest.at("liesim")}, {"plugins", plugins}};
}

}  // namespace

Merged merge_shards(const std::vector<std::string>& dirs, const std::string& out_dir) {
  if (dirs.empty()) throw Error("study merge needs the shards' output folders: liesim study merge DIR... --out DIR");
  const fs::path out(out_dir);
  std::vector<Shard> shards;
  for (const auto& d : dirs) {
    Shard s;
    s.dir = d;
    for (const char* f : {"study.toml", "manifest.json", "results.csv"})
      if (!fs::exists(s.dir / f))
        throw Error(fmt::format("'{}' has no {}: give the output folders of `liesim study FILE --shard I/N` runs", d, f));
    if (fs::exists(out) && fs::equivalent(out, s.dir)) throw Error(fmt::format("--out '{}' is one of the shards: choose a new folder", out_dir));
    try {
      s.manifest = nlohmann::json::parse(read_file(s.dir / "manifest.json"));
      const std::string shard = s.manifest.value("shard", std::string());
      if (std::sscanf(shard.c_str(), "%d/%d", &s.index, &s.count) != 2 || s.count < 1 || s.index < 1 || s.index > s.count)
        throw Error(fmt::format("'{}' is not a shard (its manifest names none): run it with --shard I/N", d));
    } catch (const nlohmann::json::exception& e) {
      throw Error(fmt::format("'{}': unreadable manifest.json ({})", d, e.what()));
    }
    shards.push_back(std::move(s));
  }
  std::sort(shards.begin(), shards.end(), [](const Shard& a, const Shard& b) { return a.index < b.index; });
  const Shard& first = shards.front();
  const std::string text = read_file(first.dir / "study.toml");
  for (const auto& s : shards) {
    if (read_file(s.dir / "study.toml") != text)
      throw Error(fmt::format("'{}' and '{}' ran different study files: only shards of one study merge", first.dir.string(), s.dir.string()));
    if (versions(s.manifest) != versions(first.manifest))
      throw Error(fmt::format("'{}' and '{}' were made by different liesim or plugin versions (see their manifest.json): "
                              "rerun the shards with one installation", first.dir.string(), s.dir.string()));
    if (s.count != first.count)
      throw Error(fmt::format("'{}' is shard {}/{} but '{}' is {}/{}: shards of one split only", s.dir.string(), s.index, s.count,
                              first.dir.string(), first.index, first.count));
  }
  for (int i = 1; i <= first.count; ++i) {
    const auto n = std::count_if(shards.begin(), shards.end(), [&](const Shard& s) { return s.index == i; });
    if (n == 0) throw Error(fmt::format("shard {}/{} is missing: give the output folder of every shard", i, first.count));
    if (n > 1) throw Error(fmt::format("shard {}/{} is given twice", i, first.count));
  }

  Merged m;
  m.study = parse_study(text, first.manifest.at("study").value("file", std::string("study.toml")));
  const std::vector<RunItem> items = expand(m.study);
  const std::string header_text = read_file(first.dir / "results.csv");
  const std::string header = header_text.substr(0, header_text.find('\n'));
  const auto columns = columns_from_header(header);
  if (!columns) throw Error(fmt::format("'{}': results.csv has no results header", first.dir.string()));
  std::map<int, RunRecord> rows;
  for (const auto& s : shards) {
    m.shards.push_back(fmt::format("{} ({}/{})", s.dir.string(), s.index, s.count));
    const std::string results = (s.dir / "results.csv").string();
    if (read_file(results).substr(0, header.size() + 1) != header + "\n")
      throw Error(fmt::format("'{}' has other columns than '{}' (another liesim or plugin version)", results, (first.dir / "results.csv").string()));
    for (auto& r : read_results(results, *columns)) {
      if (r.index < 0 || r.index >= static_cast<int>(items.size()) || items[static_cast<std::size_t>(r.index)].id != r.id)
        throw Error(fmt::format("'{}': row of run {} ('{}') is not in the study's plan", results, r.index, r.id));
      if (!rows.emplace(r.index, std::move(r)).second)
        throw Error(fmt::format("'{}': run {} is also in another shard", results, r.index));
    }
  }
  // Every run is there: a shard stopped early must be finished (resumed) first.
  for (const auto& item : items)
    if (!rows.count(item.index)) {
      const int owner = shard_of(item, first.count);
      throw Error(fmt::format("run {} ('{}') is in no shard: shard {}/{} did not finish; finish it with `liesim study {} --shard "
                              "{}/{} --resume --out DIR`, then merge again",
                              item.index, item.id, owner, first.count, m.study.file, owner, first.count));
    }

  // The output folder: new, or an earlier study or merge.
  m.result.lock = claim_output_folder(out).lock;
  for (const char* sub : {"series", "steps", "plots", "reference"}) fs::remove_all(out / sub);
  for (const char* sub : {"series", "steps", "reference"}) fs::create_directories(out / sub);
  std::ofstream(out / "study.toml", std::ios::binary) << text;
  for (const auto& s : shards) {
    for (const char* sub : {"series", "steps", "reference"}) {
      if (!fs::exists(s.dir / sub)) continue;
      for (const auto& e : fs::directory_iterator(s.dir / sub)) fs::copy_file(e.path(), out / sub / e.path().filename(), fs::copy_options::overwrite_existing);
    }
    if (fs::exists(s.dir / "reference"))
      for (const auto& e : fs::directory_iterator(s.dir / "reference")) {
        if (e.path().extension() != ".json") continue;  // the references' series (.csv) are copied above
        try {
          const auto j = nlohmann::json::parse(read_file(e.path()));
          Reference& ref = m.result.references[j.at("case").get<std::string>()] = reference_from_json(j);
          ref.settings = j.at("settings").get<std::string>();
        } catch (const std::exception& x) {
          throw Error(fmt::format("'{}': unreadable reference ({})", e.path().string(), x.what()));
        }
      }
  }
  std::ofstream table(out / "results.csv", std::ios::binary | std::ios::trunc);
  table << csv_header(*columns);
  for (auto& [index, r] : rows) {
    table << csv_row(r, *columns);
    m.result.records.push_back(std::move(r));
  }
  m.result.orders = observed_orders(m.result.records, m.result.references, m.study.error);
  return m;
}

}  // namespace liesim::study
