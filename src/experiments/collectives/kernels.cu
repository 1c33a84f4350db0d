#include <cuda_runtime.h>

#include "collectives/kernels.cuh"
#include "common/launch.hpp"
#include "memlab/cuda/fill.hpp"

namespace memlab::lessons::collectives {
namespace {

constexpr unsigned kBlock = 256;

// One thread per element, coalesced 4-byte stores; the value depends only on (seed, rank, i).
__global__ void fill_rank_kernel(float* data, std::size_t n, std::uint64_t seed, int rank) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] = static_cast<float>(random_u64(seed + static_cast<std::uint64_t>(rank), i) & 63u);
}

}  // namespace

float rank_input(std::uint64_t seed, int rank, std::size_t i) {
  return static_cast<float>(random_u64(seed + static_cast<std::uint64_t>(rank), i) & 63u);
}

void fill_rank_input(float* data, std::size_t n, std::uint64_t seed, int rank,
                     cudaStream_t stream) {
  if (n == 0) return;
  fill_rank_kernel<<<blocks_for(n, kBlock), kBlock, 0, stream>>>(data, n, seed, rank);
  MEMLAB_CHECK_LAUNCH(fill_rank_kernel);
}

}  // namespace memlab::lessons::collectives
