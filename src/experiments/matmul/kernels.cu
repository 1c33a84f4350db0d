#include <cuda_runtime.h>

#include <cstddef>
#include <stdexcept>
#include <string>

#include "common/launch.hpp"
#include "matmul/kernels.cuh"
#include "matmul/kernels_async.cuh"
#include "matmul/thread_tile.cuh"

namespace memlab::lessons::matmul {
namespace {

unsigned cdiv(int a, int b) {
  return static_cast<unsigned>((a + b - 1) / b);
}

// naive_uncoalesced: one thread per C element; threadIdx.x walks rows. Per k, a warp loads
// A[row..row+31][k] (32 different rows: 32 sectors for 128 useful bytes) and one B element
// (broadcast); the C store is 32 scattered 4-byte writes. The L1 turns most of A's re-reads into
// hits, but every request still costs 32 sector lookups: expect ~1% of peak.
__global__ void __launch_bounds__(1024)
    naive_uncoalesced_kernel(int M, int N, int K, const float* __restrict__ A,
                             const float* __restrict__ B, float* __restrict__ C) {
  const int row = static_cast<int>(blockIdx.x * 32 + threadIdx.x);
  const int col = static_cast<int>(blockIdx.y * 32 + threadIdx.y);
  if (row >= M || col >= N) return;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k) acc = fmaf(A[row * K + k], B[k * N + col], acc);
  C[row * N + col] = acc;
}

// naive: threadIdx.x walks columns. Per k, a warp loads one A element (broadcast) and 128
// contiguous bytes of B; the C store is one 128-byte line. Two global loads (8 bytes) per FMA:
// 0.25 flop per byte, all of it served by L1/L2, bound by the load pipe, not by DRAM.
__global__ void __launch_bounds__(1024)
    naive_kernel(int M, int N, int K, const float* __restrict__ A, const float* __restrict__ B,
                 float* __restrict__ C) {
  const int col = static_cast<int>(blockIdx.x * 32 + threadIdx.x);
  const int row = static_cast<int>(blockIdx.y * 32 + threadIdx.y);
  if (row >= M || col >= N) return;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k) acc = fmaf(A[row * K + k], B[k * N + col], acc);
  C[row * N + col] = acc;
}

// tiled (seed 004): a T x T block computes a T x T tile of C. Per phase each thread loads one
// element of A's tile and one of B's (coalesced rows; zero outside the matrix), __syncthreads,
// T FMAs from shared memory (As[ty][k] is a broadcast, Bs[k][tx] 32 consecutive words: no bank
// conflicts), __syncthreads. Global loads fall T-fold (T / 4 flop per byte); every FMA still
// needs ~1-2 shared loads, which caps the kernel near 1/8 of peak.
// As NVIDIA's cuda-samples matrixMul does for the same design, the two load addresses are walked
// by pointer (the index math once, before the loop), and sizes that are multiples of T take the
// kGuard = false instance without the per-phase bounds tests (docs/matmul.md, "Fair baselines").
template <int T, bool kGuard>
__global__ void __launch_bounds__(T* T)
    tiled_kernel(int M, int N, int K, const float* __restrict__ A, const float* __restrict__ B,
                 float* __restrict__ C) {
  __shared__ float As[T][T];
  __shared__ float Bs[T][T];
  const int tx = static_cast<int>(threadIdx.x), ty = static_cast<int>(threadIdx.y);
  const int row = static_cast<int>(blockIdx.y) * T + ty;
  const int col = static_cast<int>(blockIdx.x) * T + tx;
  // This thread's element of A's tile (row, p + tx) and of B's (p + ty, col) at phase p = 0; a
  // phase moves A's T columns right and B's T rows down. Only dereferenced inside the matrix.
  const float* a = A + static_cast<std::size_t>(row) * static_cast<std::size_t>(K) + tx;
  const float* b = B + static_cast<std::size_t>(ty) * static_cast<std::size_t>(N) + col;
  const std::size_t b_step = static_cast<std::size_t>(T) * static_cast<std::size_t>(N);
  float acc = 0.0f;
  for (int p = 0; p < K; p += T, a += T, b += b_step) {
    if constexpr (kGuard) {
      As[ty][tx] = (row < M && p + tx < K) ? *a : 0.0f;
      Bs[ty][tx] = (p + ty < K && col < N) ? *b : 0.0f;
    } else {
      As[ty][tx] = *a;
      Bs[ty][tx] = *b;
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < T; ++k) acc = fmaf(As[ty][k], Bs[k][tx], acc);
    __syncthreads();
  }
  if (!kGuard || (row < M && col < N)) {
    C[static_cast<std::size_t>(row) * static_cast<std::size_t>(N) + col] = acc;
  }
}

