// Status codes returned across the plugin boundary, and the error type used inside a process.
#pragma once
#include <stdexcept>
#include <string>

namespace liesim {

/// Outcome of a stage-level call (the SUNDIALS/FMI three-way convention).
enum class Status : int {
  ok = 0,           ///< success
  recoverable = 1,  ///< the step should be retried with a smaller step size
  fatal = -1        ///< the run cannot continue
};

/// The C status of the plugin boundary as a Status (anything unknown is fatal).
constexpr Status to_status(int s) noexcept {
  return s == 0 ? Status::ok : s == 1 ? Status::recoverable : Status::fatal;
}
/// A Status as the C status of the plugin boundary (LIESIM_OK, LIESIM_RECOVERABLE, LIESIM_FATAL).
constexpr int to_c(Status s) noexcept { return static_cast<int>(s); }

/// Error raised by the kernel and the command line; the message names the problem and its fix.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A plugin that cannot be used as it is (it does not load, its tables are incomplete, an
/// instance states sizes the host cannot use), as opposed to a request it refuses: a study fails
/// the runs that need it instead of refusing the study file.
class PluginFault : public Error {
 public:
  using Error::Error;
};

}  // namespace liesim
