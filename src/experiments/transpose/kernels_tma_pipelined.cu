// transpose, Hopper (issue 23): `tma_pipelined`, the tma variant with a persistent grid and rings
// of shared-memory stages, so that tile loads, the in-shared transposes and tile stores overlap.
//
// What it does to memory: the same 32 x 32 boxes as tma (2D tensor maps, 128-byte swizzle, boxes
// past the edge zero-filled on load and clipped on store; rows, cols multiples of 4). A persistent
// grid walks the tiles grid-stride in row-major tile order (tile k: columns 32 (k mod tx), rows
// 32 (k / tx)); tile j of a block loads into stage j mod kLoadStages and is transposed into store
// buffer j mod kStoreStages. Thread 0 keeps kLoadStages tile loads in flight (one mbarrier per
// stage, the whole 4 KiB box counted), and per tile:
//   all:      wait for the tile's stage (parity of its use), 4 LDS.128 into registers;
//   all:      barrier B (store buffer free: thread 0 waited for its old store, below);
//   all:      4 STS.128 of the transposed 4 x 4 block, fence.proxy.async.shared::cta, barrier A;
//   thread 0: TMA store of the buffer (one bulk group); reload the load stage just read with tile
//             j + kLoadStages (every thread has read it: barrier A); then
//             cp.async.bulk.wait_group.read kStoreStages - 1, so that the next tile's buffer
//             (used by tile j + 1 - kStoreStages) has been read, before the next barrier B.
// No block exits while a store still reads shared memory (wait_group.read 0 at the end).
//
// Banks: as tma (kernels_tma.cu): thread t = 8 s + l takes the 4 x 4 block (i, j) = ((l + s) mod
// 8, l); per quarter warp, both the swizzled row reads and the swizzled row writes hit 8 distinct
// 16-byte chunks: conflict-free.
//
// Napkin math (H200, 16384^2 fp32): 2 GiB, ~0.50 ms at the memcpy rate; 262144 tiles of 4 KiB
// in + 4 KiB out, 16 bytes/clk/SM of DRAM share = one tile per ~512 clocks per SM. Little's law:
// ~23 KB of loads in flight per SM. Per block: 4 load stages + 2 store buffers = 24 KiB (+1 KiB
// alignment slack); 8 blocks of 64 threads per SM (200 KiB) keep up to 32 tile loads = 128 KiB in
// flight per SM, and each block has ~4000 clocks per tile for its serial wait -> transpose ->
// store chain. Registers: ~40 (4 float4 + addresses). The limiter removed: tma's one tile per
// block with nothing overlapping (load, wait, transpose, store, wait: ~4 KiB in flight per block
// only while it loads) and its 262144 block launches.
//
// Round two (issue 23; tma_pipelined measured 78.5% of memcpy, ncu: dram 69.7%, achieved
// occupancy 22%, stalls long_scoreboard 14.6, barrier 13.4, mio_throttle 8.4 cycles/instr): the
// bytes in flight (128 KiB per SM) were 5x the need, so the limiter is the per-block serial chain
// (wait -> LDS -> barrier -> STS -> fence -> barrier -> store issue -> wait_group.read) with only
// 8 chains per SM. `tma_pipelined_many` is the same code with 2 load stages + 2 store buffers:
// 16 KiB + 1 KiB slack = 17 KiB per block, 12 blocks (768 threads) per SM, 1.5x the chains; still
// 12 x 2 x 4 KiB = 96 KiB of tile loads in flight per SM, 4x Little's law. Registers: 48, no
// spills, 16 B of static shared memory. Predicted: ~86-90% of memcpy (between tma's 85.9%, with
// 60% occupancy, and tile64_f4's 90.3%).
#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "common/hopper.cuh"
#include "common/hopper.hpp"
#include "common/launch.hpp"
#include "transpose/kernels.cuh"
#include "transpose/tma_tile.cuh"

