// transpose, issue 23 round five: tile128_f4, a real transpose with 128 x 128 tiles.
//
// What it changes against tile64_f4: each block reads 128 in rows x 512 B and writes 128 out rows
// x 512 B (tile64_f4: 64 x 256 B), the run length tile_swap128 (kernels_swap.cu) measures as an
// address-stream ceiling beside tile_swap's 256 B. The in-SM work per byte is tile64_f4's: one
// scalar shared store and one scalar column read per float, one __syncthreads per tile, now per
// 64 KiB instead of 16 KiB.
//
// Shape: 512 threads (16 warps), 8 float4 loads per thread before the barrier (64 KiB per block
// in flight) and 8 float4 stores after it. Shared tile 128 x 129 floats = 66,048 B (dynamic,
// above the 48 KiB static limit): 3 blocks per SM (193.5 KiB + 3 KiB reserved of 228 KiB), 1536
// threads (75% occupancy), up to 192 KiB of loads in flight per SM (Little's law wants ~25 KB).
// __launch_bounds__(512, 3) caps registers at 40 (65,536 / 1536 = 42, allocated in 8s).
//
// Napkin math (16384^2, 2 GiB): its ceiling is about tile_swap128's rate (the same addresses per
// block, 512 instead of 1024 threads); copy's 4197 GB/s is 0.512 ms, tile64_f4's 3871 GB/s 0.555
// ms. 16,384 tiles over 396 resident blocks: 41.4 waves (the last
// 37% full: ~1.5% tail). The resident band: 396 tiles = ~3.1 tile rows of the 128-tile-wide
// grid, i.e. ~396 in rows read whole and ~1.5 KiB per out row at a time (tile64_f4: ~1 KiB).
// Shared-memory pipe: per 16 B moved, 4 scalar STS + 4 scalar LDS, each warp access one
// conflict-free wavefront: tile64_f4's count per byte. The risk is tile64_f4_deep's (measured
// 83.5%, ncu mio_throttle 72): 48 warps per SM (tile64_f4: 64) that each issue 32 scalar STS in
// a burst once their 8 loads land, then 32 LDS after the barrier, can fill the MIO queue.
// Predicted: 84-92% of cudaMemcpy at 16384^2; above tile64_f4 (90.7%) only if tile_swap128
// shows the 512-byte runs raise the address-stream ceiling and the MIO risk does not bite.
//
// Banks (row stride 129 = 1 mod 32): lane l of warp w, j = l % 8 + 8 (w % 4) (float4 of a 32-float4
// row), q = l / 8 + 4 (w / 4) (row of a 16-row step), 8 steps. Load phase: scalar stores at banks
// (row + 4 j + e) mod 32 = (const + l / 8 + 4 (l % 8) + e) mod 32: 32 distinct. Store phase: out
// row c0 + c, c = q + 16 k, float4 j = in rows r0 + 4 j .. + 3: column reads at (4 j + i + c) mod
// 32 = (const + 4 (l % 8) + l / 8 + i) mod 32: 32 distinct. Each warp access is 4 rows x 128 B, 4
// warps side by side make a row's 512 B. Edge tiles and rows/cols not multiples of 4 take the
// scalar path (element by element through the same tile; row reads stride 1, column reads stride
// 129: conflict-free).
#include <cuda_runtime.h>

#include "common/launch.hpp"
#include "transpose/kernels.cuh"
#include "transpose/tile_io.cuh"

namespace memlab::lessons::transpose {
namespace {

constexpr int kT = 128;     // tile edge
constexpr int kP = kT + 1;  // padded row stride
constexpr int kThreads = 512;
constexpr int kWarpsPerRow = kT / 4 / 8;                          // 4: 8 float4 per warp row
constexpr int kRowsPerStep = 4 * (kThreads / 32 / kWarpsPerRow);  // 16
constexpr int kSteps = kT / kRowsPerStep;                         // 8
constexpr int kSmem = kT * kP * static_cast<int>(sizeof(float));  // 66,048 B
static_assert(kSteps * kRowsPerStep == kT && kSteps * kThreads * 4 == kT * kT, "mapping");

__global__ void __launch_bounds__(kThreads, 3)
    tile128_f4(const float* __restrict__ in, float* __restrict__ out, int rows, int cols,
               bool vec) {
  extern __shared__ float tile[];  // kT x kP
  const int t = static_cast<int>(threadIdx.x);
  const int r0 = static_cast<int>(blockIdx.y) * kT, c0 = static_cast<int>(blockIdx.x) * kT;
  const bool full = vec && r0 + kT <= rows && c0 + kT <= cols;
  const int lane = t % 32, warp = t / 32;
  const int j = lane % 8 + 8 * (warp % kWarpsPerRow), q = lane / 8 + 4 * (warp / kWarpsPerRow);
  if (full) {
    float4 v[kSteps];
    load_rows_f4<kSteps, kRowsPerStep>(v, in, r0, c0, q, j, cols);
    rows_to_tile<kSteps, kRowsPerStep, kP>(v, tile, q, j);
  } else {
    for (int e = t; e < kT * kT; e += kThreads) {
      const int r = e / kT, c = e % kT;
      if (r0 + r < rows && c0 + c < cols) tile[r * kP + c] = in[at(r0 + r, c0 + c, cols)];
    }
  }
  __syncthreads();
  if (full) {
    // Out row c0 + c (= in column c0 + c), float4 j covers in rows r0 + 4j .. 4j + 3.
    tile_columns_to_out<kSteps, kRowsPerStep, kP>(tile, out, r0, c0, q, j, rows);
  } else {
    for (int e = t; e < kT * kT; e += kThreads) {
      const int c = e / kT, r = e % kT;
      if (r0 + r < rows && c0 + c < cols) out[at(c0 + c, r0 + r, rows)] = tile[r * kP + c];
    }
  }
}

}  // namespace

void launch_tile128_f4(const float* in, float* out, int rows, int cols, cudaStream_t s) {
  // Per launch, not once per process: the attribute belongs to the current device.
  MEMLAB_CUDA_CHECK(
      cudaFuncSetAttribute(tile128_f4, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmem));
  tile128_f4<<<grid_for(rows, cols, kT), kThreads, kSmem, s>>>(in, out, rows, cols,
                                                               float4_rows(rows, cols));
  MEMLAB_CHECK_LAUNCH(tile128_f4);
}

}  // namespace memlab::lessons::transpose
