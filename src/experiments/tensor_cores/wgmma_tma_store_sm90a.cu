// tensor_cores, Hopper: `wgmma_tma_store`, the `wgmma_persistent` kernel
// (wgmma_persistent_sm90a.cu: read its header first; same 128 x 256 x 64 tile, 4-stage 48 KiB TMA
// ring, producer + 2 consumer warpgroups, setmaxnreg 40 / 232, one CTA per SM walking the tiles in
// the grouped raster, the ring running on across tiles) with its epilogue through shared memory
// and the TMA store. Built for sm_90a only, like that file. Issue 23's rung "an epilogue through
// shared memory and TMA store".
//
// What changes: `wgmma_persistent` writes the 64 x 256 FP32 accumulators of each consumer
// warpgroup straight from registers (store_tile: 64 st.global.v2 per thread, each warp instruction
// 8 rows x 32 B), and the warpgroup cannot issue the next tile's first wgmma before all of them are
// issued. Here each consumer warpgroup stages its rows in chunks of 64 rows x 32 columns (8 KiB:
// 128-byte rows, the TMA's 128B swizzle) in two buffers of its own, and one thread hands each
// chunk to the copy engine:
//   thread 0 of the warpgroup: cp.async.bulk.wait_group.read 1 (the store that read this buffer,
//            two chunks ago, has left shared memory), then all 128: bar.sync (1 + warpgroup, 128);
//   all:     8 st.shared.v2 each (16 accumulators), fence.proxy.async.shared::cta,
//            bar.sync (1 + warpgroup, 128);
//   thread 0: cp.async.bulk.tensor.2d.global.shared::cta.bulk_group through C's tensor map (FP32,
//            m x n row-major, box 32 x 64, 128B swizzle), cp.async.bulk.commit_group;
// and after its last tile cp.async.bulk.wait_group 0. Named barriers, not __syncthreads: the
// producer and the other consumer warpgroup run elsewhere. The buffer index runs on across tiles
// (one count per committed chunk), so between two uses of a buffer exactly one other group was
// committed and `wait_group.read 1` is the right wait. The TMA store clips at C's edges, so the
// partial tiles need no guard; chunks that start past C (the warpgroup's first row >= m, or the
// chunk's first column >= n: every later chunk of the tile too) are skipped as a whole,
// uniformly in the warpgroup, and commit nothing. C's row pitch n * 4 bytes must be a multiple of
// 16 for the tensor map: the variant is planned only where n % 4 == 0 (experiment.cpp's only_if,
// the rule of the other TMA variants); the launcher refuses other n.
//
// Banks. Accumulator layout (m64nNk16): warp w, lane l = 4 g + t holds rows 16 w + g and + 8 of
// the warpgroup's 64, registers 4 i + {0, 1} columns 8 i + 2 t + {0, 1} (4 i + {2, 3}: row + 8).
// Chunk c holds i = 4 c + j, j = 0..3: a thread's float2 for j lands in the chunk's row r at
// bytes 32 j + 8 t, i.e. 16-byte unit q = 2 j + t / 2, stored by the swizzle at unit q ^ (r % 8)
// = q ^ g. Storing j = s at step s for every lane, the 16 lanes of a half-warp (g = 0..3 or 4..7)
// would hit only 4 units (q ^ g for q in {2 s, 2 s + 1} stays in one aligned group of 4): 2-way
// conflicts, if 8-byte stores are served a half-warp at a time. So at step s the lanes with t / 2
// = 1 store j = s ^ 2 instead (their value picked by a select): q = 2 (s ^ 2) + 1 lies in the
// other group of 4, each half-warp covers all 8 units x 2 halves = 128 B (one wavefront) and a
// warp's 256 B two wavefronts, the minimum, under either rule of service.
//
// Napkin math (H200, 8192^3, BF16 in, FP32 C). A tile writes 128 x 256 x 4 B = 128 KiB of C (256
// MiB in all over 2048 tiles, 62 us at 4.3 TB/s). At a 1/132 share of DRAM (32.6 GB/s per SM) a
// tile's store takes ~4.0 us; the next tile's MMAs take 2 * 128 * 256 * 8192 / 4096 = 131k clocks
// = 72 us at 1.83 GHz: the TMA store needs ~6% of the time it now runs under (and 132 SMs x 128 KiB
// = 16.5 MiB per burst fits the 50 MiB L2, written back while the MMAs run). What leaves the
// consumers' critical path: the 512 warp store instructions per tile to global (4096 32-byte
// sectors through L1 into L2 while the other 131 SMs store as well: >= 2k clocks at ~64 B/clk per
// SM into L2, up to ~7k clocks (4 us) when the writes back up to the DRAM share) become the same
// 512 instructions into shared memory, conflict-free: 128 KiB at 128 B/clk = 1k clocks, plus the
// copy engine reading the chunks back (another 128 KiB of shared-memory bandwidth, overlapping)
// and 16 named barriers per warpgroup: ~1-2k clocks (~1 us) per tile of 72, where the register
// epilogue took ~1-4 us. Predicted: 0-4% faster than `wgmma_persistent` per launch (~1.37-1.42 ms
// cold at 8192^3 against its 1421 us in ncu); under the power cap the run-to-run spread (5-14%)
// is larger than that, so the ladder may only show it as a level, not a step.
// Shared memory: ring 4 x 48 KiB + 1 KiB align slack + staging 2 warpgroups x 2 buffers x 8 KiB =
// 225 KiB (230,400 B) dynamic + 64 B of barriers = 230,464 B of the 232,448 (227 KiB) a block may
// opt into: still one CTA per SM. (A 3-stage ring would free 48 KiB for wider chunks, but at ~1 us
// of L2 + TMA latency the ring must keep ~94 KiB ahead: 3 stages = 96 KiB ahead is the edge; the
// 8 KiB chunks fit beside 4 stages, so the ring stays as it is.) Registers: the producer 40, the
// consumers 128 accumulators + addressing + the selects' temporaries, <= 232 (setmaxnreg); ptxas
// reports the same 168 at the launch-bounds cap as `wgmma_persistent`, no spills.
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <stdexcept>
#include <string>

