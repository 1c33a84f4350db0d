// register_taps (issue 23): R x C outputs per thread (R = 3 rows, register_taps2 R = 2; C = 8
// columns with 16-byte loads, 4 on the 4-byte fallback), the loop over the K mask rows rolled.
// Iteration i takes mask row i: its K taps come into registers once (ceil(K / 4) LDS.128 from a
// shared copy of the mask, rows padded to 4 floats), then every output row o adds input row i + o
// with them: R C K FFMA and no tap load between them. The R input rows
// an iteration needs live in a circular register window of R slots (row y in slot y % R); after
// output row 0 has used slot i % R (row i), that slot receives row i + R for the next iteration.
// The loop is unrolled by R so the slot of every access is a compile-time constant: the rotation
// is renaming, no window copy. Useful work is the lesson's: 2 K^2 flops per pixel, nothing added.
//
// Napkin math (H200, 16384^2 fp32, K = 15, R = 3, 32x8-thread blocks):
// - C = 8 (width % 4 == 0): window 8 + 16 = 24 floats per row (6 LDG.128). Per iteration and warp:
//   360 FFMA, 4 LDS.128 (taps: 90 FFMA per tap load), 6 LDG.128 (60 FFMA per 16-byte load), ~12
//   integer/branch instructions -> FFMA share of the issue slots 360 / 382 = 94%. The same with
//   C = 4 (4-byte fallback and the previous step's tile width): 180 / 201 = 90%.
// - Issue: one warp instruction per clock per scheduler, an FFMA takes one slot (32 lanes): the
//   FFMA share is the ceiling on the FP32 rate. L1: 6 LDG.128 = 24 wavefronts per 360 FFMA / 4
//   schedulers = 90 clocks: not the limiter. DRAM: 8 bytes per pixel in ~2.3 ms = 0.9 TB/s.
// - Registers: 3 x 24 window + 24 accumulators + 16 taps + ~12 addresses ~ 124:
//   __launch_bounds__(256, 2) (128 registers, 16 warps per SM); the new row is loaded two output
//   rows (240 FFMA of this warp) before its first use, behind 3 other warps per scheduler.
// - Code: R iterations of <= R C K FFMA unrolled (1080 FFMA ~ 17 KB at K = 15) plus K % R peeled
//   ones (none at K = 15, 9); against 57 KB for register's fully unrolled body.
// - Predicted: 75-80% of the FP32 peak at K = 15 (2.3-2.4 ms at 16384^2).
// - register_taps2 (R = 2): per mask row 240 FFMA against 4 LDS.128 + 6 LDG.128 + ~12 = 92% of
//   the issue slots, loop body 2 x 240 FFMA (~8 KB), 93 registers; one peeled mask row at K = 15.
//   Predicted 73-78%: the same unless the 17 KB body of R = 3 misses the instruction cache.
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>
#include <utility>

#include "common/launch.hpp"
#include "conv2d/kernels_taps.cuh"
#include "conv2d/window.cuh"

namespace memlab::lessons::conv2d {
namespace {

template <int K>
constexpr int tap_stride() {
  return 4 * ((K + 3) / 4);  // a mask row in shared, padded to whole float4s
}

// kEdge: the block's window or outputs cross the image border (bounds-checked loads, zero ghost
// cells, guarded stores); otherwise every load and store is in range and unchecked.
// R: output rows per thread = slots of the circular window (3: register_taps, 2: register_taps2).
template <int K, int R, int C, bool kAligned, bool kEdge>
struct Tile {
  static constexpr int r = K / 2, F = Win<K, C>::floats;
  static constexpr int off = Win<K, C>::off;
  const float* __restrict__ in;
  int height, width, x0, y0;
  float acc[R][C];
  float win[R][F];  // row y0 - r + t of the window in slot t % R

  // Input row y0 - r + t into slot S.
  template <int S>
  __device__ __forceinline__ void load(int t) {
    const int y = y0 - r + t;
    if constexpr (kEdge) {
      load_row<K, kAligned, C>(in, height, width, y, x0, win[S]);
    } else {
      constexpr int h = Win<K, C>::h;
      const float* row = in + static_cast<long long>(y) * width + (x0 - 4 * h);
      if constexpr (kAligned) {
#pragma unroll
        for (int q = 0; q < F / 4; ++q) {
          const float4 f = __ldg(reinterpret_cast<const float4*>(row) + q);
          win[S][4 * q] = f.x;
          win[S][4 * q + 1] = f.y;
          win[S][4 * q + 2] = f.z;
          win[S][4 * q + 3] = f.w;
        }
      } else {
#pragma unroll
        for (int e = 0; e < F; ++e) win[S][e] = __ldg(row + e);
      }
    }
  }

