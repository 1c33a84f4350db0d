// transpose, issue 23 round three: tile64_f4's tile on a grouped block raster, and a deeper tile.
//
// What it does to memory: the same as tile64_f4 (every useful byte once in and once out, whole
// 128-byte lines each way through a 65-float padded shared tile), in a different order.
//
// Raster: tile64_f4 launches a 2D grid, so consecutive block ids walk one tile row of `in` (the
// ~1056 resident blocks at 16384^2 cover about 4 tile rows x 256 tile columns): the reads stream
// along whole rows of `in`, but each row of `out` receives only ~4 tiles x 256 B = 1 KiB from
// the resident blocks, scattered over 256 out rows 64 KiB apart. Here the grid is 1D and block b
// takes tile (tr, tc) of a band-of-squares raster: bands of G tile rows, each cut into squares of
// G x G tiles in column order, tiles row-major inside a square. With G = 8, every 64 consecutive
// blocks cover a 512 x 512 square: 8 tiles x 256 B = 2 KiB contiguous per in row and per out row,
// and consecutive squares continue along the same 512 in rows.
//
// Deep tile (R = 2): 128 in rows x 64 in cols per block, 256 threads, 8 independent float4
// loads per thread before the barrier (32 KiB per block in flight instead of 16 KiB) and 8 float4
// stores after it; each out row receives 512 contiguous bytes per tile. 33 KiB of shared memory:
// 6 blocks per SM.
//
// G = 32 (round six b, `tile64_f4_g32`: tile_grouped<1, 32>, the same kernel): the question is
// the write order of the RESIDENT SET, not of one block. At 16384^2 (256 x 256 tiles) the H200
// holds ~1056 blocks (8 per SM x 132: 16.6 KiB of shared memory and 256 threads each), and
// blocks retire roughly in id order, so the resident set is a window of ~1056 consecutive ids:
//   tile64_f4 (2D grid, row-major tiles): ~4.1 tile rows = ~264 in rows x 64 KiB (whole rows);
//     writes reach all 16384 out rows, ~1 KiB contiguous each (264 in rows x 4 B), 64 KiB apart.
//   G = 8 (64 blocks per 512 x 512 square): ~16.5 squares along one band = 512 in rows x ~33 KiB;
//     writes reach ~8448 out rows, 2 KiB contiguous each (512 x 4 B).
//   G = 32 (1024 blocks per 2048 x 2048 square; 32 consecutive blocks = one tile row of a square
//     = 64 in rows x 8 KiB, written as 256 B into each of 2048 out rows): ~33 such tile rows, ~1
//     square (the tail of one and the head of the next) = ~2112 in rows x 8 KiB; writes reach
//     2048 out rows with ~8 KiB each when the window is one square, up to 4096 with 4 KiB each
//     when it straddles two.
// The bytes in the window are the same (~16.5 MiB each way, a third of the 50 MiB L2); what
// changes is how many out rows share them: 16384 -> 8448 -> 2048-4096, i.e. 4-8x fewer open
// write streams than tile64_f4 and 4-8 KiB runs per out row, 2-4x G = 8's. Reads pay the mirror
// image: 64 KiB runs -> 33 KiB -> 8 KiB per in row (8 KiB is still 64 whole 128-byte lines per row,
// far above a DRAM page). Same tile, registers and occupancy as tile64_f4_grouped (the raster's
// arithmetic differs only in the constant).
//
// Banks (R = 1 is tile64_f4's mapping): a warp loads 4 in rows x 8 float4 and stores its scalars
// at (row + 4 j + e) mod 32: 32 distinct banks; it stores 4 out rows x 8 float4, reading column
// words at (4 j + c + e) mod 32 (row stride 65 = 1 mod 32): 32 distinct banks. For R = 2 the
// store phase's j spans 32 float4 (l % 8 + 8 (w % 4)); 4 j mod 32 depends only on l % 8, so the
// same argument holds.
#include <cuda_runtime.h>

#include "common/launch.hpp"
#include "transpose/kernels.cuh"
#include "transpose/raster.cuh"
#include "transpose/tile_io.cuh"

