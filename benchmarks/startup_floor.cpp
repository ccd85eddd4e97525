// The least a one-step `liesim run` can cost with its plugin code in a child process, for
// benchmarks/startup.sh: fork, load the given plugin libraries in the child (their C++ run time
// with them) and leave, wait for the child. No manifests, no metadata, no integration: what is
// above /bin/true here is the price of the isolation and of the plugins' libraries on this machine.
//   bench_startup_floor PLUGIN.so...
#include <dlfcn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>

int main(int argc, char** argv) {
  const pid_t pid = ::fork();
  if (pid < 0) return 2;
  if (pid == 0) {
    for (int i = 1; i < argc; ++i)
      if (::dlopen(argv[i], RTLD_LAZY | RTLD_LOCAL) == nullptr) {
        std::fprintf(stderr, "bench_startup_floor: %s\n", ::dlerror());
        ::_exit(1);
      }
    ::_exit(0);
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
