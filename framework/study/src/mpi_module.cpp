// Loading the MPI engine module (liesim_mpi.so) under an MPI launcher only.
#include <liesim/study/mpi_engine.hpp>

#include <liesim/sdk/status.hpp>

#include <boost/dll/runtime_symbol_info.hpp>
#include <fmt/format.h>

#include <dlfcn.h>

#include <cstdlib>

namespace liesim::study {

bool launched_by_mpi() {
#ifdef LIESIM_HAVE_MPI
  for (const char* size : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE", "MPI_LOCALNRANKS"})
    if (const char* v = std::getenv(size)) return std::atoi(v) > 1;
#endif
  return false;
}

std::filesystem::path mpi_module_path() {
  std::error_code ec;
  const std::filesystem::path exe = boost::dll::program_location(ec);
  if (ec) throw Error(fmt::format("study: cannot find the liesim executable's folder to load the MPI engine: {}", ec.message()));
  return exe.parent_path().parent_path() / "lib" / "liesim" / "liesim_mpi.so";
}

std::unique_ptr<Engine> make_mpi_engine() {
#ifndef LIESIM_HAVE_MPI
  throw Error("study: started by an MPI launcher, but this liesim was built without MPI: install libopenmpi-dev and "
              "rebuild (configure says 'MPI study engine: yes'), or run without mpirun (--jobs N)");
#else
  const std::filesystem::path module = mpi_module_path();
  // RTLD_GLOBAL: Open MPI's own components, which it opens later, resolve libmpi's symbols
  // through the global scope. The module stays loaded until the process ends (MPI_Finalize runs
  // in the engine's destructor).
  void* handle = ::dlopen(module.c_str(), RTLD_NOW | RTLD_GLOBAL);
  if (!handle) {
    const char* why = ::dlerror();
    throw Error(fmt::format("study: started by an MPI launcher, but the MPI engine {} cannot be loaded: {} (build the target "
                            "liesim_mpi, or reinstall liesim; without mpirun, --jobs N runs the study on this machine)",
                            module.string(), why ? why : "unknown reason"));
  }
  using Make = Engine* (*)();
  const auto make = reinterpret_cast<Make>(::dlsym(handle, "liesim_make_mpi_engine"));
  if (!make)
    throw Error(fmt::format("study: {} is not liesim's MPI engine (no liesim_make_mpi_engine): rebuild the target liesim_mpi",
                            module.string()));
  return std::unique_ptr<Engine>(make());
#endif
}

}  // namespace liesim::study
