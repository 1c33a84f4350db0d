#include <cuda_runtime.h>

#include "common/launch.hpp"
#include "unified_memory/kernels.cuh"

namespace memlab::lessons::unified_memory {
namespace {

__global__ void read_kernel(const uint4* data, std::size_t n, std::uint32_t reads,
                            std::uint32_t* partial) {
  const std::size_t tid = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  std::uint32_t acc = 0;
  for (std::uint32_t r = 0; r < reads; ++r) {
    for (std::size_t i = tid; i < n; i += stride) {
      const uint4 v = data[i];
      acc += v.x + v.y + v.z + v.w;
    }
  }
  partial[tid] = acc;
}

}  // namespace

void launch_read(const std::uint32_t* data, std::size_t words, std::uint32_t reads,
                 std::uint32_t* partial, cudaStream_t s) {
  read_kernel<<<kBlocks, kThreads, 0, s>>>(reinterpret_cast<const uint4*>(data), words / 4, reads,
                                           partial);
  MEMLAB_CHECK_LAUNCH(read_kernel);
}

}  // namespace memlab::lessons::unified_memory
