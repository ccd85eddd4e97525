// The shipped scripts' folder, the Python that runs them, and starting them as programs.
#include <liesim/host/share_scripts.hpp>

#include <boost/dll/runtime_symbol_info.hpp>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

namespace liesim {

std::filesystem::path share_folder() {
  std::error_code ec;
  const std::filesystem::path exe = boost::dll::program_location(ec);
  return exe.parent_path().parent_path() / "share" / "liesim";
}

pid_t start_program(const std::vector<std::string>& args, const std::string& log) {
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, STDERR_FILENO, 3);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  pid_t pid = 0;
  const int rc = posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  return rc == 0 ? pid : -1;
}

int wait_program(pid_t pid) {
  int status = 0;
  if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status)) return -1;
  return WEXITSTATUS(status);
}

std::string python_with_matplotlib() {
  for (const char* candidate : {"python3", "/usr/bin/python3"})
    if (wait_program(start_program({candidate, "-I", "-c", "import matplotlib"}, "/dev/null")) == 0) return candidate;
  return {};
}

}  // namespace liesim
