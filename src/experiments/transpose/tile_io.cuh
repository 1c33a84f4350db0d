// transpose: the row-major index and the float4 tile moves shared by the tile kernels (device
// only). A thread of a tile kernel owns float4 j of rows q, q + Step, .., q + (Steps - 1) Step of
// a tile (the warp mapping of each kernel's header decides j and q); the helpers below are its
// Steps global loads or stores of those float4, its scalar stores of them into a padded shared
// tile, and its column-gather float4 stores out of the tile. On the host: the 2D grid of tiles
// and the float4 condition every launcher of those kernels computes.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "common/launch.hpp"

namespace memlab::lessons::transpose {

// One block per tile x tile tile of a rows x cols matrix: blockIdx.x along cols, .y along rows.
inline dim3 grid_for(int rows, int cols, int tile) {
  return dim3(blocks_for(static_cast<std::size_t>(cols), static_cast<unsigned>(tile)),
              blocks_for(static_cast<std::size_t>(rows), static_cast<unsigned>(tile)));
}

// Every row starts 16-byte aligned and holds whole float4: the tile kernels' float4 path.
inline bool float4_rows(int rows, int cols) {
  return rows % 4 == 0 && cols % 4 == 0;
}

// Element (r, c) of a row-major matrix `width` floats wide, in 64-bit arithmetic.
__device__ __forceinline__ std::size_t at(int r, int c, int width) {
  return static_cast<std::size_t>(r) * static_cast<std::size_t>(width) +
         static_cast<std::size_t>(c);
}

// v[k] = src[row0 + q + Step k][col0 + 4 j .. + 3], k < Steps (Steps independent 16-byte loads;
// the caller guarantees 16-byte alignment: width and col0 multiples of 4).
template <int Steps, int Step>
__device__ __forceinline__ void load_rows_f4(float4 (&v)[Steps], const float* __restrict__ src,
                                             int row0, int col0, int q, int j, int width) {
#pragma unroll
  for (int k = 0; k < Steps; ++k) {
    v[k] = *reinterpret_cast<const float4*>(src + at(row0 + q + Step * k, col0 + 4 * j, width));
  }
}

// dst[row0 + q + Step k][col0 + 4 j .. + 3] = v[k], k < Steps (16-byte stores, aligned as above).
template <int Steps, int Step>
__device__ __forceinline__ void store_rows_f4(const float4 (&v)[Steps], float* __restrict__ dst,
                                              int row0, int col0, int q, int j, int width) {
#pragma unroll
  for (int k = 0; k < Steps; ++k) {
    *reinterpret_cast<float4*>(dst + at(row0 + q + Step * k, col0 + 4 * j, width)) = v[k];
  }
}

// Shared tile with row stride P (floats): row q + Step k, cols 4 j .. + 3 take v[k], as 4 scalar
// stores each (P odd: a float4 store would be misaligned).
template <int Steps, int Step, int P>
__device__ __forceinline__ void rows_to_tile(const float4 (&v)[Steps], float* tile, int q, int j) {
#pragma unroll
  for (int k = 0; k < Steps; ++k) {
    float* d = tile + (q + Step * k) * P + 4 * j;
    d[0] = v[k].x;
    d[1] = v[k].y;
    d[2] = v[k].z;
    d[3] = v[k].w;
  }
}

// The transposed tile out: out row c0 + c (= in column c0 + c), c = q + Step k, gets in rows r0 +
// 4 j .. + 3, i.e. the 4 words of tile column c at rows 4 j .. + 3 (stride P), as one float4 at
// out cols r0 + 4 j (out is `rows` floats wide).
template <int Steps, int Step, int P>
__device__ __forceinline__ void tile_columns_to_out(const float* tile, float* __restrict__ out,
                                                    int r0, int c0, int q, int j, int rows) {
#pragma unroll
  for (int k = 0; k < Steps; ++k) {
    const int c = q + Step * k;
    const float* s = tile + 4 * j * P + c;
    const float4 v = make_float4(s[0], s[P], s[2 * P], s[3 * P]);
    *reinterpret_cast<float4*>(out + at(c0 + c, r0 + 4 * j, rows)) = v;
  }
}

}  // namespace memlab::lessons::transpose
