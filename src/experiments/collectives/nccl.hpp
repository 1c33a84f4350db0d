// NCCL, loaded at run time (dlopen): the binary runs without it, and on many machines it lives
// only inside a Python wheel (nvidia-nccl-cu12/-cu13: site-packages/nvidia/nccl/lib). memlab
// declares the few types and functions it calls (from NCCL's documented C API) instead of
// including nccl.h. Before NCCL is first used, NCCL_NVLS_ENABLE=0 is set (overwriting any value):
// NVLink SHARP multicast (NVLS) stays off on shared machines; memlab never calls
// cuMulticastCreate itself. Host code (no CUDA kernels); the search list is host-tested.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>
#include <vector>

namespace memlab::lessons::collectives {

// NCCL's ABI as documented (nccl.h, NCCL 2.x).
struct NcclCommOpaque;
using ncclComm_t = NcclCommOpaque*;
struct ncclUniqueId {
  char internal[128];  // NCCL_UNIQUE_ID_BYTES
};
using ncclResult_t = int;    // ncclSuccess = 0
using ncclDataType_t = int;  // ncclFloat32 = 7
using ncclRedOp_t = int;     // ncclSum = 0
inline constexpr ncclDataType_t kNcclFloat32 = 7;
inline constexpr ncclRedOp_t kNcclSum = 0;

struct NcclApi {
  ncclResult_t (*get_version)(int*) = nullptr;
  ncclResult_t (*get_unique_id)(ncclUniqueId*) = nullptr;
  ncclResult_t (*comm_init_rank)(ncclComm_t*, int, ncclUniqueId, int) = nullptr;
  ncclResult_t (*comm_init_all)(ncclComm_t*, int, const int*) = nullptr;
  ncclResult_t (*comm_destroy)(ncclComm_t) = nullptr;
  const char* (*error_string)(ncclResult_t) = nullptr;
  ncclResult_t (*all_reduce)(const void*, void*, std::size_t, ncclDataType_t, ncclRedOp_t,
                             ncclComm_t, cudaStream_t) = nullptr;
  ncclResult_t (*all_gather)(const void*, void*, std::size_t, ncclDataType_t, ncclComm_t,
                             cudaStream_t) = nullptr;
  ncclResult_t (*reduce_scatter)(const void*, void*, std::size_t, ncclDataType_t, ncclRedOp_t,
                                 ncclComm_t, cudaStream_t) = nullptr;
  ncclResult_t (*broadcast)(const void*, void*, std::size_t, ncclDataType_t, int, ncclComm_t,
                            cudaStream_t) = nullptr;
  ncclResult_t (*send)(const void*, std::size_t, ncclDataType_t, int, ncclComm_t,
                       cudaStream_t) = nullptr;
  ncclResult_t (*recv)(void*, std::size_t, ncclDataType_t, int, ncclComm_t, cudaStream_t) = nullptr;
  ncclResult_t (*group_start)() = nullptr;
  ncclResult_t (*group_end)() = nullptr;

  std::string path;     // the library that was loaded
  int version = 0;      // e.g. 22703 for 2.27.3
  std::string failure;  // why NCCL is not available (empty when it is)
  bool ok() const { return failure.empty(); }
};

// Where to look, in order: MEMLAB_NCCL_LIBRARY alone when it is set (non-empty); else
// "libnccl.so.2" (the loader's search: LD_LIBRARY_PATH, the ld.so cache, /usr/lib...), then
// <dir>/nvidia/nccl/lib/libnccl.so.2 for every Python package folder found: PYTHONPATH entries,
// the lib/python3.*/ of every python3 on PATH (venvs), $VIRTUAL_ENV and $CONDA_PREFIX, ~/.local,
// pyenv versions, /usr/local/lib and /usr/lib (site-packages and dist-packages).
std::vector<std::string> nccl_candidates(const std::string& override_path,
                                         const std::vector<std::string>& python_dirs);
// The Python package folders of this machine (the list above, existing folders only).
std::vector<std::string> python_package_dirs();

// Loaded once (thread-safe); sets NCCL_NVLS_ENABLE=0 first.
const NcclApi& nccl();

// Throws std::runtime_error "NCCL <call>: <error string>" when `r` is not ncclSuccess.
void nccl_check(ncclResult_t r, const char* call);

}  // namespace memlab::lessons::collectives
