// What transpose's TMA kernels share (kernels_tma.cu: tma; kernels_tma_ws.cu: tma_ws;
// kernels_tma_pipelined.cu: tma_pipelined, tma_pipelined_many): the 32 x 32 tile, its two tensor
// maps, and the 4 x 4 block a thread moves through the swizzled tile (the bank analysis is in
// kernels_tma.cu).
#pragma once

#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>

#include "common/hopper.cuh"
#include "common/hopper.hpp"

namespace memlab::lessons::transpose {

inline constexpr int kTile = 32;
inline constexpr int kTileBytes = kTile * kTile * 4;
inline constexpr int kThreads = 64;  // one 4 x 4 block of the 8 x 8 blocks each

// `in` (rows x cols) and `out` (cols x rows) as 2D tensor maps of 32 x 32 boxes with the 128-byte
// swizzle. Encoded at every launch (a few microseconds of host time, hidden behind the previous
// launch in a batch); a cached map could outlive the buffers it points into.
struct TmaMaps {
  CUtensorMap in, out;
};
inline TmaMaps transpose_maps(const float* in, float* out, int rows, int cols) {
  const std::uint64_t in_dims[2] = {static_cast<std::uint64_t>(cols),
                                    static_cast<std::uint64_t>(rows)};
  const std::uint64_t in_strides[1] = {static_cast<std::uint64_t>(cols) * 4};
  const std::uint64_t out_dims[2] = {static_cast<std::uint64_t>(rows),
                                     static_cast<std::uint64_t>(cols)};
  const std::uint64_t out_strides[1] = {static_cast<std::uint64_t>(rows) * 4};
  const std::uint32_t box[2] = {kTile, kTile};
  return {
      hopper::tensor_map(CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, in, in_dims, in_strides, box, true),
      hopper::tensor_map(CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, out, out_dims, out_strides, box,
                         true)};
}

__device__ __forceinline__ float lane_of(const float4& v, int e) {
  return e == 0 ? v.x : e == 1 ? v.y : e == 2 ? v.z : v.w;
}

// Block (i, j) of a swizzled tile `a` into registers: tile rows 4 i + k (k = 0..3), chunk j.
__device__ __forceinline__ void load_block(const unsigned char* a, int i, int j, float4 (&v)[4]) {
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    v[k] = *reinterpret_cast<const float4*>(a + hopper::swizzle128(4 * i + k, j));
  }
}

// The transpose of block (i, j) into the swizzled tile `b`: out tile row 4 j + e = column 4 j + e
// of the input tile, chunk i.
__device__ __forceinline__ void store_block_transposed(unsigned char* b, int i, int j,
                                                       const float4 (&v)[4]) {
#pragma unroll
  for (int e = 0; e < 4; ++e) {
    *reinterpret_cast<float4*>(b + hopper::swizzle128(4 * j + e, i)) =
        make_float4(lane_of(v[0], e), lane_of(v[1], e), lane_of(v[2], e), lane_of(v[3], e));
  }
}

}  // namespace memlab::lessons::transpose
