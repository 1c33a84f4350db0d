// conv2d's register_strip / register_strip_ld variants (kernels_strip.cu, K <= 5): register_deep's
// streamed R x 4 tile with 16-row strips and a 4-row register ring; the horizontal halo by warp
// shuffles (register_strip) or by register's window loads (register_strip_ld).
#pragma once

#include <cuda_runtime_api.h>

#include "conv2d/kernels.cuh"

namespace memlab::lessons::conv2d {

// Output rows per thread of both (a block is 32 x 8 threads: 128 columns x 128 rows).
inline constexpr int kStripRowsPerThread = 16;

// The K x K mask into register_strip's own __constant__ copy (called by upload_mask).
void upload_mask_strip(const float* mask, int k);
// register_strip (shfl, 32 x 8-thread blocks), register_strip_ld (!shfl) or register_strip_wide
// (wide: shuffles, 256 x 1-thread blocks) for img.k in {1, 3, 5}.
void launch_strip(const Image& img, bool shfl, bool wide, cudaStream_t stream);
// register_deep_shfl: register_deep's shape (R = 8, 2 rows ahead in a 3-row ring, 32 x 8 blocks,
// 4 blocks per SM) with register_strip's shuffle halo, for img.k in {1, 3, 5} and width % 4 == 0
// only (the 4-byte path is register_deep's kernel, dispatched by launch in kernels.cu).
void launch_deep_shfl(const Image& img, cudaStream_t stream);

}  // namespace memlab::lessons::conv2d
