// register_rowloop (issue 23): `register` (R x 4 outputs per thread from a register window of
// 16-byte row loads) with the loop over the R + K - 1 input rows rolled (`#pragma unroll 1`); the
// R output rows, 4 columns and K taps of one input row stay unrolled.
//
// Napkin math (H200, 16384^2 fp32, K = 15, R = 4, 32x8-thread blocks):
// - Why: `register` fully unrolls 18 rows x 200 FFMA = 3600 FFMA (~57 KB of SASS): the measured
//   top stall is no_instruction (the body overflows the instruction cache), 54% of FP32 peak.
//   Here one iteration is <= R x 4 x K = 240 FFMA (~4 KB): it stays in the I-cache.
// - Work per thread: 3600 FFMA (the lesson's 2 K^2 flops per pixel, none added: output rows a
//   given input row does not touch are skipped by a warp-uniform branch), 18 rows x 5 LDG.128
//   (window 4 (2H + 1) = 20 floats, H = 2): 40 FFMA per 16-byte load; per iteration 60 tap
//   loads from __constant__ (taps c_mask[(iy - o) K + j]: one warp-uniform base per iteration,
//   immediate offsets), each used by 4 FFMA.
// - L1: 5 LDG.128 per warp and iteration = 20 wavefronts against 240 FFMA / 4 per clock = 60
//   clocks of FMA issue: L1 is not the limiter. DRAM: 8 bytes per pixel (2 GiB) in 2.4 ms =
//   0.9 TB/s, far from the 4.3 TB/s line: bytes in flight needed ~5 KB per SM, any occupancy hides
//   that; the next row's window is loaded before the current row's FFMAs (one row in flight).
// - Registers: 16 accumulators + 2 x 20 window floats + addresses ~ 64-80: __launch_bounds__(256,
//   3) caps at 80 (24 warps per SM), no shared memory.
// - Limiter removed: instruction fetch. Predicted: FMA issue ~ 240 / (240 + 30 tap loads + 5 LDG
//   + ~10 others) ~ 84% at best; predicted 70-75% of FP32 peak, 2.4-2.6 ms at K = 15.
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

#include "common/launch.hpp"
#include "conv2d/kernels_rowloop.cuh"

