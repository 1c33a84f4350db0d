// conv2d's register_rowloop variant (kernels_rowloop.cu): the register window of `register` with
// the loop over input rows kept rolled, so the hot loop body fits the instruction cache at K = 15.
#pragma once

#include <cuda_runtime_api.h>

#include "conv2d/kernels.cuh"

namespace memlab::lessons::conv2d {

// The K x K mask into register_rowloop's own __constant__ copy (called by upload_mask).
void upload_mask_rowloop(const float* mask, int k);
// register_rowloop for img.k in {7, 9, 11, 13, 15}.
void launch_rowloop(const Image& img, cudaStream_t stream);

}  // namespace memlab::lessons::conv2d
