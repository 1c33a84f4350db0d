#include <cuda_runtime.h>

#include <stdexcept>

#include "common/launch.hpp"
#include "transpose/kernels.cuh"
#include "transpose/tile_io.cuh"

namespace memlab::lessons::transpose {
namespace {

constexpr int kT = 32;  // tile edge of the 32x32 variants
constexpr int kBigT = 64, kBigP = 65;

// One element per thread: coalesced 4-byte loads, stores rows*4 bytes apart across the warp.
__global__ void naive(const float* __restrict__ in, float* __restrict__ out, int rows, int cols) {
  const int c = static_cast<int>(blockIdx.x) * kT + static_cast<int>(threadIdx.x);
  const int r = static_cast<int>(blockIdx.y) * kT + static_cast<int>(threadIdx.y);
  if (r < rows && c < cols) out[at(c, r, rows)] = in[at(r, c, cols)];
}

// Tile through shared memory: row in, row out; the tile column read has stride 32 + Pad words,
// i.e. a (32 / gcd(32 + Pad, 32))-way bank conflict: 32-way for Pad 0, none for Pad 1.
template <int Pad>
__global__ void tiled(const float* __restrict__ in, float* __restrict__ out, int rows, int cols) {
  __shared__ float tile[kT][kT + Pad];
  const int tx = static_cast<int>(threadIdx.x), ty = static_cast<int>(threadIdx.y);
  const int r0 = static_cast<int>(blockIdx.y) * kT, c0 = static_cast<int>(blockIdx.x) * kT;
  if (r0 + ty < rows && c0 + tx < cols) tile[ty][tx] = in[at(r0 + ty, c0 + tx, cols)];
  __syncthreads();
  // out[c0 + ty][r0 + tx] = in[r0 + tx][c0 + ty]
  if (c0 + ty < cols && r0 + tx < rows) out[at(c0 + ty, r0 + tx, rows)] = tile[tx][ty];
}

// 32x8 threads, each moves rows ty, ty + 8, ty + 16, ty + 24 of the tile (padded, conflict-free).
// A block whose tile lies inside the matrix (every tile of a size that is a multiple of 32) tests
// that once instead of at each of its four rows, as NVIDIA's cuda-samples transpose (which takes
// only such sizes) does not test at all (docs/transpose.md, "Fair baselines").
__global__ void padded_coarse(const float* __restrict__ in, float* __restrict__ out, int rows,
                              int cols) {
  __shared__ float tile[kT][kT + 1];
  const int tx = static_cast<int>(threadIdx.x), ty = static_cast<int>(threadIdx.y);
  const int r0 = static_cast<int>(blockIdx.y) * kT, c0 = static_cast<int>(blockIdx.x) * kT;
  const bool full = r0 + kT <= rows && c0 + kT <= cols;
#pragma unroll
  for (int k = 0; k < kT; k += 8) {
    if (full || (r0 + ty + k < rows && c0 + tx < cols)) {
      tile[ty + k][tx] = in[at(r0 + ty + k, c0 + tx, cols)];
    }
  }
  __syncthreads();
#pragma unroll
  for (int k = 0; k < kT; k += 8) {
    if (full || (c0 + ty + k < cols && r0 + tx < rows)) {
      out[at(c0 + ty + k, r0 + tx, rows)] = tile[tx][ty + k];
    }
  }
}

// The ceiling: the same 32x8-thread, 4-rows-per-thread shape copying in to out unchanged (and the
// same one test per full tile).
__global__ void copy_tile(const float* __restrict__ in, float* __restrict__ out, int rows,
                          int cols) {
  const int tx = static_cast<int>(threadIdx.x), ty = static_cast<int>(threadIdx.y);
  const int r0 = static_cast<int>(blockIdx.y) * kT, c0 = static_cast<int>(blockIdx.x) * kT;
  const bool full = r0 + kT <= rows && c0 + kT <= cols;
#pragma unroll
  for (int k = 0; k < kT; k += 8) {
    if (full || (r0 + ty + k < rows && c0 + tx < cols)) {
      out[at(r0 + ty + k, c0 + tx, cols)] = in[at(r0 + ty + k, c0 + tx, cols)];
    }
  }
}

// 64x64 tile, 256 threads. Thread t, lane l = t % 32, warp w = t / 32:
//   j = l % 8 + 8 (w % 2)   which float4 of a 64-float row (0..15)
//   q = l / 8 + 4 (w / 2)   which row of a 16-row step (0..15); steps k = 0..3 add 16 k.
// A warp covers 4 rows x 8 float4: four full 128-byte lines per global access, and its scalar
// shared accesses (row stride 65) fall in banks (row + 4 j + e) mod 32: 32 distinct banks.
// `vec` (rows and cols multiples of 4: every row starts 16-byte aligned) and a full tile select
// the float4 path; otherwise the block moves its tile element by element.
__global__ void __launch_bounds__(256)
    tile64_f4(const float* __restrict__ in, float* __restrict__ out, int rows, int cols, bool vec) {
  __shared__ float tile[kBigT * kBigP];
  const int t = static_cast<int>(threadIdx.x);
  const int r0 = static_cast<int>(blockIdx.y) * kBigT, c0 = static_cast<int>(blockIdx.x) * kBigT;
  const bool full = vec && r0 + kBigT <= rows && c0 + kBigT <= cols;
  const int lane = t % 32, warp = t / 32;
  const int j = lane % 8 + 8 * (warp % 2), q = lane / 8 + 4 * (warp / 2);
  if (full) {
    float4 v[4];
    load_rows_f4<4, 16>(v, in, r0, c0, q, j, cols);
    rows_to_tile<4, 16, kBigP>(v, tile, q, j);
  } else {
    for (int e = t; e < kBigT * kBigT; e += 256) {
      const int r = e / kBigT, c = e % kBigT;
      if (r0 + r < rows && c0 + c < cols) tile[r * kBigP + c] = in[at(r0 + r, c0 + c, cols)];
    }
  }
  __syncthreads();
  if (full) {
    // Out row c0 + c (= in column), float4 j covers in rows r0 + 4j .. 4j + 3.
    tile_columns_to_out<4, 16, kBigP>(tile, out, r0, c0, q, j, rows);
  } else {
    for (int e = t; e < kBigT * kBigT; e += 256) {
      const int c = e / kBigT, r = e % kBigT;
      if (r0 + r < rows && c0 + c < cols) out[at(c0 + c, r0 + r, rows)] = tile[r * kBigP + c];
    }
  }
}

}  // namespace

void launch(Variant variant, const float* in, float* out, int rows, int cols, cudaStream_t s) {
  const dim3 grid = grid_for(rows, cols, kT);
  switch (variant) {
    case Variant::Naive:
      naive<<<grid, dim3(kT, kT), 0, s>>>(in, out, rows, cols);
      MEMLAB_CHECK_LAUNCH(naive);
      return;
    case Variant::Smem:
      tiled<0><<<grid, dim3(kT, kT), 0, s>>>(in, out, rows, cols);
      MEMLAB_CHECK_LAUNCH(tiled_32x32);
      return;
    case Variant::SmemPadded:
      tiled<1><<<grid, dim3(kT, kT), 0, s>>>(in, out, rows, cols);
      MEMLAB_CHECK_LAUNCH(tiled_32x33);
      return;
    case Variant::PaddedCoarse:
      padded_coarse<<<grid, dim3(kT, 8), 0, s>>>(in, out, rows, cols);
      MEMLAB_CHECK_LAUNCH(padded_coarse);
      return;
    case Variant::Tile64F4: {
      const bool vec = float4_rows(rows, cols);
      tile64_f4<<<grid_for(rows, cols, kBigT), 256, 0, s>>>(in, out, rows, cols, vec);
      MEMLAB_CHECK_LAUNCH(tile64_f4);
      return;
    }
    case Variant::Tile64F4Grouped:
      launch_tile64_grouped(in, out, rows, cols, s);
      return;
    case Variant::Tile64F4Deep:
      launch_tile64_deep(in, out, rows, cols, s);
      return;
    case Variant::Tile64F4G32:
      launch_tile64_g32(in, out, rows, cols, s);
      return;
    case Variant::Tile64S:
      launch_tile64_s(in, out, rows, cols, s);
      return;
    case Variant::Tile64SFull:
      launch_tile64_s_full(in, out, rows, cols, s);
      return;
    case Variant::Tile64SRows:
      launch_tile64_s_rows(in, out, rows, cols, s);
      return;
    case Variant::Tile64SRows32:
      launch_tile64_s_rows32(in, out, rows, cols, s);
      return;
    case Variant::Tile64SCol:
      launch_tile64_s_col(in, out, rows, cols, s);
      return;
    case Variant::Tile64SL2p:
      launch_tile64_s_l2p(in, out, rows, cols, s);
      return;
    case Variant::Tile64SColL2p:
      launch_tile64_s_col_l2p(in, out, rows, cols, s);
      return;
    case Variant::Tile128F4:
      launch_tile128_f4(in, out, rows, cols, s);
      return;
    case Variant::Tile64F4Pipe:
      launch_tile64_pipe(in, out, rows, cols, s);
      return;
    case Variant::Tma:
      launch_tma(in, out, rows, cols, s);
      return;
    case Variant::TmaPipelined:
      launch_tma_pipelined(in, out, rows, cols, s);
      return;
    case Variant::TmaPipelinedMany:
      launch_tma_pipelined_many(in, out, rows, cols, s);
      return;
    case Variant::TmaWs:
      launch_tma_ws(in, out, rows, cols, s);
      return;
    case Variant::TileSwap:
      launch_tile_swap(in, out, rows, cols, s);
      return;
    case Variant::TileSwapPipe:
      launch_tile_swap_pipe(in, out, rows, cols, s);
      return;
    case Variant::TileSwap128:
      launch_tile_swap128(in, out, rows, cols, s);
      return;
    case Variant::TileSwapG32:
      launch_tile_swap_g32(in, out, rows, cols, s);
      return;
    case Variant::TileCopy:
      launch_tile_copy(in, out, rows, cols, s);
      return;
    case Variant::TileMirror:
      launch_tile_mirror(in, out, rows, cols, s);
      return;
    case Variant::Cublas:
      throw std::logic_error("transpose: cublas is not one of memlab's kernels (see vendor.hpp)");
    case Variant::Copy:
      copy_tile<<<grid, dim3(kT, 8), 0, s>>>(in, out, rows, cols);
      MEMLAB_CHECK_LAUNCH(copy_tile);
      return;
  }
}

}  // namespace memlab::lessons::transpose
