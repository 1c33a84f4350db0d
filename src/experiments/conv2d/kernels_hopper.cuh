// conv2d's Hopper variants (kernels_hopper.cu): TMA tile loads, and a 4-block cluster sharing halo
// rows through distributed shared memory. sm_90, width a multiple of 4.
#pragma once

#include <cuda_runtime_api.h>

#include "conv2d/kernels.cuh"

namespace memlab::lessons::conv2d {

// The K x K mask into the Hopper kernels' own __constant__ copy (called by upload_mask).
void upload_mask_hopper(const float* mask, int k);
// tma (cluster = false) or cluster (true).
void launch_hopper(bool cluster, const Image& img, cudaStream_t stream);

}  // namespace memlab::lessons::conv2d
