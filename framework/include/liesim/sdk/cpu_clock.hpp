// The CPU time of the calling thread: what a run costs the machine, whatever else runs on it.
#pragma once
#include <time.h>

namespace liesim {

/// Seconds of CPU time (user + system) the calling thread has used so far
/// (clock_gettime(CLOCK_THREAD_CPUTIME_ID)). A run's cost is the difference of two readings taken
/// on the thread that runs it: unlike wall time it does not grow when other processes share the
/// cores, and unlike the process's CPU time it counts only this run when runs share a process on
/// several threads. 0 if the clock cannot be read (never on Linux).
inline double thread_cpu_seconds() noexcept {
  timespec ts{};
  if (::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0) return 0.0;
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

}  // namespace liesim
