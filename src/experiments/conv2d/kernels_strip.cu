// register_strip and register_strip_ld (issue 23, K <= 5): register_deep's streamed R x 4 tile
// with a taller strip per thread (R = 16 output rows, not 8) and the window loads 3 rows ahead in
// a 4-row register ring (register_deep: 2 ahead, 3 rows). register_strip takes the horizontal
// halo from the neighbouring lanes by warp shuffles: per input row a thread loads only its own
// float4 (LDG.128), and lanes 0 and 31 one float2 more each (the r <= 2 floats left / right of the
// warp's 128 columns, one LDG.64 instruction with 2 active lanes), so a ring slot is 4 + 2 floats.
// register_strip_ld keeps register_deep's window loads (own float4 + 2 halo float4s per row): the
// A/B of the shuffles at the same strip and depth. register_strip_wide is register_strip with
// 256 x 1-thread blocks (1024 columns x 16 rows) instead of 32 x 8 (128 x 128): the A/B of the
// block shape.
//
// Napkin math (H200, 16384^2 fp32, K = 5; register_deep measured 544.8 us = 92.4% of memcpy, ncu
// DRAM 81.4% of peak, long_scoreboard 6.9, occupancy 43.5%; goal 95% = 535 us):
// - L2 -> SM rows: a thread loads R + K - 1 input rows per R output rows: 12 / 8 = 1.5x the image
//   in register_deep, 20 / 16 = 1.25x here (-17% row-window requests; 4 of every 12 rows were
//   re-reads of the neighbouring warp's rows). DRAM bytes are unchanged: 8 bytes per pixel.
// - L1 / LSU per warp and input row: register_deep 3 load instructions (LDG.128 + 2 LDG.64, 16 +
//   17 + 17 sectors for 16 new ones); register_strip 2 (LDG.128, 16 sectors, + one LDG.64 with 2
//   lanes, 2 sectors) and 4 SHFL + 4 SEL at K = 5 (2 at K = 3): 36 instead of 50 sectors. The
//   shuffles cost ~8 issue slots against the row's up to 100 FFMA.
// - Bytes in flight (Little's law): 95% of memcpy = 4.0 TB/s, 2.0 TB/s of reads; at ~1 us loaded
//   latency 2 MB on the chip = 15 KB per SM. Here 3 rows x 512 new bytes per warp ahead = 1.5 KB
//   per warp; at 32 warps per SM (4 blocks of 256, register_strip) up to 48 KB per SM
//   (register_deep 32 KB): the slack absorbs the prologue of each strip (rows 0..3 before the first
//   FFMA) and the epilogue (no loads in the last 3 rows), which a 16-row strip also halves per
//   output row.
// - Registers: K = 5 rows of accumulators live (20) + 4 ring slots x 6 floats (24) + the 8-float
//   window of the current row + addresses: ~60, under the 64-register cap of 4 blocks per SM
//   (ptxas -v: see the launch comments below). register_strip_ld: 4 slots x 8-12 floats.
// - Code: 16 x 4 x 25 = 1600 FFMA, ~26 KB of SASS, fully unrolled (register at K = 15, 57 KB,
//   stalled on instruction fetch; register_deep ~13 KB): the risk of this shape.
// - DRAM order (register_strip_wide): with 32 x 8 blocks a block's 8 warps read 512-byte pieces
//   of 8 rows 16 apart; with 256 x 1 blocks they read 8 adjacent pieces of one row, 4 KB of
//   consecutive bytes, and write 4 KB runs (fewer DRAM pages open per byte; at R = 16 and one row
//   ahead 256 x 1 blocks measured 1.5% faster than 32 x 8, roll_b vs roll_a in docs/conv2d.md).
//   The vertical neighbour strips are then in other blocks: their 4 shared rows are L2 hits, not
//   possible L1 hits.
// - Limiter attacked: the 1.5x L2 -> SM row traffic and the halo sectors (the remaining gap named
//   by the register_deep profile), and strip start-up latency. Predicted: register_strip 93-96%
//   of memcpy (530-545 us), register_strip_ld 92-95% (24 warps per SM), register_strip_wide
//   93-97%. If the shuffles lose to the loads again (as at one row ahead, 579 vs 574 us) the A/B
//   says so; if all three sit at register_deep's 92.4%, the limit is not on the SM side.
// Edges: lanes past the right image edge stay in the warp (zeros) because every lane takes part
// in the shuffles; whole warps below the image return (warp-uniform: one warp per threadIdx.y).
// Zero ghost cells: rows outside the image load zeros, lane 0's left float2 at x0 = 0 and lane
// 31's right float2 past the width are zeros, and a lane right of the last valid lane holds zeros.
// width % 4 != 0: both variants run the window loads with 4-byte loads (no shuffles).
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

