// matmul, async copies: the thread_tile_8x16 arithmetic (128 threads, 8 x 16 outputs each, a
// 128 x 128 block tile) fed by a 3-stage cp.async pipeline instead of loads through registers.
//
// What it does to memory: each stage is a 128 x 32 tile of A and a 32 x 128 tile of B (32 KiB),
// copied global -> shared by `cp.async.cg` 16 bytes at a time (L2 only, no L1 allocation, no
// register round trip: a warp's 32 copies are 4 rows x 128 bytes of A or 512 contiguous bytes of
// B). Two stages are in flight while the third is computed: `commit_group` closes a stage's copies,
// `wait_group 1` waits for the oldest. Global traffic per block tile is the same as thread_tile's
// (BM BN / (2 (BM + BN)) = 32 flop per byte); what changes is that the loads no longer occupy 16
// registers and the issue slots of their shared stores, and that 64 KiB per block (2 blocks: 128
// KiB per SM) are in flight instead of one 8-deep k tile.
//
// A stays row-major in shared memory (cp.async cannot transpose), so a thread reads 4 k values of
// one row as one LDS.128. Its 8 rows lie 4 apart across the lane groups (lane / 4): without a
// swizzle they would share a 16-byte bank quad (8-way conflict); chunk c of row m is stored at
// chunk c ^ ((m / 4) mod 8), which spreads the 8 lane groups over the 8 chunks of a 128-byte row.
// Per 4 k steps a thread issues 8 LDS.128 of A and 16 of B for 512 FMAs.
// Whole tiles only (M, N multiples of 128, K of 32); other sizes run double_buffer's guarded
// kernel (see kernels.cu).
#include <cuda_runtime.h>

#include "matmul/kernels_async.cuh"
#include "memlab/cuda/check.hpp"

namespace memlab::lessons::matmul {

namespace {

constexpr int kBM = 128, kBN = 128, kBK = 32, kStages = 3;
constexpr int kATile = kBM * kBK, kBTile = kBK * kBN;  // floats per stage

__device__ __forceinline__ void cp_async16(float* dst, const float* src) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(
                   static_cast<unsigned>(__cvta_generic_to_shared(dst))),
               "l"(src)
               : "memory");
#endif
}
__device__ __forceinline__ void cp_async_commit() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}
template <int N>
__device__ __forceinline__ void cp_async_wait() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
#endif
}

// Float offset of 16-byte chunk c (0..7) of row m of a stage's A tile (32 floats per row).
__device__ __forceinline__ int a_at(int m, int c) {
  return m * kBK + ((c ^ ((m >> 2) & 7)) << 2);
}

// Issues the copies of k tile `kt` into stage buffer (As, Bs): 1024 + 1024 chunks, 16 per thread.
__device__ __forceinline__ void issue_stage(const float* __restrict__ A,
                                            const float* __restrict__ B, int N, int K, int m0,
                                            int n0, int kt, float* As, float* Bs, int tid) {
  const int k0 = kt * kBK;
#pragma unroll
  for (int i = 0; i < kATile / 4 / kCpAsyncThreads; ++i) {
    const int e = tid + i * kCpAsyncThreads;  // chunk e: row e / 8, chunk e % 8
    const int m = e >> 3, c = e & 7;
    cp_async16(As + a_at(m, c), A + static_cast<std::size_t>(m0 + m) * K + k0 + 4 * c);
  }
#pragma unroll
  for (int i = 0; i < kBTile / 4 / kCpAsyncThreads; ++i) {
    const int e = tid + i * kCpAsyncThreads;  // row e / 32, chunk e % 32
    const int k = e >> 5, c = e & 31;
    cp_async16(Bs + k * kBN + 4 * c, B + static_cast<std::size_t>(k0 + k) * N + n0 + 4 * c);
  }
}

