// tensor_cores, Hopper: `wgmma_persistent`, the `wgmma` kernel (wgmma_bf16_sm90a.cu: read its
// header first; same 128 x 256 x 64 tile, 4-stage 48 KiB TMA ring, producer + 2 consumer
// warpgroups, setmaxnreg 40 / 232) made persistent. Built for sm_90a only, like that file.
//
// What changes: grid = min(tiles, SMs) CTAs (one per SM: 193 KiB of smem each); CTA b walks the
// tiles b, b + grid, b + 2 grid, ... in the same grouped raster (16 block rows per group), so at
// any step the CTAs run the same 132 consecutive tile ids the non-persistent waves would. The
// ring's stage and phase run on across tiles: a running k-tile counter `it` (stage it % 4, phase
// (it / 4) & 1) in both the producer and the consumers. After its last k tile the consumers wait
// for their MMAs (wait_group 0) and release that stage at once, so while they run the epilogue
// (128 KiB of FP32 C per tile from registers) the producer is already filling all 4 stages with
// the next tile's k tiles: the epilogue and the ring's refill (the prologue of each non-persistent
// CTA, ~1-2 us of TMA latency at 4 stages) overlap the neighbour's work instead of idling the
// tensor cores, and no CTA launch/teardown/barrier init happens per tile.
//
// Napkin math (H200, 8192^3, BF16 in, FP32 C): 2048 tiles over 132 CTAs = 15.5 tiles each (16 for
// 68 CTAs: the wave quantization stays, as in `wgmma`). Per tile 2 * 128 * 256 * 8192 = 537 MFLOP
// = 131k clocks at 4096 FLOP/clk/SM (72 us at 1.83 GHz); its epilogue writes 128 KiB (~4 us at a
// 1/132 share of 4.3 TB/s) and the non-persistent prologue waits ~1 us for the first stage: ~5 us
// of 72 per tile the tensor cores idled in `wgmma`, now hidden. Bytes in flight per SM: 4 stages
// x 48 KiB = 192 KiB requested ahead (>> the ~26 KiB Little's law needs). smem 4 x 48 KiB + 1 KiB
// align slack + 64 B of barriers; registers: producer 40, consumers 128 accumulators + addressing
// (<= 232). Limiter left: the tensor-core rate at the power-capped clock (sw power cap in the long
// run), and the 16th wave's half-empty machine. Predicted: ~1.36 ms cold at 8192^3 (5% under
// `wgmma`'s 1.431 ms), ~1.55 ms in a long power-capped run.
//
// Deadlock safety: the producer only waits on a stage's `empty` barrier for a stage it filled
// before (it >= 4), and the consumers release every stage they consume (the previous one in the
// k loop, the last one after wait_group 0), 8 warp arrivals each; a CTA with no tiles (not
// launched: grid <= tiles) would skip both loops. `max_ctas` (tests) caps the grid so that each CTA
// walks several tiles and the ring wraps across tile boundaries.
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>

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

