// MPI behind memlab/cli/mpi.hpp, opened at run time: the binary links no MPI library, so it
// starts where OpenMPI is not installed; `mpirun -np N memlab run` opens libmpi with dlopen
// (MEMLAB_MPI_LIBRARY, else libmpi.so.40 (OpenMPI), libmpi.so.12 (MPICH), libmpi.so, else the
// library CMake found). Compiled against the MPI implementation CMake found: its mpi.h gives the
// types and constants; the calls and (OpenMPI) the predefined handles come from dlsym, so no
// symbol of libmpi is referenced at link time.
#include <dlfcn.h>
#include <mpi.h>

#include <cstdlib>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "memlab/cli/mpi.hpp"
#include "memlab/common/error.hpp"

namespace memlab::mpi {
namespace {

struct Api {
  decltype(&MPI_Initialized) initialized = nullptr;
  decltype(&MPI_Init) init = nullptr;
  decltype(&MPI_Finalized) finalized = nullptr;
  decltype(&MPI_Finalize) finalize = nullptr;
  decltype(&MPI_Comm_rank) comm_rank = nullptr;
  decltype(&MPI_Comm_size) comm_size = nullptr;
  decltype(&MPI_Comm_split_type) comm_split_type = nullptr;
  decltype(&MPI_Comm_free) comm_free = nullptr;
  decltype(&MPI_Get_processor_name) get_processor_name = nullptr;
  decltype(&MPI_Gather) gather = nullptr;
  decltype(&MPI_Gatherv) gatherv = nullptr;
  decltype(&MPI_Bcast) bcast = nullptr;
  decltype(&MPI_Barrier) barrier = nullptr;
  decltype(&MPI_Allreduce) allreduce = nullptr;
  MPI_Comm world{};
  MPI_Datatype int_type{}, char_type{}, byte_type{};
  MPI_Op max_op{};
  MPI_Info info_null{};
};

std::vector<std::string> library_candidates() {
  if (const char* env = std::getenv("MEMLAB_MPI_LIBRARY"); env != nullptr && *env != '\0') {
    return {env};
  }
  std::vector<std::string> out = {"libmpi.so.40", "libmpi.so.12", "libmpi.so"};
#ifdef MEMLAB_MPI_BUILD_LIBRARY
  out.emplace_back(MEMLAB_MPI_BUILD_LIBRARY);
#endif
  return out;
}

template <class F>
void resolve(void* handle, F& fn, const char* name, std::string& missing) {
  fn = reinterpret_cast<F>(dlsym(handle, name));
  if (fn == nullptr && missing.empty()) missing = name;
}

// A predefined handle: OpenMPI's are the addresses of global objects in libmpi; MPICH's are
// integer constants of its mpi.h.
template <class H>
void handle_of(void* lib, H& out, const char* symbol, H constant, std::string& missing) {
#ifdef OPEN_MPI
  (void)constant;
  void* p = dlsym(lib, symbol);
  if (p == nullptr && missing.empty()) missing = symbol;
  out = reinterpret_cast<H>(p);
#else
  (void)lib;
  (void)symbol;
  (void)missing;
  out = constant;
#endif
}

// OpenMPI's macros name the globals (an undefined reference without libmpi at link time): only
// MPICH-style integer handles are taken from the header.
#ifdef OPEN_MPI
#define MEMLAB_MPI_CONSTANT(type, name) \
  type {}
#else
#define MEMLAB_MPI_CONSTANT(type, name) name
#endif

Api open_api() {
  std::string tried;
  void* lib = nullptr;
  for (const std::string& c : library_candidates()) {
    // RTLD_GLOBAL: OpenMPI's own components (opened by libopen-pal) need libmpi's symbols.
    lib = dlopen(c.c_str(), RTLD_NOW | RTLD_GLOBAL);
    if (lib != nullptr) break;
    const char* why = dlerror();
    tried += (tried.empty() ? "" : "; ") + c + ": " + (why != nullptr ? why : "not found");
  }
  if (lib == nullptr) {
    throw UsageError("mpirun: cannot open the MPI library (" + tried +
                     "); install OpenMPI or set MEMLAB_MPI_LIBRARY to libmpi.so");
  }
  Api a;
  std::string missing;
  resolve(lib, a.initialized, "MPI_Initialized", missing);
  resolve(lib, a.init, "MPI_Init", missing);
  resolve(lib, a.finalized, "MPI_Finalized", missing);
  resolve(lib, a.finalize, "MPI_Finalize", missing);
  resolve(lib, a.comm_rank, "MPI_Comm_rank", missing);
  resolve(lib, a.comm_size, "MPI_Comm_size", missing);
  resolve(lib, a.comm_split_type, "MPI_Comm_split_type", missing);
  resolve(lib, a.comm_free, "MPI_Comm_free", missing);
  resolve(lib, a.get_processor_name, "MPI_Get_processor_name", missing);
  resolve(lib, a.gather, "MPI_Gather", missing);
  resolve(lib, a.gatherv, "MPI_Gatherv", missing);
  resolve(lib, a.bcast, "MPI_Bcast", missing);
  resolve(lib, a.barrier, "MPI_Barrier", missing);
  resolve(lib, a.allreduce, "MPI_Allreduce", missing);
  handle_of(lib, a.world, "ompi_mpi_comm_world", MEMLAB_MPI_CONSTANT(MPI_Comm, MPI_COMM_WORLD),
            missing);
  handle_of(lib, a.int_type, "ompi_mpi_int", MEMLAB_MPI_CONSTANT(MPI_Datatype, MPI_INT), missing);
  handle_of(lib, a.char_type, "ompi_mpi_char", MEMLAB_MPI_CONSTANT(MPI_Datatype, MPI_CHAR),
            missing);
  handle_of(lib, a.byte_type, "ompi_mpi_byte", MEMLAB_MPI_CONSTANT(MPI_Datatype, MPI_BYTE),
            missing);
  handle_of(lib, a.max_op, "ompi_mpi_op_max", MEMLAB_MPI_CONSTANT(MPI_Op, MPI_MAX), missing);
  handle_of(lib, a.info_null, "ompi_mpi_info_null", MEMLAB_MPI_CONSTANT(MPI_Info, MPI_INFO_NULL),
            missing);
  if (!missing.empty()) {
    throw UsageError("mpirun: the MPI library lacks " + missing +
                     " (memlab was built against another MPI implementation)");
  }
  return a;
}

const Api& api() {
  static std::once_flag once;
  static Api a;
  static std::string error;
  std::call_once(once, [] {
    try {
      a = open_api();
    } catch (const UsageError& e) {
      error = e.what();
    }
  });
  if (!error.empty()) throw UsageError(error);
  return a;
}

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
  const Api& m = api();
  int initialized = 0;
  check(m.initialized(&initialized), "MPI_Initialized");
  if (!initialized) {
    check(m.init(nullptr, nullptr), "MPI_Init");
    g_initialized_here = true;
  }
  Session s;
  check(m.comm_rank(m.world, &s.rank), "MPI_Comm_rank");
  check(m.comm_size(m.world, &s.size), "MPI_Comm_size");
  MPI_Comm local{};
  check(m.comm_split_type(m.world, MPI_COMM_TYPE_SHARED, s.rank, m.info_null, &local),
        "MPI_Comm_split_type");
  check(m.comm_rank(local, &s.local_rank), "MPI_Comm_rank(local)");
  check(m.comm_size(local, &s.local_size), "MPI_Comm_size(local)");
  m.comm_free(&local);
  char name[MPI_MAX_PROCESSOR_NAME];
  int len = 0;
  check(m.get_processor_name(name, &len), "MPI_Get_processor_name");
  s.host.assign(name, static_cast<std::size_t>(len));
  return s;
}

void finalize() {
  if (!g_initialized_here) return;
  const Api& m = api();
  int finalized = 0;
  m.finalized(&finalized);
  if (!finalized) m.finalize();
}

std::vector<std::string> gather_strings(const std::string& mine, int root) {
  const Api& m = api();
  int rank = 0, size = 1;
  check(m.comm_rank(m.world, &rank), "MPI_Comm_rank");
  check(m.comm_size(m.world, &size), "MPI_Comm_size");
  if (mine.size() > 1u << 30) throw std::runtime_error("gather_strings: 1 GiB per rank at most");
  int len = static_cast<int>(mine.size());
  std::vector<int> lens(static_cast<std::size_t>(size)), offsets(static_cast<std::size_t>(size));
  check(m.gather(&len, 1, m.int_type, lens.data(), 1, m.int_type, root, m.world), "MPI_Gather");
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
  check(m.gatherv(mine.data(), len, m.char_type, all.data(), lens.data(), offsets.data(),
                  m.char_type, root, m.world),
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
  const Api& m = api();
  check(m.bcast(data, static_cast<int>(bytes), m.byte_type, root, m.world), "MPI_Bcast");
}

void barrier() {
  const Api& m = api();
  check(m.barrier(m.world), "MPI_Barrier");
}

int allreduce_max(int value) {
  const Api& m = api();
  int out = value;
  check(m.allreduce(&value, &out, 1, m.int_type, m.max_op, m.world), "MPI_Allreduce");
  return out;
}

}  // namespace memlab::mpi
