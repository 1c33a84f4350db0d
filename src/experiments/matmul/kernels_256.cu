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
#include "matmul/thread_tile.cuh"
#include "memlab/cuda/check.hpp"

namespace memlab::lessons::matmul {

namespace {

constexpr int kBM = kBig256BM, kBN = kBig256BN, kStages = 3;
constexpr int kThreads = kBig256Threads;
static_assert(kBig256BK == tt::kRingBK && kBig256Smem == kStages * (kBM + kBN) * tt::kRingBK * 4);

// The cp_async kernel with the 256 x 128 tile: 8 warps as 4 (M) x 2 (N) warp tiles of 64 x 64,
// 12 cp.async per thread per stage (2048 chunks of A + 1024 of B over 256 threads).
__global__ void __launch_bounds__(kThreads, 1)
    thread_tile_256x128_kernel(int M, int N, int K, const float* __restrict__ A,
                               const float* __restrict__ B, float* __restrict__ C) {
  extern __shared__ __align__(16) float smem[];
  (void)M;
  tt::cp_async_block_tile<kBM, kBN, kStages, kThreads>(A, B, C, N, K, smem);
}

}  // namespace

const void* thread_tile_256x128_kernel_fn() {
  return tt::with_smem_limit<thread_tile_256x128_kernel, kBig256Smem>();
}

}  // namespace memlab::lessons::matmul