namespace memlab::lessons::tensor_cores {
namespace {

namespace hp = memlab::lessons::hopper;

constexpr int kBM = 128, kBN = 256, kBK = 64, kStages = 4;
constexpr int kConsumers = 2;  // warpgroups of 64 x 256
constexpr int kThreads = 128 * (kConsumers + 1);
constexpr int kABytes = kBM * kBK * 2;  // 16 KiB
constexpr int kBBox = 64 * kBK * 2;     // one 64 (n) x 64 (k) box of B: 8 KiB
constexpr int kBBytes = kBK * kBN * 2;  // 32 KiB
constexpr int kStageBytes = kABytes + kBBytes;
constexpr int kSmem = kStages * kStageBytes + 1024;  // + slack to align the ring to 1024 bytes
constexpr int kGroupM = 16;                          // block rows visited together (L2 reuse)

// Shared-memory matrix descriptor: start address, leading and stride byte offsets (all in 16-byte
// units), swizzle mode 1 (128 bytes) in bits 62-63; base offset 0 (the ring is 1024-aligned).
__device__ __forceinline__ std::uint64_t smem_desc(std::uint32_t addr, std::uint32_t lbo,
                                                   std::uint32_t sbo) {
  return static_cast<std::uint64_t>((addr & 0x3FFFFu) >> 4) |
         (static_cast<std::uint64_t>((lbo >> 4) & 0x3FFFu) << 16) |
         (static_cast<std::uint64_t>((sbo >> 4) & 0x3FFFu) << 32) | (std::uint64_t{1} << 62);
}

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
__device__ __forceinline__ void fence_accumulators(float (&d)[128]) {
#pragma unroll
  for (int i = 0; i < 128; ++i) asm volatile("" : "+f"(d[i])::"memory");
}

// d (64 x 256, FP32) += A (64 x 16, K-major) B (16 x 256, N-major: transpose-B = 1).
__device__ __forceinline__ void wgmma_m64n256k16(float (&d)[128], std::uint64_t a,
                                                 std::uint64_t b) {
#if MEMLAB_WGMMA
  asm volatile(
      "{\n"
      ".reg .pred p;\n"
      "setp.ne.b32 p, %130, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 {"
      "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
      "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
      "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, "
      "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, "
      "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, "
      "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, "
      "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, "
      "%127 "
      "}, %128, %129, p, 1, 1, 0, 1;\n"
      "}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]),
        "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]),
        "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]),
        "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]),
        "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]),
        "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]),
        "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]),
        "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
        "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]),
        "+f"(d[63]), "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]),
        "+f"(d[70]), "+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]),
        "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]),
        "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]), "+f"(d[90]),
        "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), "+f"(d[96]), "+f"(d[97]),
        "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]),
        "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]),
        "+f"(d[110]), "+f"(d[111]), "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]),
        "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]), "+f"(d[120]), "+f"(d[121]),
        "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
      : "l"(a), "l"(b), "r"(1));
#else
  (void)d;
  (void)a;
  (void)b;
#endif
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

__global__ void __launch_bounds__(kThreads, 1)
    wgmma_persistent_kernel(const __grid_constant__ CUtensorMap a_map,
                            const __grid_constant__ CUtensorMap b_map, float* __restrict__ c, int m,
                            int n, int k) {
#if !MEMLAB_WGMMA
  __trap();  // a build without sm_90a: never launched (wgmma_built() is false, the variant skips)
#endif
  extern __shared__ unsigned char raw[];
  __shared__ __align__(8) std::uint64_t full[kStages], empty[kStages];
  unsigned char* ring = raw + ((1024u - (hp::smem_u32(raw) & 1023u)) & 1023u);
  const int wg = static_cast<int>(threadIdx.x) / 128, t = static_cast<int>(threadIdx.x) % 128;
  const int tiles_m = (m + kBM - 1) / kBM, tiles_n = (n + kBN - 1) / kBN;
  const int tiles = tiles_m * tiles_n, per_group = kGroupM * tiles_n;
  const int ktiles = (k + kBK - 1) / kBK;
  const int first = static_cast<int>(blockIdx.x), step = static_cast<int>(gridDim.x);
  if (threadIdx.x == 0) {
    for (int s = 0; s < kStages; ++s) {
      hp::mbar_init(&full[s], 1);                // the producer's arrive_expect_tx
      hp::mbar_init(&empty[s], kConsumers * 4);  // one arrival per consumer warp
    }
    hp::fence_mbarrier_init();
  }
  __syncthreads();
  if (wg == 0) {
    setmaxnreg_dec<40>();
    if (t == 0) {
      hp::tma_prefetch_map(&a_map);
      hp::tma_prefetch_map(&b_map);
      int it = 0;  // k tiles issued by this CTA so far, over all its tiles
      for (int id = first; id < tiles; id += step) {
        // Block tile (tm, tn): ids run down a group of kGroupM block rows, then across.
        const int first_m = (id / per_group) * kGroupM;
        const int rows = min(tiles_m - first_m, kGroupM);
        const int tm = first_m + (id % per_group) % rows, tn = (id % per_group) / rows;
        for (int kt = 0; kt < ktiles; ++kt, ++it) {
          const int s = it % kStages;
          if (it >= kStages)
            hp::mbar_wait(&empty[s], static_cast<std::uint32_t>((it / kStages - 1) & 1));
          unsigned char* stage = ring + s * kStageBytes;
          hp::mbar_arrive_expect_tx(&full[s], kStageBytes);
          hp::tma_load_2d(stage, &a_map, kt * kBK, tm * kBM, &full[s]);
#pragma unroll
          for (int j = 0; j < kBN / 64; ++j) {
            hp::tma_load_2d(stage + kABytes + j * kBBox, &b_map, tn * kBN + 64 * j, kt * kBK,
                            &full[s]);
          }
        }
      }
    }
  } else {
    setmaxnreg_inc<232>();
    const int half = wg - 1;  // rows 64 half .. 64 half + 63 of the block tile
    const int warp = t / 32, lane = t % 32;
    int it = 0;  // k tiles consumed by this CTA so far, over all its tiles
    for (int id = first; id < tiles; id += step) {
      const int first_m = (id / per_group) * kGroupM;
      const int rows = min(tiles_m - first_m, kGroupM);
      const int tm = first_m + (id % per_group) % rows, tn = (id % per_group) / rows;
      float d[128];
#pragma unroll
      for (int i = 0; i < 128; ++i) d[i] = 0.0f;
      for (int kt = 0; kt < ktiles; ++kt, ++it) {
        const int s = it % kStages;
        hp::mbar_wait(&full[s], static_cast<std::uint32_t>((it / kStages) & 1));
        const std::uint32_t a0 = hp::smem_u32(ring + s * kStageBytes + half * (64 * 128));
        const std::uint32_t b0 = hp::smem_u32(ring + s * kStageBytes + kABytes);
        fence_accumulators(d);
        wgmma_fence();
#pragma unroll
        for (int kk = 0; kk < kBK / 16; ++kk) {
          wgmma_m64n256k16(d, smem_desc(a0 + 32 * kk, 16, 1024),
                           smem_desc(b0 + 2048 * kk, kBBox, 1024));
        }
        wgmma_commit();
        wgmma_wait<1>();  // the MMAs of k tile it - 1 are done: release its stage
        fence_accumulators(d);
        if (kt > 0 && lane == 0) hp::mbar_arrive(&empty[(it - 1) % kStages]);
      }
      wgmma_wait<0>();
      fence_accumulators(d);
      // The tile's last stage is free: the producer refills the ring during the epilogue.
      if (ktiles > 0 && lane == 0) hp::mbar_arrive(&empty[(it - 1) % kStages]);
      // Accumulator layout of m64nNk16: warp w of the warpgroup holds rows 16 w + lane / 4 and
      // + 8; register 4 i + {0, 1} columns 8 i + 2 (lane % 4) + {0, 1}, 4 i + {2, 3} the row + 8.
      const int row = tm * kBM + half * 64 + warp * 16 + lane / 4;
      const int col = tn * kBN + 2 * (lane % 4);
#pragma unroll
      for (int i = 0; i < kBN / 8; ++i) {
        store_pair(c, n, m, row, col + 8 * i, d[4 * i], d[4 * i + 1]);
        store_pair(c, n, m, row + 8, col + 8 * i, d[4 * i + 2], d[4 * i + 3]);
      }
    }
  }
}

}  // namespace

void launch_wgmma_persistent_bf16(const std::uint16_t* a, const std::uint16_t* b, float* c,
                                  const Gemm& g, cudaStream_t stream, int max_ctas) {
  static const bool raised = [] {
    MEMLAB_CUDA_CHECK(cudaFuncSetAttribute(wgmma_persistent_kernel,
                                           cudaFuncAttributeMaxDynamicSharedMemorySize, kSmem));
    return true;
  }();
  (void)raised;
  const std::uint64_t a_dims[2] = {static_cast<std::uint64_t>(g.k),
                                   static_cast<std::uint64_t>(g.m)};
  const std::uint64_t a_strides[1] = {static_cast<std::uint64_t>(g.lda) * 2};
  const std::uint32_t a_box[2] = {kBK, kBM};
  const std::uint64_t b_dims[2] = {static_cast<std::uint64_t>(g.n),
                                   static_cast<std::uint64_t>(g.k)};
  const std::uint64_t b_strides[1] = {static_cast<std::uint64_t>(g.ldb) * 2};
  const std::uint32_t b_box[2] = {64, kBK};
  const CUtensorMap a_map =
      hopper::tensor_map(CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, a, a_dims, a_strides, a_box, true);
  const CUtensorMap b_map =
      hopper::tensor_map(CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, b, b_dims, b_strides, b_box, true);
  static const int sms = [] {
    int device = 0, count = 0;
    MEMLAB_CUDA_CHECK(cudaGetDevice(&device));
    MEMLAB_CUDA_CHECK(cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, device));
    return count;
  }();
  const int tiles = ((g.m + kBM - 1) / kBM) * ((g.n + kBN - 1) / kBN);
  int ctas = tiles < sms ? tiles : sms;  // one CTA per SM (193 KiB of smem each)
  if (max_ctas > 0 && max_ctas < ctas) ctas = max_ctas;
  const auto blocks = static_cast<unsigned>(ctas);
  wgmma_persistent_kernel<<<blocks, kThreads, kSmem, stream>>>(a_map, b_map, c, g.m, g.n, g.k);
  MEMLAB_CHECK_LAUNCH(wgmma_persistent_kernel);
}

}  // namespace memlab::lessons::tensor_cores
