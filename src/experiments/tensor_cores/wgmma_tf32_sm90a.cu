// tensor_cores, Hopper: the `wgmma` variant at dtype tf32 (wgmma_bf16_sm90a.cu is the BF16 one:
// read its header first). Built for sm_90a only, like that file; the CTA's prologue (ring,
// barriers, init; wgk::cta_setup), the roles' starts (setmaxnreg, map prefetch), the raster, the
// descriptor, the fences and the asm's accumulator operands are wgmma_common.cuh's.
//
// The catch: wgmma with .tf32 reads both shared-memory operands K-major only (the transpose flags
// exist for 16-bit types alone). A (M x K, row-major) is K-major, B (K x N, row-major) is not. So
// the kernel computes the transpose, C^T (N x M) = B^T A^T, one m64n256k8 at a time:
//   - wgmma's B operand (8 k x 256 columns, shared memory, descriptor) is the lesson's A tile:
//     a 256 (m) x 32 (k) TMA box, 128-byte rows of k, 128B swizzle: exactly the BF16 kernel's A
//     layout (K-major, SBO 1024 B between 8-row groups, the k8 slices 32-byte steps in a row);
//   - wgmma's A operand (64 rows x 8 k) comes from registers: the lesson's B tile, TMA-loaded as
//     four 32 (k) x 32 (n) boxes (rows k of 128 bytes of n, 128B swizzle: 16-byte chunk c of row r
//     at chunk c ^ (r % 8)); each consumer thread loads its 4 registers per k8 step with 4-byte
//     shared loads. Fragment layout of wgmma .tf32 A (PTX ISA, m64nNk8): warp w of the warpgroup
//     holds rows 16 w + lane / 4 + 8 (v & 1), column lane % 4 + 4 (v >> 1) in register v.
// Which lesson n a wgmma row stands for is ours to choose (a permutation of A's rows permutes D's
// rows; the epilogue undoes it). The natural choice (row i = n i) gives 2-way bank conflicts: a
// load's 8 rows g would be 8 consecutive n = 2 chunks, the 4 lanes t = lane % 4 read rows k = t
// (+4) whose swizzle XORs 0..3 into the chunk, and chunk c ^ t repeats (c, t) = (0, 1) and (1, 0).
// So the row of (warp w, lane / 4 = g, half b) is n = 32 (w / 2) + 4 (2 (w % 2) + b) + 16 (g / 4) +
// g % 4 within the warpgroup's 64: a load's 8 n are two runs of 4, 16 floats apart (chunks c and c
// + 4; c = 2 (w % 2) + b), so the swizzled chunk (c ^ t) + 4 ((g / 4) ^ j) takes 8 distinct values
// over (g / 4, t) and the word within it g % 4 the rest: 32 lanes, 32 banks, conflict-free. The 16
// registers of a k tile are double-buffered (two sets): a set is overwritten only after the
// wait_group that retires the MMAs reading it (wgmma reads register operands asynchronously).
//
// Tile: a CTA computes 256 (m) x 128 (n) of C: producer warpgroup + 2 consumer warpgroups, each
// owning 64 n x 256 m of C^T = 128 FP32 accumulators per thread. Per stage A's box 32 KiB + B's
// 4 boxes 16 KiB = 48 KiB; 4 stages = 192 KiB (+ 1 KiB align slack, barriers static). Per k tile a
// consumer issues 4 m64n256k8 (262k flop each) from one commit group; the stage of the previous k
// tile is released after wait_group 1, as in the BF16 kernel. Epilogue: accumulator (row = n,
// column pair = m, m + 1) -> C[m][n] with 4-byte stores, guarded at the edges; per store
// instruction a warp writes 4 rows of C x 2 runs of 16 contiguous bytes. Boxes past M, N, K are
// zero-filled by the copy engine (lda, ldb are padded to 16 bytes by the lesson); inputs are TF32
// values already.
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "common/hopper.hpp"
#include "memlab/cuda/check.hpp"
#include "tensor_cores/kernels.cuh"
#include "tensor_cores/wgmma_common.cuh"

