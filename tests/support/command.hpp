// Test support: run a shell command and capture its exit code and output.
#pragma once
#include <cstdio>
#include <stdexcept>
#include <string>
#include <sys/wait.h>

namespace liesim::test {

/// Exit code and the command's stdout and stderr together.
struct Result {
  int code;
  std::string out;
};

/// Run `cmd` with /bin/sh, capturing stdout and stderr.
inline Result sh(const std::string& cmd) {
  std::FILE* p = popen((cmd + " 2>&1").c_str(), "r");
  if (!p) throw std::runtime_error("popen failed for: " + cmd);
  std::string out;
  char buf[4096];
  while (std::size_t n = std::fread(buf, 1, sizeof buf, p)) out.append(buf, n);
  const int status = pclose(p);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

}  // namespace liesim::test
