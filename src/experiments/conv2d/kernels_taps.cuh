// conv2d's register_taps variant (kernels_taps.cu): the loop over mask rows rolled, the row's taps
// loaded into registers once, a circular register window of input rows renamed by the unroll.
#pragma once

#include <cuda_runtime_api.h>

#include "conv2d/kernels.cuh"

namespace memlab::lessons::conv2d {

// register_taps (rows = 3) and register_taps2 (rows = 2) for img.k in {7, 9, 11, 13, 15}; `mask`
// is the K x K mask in global memory.
void launch_taps(const Image& img, const float* mask, int rows, cudaStream_t stream);

}  // namespace memlab::lessons::conv2d
