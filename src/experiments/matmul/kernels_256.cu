// matmul, thread_tile_256x128 (issue 23, round 2): cuBLAS's SIMT shape. A 256 x 128 block tile,
// 256 threads of 8 x 16 outputs (thread_tile_8x16's micro tile and lane layout, 8 warps of 64 x 64
// instead of 4), fed by cp_async's 3-stage cp.async.cg ring (k tiles of 32, no staging
// registers, one __syncthreads per k tile), one block per SM.
//
// Napkin math (4096^3, 137.4 GFLOP, FP32 peak 66.9 TFLOP/s = 2.05 ms): per thread and 4 k steps
// 8 LDS.128 (A, row-major, swizzled) + 16 LDS.128 (B) for 512 FFMA, as cp_async. What changes:
// - global/L2 traffic per block tile: BM BN / (2 (BM + BN)) = 42.7 flop per byte (32 at 128 x
//   128): 25% fewer L2 -> SM bytes per flop (4096^3: 16 x 32 = 512 blocks, each reading
//   (256 + 128) x 4096 x 4 B = 6.3 MB: 3.2 GB from L2, against 4.3 GB at 128 x 128);
// - one block of 256 threads per SM instead of two of 128: the same 8 warps (2 per scheduler), but
//   the whole SM's smem (144 KiB) is one ring, and a barrier stalls 8 warps that all own work;
// - bytes in flight per SM: 2 stages x 48 KiB = 96 KiB (Little: ~20-26 KB needed), from L2 mostly.
// Shared memory: 3 stages x (256 x 32 + 32 x 128) floats = 147,456 bytes (dynamic), 1 block/SM.
// Registers: 128 accumulators + 32 (8 float4 of A) + 16 (B) + addresses: <= 255 at
// __launch_bounds__(256, 1); the copies need no data registers (cp.async is global -> shared).
// The limiter removed: thread_tile_bk16's staging registers and STS issue slots (cp.async), and a
// quarter of the L2 -> SM traffic (the bigger tile). Predicted ~2.75-2.85 ms (48-50 TFLOP/s, fma
// pipe ~77%), within 95% of cuBLAS (2.68 ms).
// Whole tiles only (M % 256, N % 128, K % 32 == 0); other sizes run double_buffer's guarded kernel
// (see kernels.cu).
#include <cuda_runtime.h>

#include "matmul/kernels_async.cuh"
#include "memlab/cuda/check.hpp"

namespace memlab::lessons::matmul {

namespace {

constexpr int kBM = kBig256BM, kBN = kBig256BN, kBK = kBig256BK, kStages = 3;
constexpr int kThreads = kBig256Threads;
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

// Issues the copies of k tile `kt` into stage buffer (As, Bs): 2048 + 1024 chunks, 12 per thread.
__device__ __forceinline__ void issue_stage(const float* __restrict__ A,
                                            const float* __restrict__ B, int N, int K, int m0,
                                            int n0, int kt, float* As, float* Bs, int tid) {
  const int k0 = kt * kBK;
#pragma unroll
  for (int i = 0; i < kATile / 4 / kThreads; ++i) {
    const int e = tid + i * kThreads;  // chunk e: row e / 8, chunk e % 8
    const int m = e >> 3, c = e & 7;
    cp_async16(As + a_at(m, c), A + static_cast<std::size_t>(m0 + m) * K + k0 + 4 * c);
  }
#pragma unroll
  for (int i = 0; i < kBTile / 4 / kThreads; ++i) {
    const int e = tid + i * kThreads;  // row e / 32, chunk e % 32
    const int k = e >> 5, c = e & 31;
    cp_async16(Bs + k * kBN + 4 * c, B + static_cast<std::size_t>(k0 + k) * N + n0 + 4 * c);
  }
}

__global__ void __launch_bounds__(kThreads, 1)
    thread_tile_256x128_kernel(int M, int N, int K, const float* __restrict__ A,
                               const float* __restrict__ B, float* __restrict__ C) {
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

const void* thread_tile_256x128_kernel_fn() {
  static const bool raised = [] {
    MEMLAB_CUDA_CHECK(cudaFuncSetAttribute(
        thread_tile_256x128_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kBig256Smem));
    return true;
  }();
  (void)raised;
  return reinterpret_cast<const void*>(thread_tile_256x128_kernel);
}

}  // namespace memlab::lessons::matmul