  // Mask row i (i % R == U): taps into registers, then output row o adds input row i + o (slot
  // (U + o) % R). After row 0, slot U is free: input row i + R goes there (the last one is row
  // R + K - 2, needed up to mask row K - 1).
  template <int U>
  __device__ __forceinline__ void step(const float* __restrict__ s_mask, int i) {
    constexpr int Q = tap_stride<K>() / 4;
    float t[4 * Q];
    const float4* m = reinterpret_cast<const float4*>(s_mask + i * tap_stride<K>());
#pragma unroll
    for (int q = 0; q < Q; ++q) {
      const float4 f = m[q];
      t[4 * q] = f.x;
      t[4 * q + 1] = f.y;
      t[4 * q + 2] = f.z;
      t[4 * q + 3] = f.w;
    }
#pragma unroll
    for (int o = 0; o < R; ++o) {
      const float(&w)[F] = win[(U + o) % R];
#pragma unroll
      for (int j = 0; j < K; ++j) {
#pragma unroll
        for (int c = 0; c < C; ++c) acc[o][c] = fmaf(t[j], w[off + c + j], acc[o][c]);
      }
      if (o == 0 && i + 1 < K) load<U>(i + R);
    }
  }

  // Mask rows [i, i + N), i % R == 0 (N <= R, compile-time).
  template <int U, int N>
  __device__ __forceinline__ void steps(const float* __restrict__ s_mask, int i) {
    if constexpr (N > 0) {
      step<U>(s_mask, i);
      steps<U + 1, N - 1>(s_mask, i + 1);
    }
  }