#include "common/launch.hpp"
#include "conv2d/kernels_strip.cuh"
#include "conv2d/window.cuh"

namespace memlab::lessons::conv2d {
namespace {

using idx_t = long long;

__constant__ float c_mask_st[kMaxMask * kMaxMask];

constexpr unsigned kFull = 0xffffffffu;
constexpr int kStripRows = kStripRowsPerThread;
constexpr int kStripAhead = 3;  // input rows loaded ahead: a ring of 4

// Floats per ring slot: the own float4 + the edge float2 (shuffles), or register's window.
template <int K, bool kShfl>
constexpr int slot_floats() {
  return kShfl ? 6 : Win<K>::floats;
}

// Input row y into ring slot v: kShfl (16-byte path only) the lane's own float4 at x0 in v[0..3]
// and, for lanes 0 and 31, the float2 at x0 - 2 (left of the warp's columns) or x0 + 4 (right of
// them) in v[4..5]; otherwise register's window [x0 - 4h, x0 + 4 + 4h). Zeros outside the image.
template <int K, bool kShfl, bool kAligned>
__device__ __forceinline__ void load_slot(const float* __restrict__ in, int height, int width,
                                          int y, int x0, int lane,
                                          float (&v)[slot_floats<K, kShfl>()]) {
  if constexpr (kShfl) {
    float4 f = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    float2 g = make_float2(0.0f, 0.0f);
    if (y >= 0 && y < height) {
      const float* row = in + static_cast<idx_t>(y) * width;
      if (x0 < width) f = __ldg(reinterpret_cast<const float4*>(row + x0));
      if constexpr (K / 2 > 0) {
        // width % 4 == 0 and x0 % 4 == 0: xe >= 0 and xe < width put both floats inside.
        const int xe = lane == 0 ? x0 - 2 : x0 + 4;
        if ((lane == 0 || lane == 31) && xe >= 0 && xe < width) {
          g = __ldg(reinterpret_cast<const float2*>(row + xe));
        }
      }
    }
    v[0] = f.x;
    v[1] = f.y;
    v[2] = f.z;
    v[3] = f.w;
    v[4] = g.x;
    v[5] = g.y;
  } else {
    load_row<K, kAligned>(in, height, width, y, x0, v);
  }
}

// The current row's floats x0 - r .. x0 + 3 + r into w from ring slot v.
template <int K, bool kShfl>
__device__ __forceinline__ void window_of(const float (&v)[slot_floats<K, kShfl>()], int lane,
                                          float (&w)[4 + 2 * (K / 2)]) {
  constexpr int r = K / 2;
  if constexpr (kShfl) {
#pragma unroll
    for (int q = 0; q < 4; ++q) w[r + q] = v[q];
#pragma unroll
    for (int j = 0; j < r; ++j) {
      // x0 - r + j: lane - 1's float 4 - r + j; lane 0: its left float2 (x0 - 2, x0 - 1).
      const float left = __shfl_up_sync(kFull, v[4 - r + j], 1);
      w[j] = lane == 0 ? v[4 + 2 - r + j] : left;
      // x0 + 4 + j: lane + 1's float j; lane 31: its right float2 (x0 + 4, x0 + 5).
      const float right = __shfl_down_sync(kFull, v[j], 1);
      w[r + 4 + j] = lane == 31 ? v[4 + j] : right;
    }
  } else {
    (void)lane;
#pragma unroll
    for (int q = 0; q < 4 + 2 * r; ++q) w[q] = v[Win<K>::off + q];
  }
}

// Blocks of kBX x (256 / kBX) threads (kBX = 32 or 256): a warp is 32 consecutive threadIdx.x of
// one threadIdx.y, so its 32 lanes share y0 (warp-uniform row checks) and own 128 consecutive
// columns.
template <int K, int R, int A, bool kShfl, bool kAligned, int kMinBlocks, int kBX>
__global__ void __launch_bounds__(256, kMinBlocks)
    strip_kernel(const float* __restrict__ in, float* __restrict__ out, int height, int width) {
  static_assert(K % 2 == 1 && K <= 5, "the edge float2 covers a halo of r <= 2");
  static_assert(!kShfl || kAligned, "shuffles need the 16-byte path");
  constexpr int r = K / 2, N = R + K - 1, S = A + 1, F = slot_floats<K, kShfl>();
  static_assert(kBX % 32 == 0 && 256 % kBX == 0, "whole warps along x");
  const int lane = static_cast<int>(threadIdx.x) % 32;
  const int x0 = 4 * static_cast<int>(blockIdx.x * kBX + threadIdx.x);
  const int y0 = R * static_cast<int>(blockIdx.y * (256 / kBX) + threadIdx.y);
  if (y0 >= height || x0 - 4 * lane >= width) return;  // warp-uniform: no lane of it inside
  if (!kShfl && x0 >= width) return;                   // no shuffles: lanes past the edge may leave
  const bool stores = x0 < width;  // kShfl: lanes past the edge stay, holding zeros
  float acc[R][4];
  float v[S][F];  // ring: input row t in slot t % S
#pragma unroll
  for (int t = 0; t < A && t < N; ++t) {
    load_slot<K, kShfl, kAligned>(in, height, width, y0 - r + t, x0, lane, v[t]);
  }
#pragma unroll
  for (int iy = 0; iy < N; ++iy) {
    // Slot (iy + A) % S = (iy - 1) % S: its row was last used by the previous iteration.
    if (iy + A < N) {
      load_slot<K, kShfl, kAligned>(in, height, width, y0 - r + iy + A, x0, lane, v[(iy + A) % S]);
    }
    float w[4 + 2 * r];
    window_of<K, kShfl>(v[iy % S], lane, w);
    accumulate_row<K, R, 0>(c_mask_st, w, iy, acc);
    const int o = iy - (K - 1);  // output row completed by this input row
    const int y = y0 + o;
    if (o >= 0 && o < R && y < height && stores) store_quad<kAligned>(out, width, y, x0, acc[o]);
  }
}

// Blocks per SM, from ptxas -v (sm_90): the shuffle kernel fits the 64-register cap of 4 blocks
// (64 registers at K = 5 and 3, 50 at K = 1, 0 spills); the window-load kernels take 3 blocks
// (85-register cap): 80 / 72 / 72 registers on the 16-byte path, 80 / 62 / 48 on the 4-byte one
// (K = 5 / 3 / 1, 0 spills; the same for both block shapes).
constexpr int strip_min_blocks(bool shfl, bool aligned) {
  return shfl && aligned ? 4 : 3;
}

template <int K, bool kShfl, int kBX>
void launch_k_strip(const Image& img, cudaStream_t s) {
  constexpr int R = kStripRows, A = kStripAhead;
  const dim3 block(kBX, 256 / kBX);
  const dim3 grid(blocks_for(static_cast<std::size_t>(img.width), 4 * kBX),
                  blocks_for(static_cast<std::size_t>(img.height), (256 / kBX) * R));
  if (img.width % 4 == 0) {
    strip_kernel<K, R, A, kShfl, true, strip_min_blocks(kShfl, true), kBX>
        <<<grid, block, 0, s>>>(img.in, img.out, img.height, img.width);
  } else {
    strip_kernel<K, R, A, false, false, strip_min_blocks(false, false), kBX>
        <<<grid, block, 0, s>>>(img.in, img.out, img.height, img.width);
  }
  MEMLAB_CHECK_LAUNCH(strip_kernel);
}

template <bool kShfl, int kBX>
void launch_strip_k(const Image& img, cudaStream_t s) {
  const auto refuse = [](int k) {
    return std::invalid_argument("conv2d register_strip: mask width " + std::to_string(k) +
                                 " (needs 1..5)");
  };
  with_k<1, 3, 5>(img.k, refuse,
                  [&](auto k) { launch_k_strip<decltype(k)::value, kShfl, kBX>(img, s); });
}

// ---- register_deep_shfl (session 6, round 2, K <= 5, 16-byte path only) ----
// register_deep's shape exactly: R = 8 output rows per thread, 32 x 8-thread blocks (128 x 64
// outputs), the windows loaded 2 rows ahead into a 3-row ring, early streaming stores, K rows of
// accumulators live, __launch_bounds__(256, 4); the horizontal halo by register_strip's warp
// shuffles (strip_kernel<K, 8, 2, true, ...>: the same kernel template as register_strip, at
// register_deep's R and depth) instead of register_deep's two halo loads per row.
// Napkin math (H200, 16384^2 fp32, K = 5; register_deep 544.8 us = 92.4% of memcpy, DRAM 81.4%;
// 95% = 535 us):
// - Load instructions per thread and input row: register_deep 3 (LDG.128 own + 2 halo, LDG.128 or
//   .64 after ptxas narrows them), here 1 LDG.128 + 1 LDG.64 that only lanes 0 and 31 run (the 2
//   floats left / right of the warp's 128 columns). Per output row (12 / 8 input rows): 4.5 warp
//   load instructions -> 3.
// - L1 sectors per warp and input row: 16 + 17 + 17 = 50 -> 16 + 2 = 18; per output row 75 -> 27.
//   L2 -> SM bytes per warp and output row: 1.5 x 512 = 768 new bytes either way (the vertical
//   re-reads of R = 8 stay: 12 input rows per 8 output rows), plus register_deep's halo sectors
//   where they miss L1 (up to 1.5 x 34 x 32 = 1632 B more) against 1.5 x 64 = 96 B here (the two
//   edge sectors).
// - Shuffles per thread and input row: 2r = 4 SHFL + 4 SEL at K = 5 (2 + 2 at K = 3, none at
//   K = 1): 48 SHFL per thread per strip against 800 FFMA (8 x 4 x 25); the FMA pipe was 41.5%
//   busy in register_deep. The edge taps of a row now wait on the load plus a shuffle (~+30
//   cycles on the chain), covered by the 2 rows ahead.
// - Registers: ring 3 x 6 floats = 18 (register_deep 3 x 12, or 3 x 8 narrowed) + the 8-float
//   window + 20 accumulators + addresses: under the 64-register cap of 4 blocks per SM (ptxas -v:
//   see kDeepShflBlocks). Bytes in flight as register_deep: 2 rows x 512 B per warp, 32 warps =
//   32 KB per SM at most.
// - Limiter attacked: the L1 / LSU side of the row windows (the halo sectors), at register_deep's
//   occupancy and depth, which register_strip (R = 16, 3 ahead) did not isolate: register_strip
//   lost 4 points to register_strip_ld at a taller strip (and an earlier one-row-ahead shuffle
//   try measured 579 against 574 us), so this is the clean A/B of the shuffles against
//   register_deep. Predicted 90-94% of memcpy (537-560 us); at or under 92.4% says the halo
//   loads were not the limit.
// width % 4 != 0: register_deep's own kernel (kernels.cu dispatches; launch_deep_shfl refuses it).
constexpr int kDeepShflRows = 8;    // register_deep's R at K <= 5
constexpr int kDeepShflAhead = 2;   // register_deep's depth: a 3-row ring
constexpr int kDeepShflBlocks = 4;  // ptxas -v (sm_90): 64 / 62 / 46 registers, 0 spills (K 5/3/1)

template <int K>
void launch_k_deep_shfl(const Image& img, cudaStream_t s) {
  const dim3 block(32, 8);
  const dim3 grid(blocks_for(static_cast<std::size_t>(img.width), 4 * 32),
                  blocks_for(static_cast<std::size_t>(img.height), 8 * kDeepShflRows));
  strip_kernel<K, kDeepShflRows, kDeepShflAhead, true, true, kDeepShflBlocks, 32>
      <<<grid, block, 0, s>>>(img.in, img.out, img.height, img.width);
  MEMLAB_CHECK_LAUNCH(strip_kernel);
}

}  // namespace

void launch_deep_shfl(const Image& img, cudaStream_t stream) {
  if (img.width % 4 != 0) {
    throw std::invalid_argument(
        "conv2d register_deep_shfl: the shuffle kernel needs width % 4 == 0");
  }
  const auto refuse = [](int k) {
    return std::invalid_argument("conv2d register_deep_shfl: mask width " + std::to_string(k) +
                                 " (needs 1..5)");
  };
  with_k<1, 3, 5>(img.k, refuse,
                  [&](auto k) { launch_k_deep_shfl<decltype(k)::value>(img, stream); });
}

void upload_mask_strip(const float* mask, int k) {
  const auto kk = static_cast<std::size_t>(k);
  MEMLAB_CUDA_CHECK(cudaMemcpyToSymbol(c_mask_st, mask, kk * kk * sizeof(float)));
}

void launch_strip(const Image& img, bool shfl, bool wide, cudaStream_t stream) {
  if (wide) return launch_strip_k<true, 256>(img, stream);
  if (shfl) return launch_strip_k<true, 32>(img, stream);
  return launch_strip_k<false, 32>(img, stream);
}

}  // namespace memlab::lessons::conv2d
