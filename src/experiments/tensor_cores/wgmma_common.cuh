// tensor_cores, Hopper: what the wgmma kernels (*_sm90a.cu) share: the barrier ring, the grouped
// raster, the shared-memory descriptor, the wgmma fences and the 128 accumulator operands of an
// m64n256 wgmma's inline asm (MEMLAB_WGMMA_D128_TEXT / _OPERANDS), setmaxnreg; the warp-specialised
// CTA's prologue (cta_setup: ring, barriers, thread split, tile counts, init + sync), its roles'
// starts (producer_start, consumer_start: setmaxnreg 40 / 232, the maps' prefetch), the zeroed
// accumulators and the wait before the epilogue (drain_mmas), the producer's wait for a stage and
// its announce (acquire_stage), so that each kernel keeps its tile loop; the host's tensor maps
// (gemm_maps), smem opt-in (raise_smem_once) and 2-CTA cluster launch (cluster2_config,
// launch_cluster2); and, for the BF16 kernels (`wgmma`, `wgmma_persistent`, `wgmma_cluster`:
// wgk::bf16), the 128 x 256 x 64 tile, its stage issue, the persistent producer's walk
// (produce_tiles), one k tile's MMAs, the consumers' k loop and the guarded epilogue; for the 2-CTA
// cluster kernels (`wgmma_cluster`, `wgmma_cluster_persistent`) the multicast copy, the arrival on
// a cluster peer's barrier and the cluster constants. Included only by *_sm90a.cu files (compiled
// for sm_90a alone when the build targets sm_90; MEMLAB_WGMMA says whether the bodies are real).
#pragma once

#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <utility>

#include "common/hopper.cuh"
#include "common/hopper.hpp"
#include "memlab/cuda/check.hpp"
#include "tensor_cores/kernels.cuh"
#include "tensor_cores/ptx.cuh"

#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define MEMLAB_WGMMA 1
#else
#define MEMLAB_WGMMA 0
#endif