// The tiled kernel for a size: unguarded when M, N and K are multiples of the tile.
template <int T>
const void* tiled_for(int M, int N, int K) {
  const bool even = M % T == 0 && N % T == 0 && K % T == 0;
  return even ? reinterpret_cast<const void*>(tiled_kernel<T, false>)
              : reinterpret_cast<const void*>(tiled_kernel<T, true>);
}

// block1d: 64 x 64 block tile, BK = 8, 512 threads; thread t computes 8 rows of column t % 64.
// Per k, one shared load of B is reused for 8 FMAs (the A values are broadcasts): ~1.1 shared
// loads per FMA instead of 2. Global: 64 x 64 tiles, 16 flop per byte.
__global__ void __launch_bounds__(512)
    block1d_kernel(int M, int N, int K, const float* __restrict__ A, const float* __restrict__ B,
                   float* __restrict__ C) {
  constexpr int BM = 64, BN = 64, BK = 8, TM = 8;
  __shared__ float As[BM * BK];  // As[m * BK + k]
  __shared__ float Bs[BK * BN];  // Bs[k * BN + n]
  const int tid = static_cast<int>(threadIdx.x);
  const int m0 = static_cast<int>(blockIdx.y) * BM, n0 = static_cast<int>(blockIdx.x) * BN;
  const int ar = tid / BK, ac = tid % BK;  // A tile element this thread loads
  const int br = tid / BN, bc = tid % BN;  // B tile element
  const int tcol = tid % BN, trow = tid / BN;
  float acc[TM] = {};
  for (int k0 = 0; k0 < K; k0 += BK) {
    const int am = m0 + ar, ak = k0 + ac, bk = k0 + br, bn = n0 + bc;
    As[ar * BK + ac] = (am < M && ak < K) ? A[am * K + ak] : 0.0f;
    Bs[br * BN + bc] = (bk < K && bn < N) ? B[bk * N + bn] : 0.0f;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < BK; ++k) {
      const float b = Bs[k * BN + tcol];
#pragma unroll
      for (int i = 0; i < TM; ++i) acc[i] = fmaf(As[(trow * TM + i) * BK + k], b, acc[i]);
    }
    __syncthreads();
  }
  const int col = n0 + tcol;
#pragma unroll
  for (int i = 0; i < TM; ++i) {
    const int row = m0 + trow * TM + i;
    if (row < M && col < N) C[row * N + col] = acc[i];
  }
}