#include "common/hopper.hpp"
#include "memlab/cuda/check.hpp"
#include "tensor_cores/kernels.cuh"
#include "tensor_cores/wgmma_common.cuh"

namespace memlab::lessons::tensor_cores {
namespace {

using namespace wgk::bf16;  // the tile, the stage issue, the k loop (wgmma_common.cuh)
namespace hp = memlab::lessons::hopper;

// The staging chunks: per consumer warpgroup two 64 x 32 FP32 buffers after the ring.
constexpr int kChunkCols = 32;  // 128 bytes of FP32: one 128B-swizzled row
constexpr int kChunkRows = 64;  // a consumer warpgroup's rows of the block tile
constexpr int kChunkBytes = kChunkRows * kChunkCols * 4;                 // 8 KiB
constexpr int kChunkBuffers = 2;                                         // per consumer warpgroup
constexpr int kStagingBytes = kConsumers * kChunkBuffers * kChunkBytes;  // 32 KiB
constexpr int kRingBytes = kStages * kStageBytes;
constexpr int kSmemStaged = kSmem + kStagingBytes;  // ring + 1 KiB slack + staging: 225 KiB
static_assert(kRingBytes % 1024 == 0 && kChunkBytes % 1024 == 0,
              "the 128B-swizzled chunks must start on 1024-byte boundaries");
static_assert(kSmemStaged + 64 <= 227 * 1024, "227 KiB of shared memory per block at most");

// All 128 threads of the calling warpgroup meet at named barrier `id` (1 + the consumer's index:
// 0 is __syncthreads').
__device__ __forceinline__ void warpgroup_sync(int id) {
#if MEMLAB_WGMMA
  asm volatile("bar.sync %0, 128;\n" ::"r"(id) : "memory");
#else
  (void)id;
#endif
}

__device__ __forceinline__ void st_shared_v2(std::uint32_t addr, float v0, float v1) {
#if MEMLAB_WGMMA
  asm volatile("st.shared.v2.f32 [%0], {%1, %2};\n" ::"r"(addr), "f"(v0), "f"(v1) : "memory");
#else
  (void)addr;
  (void)v0;
  (void)v1;
#endif
}

// Writes chunk C (columns 32 C .. 32 C + 31 of the warpgroup's 64 x 256 accumulators) into the
// 128B-swizzled 64 x 32 buffer at `buf`, as the TMA store reads it: row r at r * 128, 16-byte
// unit q at (q ^ (r % 8)) * 16. Lane 4 g + t: rows r = 16 warp + g and r + 8 (both r % 8 = g), at
// step s the float2 of j = s ^ (2 (t / 2)) (header: the lanes with t / 2 = 1 take the other half
// of the chunk's columns, so no half-warp has a bank conflict).
template <int C>
__device__ __forceinline__ void stage_chunk(std::uint32_t buf, const float (&d)[128], int warp,
                                            int lane) {
  const int g = lane / 4, t = lane % 4, hi = t / 2;
  const std::uint32_t row = buf + static_cast<std::uint32_t>((warp * 16 + g) * 128 + (t % 2) * 8);
#pragma unroll
  for (int s = 0; s < 4; ++s) {
    const int j = s ^ (2 * hi);
    const std::uint32_t addr = row + static_cast<std::uint32_t>(((2 * j + hi) ^ g) << 4);
    constexpr int kBase = 4 * 4 * C;  // register of (i = 4 C, row r, first column)
#pragma unroll
    for (int h = 0; h < 2; ++h) {  // row r, then row r + 8 (8 rows of 128 B further)
      const int lo_reg = kBase + 4 * s + 2 * h, hi_reg = kBase + 4 * (s ^ 2) + 2 * h;
      const float v0 = hi ? d[hi_reg] : d[lo_reg];
      const float v1 = hi ? d[hi_reg + 1] : d[lo_reg + 1];
      st_shared_v2(addr + static_cast<std::uint32_t>(h * 8 * 128), v0, v1);
    }
  }
}

// One chunk of the epilogue (header): wait for the buffer, stage, fence, barrier, store. `chunks`
// counts the chunks this warpgroup committed (over all its tiles): buffer chunks % 2.
template <int C>
__device__ __forceinline__ void store_chunk(const CUtensorMap* c_map, unsigned char* staging,
                                            const float (&d)[128], int col0, int row0, int bar,
                                            const wgk::Cta& cta, int& chunks) {
  unsigned char* buf = staging + (chunks % kChunkBuffers) * kChunkBytes;
  if (cta.t == 0) hp::bulk_wait_read<kChunkBuffers - 1>();  // buf's last store has read it
  warpgroup_sync(bar);                                      // ... and every thread knows
  stage_chunk<C>(hp::smem_u32(buf), d, cta.warp, cta.lane);
  hp::fence_proxy_async_shared();  // this thread's stores, before the copy engine reads them
  warpgroup_sync(bar);             // all 128 threads' stores fenced
  if (cta.t == 0) {
    hp::tma_store_2d(c_map, col0, row0, buf);
    hp::bulk_commit();
  }
  ++chunks;
}

// Chunks C .. 7 of the warpgroup's tile, chunk c from column col + 32 c: unrolled through the
// template (the accumulators' registers must be static); a chunk starting past n ends the tile
// (every later chunk starts past n too).
template <int C>
__device__ __forceinline__ void store_chunks(const CUtensorMap* c_map, unsigned char* staging,
                                             const float (&d)[128], int col, int row0, int n,
                                             int bar, const wgk::Cta& cta, int& chunks) {
  static_assert(kBN / kChunkCols == 8, "eight chunks of 32 columns per tile");
  if (col + C * kChunkCols >= n) return;
  store_chunk<C>(c_map, staging, d, col + C * kChunkCols, row0, bar, cta, chunks);
  if constexpr (C + 1 < kBN / kChunkCols) {
    store_chunks<C + 1>(c_map, staging, d, col, row0, n, bar, cta, chunks);
  }
}

// Consumer warpgroup `half`'s 64 x 256 of the tile to C through its staging buffers, chunk by
// chunk along n; what lies past C is skipped (the warpgroup's rows, the chunks past n) or clipped
// by the engine.
__device__ __forceinline__ void store_tile_tma(const CUtensorMap* c_map, unsigned char* staging,
                                               const float (&d)[128], wgk::TileCoord tile, int half,
                                               const wgk::Cta& cta, int m, int n, int& chunks) {
  const int row0 = tile.tm * kBM + half * kChunkRows;
  if (row0 >= m) return;  // uniform in the warpgroup: it skips its barriers as a whole
  store_chunks<0>(c_map, staging, d, tile.tn * kBN, row0, n, 1 + half, cta, chunks);
}

__global__ void __launch_bounds__(kThreads, 1)
    wgmma_tma_store_kernel(const __grid_constant__ CUtensorMap a_map,
                           const __grid_constant__ CUtensorMap b_map,
                           const __grid_constant__ CUtensorMap c_map, int m, int n, int k) {
#if !MEMLAB_WGMMA
  __trap();  // a build without sm_90a: never launched (wgmma_built() is false, the variant skips)
#endif
  const wgk::Cta cta = wgk::cta_setup<kBM, kBN, kBK, kStages, kConsumers>(m, n, k);
  const int tiles = cta.tiles_m * cta.tiles_n;
  const int first = static_cast<int>(blockIdx.x), step = static_cast<int>(gridDim.x);
  if (cta.wg == 0) {
    produce_tiles(cta, &a_map, &b_map, first, step, tiles);
  } else {
    wgk::consumer_start();
    const int half = cta.wg - 1;  // rows 64 half .. 64 half + 63 of the block tile
    if (cta.t == 0) hp::tma_prefetch_map(&c_map);
    unsigned char* staging = cta.ring + kRingBytes + half * kChunkBuffers * kChunkBytes;
    int it = 0;      // k tiles consumed by this CTA so far, over all its tiles
    int chunks = 0;  // chunks this warpgroup committed, over all its tiles
    for (int id = first; id < tiles; id += step) {
      const wgk::TileCoord tile = wgk::raster(id, cta.tiles_m, cta.tiles_n, kGroupM);
      float d[128];
      wgk::zero_accumulators(d);
      consume_tile(d, cta, half, it);
      wgk::drain_mmas(d);
      // The tile's last stage is free: the producer refills the ring during the epilogue.
      if (cta.ktiles > 0 && cta.lane == 0) hp::mbar_arrive(&cta.empty[(it - 1) % kStages]);
      store_tile_tma(&c_map, staging, d, tile, half, cta, m, n, chunks);
    }
    if (cta.t == 0) hp::bulk_wait<0>();  // every store done before the block's smem goes away
  }
}

}  // namespace

void launch_wgmma_tma_store_bf16(const std::uint16_t* a, const std::uint16_t* b, float* c,
                                 const Gemm& g, cudaStream_t stream, int max_ctas) {
  if (g.n % 4 != 0) {  // the lesson plans the variant only where n % 4 == 0
    throw std::invalid_argument("wgmma_tma_store: n = " + std::to_string(g.n) +
                                " is not a multiple of 4 (C's row pitch must be 16-byte "
                                "multiples for its tensor map)");
  }
  wgk::raise_smem_once<wgmma_tma_store_kernel, kSmemStaged>();
  const wgk::GemmMaps maps =
      wgk::gemm_maps(CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, a, b, g, kBK, kBM, 64);
  // C: FP32, m x n row-major (ldc = n), boxes of 32 (n) x 64 (m) with the 128-byte swizzle.
  const std::uint64_t c_dims[2] = {static_cast<std::uint64_t>(g.n),
                                   static_cast<std::uint64_t>(g.m)};
  const std::uint64_t c_strides[1] = {static_cast<std::uint64_t>(g.n) * 4};
  const std::uint32_t c_box[2] = {kChunkCols, kChunkRows};
  const CUtensorMap c_map =
      hopper::tensor_map(CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, c, c_dims, c_strides, c_box, true);
  static const int sms = [] {
    int device = 0, count = 0;
    MEMLAB_CUDA_CHECK(cudaGetDevice(&device));
    MEMLAB_CUDA_CHECK(cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, device));
    return count;
  }();
  const int tiles = ((g.m + kBM - 1) / kBM) * ((g.n + kBN - 1) / kBN);
  int ctas = tiles < sms ? tiles : sms;  // one CTA per SM (225 KiB of smem each)
  if (max_ctas > 0 && max_ctas < ctas) ctas = max_ctas;
  const auto blocks = static_cast<unsigned>(ctas);
  wgmma_tma_store_kernel<<<blocks, kThreads, kSmemStaged, stream>>>(maps.a, maps.b, c_map, g.m, g.n,
                                                                    g.k);
  MEMLAB_CHECK_LAUNCH(wgmma_tma_store_kernel);
}

}  // namespace memlab::lessons::tensor_cores