namespace memlab::lessons::transpose {
namespace {

constexpr int kW = 64;      // tile width in `in` columns (= out rows)
constexpr int kP = kW + 1;  // padded row stride of the shared tile
constexpr int kThreads = 256;

// A (64 R) x 64 tile of `in` per block: rows r0 .. r0 + 64 R, cols c0 .. c0 + 64. Thread t, lane
// l, warp w. Load phase: j = l % 8 + 8 (w % 2) (float4 of a 64-float in row), q = l / 8 + 4 (w / 2)
// (row of a 16-row step), 4 R steps. Store phase: out row c0 + c holds in rows r0 .. r0 + 64 R,
// i.e. 16 R float4: j = l % 8 + 8 (w % (2 R)), q = l / 8 + 4 (w / (2 R)) (16 / R out rows per
// step), 4 R steps. `vec` (rows, cols multiples of 4) and a full tile select the float4 path;
// otherwise the block moves its tile element by element.
template <int R, unsigned G>
__global__ void __launch_bounds__(kThreads)
    tile_grouped(const float* __restrict__ in, float* __restrict__ out, int rows, int cols,
                 unsigned tiles_r, unsigned tiles_c, bool vec) {
  constexpr int kH = kW * R;        // tile height in `in` rows
  constexpr int kSteps = 4 * R;     // float4 per thread per phase
  constexpr int kOutStep = 16 / R;  // out rows per store step
  __shared__ float tile[kH * kP];
  unsigned tr = 0, tc = 0;
  grouped_tile<G>(blockIdx.x, tiles_r, tiles_c, tr, tc);
  const int t = static_cast<int>(threadIdx.x);
  const int r0 = static_cast<int>(tr) * kH, c0 = static_cast<int>(tc) * kW;
  const bool full = vec && r0 + kH <= rows && c0 + kW <= cols;
  const int lane = t % 32, warp = t / 32;
  if (full) {
    const int j = lane % 8 + 8 * (warp % 2), q = lane / 8 + 4 * (warp / 2);
    float4 v[kSteps];
    load_rows_f4<kSteps, 16>(v, in, r0, c0, q, j, cols);
    rows_to_tile<kSteps, 16, kP>(v, tile, q, j);
  } else {
    for (int e = t; e < kH * kW; e += kThreads) {
      const int r = e / kW, c = e % kW;
      if (r0 + r < rows && c0 + c < cols) tile[r * kP + c] = in[at(r0 + r, c0 + c, cols)];
    }
  }
  __syncthreads();
  if (full) {
    const int j = lane % 8 + 8 * (warp % (2 * R)), q = lane / 8 + 4 * (warp / (2 * R));
    // Out row c0 + c (= in column c0 + c), float4 j covers in rows r0 + 4j .. 4j + 3.
    tile_columns_to_out<kSteps, kOutStep, kP>(tile, out, r0, c0, q, j, rows);
  } else {
    for (int e = t; e < kH * kW; e += kThreads) {
      const int c = e / kH, r = e % kH;
      if (r0 + r < rows && c0 + c < cols) out[at(c0 + c, r0 + r, rows)] = tile[r * kP + c];
    }
  }
}

template <int R, unsigned G>
void launch_grouped(const float* in, float* out, int rows, int cols, cudaStream_t s) {
  const unsigned tiles_r = blocks_for(static_cast<std::size_t>(rows), kW * R);
  const unsigned tiles_c = blocks_for(static_cast<std::size_t>(cols), kW);
  const bool vec = float4_rows(rows, cols);
  tile_grouped<R, G>
      <<<tiles_r * tiles_c, kThreads, 0, s>>>(in, out, rows, cols, tiles_r, tiles_c, vec);
}

}  // namespace

void launch_tile64_grouped(const float* in, float* out, int rows, int cols, cudaStream_t s) {
  launch_grouped<1, kGroup>(in, out, rows, cols, s);
  MEMLAB_CHECK_LAUNCH(tile64_f4_grouped);
}

void launch_tile64_deep(const float* in, float* out, int rows, int cols, cudaStream_t s) {
  launch_grouped<2, kGroup>(in, out, rows, cols, s);
  MEMLAB_CHECK_LAUNCH(tile64_f4_deep);
}

void launch_tile64_g32(const float* in, float* out, int rows, int cols, cudaStream_t s) {
  launch_grouped<1, kGroup32>(in, out, rows, cols, s);
  MEMLAB_CHECK_LAUNCH(tile64_f4_g32);
}

}  // namespace memlab::lessons::transpose
