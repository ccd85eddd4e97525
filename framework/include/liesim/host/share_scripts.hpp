// The Python scripts liesim ships (share/liesim beside the executable, as installed): plots,
// strobe figures; started as programs with an argument vector, never through a shell.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include <sys/types.h>

namespace liesim {

/// share/liesim beside the executable (PREFIX/bin/liesim -> PREFIX/share/liesim).
std::filesystem::path share_folder();
/// The first Python with matplotlib: python3 on PATH, else Debian's /usr/bin/python3; "" if none.
std::string python_with_matplotlib();
/// Start a program found on PATH with these arguments, stdout and stderr to `log` and this
/// process's stderr as its file descriptor 3 (progress lines); its pid, or -1.
pid_t start_program(const std::vector<std::string>& args, const std::string& log);
/// The exit code of a started program (-1 if it did not start or did not exit normally).
int wait_program(pid_t pid);

}  // namespace liesim