__global__ void __launch_bounds__(kCpAsyncThreads, 2)
    cp_async_kernel(int M, int N, int K, const float* __restrict__ A, const float* __restrict__ B,
                    float* __restrict__ C) {
  extern __shared__ __align__(16) float smem[];
  float* As = smem;                     // kStages x kATile
  float* Bs = smem + kStages * kATile;  // kStages x kBTile
  constexpr int TM = 8, TN = 16, mstep = 32, nstep = 16;
  const int tid = static_cast<int>(threadIdx.x);
  const int warp = tid / 32, lane = tid % 32;
  const int mbase = (warp / 2) * 64 + (lane / 4) * 4;
  const int nbase = (warp % 2) * 64 + (lane % 4) * 4;
  const int m0 = static_cast<int>(blockIdx.y) * kBM, n0 = static_cast<int>(blockIdx.x) * kBN;
  const int tiles = K / kBK;
  (void)M;
  // Prologue: stages 0 .. kStages - 2 in flight (an empty group where K has fewer tiles).
#pragma unroll
  for (int s = 0; s < kStages - 1; ++s) {
    if (s < tiles) issue_stage(A, B, N, K, m0, n0, s, As + s * kATile, Bs + s * kBTile, tid);
    cp_async_commit();
  }
  float acc[TM][TN] = {};
  for (int t = 0; t < tiles; ++t) {
    cp_async_wait<kStages - 2>();  // this thread's copies of tile t have landed
    __syncthreads();               // everyone's have; and everyone finished tile t - 1
    const int next = t + kStages - 1;
    if (next < tiles) {
      const int buf = next % kStages;  // the buffer tile t - 1 used
      issue_stage(A, B, N, K, m0, n0, next, As + buf * kATile, Bs + buf * kBTile, tid);
    }
    cp_async_commit();
    const float* as = As + (t % kStages) * kATile;
    const float* bs = Bs + (t % kStages) * kBTile;
#pragma unroll 2
    for (int kc = 0; kc < kBK / 4; ++kc) {  // 4 k steps per LDS.128 of A
      float4 a[TM];
#pragma unroll
      for (int i = 0; i < TM; ++i) {
        const int m = mbase + (i / 4) * mstep + i % 4;
        a[i] = *reinterpret_cast<const float4*>(as + a_at(m, kc));
      }
#pragma unroll
      for (int kk = 0; kk < 4; ++kk) {
        float b[TN];
#pragma unroll
        for (int p = 0; p < TN / 4; ++p) {
          const float4 v =
              *reinterpret_cast<const float4*>(bs + (4 * kc + kk) * kBN + nbase + p * nstep);
          b[4 * p] = v.x;
          b[4 * p + 1] = v.y;
          b[4 * p + 2] = v.z;
          b[4 * p + 3] = v.w;
        }
#pragma unroll
        for (int i = 0; i < TM; ++i) {
          const float ai = kk == 0 ? a[i].x : kk == 1 ? a[i].y : kk == 2 ? a[i].z : a[i].w;
#pragma unroll
          for (int j = 0; j < TN; ++j) acc[i][j] = fmaf(ai, b[j], acc[i][j]);
        }
      }
    }
  }
  cp_async_wait<0>();
#pragma unroll
  for (int i = 0; i < TM; ++i) {
    const int row = m0 + mbase + (i / 4) * mstep + i % 4;
#pragma unroll
    for (int h = 0; h < TN / 4; ++h) {
      *reinterpret_cast<float4*>(C + static_cast<std::size_t>(row) * N + n0 + nbase + h * nstep) =
          make_float4(acc[i][4 * h], acc[i][4 * h + 1], acc[i][4 * h + 2], acc[i][4 * h + 3]);
    }
  }
}

}  // namespace

const void* cp_async_kernel_fn() {
  static const bool raised = [] {
    MEMLAB_CUDA_CHECK(cudaFuncSetAttribute(
        cp_async_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kCpAsyncSmem));
    return true;
  }();
  (void)raised;
  return reinterpret_cast<const void*>(cp_async_kernel);
}

}  // namespace memlab::lessons::matmul
