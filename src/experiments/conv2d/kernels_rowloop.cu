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
#include "conv2d/window.cuh"

namespace memlab::lessons::conv2d {
namespace {

using idx_t = long long;

__constant__ float c_mask_rl[kMaxMask * kMaxMask];

constexpr int kRlRows = 4;

template <int K, bool kAligned>
__global__ void __launch_bounds__(256, 3)
    rowloop_kernel(const float* __restrict__ in, float* __restrict__ out, int height, int width) {
  constexpr int R = kRlRows, r = Win<K>::r, off = Win<K>::off, F = Win<K>::floats;
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
  load_row<K, kAligned>(in, height, width, y0 - r, x0, nxt);
#pragma unroll 1
  for (int iy = 0; iy < N; ++iy) {
    float w[F];
#pragma unroll
    for (int e = 0; e < F; ++e) w[e] = nxt[e];
    if (iy + 1 < N) load_row<K, kAligned>(in, height, width, y0 - r + iy + 1, x0, nxt);
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
    store_quad<kAligned>(out, width, y, x0, acc[o]);
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
  const auto refuse = [](int k) {
    return std::invalid_argument("conv2d register_rowloop: mask width " + std::to_string(k) +
                                 " (needs 7..15)");
  };
  with_k<7, 9, 11, 13, 15>(img.k, refuse,
                           [&](auto k) { launch_k_rowloop<decltype(k)::value>(img, stream); });
}

}  // namespace memlab::lessons::conv2d
