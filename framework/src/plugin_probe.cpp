// Loading a plugin in a child process: what it provides, or how it failed, without its code ever
// running in this process (a crash in a constructor or entry point is reported, not suffered).
#include <liesim/registry.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace liesim {

namespace {
nlohmann::json to_json(const PluginManifest& m) {
  return {{"liesim_manifest", 1},
          {"kind", m.kind == PluginKind::model ? "model" : "integrator"},
          {"name", m.name},
          {"version", m.version},
          {"summary", m.summary},
          {"abi", {m.abi_major, m.abi_minor}},
          {"methods", m.methods},
          {"library_size", m.library_size}};
}

PluginManifest manifest_of(const LoadedPlugin& p) {
  PluginManifest m;
  m.kind = p.kind;
  m.name = p.name;
  m.version = p.version;
  m.summary = p.summary;
  m.abi_major = LIESIM_ABI_MAJOR;
  m.abi_minor = p.abi_minor;
  if (p.integrator)
    for (const auto& x : p.integrator->methods()) m.methods.push_back(x.name);
  return m;
}

[[noreturn]] void child(const fs::path& file, int out) {
  // The plugin may print: keep this process's stdout clean.
  const int null = ::open("/dev/null", O_WRONLY);
  if (null >= 0) ::dup2(null, STDOUT_FILENO);
  nlohmann::json j;
  try {
    const LoadedPlugin p = load_plugin(file);
    j = {{"ok", true}, {"manifest", to_json(manifest_of(p))}};
    j["metadata"] = p.metadata;
  } catch (const std::exception& e) {
    j = {{"ok", false}, {"error", e.what()}};
  } catch (...) {
    j = {{"ok", false}, {"error", "unknown C++ exception while loading"}};
  }
  const std::string text = j.dump();
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t w = ::write(out, text.data() + done, text.size() - done);
    if (w <= 0) break;
    done += static_cast<std::size_t>(w);
  }
  ::_exit(0);
}

std::string signal_text(int sig) {
  const char* abbrev = sigabbrev_np(sig);
  const char* desc = strsignal(sig);
  return fmt::format("SIG{} ({})", abbrev ? abbrev : std::to_string(sig).c_str(), desc ? desc : "unknown signal");
}
}  // namespace

PluginManifest manifest_from_json(const nlohmann::json& j);

ProbeResult probe_plugin(const fs::path& file, double timeout_seconds) {
  ProbeResult r;
  int fds[2];
  if (::pipe(fds) != 0) {
    r.failure = fmt::format("could not probe it (pipe: {})", std::strerror(errno));
    return r;
  }
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    r.failure = fmt::format("could not probe it (fork: {})", std::strerror(errno));
    return r;
  }
  if (pid == 0) {
    ::close(fds[0]);
    child(file, fds[1]);
  }
  ::close(fds[1]);
  std::string text;
  bool timed_out = false;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_seconds);
  while (true) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
    if (left <= 0) {
      timed_out = true;
      break;
    }
    pollfd p{fds[0], POLLIN, 0};
    const int ready = ::poll(&p, 1, static_cast<int>(left));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) {
      timed_out = ready == 0;
      break;
    }
    char buf[4096];
    const ssize_t n = ::read(fds[0], buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    text.append(buf, static_cast<std::size_t>(n));
  }
  ::close(fds[0]);
  if (timed_out) ::kill(pid, SIGKILL);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (timed_out) {
    r.failure = fmt::format("did not finish loading within {:g} s (killed)", timeout_seconds);
    return r;
  }
  if (WIFSIGNALED(status)) {
    r.failure = fmt::format("crashed with {} while loading (in a static constructor or its entry point)", signal_text(WTERMSIG(status)));
    return r;
  }
  if (text.empty()) {
    r.failure = WIFEXITED(status) ? fmt::format("ended the process with exit status {} while loading", WEXITSTATUS(status))
                                  : "ended the process while loading";
    return r;
  }
  try {
    const auto j = nlohmann::json::parse(text);
    if (!j.value("ok", false)) {
      r.failure = j.value("error", std::string("failed to load"));
      return r;
    }
    r.manifest = manifest_from_json(j.at("manifest"));
    std::error_code ec;
    r.manifest->library_size = fs::file_size(file, ec);
    r.metadata = j.value("metadata", std::string());
  } catch (const std::exception& e) {
    r.failure = fmt::format("its probe gave an unreadable answer ({})", e.what());
  }
  return r;
}

std::string manifest_json(const PluginManifest& m) { return to_json(m).dump(2) + "\n"; }

fs::path manifest_path(const fs::path& plugin) {
  fs::path p = plugin;
  p.replace_extension(".json");
  return p;
}

}  // namespace liesim
