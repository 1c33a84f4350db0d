// transpose, issue 23 round six: tile64_f4_pipe, tile64_f4 on a persistent, software-pipelined
// grid.
//
// What it changes against tile64_f4 (kernels.cu): the same 64 x 64 tile, 65-float padded rows,
// 256 threads, warp mapping (warp = 4 rows x 8 float4: j = l % 8 + 8 (w % 2), q = l / 8 + 4 (w /
// 2), 4 steps of 16 rows) and so the same conflict-free banks and the same global addresses per
// tile; but instead of one tile per block (load, wait, shared stores, barrier, column reads,
// stores, exit) a persistent grid (the occupancy API's 6 blocks per SM x SMs, clamped to the
// tiles) walks the tiles grid-stride in row-major tile order (tile i = blockIdx.x + m gridDim.x,
// tile64_f4's blockIdx order), and each block keeps its next tile's loads in flight while it
// finishes the current one: per tile, the thread (1) stores its 4 float4 of tile i (loaded in the
// previous step) into shared tile i % 2 as 16 scalar stores, (2) issues the 4 float4 loads of its
// next tile into the same registers, (3) __syncthreads, (4) reads its 4 columns of tile i % 2 and
// stores the 4 float4 to out. The loads of step (2) are in flight through (3), (4) and the loop
// back; the only wait on them is at the next step's (1).
//
// Choice: two shared tiles and one barrier per tile, not one tile and two. With two tiles the
// barrier of step m orders both the writes of tile m % 2 before its reads and the reads of tile
// (m - 1) % 2 (step m - 1's (4), done by every thread before it arrives) before step m + 1
// writes it; one tile would need a second barrier per tile before (1). And a register double
// buffer in the literal sense (the next tile's loads issued before step (1), i.e. two sets of 16
// floats live at once): ptxas takes 70 registers for it and spills 44 bytes at the 40 that 6
// blocks allow; issuing them right after (1), into the registers (1) has just read, costs the
// overlap of 16 shared stores only. ptxas: 40 registers, no spills, 1 barrier, 33,280 B of
// shared memory.
//
// Napkin math (16384^2, 2 GiB of useful traffic; copy 4197 GB/s = 0.512 ms, tile64_f4 3871 GB/s =
// 0.555 ms). Resident: shared memory 33,280 + 1,024 B reserved per block, so 6 blocks per SM
// (205,824 B of 228 KiB; 7 would need 240,128 B); registers 40 x 1536 = 61,440 of 65,536; 1536
// threads (75% occupancy, 48 warps; tile64_f4: 64). 792 blocks on 132 SMs: 65,536 tiles = ~82.7
// per block (the last round 75% full: ~0.3% tail). Loads in flight per SM: 6 x 16 KiB = 96 KiB
// at almost all times (Little's law wants ~25 KB; tile64_f4 has up to 128 KiB, but each block's
// only while it waits for them). The resident set covers ~792 consecutive tiles = ~3.1 tile rows
// of the 256-tile-wide grid: each out row receives ~3 tiles x 256 B at a time, runs 64 KiB apart
// (tile64_f4 ~4). Shared-memory pipe per 16 B moved: 4 scalar STS + 4 scalar LDS, each warp
// access one wavefront (tile64_f4's count); the second tile starts 64 x 65 = 4160 words = 0 mod 32
// further, so its banks are the first's. Barriers: one per 16 KiB tile, as tile64_f4.
// Predicted: with the tile_swap_pipe reading (kernels_swap.cu): if tile_swap_pipe reaches ~97-100%
// of memcpy (the write order is no ceiling), 92-96% (above tile64_f4's 90.7%; the risk is the MIO
// queue with 48 warps, tile64_f4_deep's 72 cycles); if tile_swap_pipe stays ~87-91% (the order is
// the ceiling), 87-91%, about tile64_f4.
//
// Edges: a tile that is not whole or with rows/cols not multiples of 4 goes through the same
// shared tile element by element (row reads stride 1, column reads stride 65: conflict-free), its
// loops kept rolled so they hold no registers beside the next tile's float4 (the load loop
// unrolled spills 4 bytes at 40 registers); the next tile's float4 loads still go out before its
// barrier.
#include <cuda_runtime.h>

#include "common/launch.hpp"
#include "transpose/kernels.cuh"
#include "transpose/persistent.cuh"
#include "transpose/tile_io.cuh"

namespace memlab::lessons::transpose {
namespace {

constexpr int kT = 64;      // tile edge
constexpr int kP = kT + 1;  // padded row stride of a shared tile
constexpr int kThreads = 256;
constexpr int kSteps = 4, kStep = 16;  // 4 float4 per thread per phase, rows 16 apart
constexpr int kMinBlocks = 6;          // 6 x 256 threads per SM: <= 40 registers
static_assert(kSteps * kStep == kT && kSteps * kThreads * 4 == kT * kT, "mapping");

__global__ void __launch_bounds__(kThreads, kMinBlocks)
    tile64_f4_pipe(const float* __restrict__ in, float* __restrict__ out, int rows, int cols,
                   int tiles_c, int tiles, bool vec) {
  __shared__ float smem[2 * kT * kP];  // two 64 x 65 tiles, 33,280 B
  const int t = static_cast<int>(threadIdx.x), lane = t % 32, warp = t / 32;
  const int j = lane % 8 + 8 * (warp % 2), q = lane / 8 + 4 * (warp / 2);
  TileWalk<kT> walk(tiles_c, tiles, rows, cols, vec);
  if (walk.idle()) return;
  float4 v[kSteps];
  TileAt cur = walk.first<kSteps, kStep>(v, in, q, j);
  for (int s = 0;; s ^= 1) {
    float* tile = smem + s * (kT * kP);
    const bool more = walk.more();
    const TileAt next = more ? walk.next() : TileAt{0, 0, false};
    if (cur.fast) {
      rows_to_tile<kSteps, kStep, kP>(v, tile, q, j);
    } else {
#pragma unroll 1
      for (int e = t; e < kT * kT; e += kThreads) {
        const int r = e / kT, c = e % kT;
        if (cur.r0 + r < rows && cur.c0 + c < cols) {
          tile[r * kP + c] = in[at(cur.r0 + r, cur.c0 + c, cols)];
        }
      }
    }
    // v is free once the shared stores have read it: the next tile's loads go out now, and are
    // in flight through the barrier, the column reads and the global stores below.
    if (next.fast) load_rows_f4<kSteps, kStep>(v, in, next.r0, next.c0, q, j, cols);
    __syncthreads();
    if (cur.fast) {
      tile_columns_to_out<kSteps, kStep, kP>(tile, out, cur.r0, cur.c0, q, j, rows);
    } else {
#pragma unroll 1
      for (int e = t; e < kT * kT; e += kThreads) {
        const int c = e / kT, r = e % kT;
        if (cur.r0 + r < rows && cur.c0 + c < cols) {
          out[at(cur.c0 + c, cur.r0 + r, rows)] = tile[r * kP + c];
        }
      }
    }
    if (!more) break;
    walk.advance();
    cur = next;
  }
}

}  // namespace

void launch_tile64_pipe(const float* in, float* out, int rows, int cols, cudaStream_t s) {
  static const unsigned resident = resident_blocks(tile64_f4_pipe, kThreads);
  const PersistentGrid g = persistent_grid<kT>(resident, rows, cols);
  tile64_f4_pipe<<<g.blocks, kThreads, 0, s>>>(in, out, rows, cols, g.tiles_c, g.tiles, g.vec);
  MEMLAB_CHECK_LAUNCH(tile64_f4_pipe);
}

}  // namespace memlab::lessons::transpose