namespace memlab::lessons::transpose {
namespace {

namespace hp = memlab::lessons::hopper;

// Bytes of dynamic shared memory: the stages + 1024-byte alignment slack.
constexpr int smem_of(int load_stages, int store_stages) {
  return (load_stages + store_stages) * kTileBytes + 1024;
}

// kLoadStages tile loads in flight, kStoreStages transposed tiles draining per block.
template <int kLoadStages, int kStoreStages>
__global__ void __launch_bounds__(kThreads)
    transpose_tma_pipelined(const __grid_constant__ CUtensorMap in_map,
                            const __grid_constant__ CUtensorMap out_map, int tiles_x, int tiles) {
#if MEMLAB_SM90
  extern __shared__ unsigned char raw[];
  __shared__ __align__(8) std::uint64_t full[kLoadStages];
  const std::uint32_t pad = (1024u - (hp::smem_u32(raw) & 1023u)) & 1023u;
  unsigned char* load_buf = raw + pad;                             // kLoadStages tiles of `in`
  unsigned char* store_buf = load_buf + kLoadStages * kTileBytes;  // kStoreStages transposes
  const int t = static_cast<int>(threadIdx.x);
  const int first = static_cast<int>(blockIdx.x), step = static_cast<int>(gridDim.x);
  const int m = first < tiles ? (tiles - first + step - 1) / step : 0;
  auto load = [&](int j) {
    const int s = j % kLoadStages, k = first + j * step;
    hp::mbar_arrive_expect_tx(&full[s], kTileBytes);  // the whole box counts, clipped or not
    hp::tma_load_2d(load_buf + s * kTileBytes, &in_map, (k % tiles_x) * kTile,
                    (k / tiles_x) * kTile, &full[s]);
  };
  if (t == 0) {
    hp::tma_prefetch_map(&in_map);
    hp::tma_prefetch_map(&out_map);
    for (int s = 0; s < kLoadStages; ++s) hp::mbar_init(&full[s], 1);
    hp::fence_mbarrier_init();
    for (int j = 0; j < kLoadStages && j < m; ++j) load(j);
  }
  __syncthreads();  // the barriers are initialised before anyone waits on them
  const int sub = t >> 3, l = t & 7;
  const int bi = (l + sub) & 7, bj = l;  // this thread's 4 x 4 block: tile rows 4 bi.., cols 4 bj..
  for (int j = 0; j < m; ++j) {
    const int s = j % kLoadStages;
    const unsigned char* a = load_buf + s * kTileBytes;
    unsigned char* b = store_buf + (j % kStoreStages) * kTileBytes;
    hp::mbar_wait(&full[s], static_cast<std::uint32_t>((j / kLoadStages) & 1));
    float4 v[4];
    load_block(a, bi, bj, v);
    __syncthreads();  // B: thread 0 has waited until the store that last used `b` read it
    store_block_transposed(b, bi, bj, v);
    hp::fence_proxy_async_shared();  // our shared stores before the copy engine reads them
    __syncthreads();                 // A: `b` written, stage s read by every thread
    if (t == 0) {
      const int k = first + j * step;
      hp::tma_store_2d(&out_map, (k / tiles_x) * kTile, (k % tiles_x) * kTile, b);  // x = row
      hp::bulk_commit();
      if (j + kLoadStages < m) load(j + kLoadStages);
      hp::bulk_wait_read<kStoreStages - 1>();  // the buffer of tile j + 1 is free again
    }
  }
  if (t == 0) hp::bulk_wait_read<0>();  // no exit while a store still reads shared memory
#endif
}

template <int kLoadStages, int kStoreStages>
void launch_ring(const float* in, float* out, int rows, int cols, cudaStream_t s) {
  constexpr int kSmem = smem_of(kLoadStages, kStoreStages);
  // Small matrices: fewer blocks, each with at least this many tiles (every ring wraps; the test
  // points exercise the wrap-around and the phase flips).
  constexpr int kMinTilesPerBlock = 3 * kLoadStages;
  auto* kernel = transpose_tma_pipelined<kLoadStages, kStoreStages>;
  static const unsigned resident = [kernel] {
    MEMLAB_CUDA_CHECK(
        cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmem));
    return resident_blocks(kernel, kThreads, kSmem);
  }();
  const TmaMaps maps = transpose_maps(in, out, rows, cols);  // encoded at every launch
  const int tiles_x = static_cast<int>(blocks_for(static_cast<std::size_t>(cols), kTile));
  const int tiles_y = static_cast<int>(blocks_for(static_cast<std::size_t>(rows), kTile));
  const int tiles = tiles_x * tiles_y;  // <= 2^31 / 16 for rows * cols <= 2^31 plus edges
  const int want = (tiles + kMinTilesPerBlock - 1) / kMinTilesPerBlock;
  const auto grid = static_cast<unsigned>(std::clamp<long long>(want, 1, resident));
  kernel<<<grid, kThreads, kSmem, s>>>(maps.in, maps.out, tiles_x, tiles);
  MEMLAB_CHECK_LAUNCH(transpose_tma_pipelined);
}

}  // namespace

// tma_pipelined: 4 load stages + 2 store buffers (25 KiB), 8 blocks per SM.
void launch_tma_pipelined(const float* in, float* out, int rows, int cols, cudaStream_t s) {
  launch_ring<4, 2>(in, out, rows, cols, s);
}
// tma_pipelined_many: 2 load stages + 2 store buffers (17 KiB), 12 blocks per SM.
void launch_tma_pipelined_many(const float* in, float* out, int rows, int cols, cudaStream_t s) {
  launch_ring<2, 2>(in, out, rows, cols, s);
}

}  // namespace memlab::lessons::transpose
