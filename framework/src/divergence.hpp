// A run that blows up: its state's norm passes diverged_factor * max(1, |y0|) at an accepted step.
// The driver ends it with a RunFailure whose message starts with diverged_prefix and names the
// time; a study records it with the status "diverged" (the stability maps draw it as unstable).
#pragma once
#include <string>

namespace liesim {

inline constexpr double diverged_factor = 1e6;
inline constexpr const char* diverged_prefix = "diverged at t = ";

/// Whether a run's failure message says it diverged.
inline bool diverged(const std::string& message) { return message.rfind(diverged_prefix, 0) == 0; }

}  // namespace liesim
