// transpose, Hopper, issue 23 round three: a warp-specialised TMA transpose.
//
// What it does to memory: the `tma` variant's 32 x 32 boxes (128-byte swizzle, the copy engine
// loads and stores every tile; edge boxes zero-filled on load and clipped on store), on a
// persistent grid whose blocks are one producer warp and kConsumers consumer warps, with no
// __syncthreads after the set-up.
//
// Why: `tma_pipelined` had 5x the bytes in flight Little's law asks and still ran at 80% of
// memcpy; the limiter (ncu) was each block's serial per-tile chain, two __syncthreads per tile
// over all its threads. Here each consumer warp is its own chain (__syncwarp only), the producer
// never waits for a transpose unless the ring is full, and a block has kConsumers chains.
//
// Ring: kStages = kConsumers x kDepth input stages of 4 KiB, each with a `full` mbarrier (the
// producer's arrive.expect_tx + the box's bytes) and an `empty` mbarrier (one arrival: the
// consumer warp, once its lanes hold the tile in registers). The block's k-th tile (grid-stride
// over the tiles in the grouped raster of raster.cuh) goes to stage k mod kStages, use
// u = k / kStages, and to consumer warp k mod kConsumers (stage s always belongs to warp
// s mod kConsumers, since kConsumers divides kStages). The producer (lane 0 of warp 0) waits for
// `empty` phase u - 1 before reloading a stage (u >= 1); a consumer waits for `full` phase u.
// Each consumer warp has 2 output buffers: before writing one, its lane 0 waits until at most
// one of its bulk stores still reads shared memory (the one of the other buffer).
//
// Transpose inside a warp: the `tma` variant's 64 4 x 4 blocks of a tile, two per lane: pass p,
// s = 4 p + lane / 8, l = lane % 8, block (i, j) = ((l + s) mod 8, l); 16-byte shared accesses,
// conflict-free per quarter warp (kernels_tma.cu's argument: for fixed s the 8 lanes touch the 8
// distinct chunks).
#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "common/hopper.cuh"
#include "common/hopper.hpp"
#include "common/launch.hpp"
#include "transpose/kernels.cuh"
#include "transpose/raster.cuh"
#include "transpose/tma_tile.cuh"

