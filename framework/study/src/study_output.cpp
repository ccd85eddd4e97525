// Stage 2 of a study (the coordinator's): the output folder, and results.csv with what an earlier
// execution left when resuming. A worker rank writes only its runs' series and step files there.
#include "execution.hpp"

#include <liesim/host/output.hpp>
#include <liesim/study/output_folder.hpp>

#include <fmt/format.h>

#include <fstream>
#include <iterator>

namespace fs = std::filesystem;

namespace liesim::study {

namespace {

/// --resume: the rows of results.csv that belong to this study's plan and shard (failed ones
/// too, unless --retry-failed), into ex.result.records and ex.done. Refuses a changed study file.
void keep_earlier_rows(Execution& ex, const fs::path& results_path) {
  const fs::path study_copy = ex.out / "study.toml";
  if (fs::exists(study_copy)) {
    std::ifstream in(study_copy);
    const std::string old((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (old != ex.study.text)
      throw Error(fmt::format("--resume: the study file changed since {} was written; run without --resume to start again",
                              results_path.string()));
  }
  const auto& items = ex.plan.items;
  for (auto& r : read_results(results_path.string(), ex.plan.columns))
    if (r.index < static_cast<int>(items.size()) && items[r.index].id == r.id && ex.plan.mine(items[r.index]) &&
        !(ex.opt.retry_failed && r.status != "ok") && ex.done.insert(r.id).second)
      ex.result.records.push_back(std::move(r));
  ex.result.skipped = static_cast<int>(ex.result.records.size());
  std::error_code ec;
  if (ex.result.skipped == 0 && fs::exists(results_path) && fs::file_size(results_path, ec) > 0)
    std::fprintf(stderr, "liesim: --resume: %s has other columns or no complete rows (the study, a plugin or liesim's "
                         "results format changed); running every run\n",
                 results_path.string().c_str());
}

}  // namespace

std::unique_ptr<std::FILE, int (*)(std::FILE*)> open_results(Execution& ex) {
  const fs::path& out = ex.out;
  const OutputFolder folder = claim_output_folder(out);
  if (ex.opt.resume && !folder.earlier)
    std::fprintf(stderr, "liesim: --resume: no earlier results in '%s'; running every run\n", out.string().c_str());
  ex.result.lock = folder.lock;
  if (!ex.opt.resume && folder.earlier)
    for (const char* sub : {"series", "steps", "plots"}) fs::remove_all(out / sub);  // from an earlier execution
  for (const char* sub : {"reference", "series", "steps"}) fs::create_directories(out / sub);
  const fs::path results_path = out / "results.csv";
  if (ex.opt.resume) keep_earlier_rows(ex, results_path);
  {
    std::ofstream copy(out / "study.toml");
    copy << ex.study.text;
  }
  // Rewrite the results file with the kept rows only (drops a row cut by an interruption).
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> results(open_for_writing(results_path.string(), "results CSV"), &std::fclose);
  const std::string header = csv_header(ex.plan.columns);
  std::fwrite(header.data(), 1, header.size(), results.get());
  for (const auto& r : ex.result.records) {
    const std::string row = csv_row(r, ex.plan.columns);
    std::fwrite(row.data(), 1, row.size(), results.get());
  }
  std::fflush(results.get());
  return results;
}

}  // namespace liesim::study
