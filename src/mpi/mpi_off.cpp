// memlab built without MPI (CMake found none, or MEMLAB_MPI=OFF): `mpirun ... memlab run` is
// refused with a clear message; everything else runs.
#include <cstdlib>
#include <stdexcept>

#include "memlab/cli/mpi.hpp"

namespace memlab::mpi {
namespace {
[[noreturn]] void off() {
  throw std::logic_error("memlab was built without MPI (MEMLAB_MPI=OFF or no MPI found)");
}
}  // namespace

bool available() {
  return false;
}
bool launched_by_mpirun() {
  return std::getenv("OMPI_COMM_WORLD_SIZE") != nullptr || std::getenv("PMI_SIZE") != nullptr ||
         std::getenv("PMIX_RANK") != nullptr;
}
Session init() {
  off();
}
void finalize() {}
std::vector<std::string> gather_strings(const std::string&, int) {
  off();
}
void broadcast(void*, std::size_t, int) {
  off();
}
void barrier() {
  off();
}
int allreduce_max(int) {
  off();
}

}  // namespace memlab::mpi
