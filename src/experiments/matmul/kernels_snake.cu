// matmul, thread_tile_8x16_snake and thread_tile_8x16_snake_cols (issue 23, round 9):
// thread_tile_8x16 (kernels.cu) with one change, the order of a k step's 128 FFMA in the source:
// _snake: odd rows of the 8 x 16 thread tile walk their columns backwards (tt::FfmaOrder::kSnake);
// _snake_cols: column by column, odd columns walking their rows backwards (kColumnSnake). In both
// every FFMA shares an operand with the one before it (127 of 128; row order: 120).
//
// Why: round 8 found two compiles of the same loop 2.1-2.7% apart per tile (thread_tile_kernel
// and thread_tile_waves_kernel: the same 1024 FFMA and 48 LDS.128 per k tile, the LDS placed
// elsewhere, 868 against 822 of the FFMA's 3072 source operands marked .reuse). The operand reuse
// cache spares a register-file read, and with it a possible register-bank conflict, when an
// operand slot holds the value of the previous instruction; cuBLAS's hand-scheduled SGEMM issues
// in 89% of the cycles against thread_tile_8x16's 78-80% with the same FFMA share. A snake order
// is the maxas order for an outer product; whether ptxas keeps it (it reorders FFMA around the
// LDS.128) is what the SASS on the device shows, and whether it pays is what the timing shows.
// Same tiles, threads, shared memory, staging and sizes as thread_tile_8x16 (whole tiles only,
// fast_path; other sizes run double_buffer's guarded kernel).
#include <cuda_runtime.h>

#include "matmul/kernels_async.cuh"
#include "matmul/thread_tile.cuh"

namespace memlab::lessons::matmul {
namespace {

template <tt::FfmaOrder kOrder>
__global__ void __launch_bounds__(tt::kTtThreads, 2)
    thread_tile_snake_kernel(int M, int N, int K, const float* __restrict__ A,
                             const float* __restrict__ B, float* __restrict__ C) {
  (void)M;
  tt::thread_tile_block<kOrder>(A, B, C, N, K, [] {
    return make_int2(static_cast<int>(blockIdx.y), static_cast<int>(blockIdx.x));
  });
}

}  // namespace

const void* thread_tile_snake_kernel_fn(bool columns) {
  return columns
             ? reinterpret_cast<const void*>(thread_tile_snake_kernel<tt::FfmaOrder::kColumnSnake>)
             : reinterpret_cast<const void*>(thread_tile_snake_kernel<tt::FfmaOrder::kSnake>);
}

}  // namespace memlab::lessons::matmul
