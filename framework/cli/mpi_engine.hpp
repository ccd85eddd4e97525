// The MPI engine of `liesim study` (optional build component): under `mpirun -np K`, rank 0 is
// the coordinator (it validates, writes every output and hands out jobs one at a time as ranks
// become free); ranks 1 .. K-1 execute the jobs, each in a child process of its own, so that a
// crash, an exit() or a time limit fails that run only.
#pragma once
#include <liesim/study/engine.hpp>

#include <memory>

namespace liesim::cli {

/// Whether this process was started by an MPI launcher with more than one rank (Open MPI, MPICH
/// or Slurm's PMI environment); false in a build without MPI.
bool launched_by_mpi();
/// Initialise MPI (once) and return the engine of this rank; nullptr in a build without MPI.
std::unique_ptr<study::Engine> make_mpi_engine();
/// Whether this build has the MPI engine.
bool mpi_available();

}  // namespace liesim::cli
