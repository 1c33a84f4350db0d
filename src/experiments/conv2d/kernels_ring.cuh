// conv2d's smem_ring variant (kernels_ring.cu, K <= 5, width % 4 == 0): the input rows of a
// 256-column strip stream through a shared-memory ring filled by cp.async, kRingSlots - 1 rows
// ahead, so the bytes in flight wait in shared memory instead of registers.
#pragma once

#include <cuda_runtime_api.h>

#include "conv2d/kernels.cuh"

namespace memlab::lessons::conv2d {

// Output columns per block (64 threads x 4), output rows per block (the band), ring rows, and
// the minimum blocks per SM of __launch_bounds__ (a 64-register cap; at ptxas's 48 registers 21
// blocks fit).
inline constexpr int kRingCols = 256;
inline constexpr int kRingBand = 64;
inline constexpr int kRingSlots = 8;
inline constexpr int kRingBlocksPerSm = 16;
// Bytes of one ring row: the strip's 256 floats plus one 16-byte halo chunk each side.
inline constexpr int kRingRowBytes = 4 * (kRingCols + 8);

// The K x K mask into smem_ring's own __constant__ copy (called by upload_mask).
void upload_mask_ring(const float* mask, int k);
// smem_ring for img.k in {1, 3, 5} and width % 4 == 0 (the 4-byte path is register_deep's
// kernel, dispatched by launch in kernels.cu; launch_ring refuses it).
void launch_ring(const Image& img, cudaStream_t stream);

}  // namespace memlab::lessons::conv2d