namespace memlab::lessons::tensor_cores::wgk {

namespace hp = memlab::lessons::hopper;

// ---- what every wgmma kernel of the lesson uses -------------------------------------------------

// The dynamic shared memory's first 1024-aligned byte (128B-swizzled TMA boxes and the
// descriptors' base offset 0 need it; the kernels reserve 1 KiB of slack).
__device__ __forceinline__ unsigned char* align_ring(unsigned char* raw) {
  return raw + ((1024u - (hp::smem_u32(raw) & 1023u)) & 1023u);
}
// One thread, then __syncthreads(): `full` completes on the producer's arrive_expect_tx plus the
// bytes, `empty` on one arrival per consumer warp.
template <int Stages>
__device__ __forceinline__ void init_ring(std::uint64_t* full, std::uint64_t* empty,
                                          std::uint32_t consumer_warps) {
  for (int s = 0; s < Stages; ++s) {
    hp::mbar_init(&full[s], 1);
    hp::mbar_init(&empty[s], consumer_warps);
  }
  hp::fence_mbarrier_init();
}

struct TileCoord {
  int tm, tn;
};
// Block tile of linear id `id`: ids run down a group of `group` block rows, then across.
__device__ __forceinline__ TileCoord raster(int id, int tiles_m, int tiles_n, int group) {
  const int per_group = group * tiles_n;
  const int first_m = (id / per_group) * group;
  const int rows = min(tiles_m - first_m, group);
  return {first_m + (id % per_group) % rows, (id % per_group) / rows};
}

// Shared-memory matrix descriptor: start address, leading and stride byte offsets (all in 16-byte
// units), swizzle mode 1 (128 bytes) in bits 62-63; base offset 0 (the ring is 1024-aligned).
__device__ __forceinline__ std::uint64_t smem_desc(std::uint32_t addr, std::uint32_t lbo,
                                                   std::uint32_t sbo) {
  return static_cast<std::uint64_t>((addr & 0x3FFFFu) >> 4) |
         (static_cast<std::uint64_t>((lbo >> 4) & 0x3FFFu) << 16) |
         (static_cast<std::uint64_t>((sbo >> 4) & 0x3FFFu) << 32) | (std::uint64_t{1} << 62);
}

// The 128 FP32 accumulators of an m64n256 wgmma as the asm's first 128 operands: the text
// "%0, %1, ..., %127 " (inside the instruction's braces) and the matching "+f"(d[0]) ..
// "+f"(d[127]) list (read and written). Ten at a time: `tens` is the operand number's leading
// digits (empty for 0-9), stringised into the text and pasted into the index, so the two cannot
// drift apart.
// clang-format off
#define MEMLAB_WGMMA_D10_TEXT(tens)                                                  \
  "%" #tens "0, %" #tens "1, %" #tens "2, %" #tens "3, %" #tens "4, "               \
  "%" #tens "5, %" #tens "6, %" #tens "7, %" #tens "8, %" #tens "9, "
#define MEMLAB_WGMMA_D10_OPERANDS(d, tens)                                           \
  "+f"(d[tens##0]), "+f"(d[tens##1]), "+f"(d[tens##2]), "+f"(d[tens##3]),            \
  "+f"(d[tens##4]), "+f"(d[tens##5]), "+f"(d[tens##6]), "+f"(d[tens##7]),            \
  "+f"(d[tens##8]), "+f"(d[tens##9])
#define MEMLAB_WGMMA_D128_TEXT                                                       \
  MEMLAB_WGMMA_D10_TEXT()  MEMLAB_WGMMA_D10_TEXT(1)  MEMLAB_WGMMA_D10_TEXT(2)        \
  MEMLAB_WGMMA_D10_TEXT(3) MEMLAB_WGMMA_D10_TEXT(4)  MEMLAB_WGMMA_D10_TEXT(5)        \
  MEMLAB_WGMMA_D10_TEXT(6) MEMLAB_WGMMA_D10_TEXT(7)  MEMLAB_WGMMA_D10_TEXT(8)        \
  MEMLAB_WGMMA_D10_TEXT(9) MEMLAB_WGMMA_D10_TEXT(10) MEMLAB_WGMMA_D10_TEXT(11)       \
  "%120, %121, %122, %123, %124, %125, %126, %127 "
#define MEMLAB_WGMMA_D128_OPERANDS(d)                                                \
  MEMLAB_WGMMA_D10_OPERANDS(d, ),  MEMLAB_WGMMA_D10_OPERANDS(d, 1),                  \
  MEMLAB_WGMMA_D10_OPERANDS(d, 2), MEMLAB_WGMMA_D10_OPERANDS(d, 3),                  \
  MEMLAB_WGMMA_D10_OPERANDS(d, 4), MEMLAB_WGMMA_D10_OPERANDS(d, 5),                  \
  MEMLAB_WGMMA_D10_OPERANDS(d, 6), MEMLAB_WGMMA_D10_OPERANDS(d, 7),                  \
  MEMLAB_WGMMA_D10_OPERANDS(d, 8), MEMLAB_WGMMA_D10_OPERANDS(d, 9),                  \
  MEMLAB_WGMMA_D10_OPERANDS(d, 10), MEMLAB_WGMMA_D10_OPERANDS(d, 11),                \
  "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]),                            \
  "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
// clang-format on

__device__ __forceinline__ void wgmma_fence() {
#if MEMLAB_WGMMA
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#endif
}
__device__ __forceinline__ void wgmma_commit() {
#if MEMLAB_WGMMA
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
#endif
}
template <int N>
__device__ __forceinline__ void wgmma_wait() {
#if MEMLAB_WGMMA
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(N) : "memory");
#endif
}
// Keeps the compiler from moving accesses to the accumulators across the asynchronous MMAs.
template <int N>
__device__ __forceinline__ void fence_accumulators(float (&d)[N]) {
#pragma unroll
  for (int i = 0; i < N; ++i) asm volatile("" : "+f"(d[i])::"memory");
}

template <int Regs>
__device__ __forceinline__ void setmaxnreg_dec() {
#if MEMLAB_WGMMA
  asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(Regs));
#endif
}
template <int Regs>
__device__ __forceinline__ void setmaxnreg_inc() {
#if MEMLAB_WGMMA
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(Regs));
#endif
}

// ---- the warp-specialised CTA: its prologue, its two roles' starts, the epilogue's wait ---------
// Every kernel here runs 128 (Consumers + 1) threads: warpgroup 0 the producer (thread 0 issues
// the tensor copies), warpgroups 1 .. Consumers the consumers (wgmma, epilogue). setmaxnreg moves
// registers between them: the producer keeps 40, each consumer thread takes 232 (128 accumulators
// + addressing); 40 x 128 + 232 x 256 = 64,512 of the SM's 65,536 at Consumers = 2.
constexpr int kProducerRegs = 40, kConsumerRegs = 232;

// What a CTA knows once cta_setup returned (the ring's barriers initialised and visible to all).
struct Cta {
  unsigned char* ring;   // the stages: the dynamic shared memory from its first 1024-aligned byte
  std::uint64_t* full;   // [Stages]: the producer's arrive_expect_tx + the stage's bytes
  std::uint64_t* empty;  // [Stages]: one arrival per consumer warp (of every CTA of the cluster)
  int wg, t;             // warpgroup (0: the producer), thread within it
  int warp, lane;        // warp within the warpgroup, lane
  int tiles_m, tiles_n;  // block tiles (BM x BN) of C
  int ktiles;            // k tiles (BK) of a block tile
};

// The prologue every wgmma kernel shares: the dynamic shared memory (the ring; the kernels reserve
// 1 KiB of slack for align_ring) and the stages' `full` / `empty` barriers (64 B of static shared
// memory at 4 stages), thread 0 initialises them (`empty` counts the consumer warps of all
// ClusterCtas CTAs), then all threads sync: __syncthreads(), or the cluster barrier when the
// stages are shared across a cluster (no multicast or remote arrival before the peer's init).
template <int BM, int BN, int BK, int Stages, int Consumers, int ClusterCtas = 1>
__device__ __forceinline__ Cta cta_setup(int m, int n, int k) {
  extern __shared__ unsigned char raw[];
  __shared__ __align__(8) std::uint64_t full[Stages], empty[Stages];
  Cta cta;
  cta.ring = align_ring(raw);  // the same offset in every CTA of a cluster (same layout)
  cta.full = full;
  cta.empty = empty;
  cta.wg = static_cast<int>(threadIdx.x) / 128;
  cta.t = static_cast<int>(threadIdx.x) % 128;
  cta.warp = cta.t / 32;
  cta.lane = cta.t % 32;
  cta.tiles_m = (m + BM - 1) / BM;
  cta.tiles_n = (n + BN - 1) / BN;
  cta.ktiles = (k + BK - 1) / BK;
  if (threadIdx.x == 0) init_ring<Stages>(full, empty, ClusterCtas * Consumers * 4);
  if constexpr (ClusterCtas > 1) {
    hp::cluster_sync();
  } else {
    __syncthreads();
  }
  return cta;
}

// The producer warpgroup's start: all its threads give registers away (setmaxnreg is
// warpgroup-wide), then thread 0, the one that issues the copies, prefetches the two tensor maps'
// descriptors. True on that thread.
__device__ __forceinline__ bool producer_start(const Cta& cta, const CUtensorMap* a_map,
                                               const CUtensorMap* b_map) {
  setmaxnreg_dec<kProducerRegs>();
  if (cta.t != 0) return false;
  hp::tma_prefetch_map(a_map);
  hp::tma_prefetch_map(b_map);
  return true;
}
// A consumer warpgroup's start: it takes the registers the producer gave away.
__device__ __forceinline__ void consumer_start() {
  setmaxnreg_inc<kConsumerRegs>();
}

template <int N>
__device__ __forceinline__ void zero_accumulators(float (&d)[N]) {
#pragma unroll
  for (int i = 0; i < N; ++i) d[i] = 0.0f;
}
// Before the epilogue reads the accumulators: every MMA of this thread retired (wait_group 0).
template <int N>
__device__ __forceinline__ void drain_mmas(float (&d)[N]) {
  wgmma_wait<0>();
  fence_accumulators(d);
}

// The producer thread's stage issue for its k tile number `it` (counted over all the CTA's tiles):
// stage it % Stages, waited for on `empty` only if filled before (it >= Stages; phase (it / Stages
// - 1) & 1), then StageBytes announced on its `full`. The caller issues the stage's copies onto
// `full`.
struct Stage {
  unsigned char* smem;  // the stage in the ring
  std::uint64_t* full;  // its barrier, for the copies' bytes
};
template <int Stages, int StageBytes>
__device__ __forceinline__ Stage acquire_stage(const Cta& cta, int it) {
  const int s = it % Stages;
  if (it >= Stages) {
    hp::mbar_wait(&cta.empty[s], static_cast<std::uint32_t>((it / Stages - 1) & 1));
  }
  unsigned char* smem = cta.ring + s * StageBytes;
  hp::mbar_arrive_expect_tx(&cta.full[s], StageBytes);
  return {smem, &cta.full[s]};
}

// ---- the BF16 kernels: 128 x 256 x 64 tiles, 4 stages of 48 KiB ---------------------------------
// Host side of every wgmma launcher: A (m x k, K-major) and B (k x n, N-major) as 2D tensor maps
// with the 128-byte swizzle, boxes of box_k x box_m (A) and box_n x box_k (B) elements of
// `elem_bytes` (lda, ldb: the lesson's padded leading dimensions).
struct GemmMaps {
  CUtensorMap a, b;
};
inline GemmMaps gemm_maps(CUtensorMapDataType type, std::uint64_t elem_bytes, const void* a,
                          const void* b, const Gemm& g, std::uint32_t box_k, std::uint32_t box_m,
                          std::uint32_t box_n) {
  const std::uint64_t a_dims[2] = {static_cast<std::uint64_t>(g.k),
                                   static_cast<std::uint64_t>(g.m)};
  const std::uint64_t a_strides[1] = {static_cast<std::uint64_t>(g.lda) * elem_bytes};
  const std::uint32_t a_box[2] = {box_k, box_m};
  const std::uint64_t b_dims[2] = {static_cast<std::uint64_t>(g.n),
                                   static_cast<std::uint64_t>(g.k)};
  const std::uint64_t b_strides[1] = {static_cast<std::uint64_t>(g.ldb) * elem_bytes};
  const std::uint32_t b_box[2] = {box_n, box_k};
  return {hopper::tensor_map(type, 2, a, a_dims, a_strides, a_box, true),
          hopper::tensor_map(type, 2, b, b_dims, b_strides, b_box, true)};
}

// The kernel's dynamic shared memory above 48 KiB, raised once per process and kernel (a template
// on the kernel itself: the kernels share one type, so a static keyed by the type would be shared).
template <auto Kernel, int Bytes>
void raise_smem_once() {
  static const bool raised = [] {
    MEMLAB_CUDA_CHECK(
        cudaFuncSetAttribute(Kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, Bytes));
    return true;
  }();
  (void)raised;
}

// ---- host: the 2-CTA cluster launch (wgmma_cluster, wgmma_cluster_persistent) -----------------
// A launch of `blocks` CTAs of `threads` in clusters of 2 along x; `attr` is the cluster-dimension
// attribute's storage, which the returned config points at (it must outlive the config's use).
inline cudaLaunchConfig_t cluster2_config(unsigned blocks, int threads, int smem,
                                          cudaStream_t stream, cudaLaunchAttribute& attr) {
  cudaLaunchConfig_t cfg{};
  cfg.gridDim = dim3(blocks);
  cfg.blockDim = dim3(static_cast<unsigned>(threads));
  cfg.dynamicSmemBytes = static_cast<std::size_t>(smem);
  cfg.stream = stream;
  attr.id = cudaLaunchAttributeClusterDimension;
  attr.val.clusterDim.x = 2;
  attr.val.clusterDim.y = 1;
  attr.val.clusterDim.z = 1;
  cfg.attrs = &attr;
  cfg.numAttrs = 1;
  return cfg;
}
// Launches `kernel` (args...) on `stream` as cluster2_config says (the caller checks the launch
// with MEMLAB_CHECK_LAUNCH, which names the kernel).
template <typename... Params, typename... Args>
void launch_cluster2(void (*kernel)(Params...), unsigned blocks, int threads, int smem,
                     cudaStream_t stream, Args&&... args) {
  cudaLaunchAttribute attr{};
  const cudaLaunchConfig_t cfg = cluster2_config(blocks, threads, smem, stream, attr);
  MEMLAB_CUDA_CHECK(cudaLaunchKernelEx(&cfg, kernel, std::forward<Args>(args)...));
}

namespace bf16 {

constexpr int kBM = 128, kBN = 256, kBK = 64, kStages = 4;
constexpr int kConsumers = 2;  // warpgroups of 64 x 256
constexpr int kThreads = 128 * (kConsumers + 1);
constexpr int kABytes = kBM * kBK * 2;  // 16 KiB
constexpr int kBBox = 64 * kBK * 2;     // one 64 (n) x 64 (k) box of B: 8 KiB
constexpr int kBBytes = kBK * kBN * 2;  // 32 KiB
constexpr int kStageBytes = kABytes + kBBytes;
constexpr int kSmem = kStages * kStageBytes + 1024;  // + slack to align the ring to 1024 bytes
constexpr int kGroupM = 16;                          // block rows visited together (L2 reuse)

// d (64 x 256, FP32) += A (64 x 16, K-major) B (16 x 256, N-major: transpose-B = 1).
__device__ __forceinline__ void wgmma_m64n256k16(float (&d)[128], std::uint64_t a,
                                                 std::uint64_t b) {
#if MEMLAB_WGMMA
  asm volatile(
      "{\n"
      ".reg .pred p;\n"
      "setp.ne.b32 p, %130, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 {" MEMLAB_WGMMA_D128_TEXT
      "}, %128, %129, p, 1, 1, 0, 1;\n"
      "}\n"
      : MEMLAB_WGMMA_D128_OPERANDS(d)
      : "l"(a), "l"(b), "r"(1));
#else
  (void)d;
  (void)a;
  (void)b;
#endif
}

// The producer thread's share of one block tile: for each k tile, wait until its stage is free
// (`empty`, only for a stage filled before: it >= kStages), announce 48 KiB on `full` and issue A's
// 128 x 64 box and B's four 64 x 64 boxes. `it` counts k tiles over all tiles of the CTA (stage it
// % kStages, phase (it / kStages) & 1).
__device__ __forceinline__ void produce_tile(const Cta& cta, const CUtensorMap* a_map,
                                             const CUtensorMap* b_map, TileCoord tile, int& it) {
  for (int kt = 0; kt < cta.ktiles; ++kt, ++it) {
    const Stage stage = acquire_stage<kStages, kStageBytes>(cta, it);
    hp::tma_load_2d(stage.smem, a_map, kt * kBK, tile.tm * kBM, stage.full);
#pragma unroll
    for (int j = 0; j < kBN / 64; ++j) {
      hp::tma_load_2d(stage.smem + kABytes + j * kBBox, b_map, tile.tn * kBN + 64 * j, kt * kBK,
                      stage.full);
    }
  }
}

// The producer warpgroup of a persistent CTA (`wgmma_persistent`, `wgmma_tma_store`):
// producer_start, then thread 0 issues the k tiles of the block tiles first, first + step, ... <
// tiles (in the grouped raster), `it` running on across them (the consumers count alike).
__device__ __forceinline__ void produce_tiles(const Cta& cta, const CUtensorMap* a_map,
                                              const CUtensorMap* b_map, int first, int step,
                                              int tiles) {
  if (producer_start(cta, a_map, b_map)) {  // thread 0 issues the copies
    int it = 0;                             // k tiles issued by this CTA so far, over all its tiles
    for (int id = first; id < tiles; id += step) {
      produce_tile(cta, a_map, b_map, raster(id, cta.tiles_m, cta.tiles_n, kGroupM), it);
    }
  }
}

// One k tile's MMAs of consumer warpgroup `half` (rows 64 half .. + 63 of the block tile) from the
// stage at `stage`: A K-major (SBO 1024 B, k16 slices 32-byte steps inside the 128-byte rows), B
// N-major (LBO 8 KiB between 64-column boxes, SBO 1024 B, k16 slices 2048-byte steps); committed
// as one group.
__device__ __forceinline__ void mma_ktile(float (&d)[128], const unsigned char* stage, int half) {
  const std::uint32_t a0 = hp::smem_u32(stage + half * (64 * 128));
  const std::uint32_t b0 = hp::smem_u32(stage + kABytes);
  fence_accumulators(d);
  wgmma_fence();
#pragma unroll
  for (int kk = 0; kk < kBK / 16; ++kk) {
    wgmma_m64n256k16(d, smem_desc(a0 + 32 * kk, 16, 1024), smem_desc(b0 + 2048 * kk, kBBox, 1024));
  }
  wgmma_commit();
}

// A consumer warpgroup's k loop over one block tile: wait for the stage, issue its MMAs, wait for
// the previous k tile's MMAs and release that stage (one arrival per warp). The last stage stays
// held: its MMAs may still run (the caller waits with wait_group 0).
__device__ __forceinline__ void consume_tile(float (&d)[128], const Cta& cta, int half, int& it) {
  for (int kt = 0; kt < cta.ktiles; ++kt, ++it) {
    const int s = it % kStages;
    hp::mbar_wait(&cta.full[s], static_cast<std::uint32_t>((it / kStages) & 1));
    mma_ktile(d, cta.ring + s * kStageBytes, half);
    wgmma_wait<1>();  // the MMAs of k tile it - 1 are done: release its stage
    fence_accumulators(d);
    if (kt > 0 && cta.lane == 0) hp::mbar_arrive(&cta.empty[(it - 1) % kStages]);
  }
}

// Writes consumer warpgroup `half`'s 64 x 256 accumulators to C (FP32, ldc = n), guarded at the
// edges. Accumulator layout of m64nNk16: warp w of the warpgroup holds rows 16 w + lane / 4 and
// + 8; register 4 i + {0, 1} columns 8 i + 2 (lane % 4) + {0, 1}, 4 i + {2, 3} the row + 8.
__device__ __forceinline__ void store_tile(float* c, int m, int n, const float (&d)[128],
                                           TileCoord tile, int half, int warp, int lane) {
  const int row = tile.tm * kBM + half * 64 + warp * 16 + lane / 4;
  const int col = tile.tn * kBN + 2 * (lane % 4);
#pragma unroll
  for (int i = 0; i < kBN / 8; ++i) {
    store_pair(c, n, m, row, col + 8 * i, d[4 * i], d[4 * i + 1]);
    store_pair(c, n, m, row + 8, col + 8 * i, d[4 * i + 2], d[4 * i + 3]);
  }
}

}  // namespace bf16

// ---- 2-CTA clusters sharing B by TMA multicast (wgmma_cluster, wgmma_cluster_persistent) --------
// The tensor copy of tma_load_2d, delivered to every CTA of `mask` at the same shared offset and
// completing bytes on the mbarrier at the same offset in each.
__device__ __forceinline__ void tma_load_2d_multicast(void* dst, const CUtensorMap* map, int x,
                                                      int y, std::uint64_t* bar,
                                                      std::uint16_t mask) {
#if MEMLAB_WGMMA
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
      ".multicast::cluster [%0], [%1, {%2, %3}], [%4], %5;\n" ::"r"(hp::smem_u32(dst)),
      "l"(reinterpret_cast<std::uint64_t>(map)), "r"(x), "r"(y), "r"(hp::smem_u32(bar)), "h"(mask)
      : "memory");
#else
  (void)dst;
  (void)map;
  (void)x;
  (void)y;
  (void)bar;
  (void)mask;
#endif
}

// One arrival on the barrier at shared::cluster address `addr` (cluster_map: possibly another
// CTA's), with mbarrier.arrive's default semantics (release at CTA scope). The arrival only says
// "this stage's wgmma reads are done" (wgmma_wait retired them): no data of this CTA's is published
// through it, so no cluster-scope release is needed. With `.release.cluster` each arrival compiled
// to a memory barrier: ncu showed `membar` as the top stall and the tensor pipe at 50%.
__device__ __forceinline__ void mbar_arrive_cluster(std::uint32_t addr) {
#if MEMLAB_WGMMA
  asm volatile("mbarrier.arrive.shared::cluster.b64 _, [%0];\n" ::"r"(addr) : "memory");
#else
  (void)addr;
#endif
}

namespace bf16 {
constexpr int kCluster = 2;                          // CTAs per cluster, along M
constexpr std::uint16_t kMask = 0b11;                // multicast to both CTAs
constexpr int kBBoxesPerRank = kBN / 64 / kCluster;  // 2 of B's four 64 x 64 boxes
static_assert(kCluster == 2, "cluster2_config launches clusters of 2");
}  // namespace bf16
}  // namespace memlab::lessons::tensor_cores::wgk
