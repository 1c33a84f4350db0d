#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

#include "common/launch.hpp"
#include "conv2d/kernels.cuh"
#include "conv2d/kernels_hopper.cuh"
#include "conv2d/kernels_ring.cuh"
#include "conv2d/kernels_rowloop.cuh"
#include "conv2d/kernels_strip.cuh"
#include "conv2d/kernels_taps.cuh"
#include "conv2d/window.cuh"

namespace memlab::lessons::conv2d {
namespace {

using idx_t = long long;

__constant__ float c_mask[kMaxMask * kMaxMask];
__constant__ float c_row[kMaxMask];  // separable: M[i][j] = c_col[i] * c_row[j]
__constant__ float c_col[kMaxMask];

__device__ __forceinline__ idx_t at(int y, int x, int width) {
  return static_cast<idx_t>(y) * width + x;
}

// naive: one thread per output, K^2 4-byte loads of the image (a warp's row of taps is 32 + K - 1
// consecutive floats: coalesced, re-read from L1 by neighbouring lanes and rows) and K^2 uniform
// loads of the mask from global memory.
__global__ void naive_kernel(const float* in, const float* mask, float* out, int height, int width,
                             int k) {
  const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  const int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
  if (x >= width || y >= height) return;
  const int r = k / 2;
  float acc = 0.0f;
  for (int i = 0; i < k; ++i) {
    const int yy = y - r + i;
    if (yy < 0 || yy >= height) continue;
    for (int j = 0; j < k; ++j) {
      const int xx = x - r + j;
      if (xx >= 0 && xx < width) acc += in[at(yy, xx, width)] * mask[i * k + j];
    }
  }
  out[at(y, x, width)] = acc;
}

// const_mask: as naive, the mask from the constant cache (broadcast).
__global__ void const_mask_kernel(const float* __restrict__ in, float* __restrict__ out, int height,
                                  int width, int k) {
  const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  const int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
  if (x >= width || y >= height) return;
  const int r = k / 2;
  float acc = 0.0f;
  for (int i = 0; i < k; ++i) {
    const int yy = y - r + i;
    if (yy < 0 || yy >= height) continue;
    for (int j = 0; j < k; ++j) {
      const int xx = x - r + j;
      if (xx >= 0 && xx < width) acc += in[at(yy, xx, width)] * c_mask[i * k + j];
    }
  }
  out[at(y, x, width)] = acc;
}

// tiled_input (seed 000): a 32x32-thread block loads the 32x32 input tile (4 KiB shared, one
// coalesced 128-byte row per warp, ghost cells as zeros), then the O x O output threads
// (O = 33 - K) compute from shared memory: per output K^2 shared reads, stride 1 across a warp's
// row (conflict-free). Every input is fetched (32/O)^2 times from global over all tiles (the halo).
constexpr int kTile = 32;
__global__ void tiled_input_kernel(const float* __restrict__ in, float* __restrict__ out,
                                   int height, int width, int k) {
  __shared__ float tile[kTile][kTile];
  const int o = kTile - k + 1, r = k / 2;
  const int tx = static_cast<int>(threadIdx.x), ty = static_cast<int>(threadIdx.y);
  const int x = static_cast<int>(blockIdx.x) * o + tx, y = static_cast<int>(blockIdx.y) * o + ty;
  const int xi = x - r, yi = y - r;
  tile[ty][tx] = (xi >= 0 && xi < width && yi >= 0 && yi < height) ? in[at(yi, xi, width)] : 0.0f;
  __syncthreads();
  if (tx < o && ty < o && x < width && y < height) {
    float acc = 0.0f;
    for (int i = 0; i < k; ++i) {
      for (int j = 0; j < k; ++j) acc += c_mask[i * k + j] * tile[ty + i][tx + j];
    }
    out[at(y, x, width)] = acc;
  }
}

// tiled_output: 32x16-thread blocks, one output each; shared holds the block's own 32x16 inputs
// (2 KiB, loaded once, coalesced); taps that fall in the halo ring are read from global (the
// neighbouring blocks' tiles, usually in L2 or L1). Branch per tap: shared or global or ghost.
constexpr int kOutW = 32, kOutH = 16;
__global__ void tiled_output_kernel(const float* __restrict__ in, float* __restrict__ out,
                                    int height, int width, int k) {
  __shared__ float tile[kOutH][kOutW];
  const int tx = static_cast<int>(threadIdx.x), ty = static_cast<int>(threadIdx.y);
  const int x0 = static_cast<int>(blockIdx.x) * kOutW, y0 = static_cast<int>(blockIdx.y) * kOutH;
  const int x = x0 + tx, y = y0 + ty;
  tile[ty][tx] = (x < width && y < height) ? in[at(y, x, width)] : 0.0f;
  __syncthreads();
  if (x >= width || y >= height) return;
  const int r = k / 2;
  float acc = 0.0f;
  for (int i = 0; i < k; ++i) {
    const int yy = y - r + i;
    if (yy < 0 || yy >= height) continue;
    for (int j = 0; j < k; ++j) {
      const int xx = x - r + j;
      if (xx < 0 || xx >= width) continue;
      const float v = (yy >= y0 && yy < y0 + kOutH && xx >= x0 && xx < x0 + kOutW)
                          ? tile[yy - y0][xx - x0]
                          : in[at(yy, xx, width)];
      acc += c_mask[i * k + j] * v;
    }
  }
  out[at(y, x, width)] = acc;
}

// ---- register: R x 4 outputs per thread, a register window per input row (window.cuh) ----
template <int K, int R, bool kAligned, int kMinBlocks>
__global__ void __launch_bounds__(256, kMinBlocks)
    register_kernel(const float* __restrict__ in, float* __restrict__ out, int height, int width) {
  constexpr int r = Win<K>::r, off = Win<K>::off;
  const int x0 = 4 * static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  const int y0 = R * static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
  if (x0 >= width || y0 >= height) return;
  float acc[R][4];
#pragma unroll
  for (int o = 0; o < R; ++o) {
#pragma unroll
    for (int c = 0; c < 4; ++c) acc[o][c] = 0.0f;
  }
#pragma unroll
  for (int iy = 0; iy < R + K - 1; ++iy) {
    float v[Win<K>::floats];
    load_row<K, kAligned>(in, height, width, y0 - r + iy, x0, v);
    accumulate_row<K, R, off>(c_mask, v, iy, acc);
  }
#pragma unroll
  for (int o = 0; o < R; ++o) {
    const int y = y0 + o;
    if (y >= height) break;
    store_quad<kAligned>(out, width, y, x0, acc[o]);
  }
}

template <int K, int R, int kMinBlocks>
void launch_register(const Image& img, cudaStream_t s) {
  const dim3 block(32, 8);
  const dim3 grid(blocks_for(static_cast<std::size_t>(img.width), 4 * 32),
                  blocks_for(static_cast<std::size_t>(img.height), 8 * R));
  if (img.width % 4 == 0) {
    register_kernel<K, R, true, kMinBlocks>
        <<<grid, block, 0, s>>>(img.in, img.out, img.height, img.width);
  } else {
    // The 4-byte-load fallback needs a few more registers: 3 blocks per SM (no spills).
    register_kernel<K, R, false, (kMinBlocks > 3 ? 3 : kMinBlocks)>
        <<<grid, block, 0, s>>>(img.in, img.out, img.height, img.width);
  }
  MEMLAB_CHECK_LAUNCH(register_kernel);
}

// 4 blocks of 256 threads per SM: a 64-register cap (measured on the H200 at 8192^2: 70% of
// memcpy at K = 5 against 65% with the 70 registers ptxas picks without it; 54% against 53% of
// the FP32 rate at K = 15). Rows per thread: 8 for K <= 5 (4 and 16 measured 69% and 48% at
// K = 5 without the cap; 4 rows with the cap 72.7% against 73.6% at 16384^2), 4 above (8 rows at
// K = 15: 49% against 53%; K = 7 with 8 rows spills).
constexpr int kRegMinBlocks = 4;

constexpr int rows_for(int k) {
  return k <= 5 ? 8 : 4;
}

// ---- register, K <= 5: the same R x 4 register tile, streamed ----
// As register_kernel, but output row o is stored (16-byte streaming store) as soon as its last
// input row was added, so only K rows of accumulators are live at a time, and the window of the
// next input row is loaded before the FMAs of the current one: one row of loads is always in
// flight behind the FMAs. Same bytes and FMAs as register_kernel; measured on the H200 at 16384^2,
// K = 5: 573 us (88.6% of memcpy) against 689 us (73.7%) for register_kernel with R = 8. Variants
// measured in the same run (deleted): R = 16 with 32x8 or 256x1 blocks 607 / 598 us, R = 32 with
// two rows ahead 582 us, R = 16 without bounds checks in interior blocks 574 us, halo by warp
// shuffles 609 / 579 us (no gain).
//
// D > 0 (register_prefetch, issue 23): besides the next row's window, the thread's own 16 bytes of
// the input row D further ahead are requested into L2 (`prefetch.global.L2`, no register, no
// wait), so 1 + D rows per warp are on their way from DRAM instead of one.
__device__ __forceinline__ void prefetch_l2(const float* p) {
  asm volatile("prefetch.global.L2 [%0];" ::"l"(p));
}

// A = 2 (register_deep, issue 23): the windows are loaded A rows ahead into a ring of A + 1 rows of
// registers (row t in slot t % (A + 1), the unroll makes every slot a compile-time index): the
// loads of rows iy + 1 .. iy + A are in flight while the FFMAs of row iy run. A = 1 is register.
//
// Blocks per SM: 4 (the 64-register cap) on the 16-byte path, also with A = 2 (ptxas at K = 5:
// 64 registers, 0 spills; 72 under an 85-register cap); the 4-byte fallback with prefetch (D > 0)
// or the deeper ring (A > 1) needs a few more registers: 3 blocks (72-80 registers at K = 5).
constexpr int stream_min_blocks(bool aligned, int d, int a) {
  return !aligned && (d > 0 || a > 1) ? 3 : 4;
}

// kL2p (register_deep_l2p, session 7, 16-byte path only): the window loads as
// ld.global.nc.L2::256B.v4.f32 (window.cuh, ldg4): an L2 miss fetches the whole 256-byte block.
// A warp's own float4s are 512 aligned bytes (4 full lines) per row already, so the hint can only
// change the halo float4s' misses (a neighbour's block, fetched early) and the order DRAM sees:
// predicted level with register_deep (91.5-93% of memcpy at K = 5; not yet measured). Same PTX as
// register_deep but for the 36 loads (K = 5), same 64 / 60 / 56 registers (K = 5 / 3 / 1).
template <int K, int R, bool kAligned, int D = 0, int A = 1,
          int kMinBlocks = stream_min_blocks(kAligned, D, A), bool kL2p = false>
__global__ void __launch_bounds__(256, kMinBlocks)
    stream_kernel(const float* __restrict__ in, float* __restrict__ out, int height, int width) {
  constexpr int r = Win<K>::r, off = Win<K>::off, F = Win<K>::floats, N = R + K - 1, S = A + 1;
  const int x0 = 4 * static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  const int y0 = R * static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
  if (x0 >= width || y0 >= height) return;
  // Input row t of the thread's strip (t < N) into L2, when it is inside the image.
  const auto prefetch_row = [&](int t) {
    const int y = y0 - r + t;
    if (y >= 0 && y < height) prefetch_l2(in + static_cast<idx_t>(y) * width + x0);
  };
  float acc[R][4];
  float v[S][F];  // ring: the current input row and the A rows after it
#pragma unroll
  for (int t = 0; t < A && t < N; ++t) {
    load_row<K, kAligned, 4, kL2p>(in, height, width, y0 - r + t, x0, v[t]);
  }
  if constexpr (D > 0) {
#pragma unroll
    for (int t = 2; t <= D && t < N; ++t) prefetch_row(t);
  }
#pragma unroll
  for (int iy = 0; iy < N; ++iy) {
    if (iy + A < N) {
      load_row<K, kAligned, 4, kL2p>(in, height, width, y0 - r + iy + A, x0, v[(iy + A) % S]);
    }
    if constexpr (D > 0) {
      if (iy + 1 + D < N) prefetch_row(iy + 1 + D);
    }
    const float(&w)[F] = v[iy % S];
    accumulate_row<K, R, off>(c_mask, w, iy, acc);
    const int o = iy - (K - 1);  // output row completed by this input row
    const int y = y0 + o;
    if (o >= 0 && o < R && y < height) store_quad<kAligned>(out, width, y, x0, acc[o]);
  }
}

// kBlocks > 0: __launch_bounds__(256, kBlocks) on the 16-byte path instead of stream_min_blocks;
// the 4-byte path takes the smaller of kBlocks and stream_min_blocks (the looser register cap).
// kL2p: the 16-byte path's loads with the L2::256B qualifier; the 4-byte path is unchanged.
template <int K, int R, int D = 0, int A = 1, int kBlocks = 0, bool kL2p = false>
void launch_stream(const Image& img, cudaStream_t s) {
  constexpr int ba = kBlocks > 0 ? kBlocks : stream_min_blocks(true, D, A);
  constexpr int bu = kBlocks > 0 && kBlocks < stream_min_blocks(false, D, A)
                         ? kBlocks
                         : stream_min_blocks(false, D, A);
  const dim3 block(32, 8);
  const dim3 grid(blocks_for(static_cast<std::size_t>(img.width), 4 * 32),
                  blocks_for(static_cast<std::size_t>(img.height), 8 * R));
  if (img.width % 4 == 0) {
    stream_kernel<K, R, true, D, A, ba, kL2p>
        <<<grid, block, 0, s>>>(img.in, img.out, img.height, img.width);
  } else {
    stream_kernel<K, R, false, D, A, bu>
        <<<grid, block, 0, s>>>(img.in, img.out, img.height, img.width);
  }
  MEMLAB_CHECK_LAUNCH(stream_kernel);
}

// ---- separable: row pass then column pass ----
// Row pass: 4 outputs per thread from a window of 4 (2h + 1) floats of one row (16-byte loads when
// width % 4 == 0); K FMAs per output with c_row taps.
template <int K, bool kAligned>
__global__ void __launch_bounds__(256)
    row_pass_kernel(const float* __restrict__ in, float* __restrict__ tmp, int height, int width) {
  const int x0 = 4 * static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  const int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
  if (x0 >= width || y >= height) return;
  float v[Win<K>::floats];
  load_row<K, kAligned>(in, height, width, y, x0, v);
  float o[4];
#pragma unroll
  for (int c = 0; c < 4; ++c) {
    float acc = 0.0f;
#pragma unroll
    for (int j = 0; j < K; ++j) acc = fmaf(c_row[j], v[Win<K>::off + c + j], acc);
    o[c] = acc;
  }
  float* dst = tmp + static_cast<idx_t>(y) * width + x0;
  if constexpr (kAligned) {
    *reinterpret_cast<float4*>(dst) = make_float4(o[0], o[1], o[2], o[3]);
  } else {
#pragma unroll
    for (int c = 0; c < 4; ++c) {
      if (x0 + c < width) dst[c] = o[c];
    }
  }
}

// Column pass: each thread owns 4 columns x R rows and streams R + K - 1 rows of 4 floats (one
// 16-byte load each) down the column, adding each into the outputs it touches (c_col taps).
constexpr int kColRows = 8;
template <int K, bool kAligned>
__global__ void __launch_bounds__(256)
    col_pass_kernel(const float* __restrict__ tmp, float* __restrict__ out, int height, int width) {
  constexpr int r = K / 2, R = kColRows;
  const int x0 = 4 * static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  const int y0 = R * static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
  if (x0 >= width || y0 >= height) return;
  float acc[R][4];
#pragma unroll
  for (int o = 0; o < R; ++o) {
#pragma unroll
    for (int c = 0; c < 4; ++c) acc[o][c] = 0.0f;
  }
#pragma unroll
  for (int iy = 0; iy < R + K - 1; ++iy) {
    const int y = y0 - r + iy;
    float v[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    if (y >= 0 && y < height) {
      const float* row = tmp + static_cast<idx_t>(y) * width + x0;
      if constexpr (kAligned) {
        const float4 f = __ldg(reinterpret_cast<const float4*>(row));
        v[0] = f.x;
        v[1] = f.y;
        v[2] = f.z;
        v[3] = f.w;
      } else {
#pragma unroll
        for (int c = 0; c < 4; ++c) v[c] = (x0 + c < width) ? __ldg(row + c) : 0.0f;
      }
    }
#pragma unroll
    for (int o = 0; o < R; ++o) {
      const int i = iy - o;
      if (i >= 0 && i < K) {
#pragma unroll
        for (int c = 0; c < 4; ++c) acc[o][c] = fmaf(c_col[i], v[c], acc[o][c]);
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
void launch_separable(const Image& img, float* tmp, cudaStream_t s) {
  const dim3 block(32, 8);
  const auto w = static_cast<std::size_t>(img.width), h = static_cast<std::size_t>(img.height);
  const dim3 grid_row(blocks_for(w, 4 * 32), blocks_for(h, 8));
  const dim3 grid_col(blocks_for(w, 4 * 32), blocks_for(h, 8 * kColRows));
  if (img.width % 4 == 0) {
    row_pass_kernel<K, true><<<grid_row, block, 0, s>>>(img.in, tmp, img.height, img.width);
    MEMLAB_CHECK_LAUNCH(row_pass_kernel);
    col_pass_kernel<K, true><<<grid_col, block, 0, s>>>(tmp, img.out, img.height, img.width);
    MEMLAB_CHECK_LAUNCH(col_pass_kernel);
  } else {
    row_pass_kernel<K, false><<<grid_row, block, 0, s>>>(img.in, tmp, img.height, img.width);
    MEMLAB_CHECK_LAUNCH(row_pass_kernel);
    col_pass_kernel<K, false><<<grid_col, block, 0, s>>>(tmp, img.out, img.height, img.width);
    MEMLAB_CHECK_LAUNCH(col_pass_kernel);
  }
}

// The register variant (separable = false) or the separable one, compiled for mask width K.
template <int K>
void launch_k(bool separable, const Image& img, float* tmp, cudaStream_t s) {
  if (separable) {
    launch_separable<K>(img, tmp, s);
  } else if constexpr (K <= 5) {
    launch_stream<K, rows_for(K)>(img, s);
  } else {
    launch_register<K, rows_for(K), kRegMinBlocks>(img, s);
  }
}

// register_prefetch: register's stream_kernel (K <= 5) with kPrefetchRows rows of L2 prefetch
// ahead of the next row's window.
constexpr int kPrefetchRows = 2;

void launch_prefetch(const Image& img, cudaStream_t s) {
  const auto refuse = [](int k) {
    return std::invalid_argument("conv2d register_prefetch: mask width " + std::to_string(k) +
                                 " (needs 1..5)");
  };
  with_k<1, 3, 5>(img.k, refuse, [&](auto k) {
    constexpr int K = decltype(k)::value;
    launch_stream<K, rows_for(K), kPrefetchRows>(img, s);
  });
}

// register_deep: register's stream_kernel (K <= 5) with the windows loaded kDeepRows rows ahead
// into a ring of kDeepRows + 1 register rows (no prefetch hint): launch_deep_as<rows_for(5), 0>
// (rows_for(k) = 8 for every k <= 5, so the instantiations of launch_stream<K, rows_for(K), 0, 2>).
constexpr int kDeepRows = 2;

// register_deep3 (session 6): register_deep with __launch_bounds__(256, 3) on the 16-byte path as
// well (the 4-byte path is register_deep's own kernel, already at 3 blocks per SM): an 85-register
// cap instead of 64, so ptxas need not squeeze the 3-row ring, 24 warps per SM instead of 32.
// Napkin math (16384^2, K = 5): per warp 2 rows x 512 new DRAM bytes ahead (the lanes' own
// float4s), 24 warps = 24 KB per SM at most (register_deep 32 KB), 3.2 MB on the chip; 95% of
// memcpy needs ~2.0 TB/s of reads x ~1 us = ~15 KB per SM, so still 1.6x covered. Limiter
// attacked: register pressure at the 64-register cap (if ptxas delayed or split loads to fit the
// ring, the SASS of register_deep issues them later than the source asks). Risk: fewer warps to
// hide the FFMA chains and L2 hits; register_strip_ld (24 warps, R = 16) lost 2.5 points.
// Predicted 89-93% of memcpy (541-566 us): level with register_deep at best.
constexpr int kDeep3Blocks = 3;

// register_deep12 (session 6): register_deep (A = 2, 4 blocks per SM, 32 x 8 blocks) with R = 12
// output rows per thread instead of 8 (block tile 128 x 96). Napkin math (16384^2, K = 5): input
// row loads per output row 16 / 12 = 1.33x the image from L2 instead of 12 / 8 = 1.5x (-11% of
// the row-window requests and L1 sectors), the strip's start (2 rows before the first FFMA) and
// end (no loads in the last 2 rows) once per 12 output rows, not 8; registers unchanged (only K
// rows of accumulators are live: the ring, 20 accumulators and addresses, the 64-register cap),
// code 12 x 4 x 25 = 1200 FFMA (~19 KB of SASS; register_deep ~13 KB, register_strip's 26 KB
// did not stall on fetch). Bytes in flight as register_deep (32 KB per SM). Limiter attacked: the
// 1.5x L2 -> SM traffic of the row windows, without the taller ring and 80 registers of
// register_strip_ld (R = 16, 3 ahead, 24 warps: 89.9%). Predicted 92-94% of memcpy (535-547 us).
constexpr int kDeep12Rows = 12;

// kL2p: register_deep_l2p (register_deep with L2::256B window loads on the 16-byte path).
template <int R, int kBlocks, bool kL2p = false>
void launch_deep_as(const Image& img, const char* name, cudaStream_t s) {
  const auto refuse = [name](int k) {
    return std::invalid_argument(std::string("conv2d ") + name + ": mask width " +
                                 std::to_string(k) + " (needs 1..5)");
  };
  with_k<1, 3, 5>(img.k, refuse, [&](auto k) {
    launch_stream<decltype(k)::value, R, 0, kDeepRows, kBlocks, kL2p>(img, s);
  });
}

void dispatch(bool separable, const Image& img, float* tmp, cudaStream_t s) {
  const auto refuse = [](int k) {
    return std::invalid_argument("conv2d: unsupported mask width " + std::to_string(k));
  };
  with_k<1, 3, 5, 7, 9, 11, 13, 15>(
      img.k, refuse, [&](auto k) { launch_k<decltype(k)::value>(separable, img, tmp, s); });
}

// Reference: one thread per output, double accumulation, everything from global memory.
__global__ void reference_kernel(const float* __restrict__ in, const float* __restrict__ mask,
                                 float* __restrict__ out, int height, int width, int k) {
  const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  const int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
  if (x >= width || y >= height) return;
  const int r = k / 2;
  double acc = 0.0;
  for (int i = 0; i < k; ++i) {
    const int yy = y - r + i;
    if (yy < 0 || yy >= height) continue;
    for (int j = 0; j < k; ++j) {
      const int xx = x - r + j;
      if (xx >= 0 && xx < width) {
        acc += static_cast<double>(in[at(yy, xx, width)]) * static_cast<double>(mask[i * k + j]);
      }
    }
  }
  out[at(y, x, width)] = static_cast<float>(acc);
}

dim3 grid_2d(const Image& img, dim3 block) {
  return dim3(blocks_for(static_cast<std::size_t>(img.width), block.x),
              blocks_for(static_cast<std::size_t>(img.height), block.y));
}

}  // namespace

int register_rows(int k) {
  return rows_for(k);
}

int register_deep12_rows() {
  return kDeep12Rows;
}

void upload_mask(const float* mask, const float* row, const float* col, int k) {
  if (k < 1 || k > kMaxMask) throw std::invalid_argument("conv2d: mask width out of range");
  const auto kk = static_cast<std::size_t>(k);
  MEMLAB_CUDA_CHECK(cudaMemcpyToSymbol(c_mask, mask, kk * kk * sizeof(float)));
  if (row != nullptr) MEMLAB_CUDA_CHECK(cudaMemcpyToSymbol(c_row, row, kk * sizeof(float)));
  if (col != nullptr) MEMLAB_CUDA_CHECK(cudaMemcpyToSymbol(c_col, col, kk * sizeof(float)));
  upload_mask_hopper(mask, k);
  upload_mask_rowloop(mask, k);
  upload_mask_strip(mask, k);
  upload_mask_ring(mask, k);
}

void launch(Variant variant, const Image& img, const float* mask, float* tmp, cudaStream_t stream) {
  switch (variant) {
    case Variant::Naive: {
      const dim3 block(32, 8);
      naive_kernel<<<grid_2d(img, block), block, 0, stream>>>(img.in, mask, img.out, img.height,
                                                              img.width, img.k);
      MEMLAB_CHECK_LAUNCH(naive_kernel);
      return;
    }
    case Variant::ConstMask: {
      const dim3 block(32, 8);
      const_mask_kernel<<<grid_2d(img, block), block, 0, stream>>>(img.in, img.out, img.height,
                                                                   img.width, img.k);
      MEMLAB_CHECK_LAUNCH(const_mask_kernel);
      return;
    }
    case Variant::TiledInput: {
      const auto o = static_cast<unsigned>(kTile - img.k + 1);
      const dim3 block(kTile, kTile);
      const dim3 grid(blocks_for(static_cast<std::size_t>(img.width), o),
                      blocks_for(static_cast<std::size_t>(img.height), o));
      tiled_input_kernel<<<grid, block, 0, stream>>>(img.in, img.out, img.height, img.width, img.k);
      MEMLAB_CHECK_LAUNCH(tiled_input_kernel);
      return;
    }
    case Variant::TiledOutput: {
      const dim3 block(kOutW, kOutH);
      tiled_output_kernel<<<grid_2d(img, block), block, 0, stream>>>(img.in, img.out, img.height,
                                                                     img.width, img.k);
      MEMLAB_CHECK_LAUNCH(tiled_output_kernel);
      return;
    }
    case Variant::Register:
      return dispatch(false, img, tmp, stream);
    case Variant::RegisterRowloop:
      return launch_rowloop(img, stream);
    case Variant::RegisterTaps:
      return launch_taps(img, mask, 3, stream);
    case Variant::RegisterTaps2:
      return launch_taps(img, mask, 2, stream);
    case Variant::RegisterPrefetch:
      return launch_prefetch(img, stream);
    case Variant::RegisterDeep:
      return launch_deep_as<rows_for(5), 0>(img, "register_deep", stream);
    case Variant::RegisterDeepL2p:
      return launch_deep_as<rows_for(5), 0, true>(img, "register_deep_l2p", stream);
    case Variant::RegisterDeep3:
      return launch_deep_as<rows_for(5), kDeep3Blocks>(img, "register_deep3", stream);
    case Variant::RegisterDeep12:
      return launch_deep_as<kDeep12Rows, 0>(img, "register_deep12", stream);
    case Variant::RegisterDeepShfl:
      // The 16-byte path shuffles the halo (kernels_strip.cu); width % 4 != 0 runs register_deep's
      // own kernel (launch_stream<K, 8, 0, 2>, the same instantiation as register_deep).
      if (img.width % 4 == 0) return launch_deep_shfl(img, stream);
      return launch_deep_as<rows_for(5), 0>(img, "register_deep_shfl", stream);
    case Variant::SmemRing:  // kernels_ring.cu; width % 4 != 0: register_deep's kernel
      if (img.width % 4 == 0) return launch_ring(img, false, stream);
      return launch_deep_as<rows_for(5), 0>(img, "smem_ring", stream);
    case Variant::SmemRingWave:
      if (img.width % 4 == 0) return launch_ring(img, true, stream);
      return launch_deep_as<rows_for(5), 0>(img, "smem_ring_wave", stream);
    case Variant::RegisterStrip:
      return launch_strip(img, true, false, stream);
    case Variant::RegisterStripLd:
      return launch_strip(img, false, false, stream);
    case Variant::RegisterStripWide:
      return launch_strip(img, true, true, stream);
    case Variant::Separable:
      return dispatch(true, img, tmp, stream);
    case Variant::Tma:
      return launch_hopper(false, img, stream);
    case Variant::Cluster:
      return launch_hopper(true, img, stream);
  }
}

void reference_gpu(const Image& img, const float* mask, cudaStream_t stream) {
  const dim3 block(32, 8);
  reference_kernel<<<grid_2d(img, block), block, 0, stream>>>(img.in, mask, img.out, img.height,
                                                              img.width, img.k);
  MEMLAB_CHECK_LAUNCH(reference_kernel);
}

}  // namespace memlab::lessons::conv2d
