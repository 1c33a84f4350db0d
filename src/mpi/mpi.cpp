// OpenMPI (or any MPI-3 library) behind memlab/cli/mpi.hpp.
#include <mpi.h>

#include <cstdlib>
#include <stdexcept>

#include "memlab/cli/mpi.hpp"

namespace memlab::mpi {
namespace {
bool g_initialized_here = false;

void check(int rc, const char* call) {
  if (rc != MPI_SUCCESS) throw std::runtime_error(std::string("MPI error in ") + call);
}
}  // namespace

bool available() {
  return true;
}

bool launched_by_mpirun() {
  return std::getenv("OMPI_COMM_WORLD_SIZE") != nullptr || std::getenv("PMI_SIZE") != nullptr ||
         std::getenv("PMIX_RANK") != nullptr;
}

Session init() {
  int initialized = 0;
  check(MPI_Initialized(&initialized), "MPI_Initialized");
  if (!initialized) {
    check(MPI_Init(nullptr, nullptr), "MPI_Init");
    g_initialized_here = true;
  }
  Session s;
  check(MPI_Comm_rank(MPI_COMM_WORLD, &s.rank), "MPI_Comm_rank");
  check(MPI_Comm_size(MPI_COMM_WORLD, &s.size), "MPI_Comm_size");
  MPI_Comm local;
  check(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, s.rank, MPI_INFO_NULL, &local),
        "MPI_Comm_split_type");
  check(MPI_Comm_rank(local, &s.local_rank), "MPI_Comm_rank(local)");
  check(MPI_Comm_size(local, &s.local_size), "MPI_Comm_size(local)");
  MPI_Comm_free(&local);
  char name[MPI_MAX_PROCESSOR_NAME];
  int len = 0;
  check(MPI_Get_processor_name(name, &len), "MPI_Get_processor_name");
  s.host.assign(name, static_cast<std::size_t>(len));
  return s;
}

void finalize() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (g_initialized_here && !finalized) MPI_Finalize();
}

std::vector<std::string> gather_strings(const std::string& mine, int root) {
  int rank = 0, size = 1;
  check(MPI_Comm_rank(MPI_COMM_WORLD, &rank), "MPI_Comm_rank");
  check(MPI_Comm_size(MPI_COMM_WORLD, &size), "MPI_Comm_size");
  if (mine.size() > 1u << 30) throw std::runtime_error("gather_strings: 1 GiB per rank at most");
  int len = static_cast<int>(mine.size());
  std::vector<int> lens(static_cast<std::size_t>(size)), offsets(static_cast<std::size_t>(size));
  check(MPI_Gather(&len, 1, MPI_INT, lens.data(), 1, MPI_INT, root, MPI_COMM_WORLD), "MPI_Gather");
  std::string all;
  if (rank == root) {
    long long total = 0;
    for (int i = 0; i < size; ++i) {
      offsets[static_cast<std::size_t>(i)] = static_cast<int>(total);
      total += lens[static_cast<std::size_t>(i)];
    }
    if (total > (1LL << 31) - 1) throw std::runtime_error("gather_strings: 2 GiB in all at most");
    all.resize(static_cast<std::size_t>(total));
  }
  check(MPI_Gatherv(mine.data(), len, MPI_CHAR, all.data(), lens.data(), offsets.data(), MPI_CHAR,
                    root, MPI_COMM_WORLD),
        "MPI_Gatherv");
  std::vector<std::string> out;
  if (rank == root) {
    for (int i = 0; i < size; ++i) {
      out.push_back(all.substr(static_cast<std::size_t>(offsets[static_cast<std::size_t>(i)]),
                               static_cast<std::size_t>(lens[static_cast<std::size_t>(i)])));
    }
  }
  return out;
}

void broadcast(void* data, std::size_t bytes, int root) {
  check(MPI_Bcast(data, static_cast<int>(bytes), MPI_BYTE, root, MPI_COMM_WORLD), "MPI_Bcast");
}

void barrier() {
  check(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
}

int allreduce_max(int value) {
  int out = value;
  check(MPI_Allreduce(&value, &out, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD), "MPI_Allreduce");
  return out;
}

}  // namespace memlab::mpi