// block2d: 128 x 128 block tile, BK = 8, 256 threads, each an 8 x 8 micro tile in registers:
// per k, 8 + 8 shared loads feed 64 FMAs (0.25 loads per FMA). B's loads Bs[k][8 tc + j] put
// lanes tc and tc + 4 on the same bank: 4-way conflicts. Global: 32 flop per byte.
__global__ void __launch_bounds__(256)
    block2d_kernel(int M, int N, int K, const float* __restrict__ A, const float* __restrict__ B,
                   float* __restrict__ C) {
  constexpr int BM = 128, BN = 128, BK = 8, TM = 8, TN = 8;
  __shared__ float As[BM * BK];  // As[m * BK + k]
  __shared__ float Bs[BK * BN];  // Bs[k * BN + n]
  const int tid = static_cast<int>(threadIdx.x);
  const int m0 = static_cast<int>(blockIdx.y) * BM, n0 = static_cast<int>(blockIdx.x) * BN;
  const int trow = tid / (BN / TN), tcol = tid % (BN / TN);
  float acc[TM][TN] = {};
  float am[TM], bn[TN];
  for (int k0 = 0; k0 < K; k0 += BK) {
#pragma unroll
    for (int i = 0; i < BM * BK / 256; ++i) {
      const int e = tid + 256 * i, r = e / BK, c = e % BK;
      As[e] = (m0 + r < M && k0 + c < K) ? A[(m0 + r) * K + k0 + c] : 0.0f;
    }
#pragma unroll
    for (int i = 0; i < BK * BN / 256; ++i) {
      const int e = tid + 256 * i, r = e / BN, c = e % BN;
      Bs[e] = (k0 + r < K && n0 + c < N) ? B[(k0 + r) * N + n0 + c] : 0.0f;
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < BK; ++k) {
#pragma unroll
      for (int i = 0; i < TM; ++i) am[i] = As[(trow * TM + i) * BK + k];
#pragma unroll
      for (int j = 0; j < TN; ++j) bn[j] = Bs[k * BN + tcol * TN + j];
#pragma unroll
      for (int i = 0; i < TM; ++i) {
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] = fmaf(am[i], bn[j], acc[i][j]);
      }
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < TM; ++i) {
    const int row = m0 + trow * TM + i;
#pragma unroll
    for (int j = 0; j < TN; ++j) {
      const int col = n0 + tcol * TN + j;
      if (row < M && col < N) C[row * N + col] = acc[i][j];
    }
  }
}

// ---- the 128 x 128 x 8 kernels with float4 loads and A transposed in shared memory ----
constexpr int kBM = 128, kBN = 128, kBK = 8, kThreads = 256;

// Where a thread's 8 x 8 micro tile lies in the block tile: rows mbase + {0..3} and
// mbase + mstep + {0..3}, columns nbase + {0..3} and nbase + nstep + {0..3}.
struct Micro {
  int mbase, mstep, nbase, nstep;
};

template <bool kWarpLayout>
__device__ __forceinline__ Micro micro_of(int tid) {
  if constexpr (kWarpLayout) {
    // 8 warps as 4 (M) x 2 (N), each a 32 x 64 warp tile; lanes as 4 (M) x 8 (N), each lane two
    // 4-row by two 4-column patches 16 rows / 32 columns apart. A warp's 16-byte shared read of A
    // touches 4 distinct float4 (64 contiguous bytes), of B 8 distinct float4 (128 contiguous
    // bytes): one wavefront each, no bank conflicts.
    const int warp = tid / 32, lane = tid % 32;
    return Micro{(warp / 2) * 32 + (lane / 8) * 4, 16, (warp % 2) * 64 + (lane % 8) * 4, 32};
  } else {
    // 16 x 16 threads, each 8 contiguous rows and 8 contiguous columns. B's float4 reads at
    // 32-byte stride: lanes tc and tc + 4 hit the same banks (2-way conflicts).
    return Micro{(tid / 16) * 8, 4, (tid % 16) * 8, 4};
  }
}

// One k tile of A (128 x 8) and B (8 x 128) in registers: one float4 of each per thread.
struct Stage {
  float4 a, b;
};

// Thread tid loads A[m0 + tid / 2][k0 + 4 (tid % 2) ..+3] and B[k0 + tid / 32][n0 + 4 (tid % 32)
// ..+3]: a warp reads 16 rows x 32 bytes of A (whole sectors) and 512 contiguous bytes of one row
// of B, all in 16-byte loads. kGuard: scalar loads, zero outside the matrix.
template <bool kGuard>
__device__ __forceinline__ Stage load_stage(const float* __restrict__ A,
                                            const float* __restrict__ B, int M, int N, int K,
                                            int m0, int n0, int k0, int tid) {
  const int ar = tid / 2, ac = (tid % 2) * 4;
  const int br = tid / 32, bc = (tid % 32) * 4;
  Stage s;
  if constexpr (!kGuard) {
    s.a = *reinterpret_cast<const float4*>(A + (m0 + ar) * K + k0 + ac);
    s.b = *reinterpret_cast<const float4*>(B + (k0 + br) * N + n0 + bc);
  } else {
    float a[4], b[4];
    const int am = m0 + ar, bk = k0 + br;
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const int ak = k0 + ac + j, bn = n0 + bc + j;
      a[j] = (am < M && ak < K) ? A[am * K + ak] : 0.0f;
      b[j] = (bk < K && bn < N) ? B[bk * N + bn] : 0.0f;
    }
    s.a = make_float4(a[0], a[1], a[2], a[3]);
    s.b = make_float4(b[0], b[1], b[2], b[3]);
  }
  return s;
}

