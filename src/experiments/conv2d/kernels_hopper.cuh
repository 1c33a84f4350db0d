// conv2d's Hopper variants (kernels_hopper.cu): TMA tile loads, and a 4-block cluster sharing halo
// rows through distributed shared memory. sm_90, width a multiple of 4.
#pragma once

#include <cuda_runtime_api.h>

#include "conv2d/kernels.cuh"

namespace memlab::lessons::conv2d {

// The tile shape of both Hopper variants for mask width k. A block loads 64-float rows (one TMA
// box row, 256 bytes) starting hopper_apron(k) columns left of its first output column and
// computes hopper_tile_cols(k) = 64 - 2 apron output columns. The apron is the halo r = k / 2
// rounded up to 4 floats because the engine takes a box only where its innermost start
// coordinate is a multiple of 16 bytes: a box starting r floats left (the first version, 60 x - 2
// at K = 5) stops the kernel with cudaErrorIllegalInstruction (issue 19, the H200 crash).
// The whole-block starts stay on 16 bytes too: 64 - 2 apron is a multiple of 8.
inline constexpr int kHopperBoxCols = 64;
constexpr int hopper_apron(int k) {
  return (k / 2 + 3) / 4 * 4;
}
constexpr int hopper_tile_cols(int k) {
  return kHopperBoxCols - 2 * hopper_apron(k);
}
// The innermost TMA coordinate (in floats) of block column `bx`'s box; a multiple of 4.
constexpr long hopper_box_x(int k, long bx) {
  return bx * hopper_tile_cols(k) - hopper_apron(k);
}

// The K x K mask into the Hopper kernels' own __constant__ copy (called by upload_mask).
void upload_mask_hopper(const float* mask, int k);
// tma (cluster = false) or cluster (true).
void launch_hopper(bool cluster, const Image& img, cudaStream_t stream);

}  // namespace memlab::lessons::conv2d