  __device__ __forceinline__ void run(const float* __restrict__ s_mask, float* __restrict__ out) {
#pragma unroll
    for (int o = 0; o < R; ++o) {
#pragma unroll
      for (int c = 0; c < C; ++c) acc[o][c] = 0.0f;
    }
    [&]<int... S>(std::integer_sequence<int, S...>) {
      (load<S>(S), ...);
    }
    (std::make_integer_sequence<int, R>{});
    constexpr int kFull = K / R * R;  // mask rows taken R at a time by the rolled loop
#pragma unroll 1
    for (int i = 0; i < kFull; i += R) steps<0, R>(s_mask, i);
    steps<0, K - kFull>(s_mask, kFull);
#pragma unroll
    for (int o = 0; o < R; ++o) {
      const int y = y0 + o;
      if (kEdge && y >= height) break;
      float* dst = out + static_cast<long long>(y) * width + x0;
      if constexpr (kAligned) {
#pragma unroll
        for (int q = 0; q < C / 4; ++q) {
          if (!kEdge || x0 + 4 * q < width) {  // width % 4 == 0: a float4 is inside or outside
            __stcs(reinterpret_cast<float4*>(dst + 4 * q),
                   make_float4(acc[o][4 * q], acc[o][4 * q + 1], acc[o][4 * q + 2],
                               acc[o][4 * q + 3]));
          }
        }
      } else {
#pragma unroll
        for (int c = 0; c < C; ++c) {
          if (!kEdge || x0 + c < width) dst[c] = acc[o][c];
        }
      }
    }
  }
};

// Grid of blocks (bx, by), gx columns: the interior blocks (bx in [1, nx], by in [1, ny]) are
// those whose windows (columns [32 C bx - 4h, 32 C (bx + 1) + 4h), rows [8 R by - r, 8 R (by + 1)
// + r)) lie inside the image: one kernel (kEdge = false, a 2D grid nx x ny) runs them unchecked.
// The others, rows by = 0 and by > ny in full then columns bx = 0 and bx > nx of the rows between,
// run in a second kernel (kEdge = true) with a 1D grid. Two kernels, not one with a branch: ptxas
// keeps the two paths' registers apart (the branch version spilled 4 bytes at 128 registers).
template <int K, int R, int C, bool kAligned, bool kEdge>
__global__ void __launch_bounds__(256, 2)
    taps_kernel(const float* __restrict__ in, const float* __restrict__ mask,
                float* __restrict__ out, int height, int width, int gx, int gy, int nx, int ny) {
  constexpr int S = tap_stride<K>();
  __shared__ __align__(16) float s_mask[K * S];
  const int tid = static_cast<int>(threadIdx.y * blockDim.x + threadIdx.x);
  for (int e = tid; e < K * S; e += static_cast<int>(blockDim.x * blockDim.y)) {
    const int i = e / S, j = e % S;
    s_mask[e] = j < K ? mask[i * K + j] : 0.0f;
  }
  __syncthreads();
  int bx = static_cast<int>(blockIdx.x) + 1, by = static_cast<int>(blockIdx.y) + 1;
  if constexpr (kEdge) {
    const int e = static_cast<int>(blockIdx.x);
    const int n_full = (gy - ny) * gx;  // blocks of the rows by = 0 and by > ny
    if (e < n_full) {
      const int q = e / gx;
      bx = e - q * gx;
      by = q == 0 ? 0 : ny + q;
    } else {
      const int f = e - n_full, ex = gx - nx, q = f / ex, c = f - q * ex;
      by = 1 + q;
      bx = c == 0 ? 0 : nx + c;
    }
  }
  const int x0 = 32 * C * bx + C * static_cast<int>(threadIdx.x);
  const int y0 = 8 * R * by + R * static_cast<int>(threadIdx.y);
  if (kEdge && (x0 >= width || y0 >= height)) return;
  Tile<K, R, C, kAligned, kEdge> tile{in, height, width, x0, y0, {}, {}};
  tile.run(s_mask, out);
}

// 8 columns per thread on the 16-byte path, 4 on the 4-byte fallback (its window is 4-byte loads).
constexpr int kTpColsAligned = 8, kTpColsUnaligned = 4;

template <int K, int R, int C, bool kAligned>
void launch_kc_taps(const Image& img, const float* mask, cudaStream_t s) {
  constexpr int r = K / 2, h = Win<K, C>::h;
  const dim3 block(32, 8);
  const int gx = static_cast<int>(blocks_for(static_cast<std::size_t>(img.width), 32 * C));
  const int gy = static_cast<int>(blocks_for(static_cast<std::size_t>(img.height), 8 * R));
  // Interior: bx >= 1 (32 C >= 4h) and 32 C (bx + 1) + 4h <= width; by >= 1 (8 R >= r) and
  // 8 R (by + 1) + r <= height.
  int nx = img.width >= 4 * h ? (img.width - 4 * h) / (32 * C) - 1 : 0;
  int ny = img.height >= r ? (img.height - r) / (8 * R) - 1 : 0;
  if (nx <= 0 || ny <= 0) nx = ny = 0;
  const int edge_blocks = (gy - ny) * gx + ny * (gx - nx);
  if (nx > 0) {
    taps_kernel<K, R, C, kAligned, false>
        <<<dim3(static_cast<unsigned>(nx), static_cast<unsigned>(ny)), block, 0, s>>>(
            img.in, mask, img.out, img.height, img.width, gx, gy, nx, ny);
    MEMLAB_CHECK_LAUNCH(taps_kernel);
  }
  taps_kernel<K, R, C, kAligned, true><<<static_cast<unsigned>(edge_blocks), block, 0, s>>>(
      img.in, mask, img.out, img.height, img.width, gx, gy, nx, ny);
  MEMLAB_CHECK_LAUNCH(taps_kernel);
}

template <int K>
void launch_k_taps(const Image& img, const float* mask, int rows, cudaStream_t s) {
  if (rows == 3 && img.width % 4 == 0)
    return launch_kc_taps<K, 3, kTpColsAligned, true>(img, mask, s);
  if (rows == 3) return launch_kc_taps<K, 3, kTpColsUnaligned, false>(img, mask, s);
  if (rows == 2 && img.width % 4 == 0)
    return launch_kc_taps<K, 2, kTpColsAligned, true>(img, mask, s);
  if (rows == 2) return launch_kc_taps<K, 2, kTpColsUnaligned, false>(img, mask, s);
  throw std::invalid_argument("conv2d register_taps: rows per thread " + std::to_string(rows));
}

}  // namespace

void launch_taps(const Image& img, const float* mask, int rows, cudaStream_t stream) {
  const auto refuse = [](int k) {
    return std::invalid_argument("conv2d register_taps: mask width " + std::to_string(k) +
                                 " (needs 7..15)");
  };
  with_k<7, 9, 11, 13, 15>(
      img.k, refuse, [&](auto k) { launch_k_taps<decltype(k)::value>(img, mask, rows, stream); });
}

}  // namespace memlab::lessons::conv2d
