#include "common/hopper.hpp"

#include <cudaTypedefs.h>  // PFN_cuTensorMapEncodeTiled
#include <cuda_runtime_api.h>

#include <string>

#include "memlab/cuda/check.hpp"
#include "memlab/cuda/device.hpp"

namespace memlab::lessons::hopper {
namespace {

PFN_cuTensorMapEncodeTiled_v12000 encode_tiled() {
  static const PFN_cuTensorMapEncodeTiled_v12000 fn = [] {
    void* p = nullptr;
    cudaDriverEntryPointQueryResult found{};
    MEMLAB_CUDA_CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000,
                                                       cudaEnableDefault, &found));
    if (found != cudaDriverEntryPointSuccess || p == nullptr) {
      throw CudaError(cudaErrorNotSupported,
                      "cudaGetDriverEntryPointByVersion(cuTensorMapEncodeTiled, 12000)", __FILE__,
                      __LINE__);
    }
    return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(p);
  }();
  return fn;
}

}  // namespace

bool cc_at_least_or_no_device(int major) {
  if (device_count_or_zero() == 0) return true;
  int device = 0, have = 0;
  MEMLAB_CUDA_CHECK(cudaGetDevice(&device));
  MEMLAB_CUDA_CHECK(cudaDeviceGetAttribute(&have, cudaDevAttrComputeCapabilityMajor, device));
  return have >= major;
}

bool sm90_or_no_device() {
  return cc_at_least_or_no_device(9);
}

CUtensorMap tensor_map(CUtensorMapDataType type, int rank, const void* base,
                       const std::uint64_t* dims, const std::uint64_t* strides,
                       const std::uint32_t* box, bool swizzle128) {
  CUtensorMap map{};
  const cuuint32_t element_strides[5] = {1, 1, 1, 1, 1};
  const CUresult r =
      encode_tiled()(&map, type, static_cast<cuuint32_t>(rank), const_cast<void*>(base), dims,
                     strides, box, element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                     swizzle128 ? CU_TENSOR_MAP_SWIZZLE_128B : CU_TENSOR_MAP_SWIZZLE_NONE,
                     CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS) {
    throw CudaError(cudaErrorInvalidValue,
                    "cuTensorMapEncodeTiled (CUresult " + std::to_string(static_cast<int>(r)) +
                        ", rank " + std::to_string(rank) + ")",
                    __FILE__, __LINE__);
  }
  return map;
}

}  // namespace memlab::lessons::hopper
