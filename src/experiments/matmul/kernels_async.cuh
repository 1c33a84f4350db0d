// matmul's cp.async pipeline kernel (kernels_async.cu), TMA kernel (kernels_tma.cu) and the other
// kernels of their own files, for kernels.cu's dispatch.
#pragma once

#include <cuda_runtime_api.h>

namespace memlab::lessons::matmul {

inline constexpr int kCpAsyncThreads = 128;
// Dynamic shared memory: 3 stages of a 128 x 32 A tile and a 32 x 128 B tile (96 KiB).
inline constexpr int kCpAsyncSmem = 3 * (128 * 32 + 32 * 128) * 4;
// The block tile's shape: whole tiles only.
inline constexpr int kCpAsyncBM = 128, kCpAsyncBN = 128, kCpAsyncBK = 32;

// The kernel, (int M, int N, int K, const float* A, const float* B, float* C), for
// cudaLaunchKernel; the first call raises its dynamic shared-memory limit to kCpAsyncSmem.
const void* cp_async_kernel_fn();

// The TMA variant (kernels_tma.cu): the same tiles loaded by the copy engine. Whole 128 x 128 x
// 32 tiles only (the caller checks); needs sm_90.
void launch_tma(const float* A, const float* B, float* C, int M, int N, int K, cudaStream_t stream);
const void* tma_kernel_fn();  // for kernel_info (128 threads)

// thread_tile_bk16 (kernels_bk16.cu): thread_tile_8x16 with 16-deep k tiles, 128 threads,
// static shared memory. Whole tiles only (the caller checks).
inline constexpr int kBk16Threads = 128;
inline constexpr int kBk16BM = 128, kBk16BN = 128, kBk16BK = 16;
// The kernel, (int M, int N, int K, const float* A, const float* B, float* C).
const void* thread_tile_bk16_kernel_fn();

// thread_tile_256x128 (kernels_256.cu): 256 x 128 block tile, 256 threads of 8 x 16 outputs,
// cp_async's 3-stage ring of 32-deep k tiles, 1 block per SM. Whole tiles only (the caller checks).
inline constexpr int kBig256Threads = 256;
inline constexpr int kBig256BM = 256, kBig256BN = 128, kBig256BK = 32;
inline constexpr int kBig256Smem = 3 * (kBig256BM * kBig256BK + kBig256BK * kBig256BN) * 4;
// The kernel, (int M, int N, int K, const float* A, const float* B, float* C); the first call
// raises its dynamic shared-memory limit to kBig256Smem.
const void* thread_tile_256x128_kernel_fn();

// thread_tile_8x16_db (kernels_db.cu): thread_tile_8x16 with double-buffered fragments and one
// barrier before the last k step, 128 threads, static shared memory. Whole tiles only (the caller
// checks fast_path).
inline constexpr int kDbThreads = 128;
inline constexpr int kDbBM = 128, kDbBN = 128, kDbBK = 8;
// The kernel, (int M, int N, int K, const float* A, const float* B, float* C).
const void* thread_tile_db_kernel_fn();

// thread_tile_8x16_snake and _snake_cols (kernels_snake.cu): thread_tile_8x16 with its k step's
// FFMA in snake order, by rows or (columns) by columns. Whole tiles only (the caller checks
// fast_path). The kernel, (int M, int N, int K, const float* A, const float* B, float* C),
// thread_tile_8x16's grid and 128 threads.
const void* thread_tile_snake_kernel_fn(bool columns);

// thread_tile_8x16_sk (kernels_sk.cu): thread_tile_8x16's k loop on a persistent stream-K grid,
// 128 threads, static shared memory. Whole tiles only (the caller checks fast_path).
class StreamKWorkspace;  // kernels.cuh
void launch_thread_tile_sk(const float* A, const float* B, float* C, int M, int N, int K,
                           const StreamKWorkspace& workspace, cudaStream_t stream);
// The kernel, (int N, int K, const float* A, const float* B, float* C, float* partials,
// int* counters, plan), and its persistent grid at this size on the current device.
const void* thread_tile_sk_kernel_fn();
unsigned thread_tile_sk_grid(int M, int N, int K);
// thread_tile_8x16_tail (kernels_sk.cu): floor(tiles / G) whole waves of thread_tile_8x16's loop
// (one CTA per tile), then the rest (fewer than G tiles) by the stream-K kernel. Two launches on
// `stream`; the same workspace as thread_tile_8x16_sk. Whole tiles only (the caller checks
// fast_path).
void launch_thread_tile_tail(const float* A, const float* B, float* C, int M, int N, int K,
                             const StreamKWorkspace& workspace, cudaStream_t stream);
// The waves' kernel, (int N, int K, int tiles_n, const float* A, const float* B, float* C).
const void* thread_tile_waves_kernel_fn();
// The pieces of thread_tile_8x16_tail that thread_tile_8x16_tail_own (kernels.cu) shares: the
// whole waves' tile count at this size (the first ones in thread_tile_8x16's raster; throws
// std::invalid_argument naming `variant` when the workspace is for another size), and the launch
// of the stream-K kernel over the tiles after them (none when there are none).
int thread_tile_tail_wave_tiles(int M, int N, int K, const StreamKWorkspace& workspace,
                                const char* variant);
void launch_thread_tile_tail_rest(const float* A, const float* B, float* C, int M, int N, int K,
                                  const StreamKWorkspace& workspace, cudaStream_t stream);

}  // namespace memlab::lessons::matmul
