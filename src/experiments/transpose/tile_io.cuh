// transpose: the row-major index shared by the tile kernels (device only).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

namespace memlab::lessons::transpose {

// Element (r, c) of a row-major matrix `width` floats wide, in 64-bit arithmetic.
__device__ __forceinline__ std::size_t at(int r, int c, int width) {
  return static_cast<std::size_t>(r) * static_cast<std::size_t>(width) +
         static_cast<std::size_t>(c);
}

}  // namespace memlab::lessons::transpose