// A is stored transposed (As[k][m], row length kBM + kPad), B as is (Bs[k][n]).
template <int kPad>
__device__ __forceinline__ void store_stage(const Stage& s, float* As, float* Bs, int tid) {
  constexpr int lda = kBM + kPad;
  const int ar = tid / 2, ac = (tid % 2) * 4;
  As[(ac + 0) * lda + ar] = s.a.x;
  As[(ac + 1) * lda + ar] = s.a.y;
  As[(ac + 2) * lda + ar] = s.a.z;
  As[(ac + 3) * lda + ar] = s.a.w;
  const int br = tid / 32, bc = (tid % 32) * 4;
  *reinterpret_cast<float4*>(Bs + br * kBN + bc) = s.b;
}

// 8 k steps of the 8 x 8 micro tile: per k two 16-byte shared reads of A and two of B, 64 FMAs.
template <int kPad>
__device__ __forceinline__ void compute_stage(const float* As, const float* Bs, const Micro& u,
                                              float (&acc)[8][8]) {
  constexpr int lda = kBM + kPad;
#pragma unroll
  for (int k = 0; k < kBK; ++k) {
    const float4 a0 = *reinterpret_cast<const float4*>(As + k * lda + u.mbase);
    const float4 a1 = *reinterpret_cast<const float4*>(As + k * lda + u.mbase + u.mstep);
    const float4 b0 = *reinterpret_cast<const float4*>(Bs + k * kBN + u.nbase);
    const float4 b1 = *reinterpret_cast<const float4*>(Bs + k * kBN + u.nbase + u.nstep);
    const float a[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
    const float b[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
    for (int i = 0; i < 8; ++i) {
#pragma unroll
      for (int j = 0; j < 8; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
    }
  }
}

// Writes the micro tile: float4 stores on the fast path (a warp writes 128 contiguous bytes per
// row in the warp layout), guarded scalar stores otherwise.
template <bool kGuard>
__device__ __forceinline__ void store_c(float* __restrict__ C, int M, int N, int m0, int n0,
                                        const Micro& u, const float (&acc)[8][8]) {
#pragma unroll
  for (int i = 0; i < 8; ++i) {
    const int row = m0 + u.mbase + (i / 4) * u.mstep + i % 4;
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const int col = n0 + u.nbase + h * u.nstep;
      if constexpr (!kGuard) {
        *reinterpret_cast<float4*>(C + row * N + col) =
            make_float4(acc[i][4 * h], acc[i][4 * h + 1], acc[i][4 * h + 2], acc[i][4 * h + 3]);
      } else {
#pragma unroll
        for (int j = 0; j < 4; ++j) {
          if (row < M && col + j < N) C[row * N + col + j] = acc[i][4 * h + j];
        }
      }
    }
  }
}

// vectorized (kWarpLayout = false, kPad = 0) and warptile (true, 4): load a k tile (float4),
// __syncthreads, 8 k steps from shared memory, __syncthreads.
template <bool kGuard, bool kWarpLayout, int kPad>
__global__ void __launch_bounds__(kThreads, 2)
    gemm128_kernel(int M, int N, int K, const float* __restrict__ A, const float* __restrict__ B,
                   float* __restrict__ C) {
  __shared__ __align__(16) float As[kBK * (kBM + kPad)];
  __shared__ __align__(16) float Bs[kBK * kBN];
  const int tid = static_cast<int>(threadIdx.x);
  const int m0 = static_cast<int>(blockIdx.y) * kBM, n0 = static_cast<int>(blockIdx.x) * kBN;
  const Micro u = micro_of<kWarpLayout>(tid);
  float acc[8][8] = {};
  for (int k0 = 0; k0 < K; k0 += kBK) {
    store_stage<kPad>(load_stage<kGuard>(A, B, M, N, K, m0, n0, k0, tid), As, Bs, tid);
    __syncthreads();
    compute_stage<kPad>(As, Bs, u, acc);
    __syncthreads();
  }
  store_c<kGuard>(C, M, N, m0, n0, u, acc);
}

// double_buffer: the warptile kernel with two shared stages. While the 64 FMAs x 8 k steps of
// tile t run from one buffer, tile t + 1's float4 loads are in flight into registers; they are
// then stored into the other buffer, and one __syncthreads per tile orders both: a thread writes
// buffer t + 1 only after every thread passed the barrier that ended tile t - 1 (which used it).
template <bool kGuard>
__global__ void __launch_bounds__(kThreads, 2)
    double_buffer_kernel(int M, int N, int K, const float* __restrict__ A,
                         const float* __restrict__ B, float* __restrict__ C) {
  constexpr int kPad = 4;
  __shared__ __align__(16) float As[2][kBK * (kBM + kPad)];
  __shared__ __align__(16) float Bs[2][kBK * kBN];
  const int tid = static_cast<int>(threadIdx.x);
  const int m0 = static_cast<int>(blockIdx.y) * kBM, n0 = static_cast<int>(blockIdx.x) * kBN;
  const Micro u = micro_of<true>(tid);
  float acc[8][8] = {};
  const int tiles = (K + kBK - 1) / kBK;
  store_stage<kPad>(load_stage<kGuard>(A, B, M, N, K, m0, n0, 0, tid), As[0], Bs[0], tid);
  __syncthreads();
  for (int t = 0; t < tiles; ++t) {
    const int cur = t & 1;
    Stage next{};
    const bool more = t + 1 < tiles;
    if (more) next = load_stage<kGuard>(A, B, M, N, K, m0, n0, (t + 1) * kBK, tid);
    compute_stage<kPad>(As[cur], Bs[cur], u, acc);
    if (more) store_stage<kPad>(next, As[cur ^ 1], Bs[cur ^ 1], tid);
    __syncthreads();
  }
  store_c<kGuard>(C, M, N, m0, n0, u, acc);
}

// thread_tile_8x16: double_buffer's 128 x 128 x 8 block tile, two shared stages and global ->
// register prefetch, but 128 threads with 8 x 16 outputs each (128 accumulators) instead of 256
// threads with 8 x 8. 4 warps as 2 x 2 warp tiles of 64 x 64; lanes as 8 (M) x 4 (N), each lane two
// 4-row patches 32 rows apart by four 4-column patches 16 columns apart. Per k step a thread reads
// 2 LDS.128 of A and 4 of B for 128 FMAs (double_buffer: 4 per 64): a warp's A read is 8 distinct
// float4 in a row (128 bytes), its B read 4 (64 bytes), one wavefront each, so the block needs 24
// shared wavefronts per k step instead of 32, and fewer load and address instructions compete with
// the FFMAs for issue slots. 223 registers x 128 threads: still 2 blocks (8 warps) per SM, so one
// block's barrier wait is covered by the other (the same tiles with 256 threads and 1 block per SM,
// 128 x 256 or 256 x 128, measured 6-7% slower than double_buffer). Whole tiles only: other sizes
// run double_buffer's guarded kernel (see `choose`).
constexpr int kTtThreads = tt::kTtThreads;
static_assert(tt::kTtBM == kBM && tt::kTtBN == kBN && tt::kTtBK == kBK, "tt::thread_tile_k_loop");

__global__ void __launch_bounds__(kTtThreads, 2)
    thread_tile_kernel(int M, int N, int K, const float* __restrict__ A,
                       const float* __restrict__ B, float* __restrict__ C) {
  // The k loop (thread_tile.cuh): staging, two stages, one barrier per k tile; then C.
  tt::thread_tile_block(A, B, C, N, K, [] {
    return make_int2(static_cast<int>(blockIdx.y), static_cast<int>(blockIdx.x));
  });
}

// thread_tile_8x16_tail_own (issue 23, round 9): thread_tile_8x16_tail's split of the work (W =
// floor(tiles / G) G whole-wave tiles first in the raster, the rest by the stream-K kernel), with
// the W tiles run by thread_tile_kernel itself, so by the binary thread_tile_8x16 times: round 8's
// waves kernel (the same source loop, compiled again) ran 2.1-2.7% slower per tile and ate the
// balanced tail's ~1.8%. thread_tile_kernel's 2D grid covers whole rows of tiles, so W = r rows +
// e tiles: launch 1 the r rows (A, C as given, grid tiles_n x r), launch 2 the e tiles of row r
// (A and C advanced by 128 r rows, grid e x 1, the same N and K), on the workspace's side stream,
// forked from `stream` before launch 1 and joined after the stream-K launch. The two are
// concurrent: their W blocks fill W / G waves of the G slots in whatever order the block scheduler
// takes them. The stream-K launch follows launch 1 in `stream`; it needs nothing launch 2 writes
// (disjoint tiles of C). At 4096^3 (G = 264): W = 792 = 24 rows + 24 tiles, rest 232 tiles.
// `kernel` is thread_tile_kernel (thread_tile_8x16_tail_own) or the snake-order one
// (thread_tile_8x16_snake_tail): the same signature, grid and block.
void launch_thread_tile_tail_own(const void* kernel, const char* variant, const float* A,
                                 const float* B, float* C, int M, int N, int K,
                                 const StreamKWorkspace& ws, cudaStream_t stream) {
  const int wave_tiles = thread_tile_tail_wave_tiles(M, N, K, ws, variant);
  const int tiles_n = N / kBN, rows = wave_tiles / tiles_n, extra = wave_tiles % tiles_n;
  auto launch_rows = [&](dim3 grid, int m, const float* a, float* c, cudaStream_t s) {
    void* args[] = {&m, &N, &K, &a, &B, &c};
    MEMLAB_CUDA_CHECK(cudaLaunchKernel(kernel, grid, dim3(kTtThreads), args, 0, s));
  };
  if (extra > 0) {
    MEMLAB_CUDA_CHECK(cudaEventRecord(ws.fork(), stream));
    MEMLAB_CUDA_CHECK(cudaStreamWaitEvent(ws.side(), ws.fork(), 0));
  }
  if (rows > 0) launch_rows(dim3(tiles_n, rows), rows * kBM, A, C, stream);
  if (extra > 0) {
    const std::size_t row0 = static_cast<std::size_t>(rows) * kBM;
    launch_rows(dim3(extra, 1), kBM, A + row0 * K, C + row0 * N, ws.side());
  }
  launch_thread_tile_tail_rest(A, B, C, M, N, K, ws, stream);
  if (extra > 0) {
    MEMLAB_CUDA_CHECK(cudaEventRecord(ws.join(), ws.side()));
    MEMLAB_CUDA_CHECK(cudaStreamWaitEvent(stream, ws.join(), 0));
  }
}

// thread_tile_8x16_db (kernels_db.cu) runs exactly where fast_path holds.
static_assert(kDbBM == kBM && kDbBN == kBN && kDbBK == kBK, "thread_tile_8x16_db's tile");

// The kernel `launch` runs for this variant and size, with its block shape.
struct Choice {
  const void* fn;
  dim3 grid, block;
  std::size_t smem = 0;  // dynamic shared memory
};

Choice choose(Variant variant, int M, int N, int K) {
  const bool fast = fast_path(M, N, K);
  const dim3 grid128(cdiv(N, kBN), cdiv(M, kBM));
  switch (variant) {
    case Variant::NaiveUncoalesced:
      return {reinterpret_cast<const void*>(naive_uncoalesced_kernel),
              dim3(cdiv(M, 32), cdiv(N, 32)), dim3(32, 32)};
    case Variant::Naive:
      return {reinterpret_cast<const void*>(naive_kernel), dim3(cdiv(N, 32), cdiv(M, 32)),
              dim3(32, 32)};
    case Variant::Tiled16:
      return {tiled_for<16>(M, N, K), dim3(cdiv(N, 16), cdiv(M, 16)), dim3(16, 16)};
    case Variant::Tiled32:
      return {tiled_for<32>(M, N, K), dim3(cdiv(N, 32), cdiv(M, 32)), dim3(32, 32)};
    case Variant::Block1d:
      return {reinterpret_cast<const void*>(block1d_kernel), dim3(cdiv(N, 64), cdiv(M, 64)),
              dim3(512)};
    case Variant::Block2d:
      return {reinterpret_cast<const void*>(block2d_kernel), grid128, dim3(kThreads)};
    case Variant::Vectorized:
      return {fast ? reinterpret_cast<const void*>(gemm128_kernel<false, false, 0>)
                   : reinterpret_cast<const void*>(gemm128_kernel<true, false, 0>),
              grid128, dim3(kThreads)};
    case Variant::Warptile:
      return {fast ? reinterpret_cast<const void*>(gemm128_kernel<false, true, 4>)
                   : reinterpret_cast<const void*>(gemm128_kernel<true, true, 4>),
              grid128, dim3(kThreads)};
    case Variant::DoubleBuffer:
      return {fast ? reinterpret_cast<const void*>(double_buffer_kernel<false>)
                   : reinterpret_cast<const void*>(double_buffer_kernel<true>),
              grid128, dim3(kThreads)};
    case Variant::ThreadTile8x16:
      // Whole tiles only; other sizes run double_buffer's guarded kernel.
      if (!fast) return choose(Variant::DoubleBuffer, M, N, K);
      return {reinterpret_cast<const void*>(thread_tile_kernel), grid128, dim3(kTtThreads)};
    case Variant::CpAsync:
      // Whole tiles only; other sizes run double_buffer's guarded kernel.
      if (M % kCpAsyncBM != 0 || N % kCpAsyncBN != 0 || K % kCpAsyncBK != 0) {
        return choose(Variant::DoubleBuffer, M, N, K);
      }
      return {cp_async_kernel_fn(), grid128, dim3(kCpAsyncThreads), kCpAsyncSmem};
    case Variant::Tma:  // launched by launch_tma (tensor maps); this is for kernel_info
      if (M % kCpAsyncBM != 0 || N % kCpAsyncBN != 0 || K % kCpAsyncBK != 0) {
        return choose(Variant::DoubleBuffer, M, N, K);
      }
      return {tma_kernel_fn(), grid128, dim3(kCpAsyncThreads), kCpAsyncSmem};
    case Variant::ThreadTileBk16:
      // Whole tiles only; other sizes run double_buffer's kernel.
      if (M % kBk16BM != 0 || N % kBk16BN != 0 || K % kBk16BK != 0) {
        return choose(Variant::DoubleBuffer, M, N, K);
      }
      return {thread_tile_bk16_kernel_fn(), grid128, dim3(kBk16Threads)};
    case Variant::ThreadTile256x128:
      // Whole tiles only; other sizes run double_buffer's kernel.
      if (M % kBig256BM != 0 || N % kBig256BN != 0 || K % kBig256BK != 0) {
        return choose(Variant::DoubleBuffer, M, N, K);
      }
      return {thread_tile_256x128_kernel_fn(), dim3(N / kBig256BN, M / kBig256BM),
              dim3(kBig256Threads), kBig256Smem};
    case Variant::ThreadTile8x16Db:
      // Whole tiles only (as thread_tile_8x16); other sizes run double_buffer's guarded kernel.
      if (!fast) return choose(Variant::DoubleBuffer, M, N, K);
      return {thread_tile_db_kernel_fn(), grid128, dim3(kDbThreads)};
    case Variant::ThreadTile8x16Sk:  // launched by launch_thread_tile_sk; this is for kernel_info
      // Whole tiles only (as thread_tile_8x16); other sizes run double_buffer's guarded kernel.
      if (!fast) return choose(Variant::DoubleBuffer, M, N, K);
      return {thread_tile_sk_kernel_fn(), dim3(thread_tile_sk_grid(M, N, K)), dim3(kTtThreads)};
    case Variant::ThreadTile8x16Tail:  // launched by launch_thread_tile_tail; for kernel_info:
      // the waves' kernel (the bulk of the work; the stream-K part is thread_tile_8x16_sk's).
      if (!fast) return choose(Variant::DoubleBuffer, M, N, K);
      return {thread_tile_waves_kernel_fn(), dim3(cdiv(M, kBM) * cdiv(N, kBN)), dim3(kTtThreads)};
    case Variant::ThreadTile8x16Snake:
    case Variant::ThreadTile8x16SnakeCols:
      // Whole tiles only (as thread_tile_8x16); other sizes run double_buffer's guarded kernel.
      if (!fast) return choose(Variant::DoubleBuffer, M, N, K);
      return {thread_tile_snake_kernel_fn(variant == Variant::ThreadTile8x16SnakeCols), grid128,
              dim3(kTtThreads)};
    case Variant::ThreadTile8x16TailOwn:  // launched by launch_thread_tile_tail_own; for
      // kernel_info: thread_tile_8x16's kernel, which runs the whole waves (the bulk of the work).
      return choose(Variant::ThreadTile8x16, M, N, K);
    case Variant::ThreadTile8x16SnakeTail:  // the same, with thread_tile_8x16_snake's kernel
      return choose(Variant::ThreadTile8x16Snake, M, N, K);
    case Variant::Cublas:
      throw std::logic_error("matmul: cublas is not one of memlab's kernels (see vendor.hpp)");
  }
  invalid_variant("matmul");
}

}  // namespace

bool fast_path(int M, int N, int K) {
  return M % kBM == 0 && N % kBN == 0 && K % kBK == 0;
}

void launch(Variant variant, const float* A, const float* B, float* C, int M, int N, int K,
            cudaStream_t stream, const StreamKWorkspace* workspace) {
  if ((variant == Variant::ThreadTile8x16Sk || variant == Variant::ThreadTile8x16Tail ||
       variant == Variant::ThreadTile8x16TailOwn || variant == Variant::ThreadTile8x16SnakeTail) &&
      fast_path(M, N, K)) {
    if (workspace == nullptr) {
      throw std::invalid_argument("matmul: " + std::string(variant_name(kVariants, variant)) +
                                  " needs its StreamKWorkspace");
    }
    if (variant == Variant::ThreadTile8x16Sk) {
      launch_thread_tile_sk(A, B, C, M, N, K, *workspace, stream);
    } else if (variant == Variant::ThreadTile8x16Tail) {
      launch_thread_tile_tail(A, B, C, M, N, K, *workspace, stream);
    } else if (variant == Variant::ThreadTile8x16TailOwn) {
      launch_thread_tile_tail_own(reinterpret_cast<const void*>(thread_tile_kernel),
                                  "thread_tile_8x16_tail_own", A, B, C, M, N, K, *workspace,
                                  stream);
    } else {
      launch_thread_tile_tail_own(thread_tile_snake_kernel_fn(false), "thread_tile_8x16_snake_tail",
                                  A, B, C, M, N, K, *workspace, stream);
    }
    return;
  }
  if (variant == Variant::Tma && M % kCpAsyncBM == 0 && N % kCpAsyncBN == 0 &&
      K % kCpAsyncBK == 0) {
    launch_tma(A, B, C, M, N, K, stream);
    return;
  }
  const Choice c = choose(variant, M, N, K);
  void* args[] = {&M, &N, &K, &A, &B, &C};
  MEMLAB_CUDA_CHECK(cudaLaunchKernel(c.fn, c.grid, c.block, args, c.smem, stream));
}

KernelInfo kernel_info(Variant variant, int M, int N, int K) {
  const Choice c = choose(variant, M, N, K);
  cudaFuncAttributes a{};
  MEMLAB_CUDA_CHECK(cudaFuncGetAttributes(&a, c.fn));
  KernelInfo info;
  info.registers = a.numRegs;
  info.shared_bytes = static_cast<int>(a.sharedSizeBytes);
  info.local_bytes = static_cast<int>(a.localSizeBytes);
  info.threads = static_cast<int>(c.block.x * c.block.y);
  return info;
}

}  // namespace memlab::lessons::matmul
