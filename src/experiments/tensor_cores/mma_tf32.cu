// TF32 GEMM with mma.sync.m16n8k8 and a 4-stage cp.async pipeline (see kernels.cuh).
#include "memlab/cuda/check.hpp"
#include "tensor_cores/kernels.cuh"
#include "tensor_cores/ptx.cuh"

namespace memlab::lessons::tensor_cores {
namespace {

constexpr int kBM = 128, kBN = 128, kBK = 16, kStages = 4, kThreads = 128, kGroupM = 8;
constexpr int kStrideA = kBK + 4;  // 20 floats: the 32 lanes' (row g, col t) loads are distinct
constexpr int kStrideB = kBN + 8;  // 136 floats: (row t, col g) loads are distinct
constexpr int kTileA = kBM * kStrideA, kTileB = kBK * kStrideB;
constexpr int kSmemBytes = kStages * (kTileA + kTileB) * 4;

__global__ void __launch_bounds__(kThreads)
    gemm_tf32(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
              Gemm g) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  extern __shared__ __align__(128) float smem_f[];
  float* sa = smem_f;
  float* sb = smem_f + kStages * kTileA;

  const int tiles_m = (g.m + kBM - 1) / kBM, tiles_n = (g.n + kBN - 1) / kBN;
  const int id = static_cast<int>(blockIdx.x);
  const int first_m = (id / (kGroupM * tiles_n)) * kGroupM;
  const int group_rows = min(tiles_m - first_m, kGroupM);
  const int m0 = (first_m + (id % (kGroupM * tiles_n)) % group_rows) * kBM;
  const int n0 = ((id % (kGroupM * tiles_n)) / group_rows) * kBN;

  const int tid = static_cast<int>(threadIdx.x), lane = tid & 31, warp = tid >> 5;
  const int wm = (warp >> 1) * 64, wn = (warp & 1) * 64;
  const int gq = lane >> 2, tq = lane & 3;

  auto load_stage = [&](int stage, int kt) {
    const int k0 = kt * kBK;
    float* da = sa + stage * kTileA;
    float* db = sb + stage * kTileB;
#pragma unroll
    for (int i = 0; i < 4; ++i) {  // A: 128 rows x 4 chunks of 4 floats
      const int chunk = tid + i * kThreads, row = chunk >> 2, col = chunk & 3;
      const int gm = m0 + row, gk = k0 + col * 4;
      const bool ok = gm < g.m && gk < g.lda;
      const float* src = ok ? a + static_cast<std::size_t>(gm) * g.lda + gk : a;
      cp_async16(smem_addr(da + row * kStrideA + col * 4), src, ok);
    }
#pragma unroll
    for (int i = 0; i < 4; ++i) {  // B: 16 rows x 32 chunks
      const int chunk = tid + i * kThreads, row = chunk >> 5, col = chunk & 31;
      const int gk = k0 + row, gn = n0 + col * 4;
      const bool ok = gk < g.k && gn < g.ldb;
      const float* src = ok ? b + static_cast<std::size_t>(gk) * g.ldb + gn : b;
      cp_async16(smem_addr(db + row * kStrideB + col * 4), src, ok);
    }
  };

  float acc[4][8][4];
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < 8; ++j)
#pragma unroll
      for (int r = 0; r < 4; ++r) acc[i][j][r] = 0.0f;

  const int ktiles = (g.k + kBK - 1) / kBK;
#pragma unroll
  for (int s = 0; s < kStages - 1; ++s) {
    if (s < ktiles) load_stage(s, s);
    cp_async_commit();
  }

  for (int kt = 0; kt < ktiles; ++kt) {
    cp_async_wait<kStages - 2>();
    __syncthreads();
    const int next = kt + kStages - 1;
    if (next < ktiles) load_stage(next % kStages, next);
    cp_async_commit();

    const float* ta = sa + (kt % kStages) * kTileA;
    const float* tb = sb + (kt % kStages) * kTileB;
#pragma unroll
    for (int kk = 0; kk < kBK; kk += 8) {
      std::uint32_t fa[4][4], fb[8][2];
#pragma unroll
      for (int mi = 0; mi < 4; ++mi) {
        const float* p = ta + (wm + mi * 16 + gq) * kStrideA + kk + tq;
        fa[mi][0] = __float_as_uint(p[0]);
        fa[mi][1] = __float_as_uint(p[8 * kStrideA]);
        fa[mi][2] = __float_as_uint(p[4]);
        fa[mi][3] = __float_as_uint(p[8 * kStrideA + 4]);
      }
#pragma unroll
      for (int ni = 0; ni < 8; ++ni) {
        const float* p = tb + (kk + tq) * kStrideB + wn + ni * 8 + gq;
        fb[ni][0] = __float_as_uint(p[0]);
        fb[ni][1] = __float_as_uint(p[4 * kStrideB]);
      }
#pragma unroll
      for (int mi = 0; mi < 4; ++mi)
#pragma unroll
        for (int ni = 0; ni < 8; ++ni) mma_tf32_1688(acc[mi][ni], fa[mi], fb[ni]);
    }
  }
  cp_async_wait<0>();

#pragma unroll
  for (int mi = 0; mi < 4; ++mi)
#pragma unroll
    for (int ni = 0; ni < 8; ++ni)
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const int row = m0 + wm + mi * 16 + gq + h * 8;
        const int col = n0 + wn + ni * 8 + tq * 2;
        store_pair(c, g.n, g.m, row, col, acc[mi][ni][2 * h], acc[mi][ni][2 * h + 1]);
      }
#else
  __trap();  // the launcher never runs this kernel below sm_80
#endif
}

}  // namespace

void launch_mma_tf32(const float* a, const float* b, float* c, const Gemm& g, cudaStream_t stream) {
  static const bool configured = [] {
    MEMLAB_CUDA_CHECK(
        cudaFuncSetAttribute(gemm_tf32, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmemBytes));
    return true;
  }();
  (void)configured;
  const unsigned blocks = static_cast<unsigned>(((g.m + kBM - 1) / kBM) * ((g.n + kBN - 1) / kBN));
  gemm_tf32<<<blocks, kThreads, kSmemBytes, stream>>>(a, b, c, g);
  MEMLAB_CHECK_LAUNCH(gemm_tf32);
}

}  // namespace memlab::lessons::tensor_cores
