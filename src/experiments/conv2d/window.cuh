// conv2d's register window (device helpers of kernels.cu, kernels_rowloop.cu, kernels_taps.cu): a
// thread that owns C output columns [x0, x0 + C) (C = 4 or 8, x0 % C == 0) reads, per input row,
// the window [x0 - 4h, x0 + C + 4h) of C + 8h floats, h = ceil(r / 4) float4 groups of halo on
// each side.
#pragma once

#include <cuda_runtime.h>

namespace memlab::lessons::conv2d {

template <int K, int C = 4>
struct Win {
  static_assert(C % 4 == 0, "whole float4 groups of output columns");
  static constexpr int r = K / 2;
  static constexpr int h = (r + 3) / 4;  // float4 groups of halo on each side
  static constexpr int floats = C + 8 * h;
  static constexpr int off = 4 * h - r;  // window index of tap 0 of output column 0
};

// One read-only 16-byte load: kL2p (register_deep_l2p) `ld.global.nc.L2::256B.v4.f32`, the L2
// prefetch-size qualifier (an L2 miss fetches the whole aligned 256-byte block from DRAM, not only
// the missed 32-byte sectors); otherwise __ldg (ld.global.nc.v4.f32), the PTX of every other
// kernel.
template <bool kL2p>
__device__ __forceinline__ float4 ldg4(const float* p) {
  if constexpr (kL2p) {
    float4 f;
    asm("ld.global.nc.L2::256B.v4.f32 {%0, %1, %2, %3}, [%4];"
        : "=f"(f.x), "=f"(f.y), "=f"(f.z), "=f"(f.w)
        : "l"(p));
    return f;
  } else {
    return __ldg(reinterpret_cast<const float4*>(p));
  }
}

// Loads row y, columns [x0 - 4h, x0 + C + 4h) into v; zeros outside the image. kAligned
// (width % 4 == 0, x0 % 4 == 0): 16-byte loads (ldg4<kL2p>), each float4 wholly inside or outside
// the row; otherwise 4-byte loads (kL2p unused).
template <int K, bool kAligned, int C = 4, bool kL2p = false>
__device__ __forceinline__ void load_row(const float* __restrict__ in, int height, int width, int y,
                                         int x0, float (&v)[Win<K, C>::floats]) {
  constexpr int h = Win<K, C>::h, floats = Win<K, C>::floats;
  if (y < 0 || y >= height) {
#pragma unroll
    for (int e = 0; e < floats; ++e) v[e] = 0.0f;
    return;
  }
  const float* row = in + static_cast<long long>(y) * width;
  if constexpr (kAligned) {  // width % 4 == 0: each float4 is wholly inside or outside
#pragma unroll
    for (int q = 0; q < floats / 4; ++q) {
      const int xs = x0 + 4 * (q - h);
      float4 f = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
      if (xs >= 0 && xs < width) f = ldg4<kL2p>(row + xs);
      v[4 * q] = f.x;
      v[4 * q + 1] = f.y;
      v[4 * q + 2] = f.z;
      v[4 * q + 3] = f.w;
    }
  } else {
#pragma unroll
    for (int e = 0; e < floats; ++e) {
      const int xs = x0 - 4 * h + e;
      v[e] = (xs >= 0 && xs < width) ? __ldg(row + xs) : 0.0f;
    }
  }
}

// Adds input row iy of a streamed R x 4 tile (iy a compile-time index after unrolling) into the
// accumulators: output row o takes mask row i = iy - o (0 <= i < K, warp-uniform) over the window
// w, tap j of output column c at w[Off + c + j]; i == 0 starts the row at zero. mask is the
// caller's __constant__ array, by reference, so the taps stay ld.const loads.
template <int K, int R, int Off, int M, int F>
__device__ __forceinline__ void accumulate_row(const float (&mask)[M], const float (&w)[F], int iy,
                                               float (&acc)[R][4]) {
#pragma unroll
  for (int o = 0; o < R; ++o) {
    const int i = iy - o;  // mask row that input row iy contributes to output row o
    if (i >= 0 && i < K) {
#pragma unroll
      for (int c = 0; c < 4; ++c) {
        if (i == 0) acc[o][c] = 0.0f;
#pragma unroll
        for (int j = 0; j < K; ++j) acc[o][c] = fmaf(mask[i * K + j], w[Off + c + j], acc[o][c]);
      }
    }
  }
}

// Stores the output quad q of row y, columns [x0, x0 + 4): kAligned (width % 4 == 0) one 16-byte
// streaming store; otherwise 4-byte stores of the columns inside the image.
template <bool kAligned>
__device__ __forceinline__ void store_quad(float* __restrict__ out, int width, int y, int x0,
                                           const float (&q)[4]) {
  float* dst = out + static_cast<long long>(y) * width + x0;
  if constexpr (kAligned) {
    __stcs(reinterpret_cast<float4*>(dst), make_float4(q[0], q[1], q[2], q[3]));
  } else {
#pragma unroll
    for (int c = 0; c < 4; ++c) {
      if (x0 + c < width) dst[c] = q[c];
    }
  }
}

}  // namespace memlab::lessons::conv2d
