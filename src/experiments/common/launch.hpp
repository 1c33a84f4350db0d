// Launch-shape helpers shared by the lessons (CUDA runtime only; no heavy host headers).
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "memlab/cuda/check.hpp"

namespace memlab::lessons {

// Blocks of `block` threads to cover `n` items, one item per thread.
inline unsigned blocks_for(std::size_t n, unsigned block) {
  return static_cast<unsigned>(std::max<std::size_t>(1, (n + block - 1) / block));
}

// A persistent grid: as many resident blocks as the device holds (occupancy of `kernel`).
template <class Kernel>
unsigned resident_blocks(Kernel kernel, int block, std::size_t dynamic_smem = 0) {
  int device = 0, sms = 0, per_sm = 0;
  MEMLAB_CUDA_CHECK(cudaGetDevice(&device));
  MEMLAB_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  MEMLAB_CUDA_CHECK(
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, block, dynamic_smem));
  return static_cast<unsigned>(std::max(1, sms * per_sm));
}

}  // namespace memlab::lessons
