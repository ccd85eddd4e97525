// The MPI engine of `liesim study` (optional build component): under `mpirun -np K`, rank 0 is
// the coordinator (it validates, writes every output and hands out jobs one at a time as ranks
// become free); ranks 1 .. K-1 execute the jobs, each in a child process of its own, so that a
// crash, an exit() or a time limit fails that run only.
//
// The engine itself (mpi_engine.cpp) is the module liesim_mpi.so, the only binary linked with
// Open MPI; this library loads it (mpi_module.cpp) only when an MPI launcher started it, so that
// every other command starts without libmpi and its dependencies.
#pragma once
#include <liesim/study/engine.hpp>

#include <filesystem>
#include <memory>

namespace liesim::study {

/// Whether this process was started by an MPI launcher with more than one rank (Open MPI, MPICH
/// or Slurm's PMI environment); false in a build without MPI.
bool launched_by_mpi();
/// Where the MPI engine module is: lib/liesim/liesim_mpi.so beside the executable's folder (the
/// build tree mirrors the install tree).
std::filesystem::path mpi_module_path();
/// Load the module, initialise MPI (once) and return the engine of this rank; throws an Error
/// naming the module and the reason when the build has no MPI or the module cannot be loaded.
std::unique_ptr<Engine> make_mpi_engine();

}  // namespace liesim::study
