// Device helpers of the histogram lesson's two .cu files (kernels.cu, kernels_atomics.cu).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

namespace memlab::lessons::histogram {

inline constexpr unsigned kBlock = 256;
inline constexpr unsigned kBins = 256;
inline constexpr unsigned kWarps = kBlock / 32;

__device__ __forceinline__ std::size_t global_id() {
  return static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
}
__device__ __forceinline__ std::size_t grid_threads() {
  return static_cast<std::size_t>(gridDim.x) * blockDim.x;
}

// Zero `count` shared words with the whole block, then barrier.
__device__ __forceinline__ void zero_shared(unsigned* s, unsigned count) {
  for (unsigned i = threadIdx.x; i < count; i += blockDim.x) s[i] = 0;
  __syncthreads();
}

// Merge `copies` shared copies of `bins` counters laid out [copy][bin] into global memory:
// one global atomic per non-zero bin per block.
__device__ __forceinline__ void merge_copies(const unsigned* s, unsigned copies, unsigned bins,
                                             unsigned* out) {
  __syncthreads();
  for (unsigned b = threadIdx.x; b < bins; b += blockDim.x) {
    unsigned sum = 0;
    for (unsigned c = 0; c < copies; ++c) sum += s[c * bins + b];
    if (sum != 0) atomicAdd(out + b, sum);
  }
}

}  // namespace memlab::lessons::histogram
