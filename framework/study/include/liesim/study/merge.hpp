// Joining the output folders of a study's shards (`liesim study FILE --shard I/N`) into one.
#pragma once
#include <liesim/study/study_runner.hpp>

#include <string>
#include <vector>

namespace liesim::study {

/// What a merge produced: the study (as the shards ran it) and its joined result.
struct Merged {
  StudySpec study;
  StudyResult result;
  std::vector<std::string> shards;  ///< "DIR (I/N)" per input, in shard order
};

/// Check that `dirs` are every shard 1..N of one study, made by the same liesim and plugin
/// versions, each complete; then write OUT/results.csv (plan order), the references, series and
/// step logs into `out`. Throws liesim::Error naming the folder and what is wrong (another
/// study, another version, a shard missing or given twice, runs missing: resume that shard).
Merged merge_shards(const std::vector<std::string>& dirs, const std::string& out);

}  // namespace liesim::study
