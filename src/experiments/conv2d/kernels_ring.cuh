// conv2d's smem_ring and smem_ring_wave variants (kernels_ring.cu, K <= 5, width % 4 == 0): the
// input rows of a 256-column strip stream through a shared-memory ring filled by cp.async,
// kRingSlots - 1 rows ahead, so the bytes in flight wait in shared memory instead of registers.
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
// smem_ring_wave's minimum: 20 blocks per SM, a 51-register cap (at 16 ptxas takes 56 registers
// for the run-time band: 18 blocks per SM). ptxas -v (sm_90, 0 spills): 40 / 40 / 24 registers at
// K = 5 / 3 / 1, so the 8448 B of shared memory (+ 1 KB reserved) bound it: 24 blocks per SM.
inline constexpr int kRingWaveBlocksPerSm = 20;
// Bytes of one ring row: the strip's 256 floats plus one 16-byte halo chunk each side.
inline constexpr int kRingRowBytes = 4 * (kRingCols + 8);

// The K x K mask into smem_ring's own __constant__ copy (called by upload_mask).
void upload_mask_ring(const float* mask, int k);
// The output rows of a block's band: kRingBand for smem_ring; for smem_ring_wave (`wave`) as many
// bands per strip as make the grid one wave of resident blocks on the current device, each at
// least kRingBand rows.
int ring_band(const Image& img, bool wave);
// smem_ring (or smem_ring_wave) for img.k in {1, 3, 5} and width % 4 == 0 (the 4-byte path is
// register_deep's kernel, dispatched by launch in kernels.cu; launch_ring refuses it). `band` > 0
// overrides the variant's band (the GPU tests' bands that end inside a ring cycle).
void launch_ring(const Image& img, bool wave, cudaStream_t stream, int band = 0);

}  // namespace memlab::lessons::conv2d
