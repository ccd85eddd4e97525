// Claiming a study's output folder: ownership check, creation, lock.
#include <liesim/sdk/status.hpp>
#include <liesim/study/output_folder.hpp>

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <sys/file.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace liesim::study {

namespace {

/// Holds an exclusive lock on OUT/.lock while it lives: one study per output folder at a time.
class FolderLock {
 public:
  explicit FolderLock(const fs::path& folder) {
    const fs::path file = folder / ".lock";
    fd_ = ::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0) throw Error(fmt::format("cannot create the lock file '{}': {}", file.string(), std::strerror(errno)));
    if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
      char pid[32] = {};
      const ssize_t n = ::pread(fd_, pid, sizeof pid - 1, 0);
      ::close(fd_);
      throw Error(fmt::format("output folder '{}' is in use by another liesim study{}; wait for it to end or choose another "
                              "folder with --out",
                              folder.string(), n > 0 ? fmt::format(" (process {})", std::string(pid, static_cast<std::size_t>(n))) : ""));
    }
    const std::string me = std::to_string(::getpid());
    if (::ftruncate(fd_, 0) == 0 && ::pwrite(fd_, me.data(), me.size(), 0) < 0) {
    }  // the pid only improves the message above
  }
  FolderLock(const FolderLock&) = delete;
  FolderLock& operator=(const FolderLock&) = delete;
  ~FolderLock() { ::close(fd_); }

 private:
  int fd_ = -1;
};

}  // namespace

OutputFolder claim_output_folder(const fs::path& out) {
  OutputFolder f;
  f.earlier = fs::exists(out / "study.toml");
  std::error_code ec;
  if (fs::exists(out) && !fs::is_empty(out, ec) && !f.earlier)
    throw Error(fmt::format("output folder '{}' exists and was not written by liesim study (no study.toml in it); "
                            "choose another folder with --out", out.string()));
  fs::create_directories(out);
  f.lock = std::make_shared<FolderLock>(out);
  return f;
}

}  // namespace liesim::study
