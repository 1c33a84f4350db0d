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
#include "matmul/thread_tile.cuh"
#include "memlab/cuda/check.hpp"

namespace memlab::lessons::matmul {

namespace {

constexpr int kBM = kCpAsyncBM, kBN = kCpAsyncBN, kStages = 3;
static_assert(kCpAsyncBK == tt::kRingBK && kCpAsyncSmem == kStages * (kBM + kBN) * tt::kRingBK * 4);

__global__ void __launch_bounds__(kCpAsyncThreads, 2)
    cp_async_kernel(int M, int N, int K, const float* __restrict__ A, const float* __restrict__ B,
                    float* __restrict__ C) {
  extern __shared__ __align__(16) float smem[];
  (void)M;
  tt::cp_async_block_tile<kBM, kBN, kStages, kCpAsyncThreads>(A, B, C, N, K, smem);
}

}  // namespace

const void* cp_async_kernel_fn() {
  return tt::with_smem_limit<cp_async_kernel, kCpAsyncSmem>();
}

}  // namespace memlab::lessons::matmul
