// matmul, thread_tile_bk16 (issue 23): thread_tile_8x16's 128 x 128 block tile and 8 x 16 thread
// tiles with k tiles of 16 instead of 8, the next tile staged through registers in two halves.
//
// Napkin math (4096^3): per thread and k step 2 LDS.128 (A) + 4 LDS.128 (B) for 128 FFMA, as in
// thread_tile_8x16. What changes is the per-tile overhead: thread_tile_8x16 pays, per 8 k steps
// (1024 FFMA per thread), one __syncthreads, 4 LDG.128, 8 STS.32 + 2 STS.128 and the loop
// bookkeeping; here the barrier and the bookkeeping come once per 16 k steps (2048 FFMA), the
// loads and stores per FFMA stay the same. Registers stay ~thread_tile_8x16's: the next tile is
// loaded in two halves of 2 + 2 float4 (16 registers, not 32): half 0 is loaded before k steps
// 0-7 and stored to the other buffer after them, half 1 is loaded then and stored after k steps
// 8-15. Each half's global latency (~600-800 ns) is covered by 8 k steps of 128 FFMA x 8 warps per
// SM (~1024 issue cycles per scheduler, ~0.5 us at 1.98 GHz, with the other block's warps), as in
// thread_tile_8x16. Writing the other buffer mid-tile is safe: it was last read in tile t - 1,
// and every thread passed the barrier at the end of t - 1. Bytes in flight per SM: 2 blocks x
// 128 threads x 64 bytes = 16 KiB per half, with the L2 serving most of it (A and B re-read by
// 32 blocks each). Shared memory: 2 stages x (16 x 132 + 16 x 128) floats = 33,280 bytes per
// block, 2 blocks per SM. Global traffic as thread_tile_8x16 (32 flop per byte per block tile).
// Whole tiles (M, N % 128 == 0, K % 16 == 0) only; other sizes run double_buffer's guarded or
// unguarded kernel (see kernels.cu).
#include <cuda_runtime.h>

#include <cstddef>

#include "matmul/kernels_async.cuh"
#include "matmul/thread_tile.cuh"

namespace memlab::lessons::matmul {
namespace {

constexpr int kBM = kBk16BM, kBN = kBk16BN, kBK = kBk16BK, kThreads = kBk16Threads;
constexpr int kPad = 4, lda = kBM + kPad;

__global__ void __launch_bounds__(kThreads, 2)
    thread_tile_bk16_kernel(int M, int N, int K, const float* __restrict__ A,
                            const float* __restrict__ B, float* __restrict__ C) {
  (void)M;
  __shared__ __align__(16) float As[2][kBK * lda];
  __shared__ __align__(16) float Bs[2][kBK * kBN];
  const int tid = static_cast<int>(threadIdx.x);
  const int mbase = tt::mbase_of(tid), nbase = tt::nbase_of(tid);
  const int m0 = static_cast<int>(blockIdx.y) * kBM, n0 = static_cast<int>(blockIdx.x) * kBN;
  // Half h of a k tile is columns 8 h .. 8 h + 7 of A and rows 8 h .. 8 h + 7 of B. Per half a
  // thread loads two float4 of A (rows tid / 2 and tid / 2 + 64, columns 8 h + 4 (tid % 2)) and
  // two of B (rows 8 h + tid / 32 and 8 h + tid / 32 + 4, 512 contiguous bytes per warp).
  const float* a_src = A + static_cast<std::size_t>(m0 + tid / 2) * K + (tid % 2) * 4;
  const float* b_src = B + static_cast<std::size_t>(tid / 32) * N + n0 + (tid % 32) * 4;
  float4 sa[2], sb[2];
  auto load = [&](int k0) {  // k0: first k of the half
#pragma unroll
    for (int i = 0; i < 2; ++i) {
      sa[i] = *reinterpret_cast<const float4*>(a_src + static_cast<std::size_t>(64 * i) * K + k0);
    }
#pragma unroll
    for (int i = 0; i < 2; ++i) {
      sb[i] = *reinterpret_cast<const float4*>(b_src + static_cast<std::size_t>(k0 + 4 * i) * N);
    }
  };
  // Half h is rows 8 h .. 8 h + 7 of the stage.
  auto store = [&](int buf, int h) {
    tt::store_staged<lda, kBN>(As[buf], Bs[buf], sa, sb, tid, 8 * h);
  };
  float acc[tt::TM][tt::TN] = {};
  auto compute = [&](const float* as, const float* bs) {  // 8 k steps
#pragma unroll
    for (int k = 0; k < 8; ++k) {
      tt::k_step_transposed(acc, as, k * lda, bs, k * kBN, mbase, nbase);
    }
  };
  const int tiles = K / kBK;
  load(0);
  store(0, 0);
  load(8);
  store(0, 1);
  __syncthreads();
  for (int t = 0; t < tiles; ++t) {
    const int cur = t & 1;
    const bool more = t + 1 < tiles;
    const int knext = (t + 1) * kBK;
    if (more) load(knext);
    compute(As[cur], Bs[cur]);
    if (more) {
      store(cur ^ 1, 0);
      load(knext + 8);
    }
    compute(As[cur] + 8 * lda, Bs[cur] + 8 * kBN);
    if (more) store(cur ^ 1, 1);
    __syncthreads();
  }
  tt::store_tile(C, N, n0 + nbase, acc, [&](int i) { return m0 + mbase + tt::patch_row(i); });
}

}  // namespace

const void* thread_tile_bk16_kernel_fn() {
  return reinterpret_cast<const void*>(thread_tile_bk16_kernel);
}

}  // namespace memlab::lessons::matmul
