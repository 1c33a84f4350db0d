// MPI for `mpirun -np N memlab run`: one rank per GPU (local rank -> device), rank 0 gathers
// every rank's run JSON (report/fleet.hpp merges them). Built with MPI when CMake finds it
// (option MEMLAB_MPI: AUTO, ON, OFF); without it `available()` is false and every call below
// except `launched_by_mpirun` throws. Host-only.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace memlab::mpi {

// This binary was built with MPI.
bool available();
// The environment says a launcher started us (OMPI_COMM_WORLD_SIZE, PMI_SIZE or PMIX_RANK).
bool launched_by_mpirun();

struct Session {
  int rank = 0, size = 1;
  int local_rank = 0, local_size = 1;  // among the ranks of this host (MPI_COMM_TYPE_SHARED)
  std::string host;                    // MPI_Get_processor_name
};

// MPI_Init (once) and this rank's place. finalize() at the end (idempotent).
Session init();
void finalize();

// Every rank's string, in rank order, on `root` (empty vector elsewhere). Collective.
std::vector<std::string> gather_strings(const std::string& mine, int root = 0);
void broadcast(void* data, std::size_t bytes, int root);
void barrier();
// The largest `value` of all ranks, on every rank (exit codes).
int allreduce_max(int value);

}  // namespace memlab::mpi
