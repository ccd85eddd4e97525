// A study's output folder: only one liesim study wrote (it holds study.toml), or a new or empty
// one, is used; while it is claimed, OUT/.lock (flock) keeps a second study out of it.
#pragma once
#include <filesystem>
#include <memory>

namespace liesim::study {

struct OutputFolder {
  bool earlier = false;        ///< it holds an earlier execution's study.toml
  std::shared_ptr<void> lock;  ///< the lock, held as long as a copy of this lives
};

/// Check, create and lock `out`; throws liesim::Error naming the folder when it is another
/// program's (not empty, no study.toml) or in use by another study.
OutputFolder claim_output_folder(const std::filesystem::path& out);

}  // namespace liesim::study