namespace memlab::lessons::conv2d {
namespace {

using idx_t = long long;

__constant__ float c_mask_rl[kMaxMask * kMaxMask];

template <int K>
struct RlWin {
  static constexpr int r = K / 2;
  static constexpr int h = (r + 3) / 4;  // float4 groups of halo on each side
  static constexpr int floats = 4 * (2 * h + 1);
  static constexpr int off = 4 * h - r;  // window index of tap 0 of output column 0
};

// Row y, columns [x0 - 4h, x0 + 4 + 4h) into v; zeros outside the image.
template <int K, bool kAligned>
__device__ __forceinline__ void rl_load_row(const float* __restrict__ in, int height, int width,
                                            int y, int x0, float (&v)[RlWin<K>::floats]) {
  constexpr int h = RlWin<K>::h;
  if (y < 0 || y >= height) {
#pragma unroll
    for (int e = 0; e < RlWin<K>::floats; ++e) v[e] = 0.0f;
    return;
  }
  const float* row = in + static_cast<idx_t>(y) * width;
  if constexpr (kAligned) {  // width % 4 == 0: each float4 is wholly inside or outside
#pragma unroll
    for (int q = 0; q < 2 * h + 1; ++q) {
      const int xs = x0 + 4 * (q - h);
      float4 f = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
      if (xs >= 0 && xs < width) f = __ldg(reinterpret_cast<const float4*>(row + xs));
      v[4 * q] = f.x;
      v[4 * q + 1] = f.y;
      v[4 * q + 2] = f.z;
      v[4 * q + 3] = f.w;
    }
  } else {
#pragma unroll
    for (int e = 0; e < RlWin<K>::floats; ++e) {
      const int xs = x0 - 4 * h + e;
      v[e] = (xs >= 0 && xs < width) ? __ldg(row + xs) : 0.0f;
    }
  }
}

constexpr int kRlRows = 4;

template <int K, bool kAligned>
__global__ void __launch_bounds__(256, 3)
    rowloop_kernel(const float* __restrict__ in, float* __restrict__ out, int height, int width) {
  constexpr int R = kRlRows, r = RlWin<K>::r, off = RlWin<K>::off, F = RlWin<K>::floats;
  constexpr int N = R + K - 1;
  const int x0 = 4 * static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  const int y0 = R * static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
  if (x0 >= width || y0 >= height) return;
  float acc[R][4];
#pragma unroll
  for (int o = 0; o < R; ++o) {
#pragma unroll
    for (int c = 0; c < 4; ++c) acc[o][c] = 0.0f;
  }
  float nxt[F];
  rl_load_row<K, kAligned>(in, height, width, y0 - r, x0, nxt);
#pragma unroll 1
  for (int iy = 0; iy < N; ++iy) {
    float w[F];
#pragma unroll
    for (int e = 0; e < F; ++e) w[e] = nxt[e];
    if (iy + 1 < N) rl_load_row<K, kAligned>(in, height, width, y0 - r + iy + 1, x0, nxt);
    const float* taps = c_mask_rl + iy * K;  // mask row i = iy - o at taps - o K
#pragma unroll
    for (int o = 0; o < R; ++o) {
      if (iy - o >= 0 && iy - o < K) {  // warp-uniform
#pragma unroll
        for (int j = 0; j < K; ++j) {
          const float t = taps[j - o * K];
#pragma unroll
          for (int c = 0; c < 4; ++c) acc[o][c] = fmaf(t, w[off + c + j], acc[o][c]);
        }
      }
    }
  }
#pragma unroll
  for (int o = 0; o < R; ++o) {
    const int y = y0 + o;
    if (y >= height) break;
    float* dst = out + static_cast<idx_t>(y) * width + x0;
    if constexpr (kAligned) {
      __stcs(reinterpret_cast<float4*>(dst),
             make_float4(acc[o][0], acc[o][1], acc[o][2], acc[o][3]));
    } else {
#pragma unroll
      for (int c = 0; c < 4; ++c) {
        if (x0 + c < width) dst[c] = acc[o][c];
      }
    }
  }
}

template <int K>
void launch_k_rowloop(const Image& img, cudaStream_t s) {
  const dim3 block(32, 8);
  const dim3 grid(blocks_for(static_cast<std::size_t>(img.width), 4 * 32),
                  blocks_for(static_cast<std::size_t>(img.height), 8 * kRlRows));
  if (img.width % 4 == 0) {
    rowloop_kernel<K, true><<<grid, block, 0, s>>>(img.in, img.out, img.height, img.width);
  } else {
    rowloop_kernel<K, false><<<grid, block, 0, s>>>(img.in, img.out, img.height, img.width);
  }
  MEMLAB_CHECK_LAUNCH(rowloop_kernel);
}

}  // namespace

void upload_mask_rowloop(const float* mask, int k) {
  const auto kk = static_cast<std::size_t>(k);
  MEMLAB_CUDA_CHECK(cudaMemcpyToSymbol(c_mask_rl, mask, kk * kk * sizeof(float)));
}

void launch_rowloop(const Image& img, cudaStream_t stream) {
  switch (img.k) {
    case 7:
      return launch_k_rowloop<7>(img, stream);
    case 9:
      return launch_k_rowloop<9>(img, stream);
    case 11:
      return launch_k_rowloop<11>(img, stream);
    case 13:
      return launch_k_rowloop<13>(img, stream);
    case 15:
      return launch_k_rowloop<15>(img, stream);
    default:
      throw std::invalid_argument("conv2d register_rowloop: mask width " + std::to_string(img.k) +
                                  " (needs 7..15)");
  }
}

}  // namespace memlab::lessons::conv2d
