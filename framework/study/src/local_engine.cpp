// The local engine: every job in a child process of its own, at most --jobs at once.
#include <liesim/study/engine.hpp>
#include <liesim/study/study_runner.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <chrono>

namespace liesim::study {

bool LocalEngine::run(const std::vector<int>& tags, const RunOptions& opt, const Phase& phase) {
  ChildPool pool;
  std::size_t next = 0;
  auto stopping = [&] { return opt.stop_requested && opt.stop_requested(); };
  while (next < tags.size() || pool.running() > 0) {
    if (stopping()) {
      if (opt.on_stop) opt.on_stop(static_cast<int>(pool.running()));
      const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(opt.grace_s);
      while (pool.running() > 0 && std::chrono::steady_clock::now() < until)
        if (auto r = pool.wait(std::chrono::milliseconds(100))) phase.done(r->first, r->second);
      pool.kill_all();
      return false;
    }
    while (pool.running() < static_cast<std::size_t>(std::max(1, opt.jobs)) && next < tags.size()) {
      const int tag = tags[next++];
      pool.start(tag, [&phase, tag] { return phase.job(tag); }, phase.limit(tag));
    }
    if (auto r = pool.wait(std::chrono::milliseconds(200))) phase.done(r->first, r->second);
  }
  return true;
}

std::string LocalEngine::description(const RunOptions& opt) const { return fmt::format("local: {} job(s)", opt.jobs); }

}  // namespace liesim::study