namespace memlab::lessons::transpose {
namespace {

namespace hp = memlab::lessons::hopper;

constexpr int kConsumers = 4;  // consumer warps per block
constexpr int kDepth = 2;      // input stages per consumer warp
constexpr int kStages = kConsumers * kDepth;
constexpr int kWsThreads = 32 * (1 + kConsumers);
// kStages input tiles + 2 output tiles per consumer + slack for 1024-byte alignment.
constexpr int kSmem = (kStages + 2 * kConsumers) * static_cast<int>(kTileBytes) + 1024;
constexpr unsigned kMinTilesPerBlock = 2 * kStages;  // small matrices: every ring wraps

__device__ __forceinline__ void tile_origin(unsigned tile, unsigned tiles_r, unsigned tiles_c,
                                            int& r0, int& c0) {
  unsigned tr = 0, tc = 0;
  grouped_tile(tile, tiles_r, tiles_c, tr, tc);
  r0 = static_cast<int>(tr) * kTile;
  c0 = static_cast<int>(tc) * kTile;
}

__global__ void __launch_bounds__(kWsThreads)
    transpose_tma_ws(const __grid_constant__ CUtensorMap in_map,
                     const __grid_constant__ CUtensorMap out_map, unsigned tiles_r,
                     unsigned tiles_c) {
#if MEMLAB_SM90
  extern __shared__ unsigned char raw[];
  __shared__ __align__(8) std::uint64_t full[kStages];
  __shared__ __align__(8) std::uint64_t empty[kStages];
  const std::uint32_t pad = (1024u - (hp::smem_u32(raw) & 1023u)) & 1023u;
  unsigned char* in_tiles = raw + pad;                         // kStages x 4 KiB
  unsigned char* out_tiles = in_tiles + kStages * kTileBytes;  // 2 per consumer warp
  const int t = static_cast<int>(threadIdx.x);
  const int warp = t / 32, lane = t % 32;
  if (t == 0) {
    for (int s = 0; s < kStages; ++s) {
      hp::mbar_init(&full[s], 1);
      hp::mbar_init(&empty[s], 1);
    }
    hp::fence_mbarrier_init();
  }
  __syncthreads();  // the only block-wide barrier
  const unsigned tiles = tiles_r * tiles_c;
  const unsigned first = blockIdx.x, stride = gridDim.x;
  if (warp == 0) {
    // Producer: one lane issues every load of the block.
    if (lane == 0) {
      hp::tma_prefetch_map(&in_map);
      unsigned k = 0;
      for (unsigned tile = first; tile < tiles; tile += stride, ++k) {
        const unsigned s = k % kStages, u = k / kStages;
        if (u >= 1) hp::mbar_wait(&empty[s], (u - 1) & 1u);
        int r0 = 0, c0 = 0;
        tile_origin(tile, tiles_r, tiles_c, r0, c0);
        hp::mbar_arrive_expect_tx(&full[s], kTileBytes);  // the whole box counts, clipped or not
        hp::tma_load_2d(in_tiles + s * kTileBytes, &in_map, c0, r0, &full[s]);
      }
    }
    return;
  }
  // Consumer warp cw takes the block's tiles k = cw, cw + kConsumers, ...
  const int cw = warp - 1;
  if (lane == 0) hp::tma_prefetch_map(&out_map);
  unsigned n = 0;  // tiles this warp has stored
  unsigned k = static_cast<unsigned>(cw);
  for (unsigned tile = first + k * stride; tile < tiles;
       tile += kConsumers * stride, k += kConsumers, ++n) {
    const unsigned s = k % kStages, u = k / kStages;
    const unsigned char* a = in_tiles + s * kTileBytes;
    unsigned char* b = out_tiles + (2 * cw + (n & 1u)) * kTileBytes;
    hp::mbar_wait(&full[s], u & 1u);
    float4 v[2][4];
#pragma unroll
    for (int p = 0; p < 2; ++p) {
      const int sp = 4 * p + lane / 8, l = lane % 8;
      const int i = (l + sp) & 7, j = l;  // this lane's 4 x 4 block: tile rows 4i.., cols 4j..
      load_block(a, i, j, v[p]);
    }
    __syncwarp();  // every lane holds its blocks: the stage may be reloaded
    if (lane == 0) {
      hp::mbar_arrive(&empty[s]);
      if (n >= 2) hp::bulk_wait_read<1>();  // this buffer's previous store has read it
    }
    __syncwarp();
#pragma unroll
    for (int p = 0; p < 2; ++p) {
      const int sp = 4 * p + lane / 8, l = lane % 8;
      const int i = (l + sp) & 7, j = l;
      store_block_transposed(b, i, j, v[p]);
    }
    hp::fence_proxy_async_shared();  // this lane's shared stores before the copy engine reads
    __syncwarp();
    if (lane == 0) {
      int r0 = 0, c0 = 0;
      tile_origin(tile, tiles_r, tiles_c, r0, c0);
      hp::tma_store_2d(&out_map, r0, c0, b);  // out is cols x rows: x = r0, y = c0
      hp::bulk_commit();
    }
  }
  if (lane == 0) hp::bulk_wait_read<0>();  // shared memory must outlive the stores' reads
#endif
}

}  // namespace

void launch_tma_ws(const float* in, float* out, int rows, int cols, cudaStream_t s) {
  const TmaMaps maps = transpose_maps(in, out, rows, cols);
  const unsigned tiles_r = blocks_for(static_cast<std::size_t>(rows), kTile);
  const unsigned tiles_c = blocks_for(static_cast<std::size_t>(cols), kTile);
  const unsigned tiles = tiles_r * tiles_c;
  MEMLAB_CUDA_CHECK(
      cudaFuncSetAttribute(transpose_tma_ws, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmem));
  const unsigned resident = resident_blocks(transpose_tma_ws, kWsThreads, kSmem);
  const unsigned grid = std::max(1u, std::min(resident, tiles / kMinTilesPerBlock));
  transpose_tma_ws<<<grid, kWsThreads, kSmem, s>>>(maps.in, maps.out, tiles_r, tiles_c);
  MEMLAB_CHECK_LAUNCH(transpose_tma_ws);
}

}  // namespace memlab::lessons::transpose
