// matmul, TMA: the cp_async kernel's block tile (128 x 128, k tiles of 32, 3 stages, 128 threads
// of 8 x 16 outputs) with the tiles loaded by the Tensor Memory Accelerator instead of cp.async.
//
// What it does to memory: per k tile, one thread announces 32 KiB on the stage's mbarrier and
// issues two tensor copies: A's 128 x 32 box (128-byte rows of 32 k, written with the 128-byte
// swizzle: chunk c of row m at c ^ (m mod 8)) and B's 32 x 128 box (512-byte rows, unswizzled).
// The other 127 threads issue no load at all (cp_async: 16 cp.async per thread per tile) and
// wait on the mbarrier's phase. A __syncthreads per tile tells thread 0 that everyone is done with
// the buffer it refills next (two tiles ahead). Global traffic as cp_async (32 flop per byte per
// block tile). Because the engine's swizzle is keyed on (m mod 8), a thread's 8 rows are m = j +
// 8 i (j = lane / 4, i = 0..7) instead of 4 contiguous pairs: the 8 lane groups of a warp then
// read chunk kc ^ j of 8 different rows, 8 different chunks (one wavefront per LDS.128). B's reads
// are 4 distinct float4 per warp (64 bytes), as in cp_async.
// Whole tiles only (M, N multiples of 128, K of 32); other sizes run double_buffer's guarded
// kernel (see kernels.cu). Needs sm_90 (the variant is skipped below).
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>

#include "common/hopper.cuh"
#include "common/hopper.hpp"
#include "matmul/kernels_async.cuh"
#include "matmul/thread_tile.cuh"
#include "memlab/cuda/check.hpp"

namespace memlab::lessons::matmul {
namespace {

namespace hp = memlab::lessons::hopper;

constexpr int kBM = 128, kBN = 128, kBK = 32, kStages = 3, kThreads = 128;
constexpr int kATile = kBM * kBK, kBTile = kBK * kBN;  // floats per stage
constexpr int kStageBytes = (kATile + kBTile) * 4;     // 32 KiB
constexpr int kSmem = kStages * kStageBytes + 1024;    // + slack: the ring starts 1024-aligned

__device__ __forceinline__ void issue(const CUtensorMap* a_map, const CUtensorMap* b_map, float* as,
                                      float* bs, int m0, int n0, int kt, std::uint64_t* bar) {
  hp::mbar_arrive_expect_tx(bar, kStageBytes);
  hp::tma_load_2d(as, a_map, kt * kBK, m0, bar);
  hp::tma_load_2d(bs, b_map, n0, kt * kBK, bar);
}

__global__ void __launch_bounds__(kThreads, 2)
    tma_kernel(const __grid_constant__ CUtensorMap a_map, const __grid_constant__ CUtensorMap b_map,
               float* __restrict__ C, int N, int K) {
  extern __shared__ unsigned char raw[];
  __shared__ __align__(8) std::uint64_t full[kStages];
  float* ring = reinterpret_cast<float*>(raw + ((1024u - (hp::smem_u32(raw) & 1023u)) & 1023u));
  const int tid = static_cast<int>(threadIdx.x);
  const int mbase = (tid / 32 / 2) * 64 + tid % 32 / 4;  // rows mbase + 8 i
  const int nbase = tt::nbase_of(tid);
  const int m0 = static_cast<int>(blockIdx.y) * kBM, n0 = static_cast<int>(blockIdx.x) * kBN;
  const int tiles = K / kBK;
  auto as_of = [&](int s) { return ring + s * (kATile + kBTile); };
  auto bs_of = [&](int s) { return ring + s * (kATile + kBTile) + kATile; };
  if (tid == 0) {
    for (int s = 0; s < kStages; ++s) hp::mbar_init(&full[s], 1);
    hp::fence_mbarrier_init();
    for (int s = 0; s < kStages - 1 && s < tiles; ++s) {
      issue(&a_map, &b_map, as_of(s), bs_of(s), m0, n0, s, &full[s]);
    }
  }
  __syncthreads();
  float acc[tt::TM][tt::TN] = {};
  for (int t = 0; t < tiles; ++t) {
    const int s = t % kStages;
    hp::mbar_wait(&full[s], static_cast<std::uint32_t>((t / kStages) & 1));
    __syncthreads();  // everyone finished tile t - 1: its buffer may be refilled
    const int next = t + kStages - 1;
    if (tid == 0 && next < tiles) {
      const int b = next % kStages;
      issue(&a_map, &b_map, as_of(b), bs_of(b), m0, n0, next, &full[b]);
    }
    const float* as = as_of(s);
    const float* bs = bs_of(s);
#pragma unroll 2
    for (int kc = 0; kc < kBK / 4; ++kc) {
      float4 a[tt::TM];
#pragma unroll
      for (int i = 0; i < tt::TM; ++i) {
        const int m = mbase + 8 * i;  // m mod 8 = lane / 4
        a[i] = *reinterpret_cast<const float4*>(reinterpret_cast<const unsigned char*>(as) +
                                                hp::swizzle128(m, kc));
      }
      tt::k_steps_4<kBN>(acc, a, bs + 4 * kc * kBN, nbase);
    }
  }
  tt::store_tile(C, N, n0 + nbase, acc, [&](int i) { return m0 + mbase + 8 * i; });
}

}  // namespace

const void* tma_kernel_fn() {
  return reinterpret_cast<const void*>(tma_kernel);
}

void launch_tma(const float* A, const float* B, float* C, int M, int N, int K,
                cudaStream_t stream) {
  (void)tt::with_smem_limit<tma_kernel, kSmem>();  // raised on the first call
  const std::uint64_t a_dims[2] = {static_cast<std::uint64_t>(K), static_cast<std::uint64_t>(M)};
  const std::uint64_t a_strides[1] = {static_cast<std::uint64_t>(K) * 4};
  const std::uint32_t a_box[2] = {kBK, kBM};
  const std::uint64_t b_dims[2] = {static_cast<std::uint64_t>(N), static_cast<std::uint64_t>(K)};
  const std::uint64_t b_strides[1] = {static_cast<std::uint64_t>(N) * 4};
  const std::uint32_t b_box[2] = {kBN, kBK};
  const CUtensorMap a_map =
      hopper::tensor_map(CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, A, a_dims, a_strides, a_box, true);
  const CUtensorMap b_map =
      hopper::tensor_map(CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, B, b_dims, b_strides, b_box, false);
  const dim3 grid(static_cast<unsigned>(N / kBN), static_cast<unsigned>(M / kBM));
  tma_kernel<<<grid, kThreads, kSmem, stream>>>(a_map, b_map, C, N, K);
  MEMLAB_CHECK_LAUNCH(tma_kernel);
}

}  // namespace memlab::lessons::matmul