namespace memlab::lessons::tensor_cores {
namespace {

namespace hp = memlab::lessons::hopper;

constexpr int kBM = 256, kBN = 128, kBK = 32, kStages = 4;  // lesson m, n, k of a block tile
constexpr int kConsumers = 2;                               // warpgroups of 64 n x 256 m
constexpr int kThreads = 128 * (kConsumers + 1);
constexpr int kABytes = kBM * kBK * 4;               // 32 KiB: A's 256 (m) x 32 (k) box
constexpr int kBBox = kBK * 32 * 4;                  // one 32 (k) x 32 (n) box of B: 4 KiB
constexpr int kBBytes = kBK * kBN * 4;               // 16 KiB
constexpr int kStageBytes = kABytes + kBBytes;       // 48 KiB
constexpr int kSmem = kStages * kStageBytes + 1024;  // + slack to align the ring to 1024 bytes
constexpr int kGroupM = 8;  // block rows (of 256 m) visited together: ~sqrt(132 * 4 / 8) for L2

// d (64 x 256, FP32) += A (64 x 8, registers) B (8 x 256, K-major shared memory, descriptor).
__device__ __forceinline__ void wgmma_m64n256k8_tf32(float (&d)[128], const std::uint32_t* a,
                                                     std::uint64_t b) {
#if MEMLAB_WGMMA
  asm volatile(
      "{\n"
      ".reg .pred p;\n"
      "setp.ne.b32 p, %133, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32 {" MEMLAB_WGMMA_D128_TEXT
      "}, {%128, %129, %130, %131}, %132, p, 1, 1;\n"
      "}\n"
      : MEMLAB_WGMMA_D128_OPERANDS(d)
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(b), "r"(1));
#else
  (void)d;
  (void)a;
  (void)b;
#endif
}

__device__ __forceinline__ std::uint32_t ld_shared_u32(std::uint32_t addr) {
  std::uint32_t v = 0;
#if MEMLAB_WGMMA
  asm volatile("ld.shared.b32 %0, [%1];\n" : "=r"(v) : "r"(addr) : "memory");
#else
  (void)addr;
#endif
  return v;
}

// The producer thread's share of one block tile (as wgk::bf16::produce_tile): per k tile A's
// 256 x 32 box and B's four 32 x 32 boxes, 48 KiB announced on the stage's `full` barrier.
__device__ __forceinline__ void produce_tile(const wgk::Cta& cta, const CUtensorMap* a_map,
                                             const CUtensorMap* b_map, wgk::TileCoord tile,
                                             int& it) {
  for (int kt = 0; kt < cta.ktiles; ++kt, ++it) {
    const wgk::Stage stage = wgk::acquire_stage<kStages, kStageBytes>(cta, it);
    hp::tma_load_2d(stage.smem, a_map, kt * kBK, tile.tm * kBM, stage.full);
#pragma unroll
    for (int j = 0; j < kBN / 32; ++j) {
      hp::tma_load_2d(stage.smem + kABytes + j * kBBox, b_map, tile.tn * kBN + 32 * j, kt * kBK,
                      stage.full);
    }
  }
}

// One k tile of a consumer warpgroup: wait for the stage, load the 16 A-fragment registers of its
// 4 k8 steps into `f` (offsets `off[v]` of register v inside the stage's B boxes, + 1024 bytes =
// 8 rows of k per step), issue the 4 MMAs as one group, wait for the previous k tile's group
// (which also frees the other register set) and release that tile's stage (one arrival per warp).
__device__ __forceinline__ void consume_ktile(float (&d)[128], std::uint32_t (&f)[16],
                                              const wgk::Cta& cta, const std::uint32_t (&off)[4],
                                              int kt) {
  const int s = kt % kStages;
  hp::mbar_wait(&cta.full[s], static_cast<std::uint32_t>((kt / kStages) & 1));
  const unsigned char* stage = cta.ring + s * kStageBytes;
  const std::uint32_t bsm = hp::smem_u32(stage + kABytes);
#pragma unroll
  for (int kk = 0; kk < kBK / 8; ++kk) {
#pragma unroll
    for (int v = 0; v < 4; ++v) f[4 * kk + v] = ld_shared_u32(bsm + 1024 * kk + off[v]);
  }
  const std::uint32_t a0 = hp::smem_u32(stage);
  wgk::fence_accumulators(d);
  wgk::wgmma_fence();
#pragma unroll
  for (int kk = 0; kk < kBK / 8; ++kk) {
    wgmma_m64n256k8_tf32(d, f + 4 * kk, wgk::smem_desc(a0 + 32 * kk, 16, 1024));
  }
  wgk::wgmma_commit();
  wgk::wgmma_wait<1>();  // the MMAs of k tile kt - 1 are done: release its stage
  wgk::fence_accumulators(d);
  if (kt > 0 && cta.lane == 0) hp::mbar_arrive(&cta.empty[(kt - 1) % kStages]);
}

__global__ void __launch_bounds__(kThreads, 1)
    wgmma_tf32_kernel(const __grid_constant__ CUtensorMap a_map,
                      const __grid_constant__ CUtensorMap b_map, float* __restrict__ c, int m,
                      int n, int k) {
#if !MEMLAB_WGMMA
  __trap();  // a build without sm_90a: never launched (wgmma_built() is false, the variant skips)
#endif
  const wgk::Cta cta = wgk::cta_setup<kBM, kBN, kBK, kStages, kConsumers>(m, n, k);
  const wgk::TileCoord tile =
      wgk::raster(static_cast<int>(blockIdx.x), cta.tiles_m, cta.tiles_n, kGroupM);
  if (cta.wg == 0) {
    if (wgk::producer_start(cta, &a_map, &b_map)) {  // thread 0 issues the copies
      int it = 0;
      produce_tile(cta, &a_map, &b_map, tile, it);
    }
  } else {
    wgk::consumer_start();
    const int half = cta.wg - 1;  // n 64 half .. 64 half + 63 of the block tile
    const int warp = cta.warp, g = cta.lane / 4, t4 = cta.lane % 4;
    // Register v = b + 2 j of a k8 step: row k = t4 + 4 j of the step, n (within the warp's box
    // 2 half + warp / 2) = 4 c + 16 (g / 4) + g % 4 with c = 2 (warp % 2) + b; swizzled chunk
    // (c ^ t4) + 4 ((g / 4) ^ j) (the k8 steps start at row multiples of 8: r % 8 = t4 + 4 j).
    std::uint32_t off[4];
#pragma unroll
    for (int v = 0; v < 4; ++v) {
      const int b = v & 1, j = v >> 1, chunk = 2 * (warp % 2) + b;
      off[v] = static_cast<std::uint32_t>((2 * half + warp / 2) * kBBox + (t4 + 4 * j) * 128 +
                                          ((chunk ^ t4) + 4 * ((g / 4) ^ j)) * 16 + (g % 4) * 4);
    }
    float d[128];
    wgk::zero_accumulators(d);
    std::uint32_t f0[16], f1[16];  // the two register sets of the A fragments
    int kt = 0;
    for (; kt + 1 < cta.ktiles; kt += 2) {
      consume_ktile(d, f0, cta, off, kt);
      consume_ktile(d, f1, cta, off, kt + 1);
    }
    if (kt < cta.ktiles) consume_ktile(d, f0, cta, off, kt);
    wgk::drain_mmas(d);
    // Accumulator layout of m64nNk8: d[4 i + e] is row 16 warp + g + 8 (e >> 1) (= n, permuted as
    // the fragments), column 8 i + 2 t4 + (e & 1) (= m).
    int cn[2];
#pragma unroll
    for (int b = 0; b < 2; ++b) {
      cn[b] = tile.tn * kBN + 64 * half + 32 * (warp / 2) + 4 * (2 * (warp % 2) + b) +
              16 * (g / 4) + g % 4;
    }
    const int cm = tile.tm * kBM + 2 * t4;
#pragma unroll
    for (int i = 0; i < kBM / 8; ++i) {
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        const int row = cm + 8 * i + (e & 1), col = cn[e >> 1];
        if (row < m && col < n) c[static_cast<std::size_t>(row) * n + col] = d[4 * i + e];
      }
    }
  }
}

}  // namespace

void launch_wgmma_tf32(const float* a, const float* b, float* c, const Gemm& g,
                       cudaStream_t stream) {
  wgk::raise_smem_once<wgmma_tf32_kernel, kSmem>();
  // FLOAT32, not TFLOAT32: the copy engine passes the bits unchanged (they are TF32 values).
  const wgk::GemmMaps maps =
      wgk::gemm_maps(CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4, a, b, g, kBK, kBM, 32);
  const unsigned blocks = static_cast<unsigned>(((g.m + kBM - 1) / kBM) * ((g.n + kBN - 1) / kBN));
  wgmma_tf32_kernel<<<blocks, kThreads, kSmem, stream>>>(maps.a, maps.b, c, g.m, g.n, g.k);
  MEMLAB_CHECK_LAUNCH(wgmma_tf32_kernel);
}

}  // namespace memlab::lessons::tensor_cores
