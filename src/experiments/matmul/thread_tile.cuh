// Device pieces of matmul's 8 x 16 thread-tile kernels: thread_tile_8x16 (kernels.cu),
// thread_tile_8x16_sk (kernels_sk.cu), thread_tile_bk16 (kernels_bk16.cu), cp_async
// (kernels_async.cu), thread_tile_256x128 (kernels_256.cu), tma (kernels_tma.cu) and
// thread_tile_8x16_db (kernels_db.cu). Each thread owns 8 x 16 accumulators; warps are 64 x 64
// warp tiles (2 across N), lanes 8 (M) x 4 (N), a lane's 16 columns are four float4 patches 16
// columns apart. What the variants differ in (how the k tiles reach shared memory, the block tile,
// the rows a thread owns) stays in their files; the pieces they share are here.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "memlab/cuda/check.hpp"

namespace memlab::lessons::matmul::tt {

inline constexpr int TM = 8, TN = 16;
inline constexpr int kMStep = 32, kNStep = 16;  // the row patches' and column patches' strides

// The lane layout: the thread tile's first row (rows mbase + patch_row(i) in the 4-row patch
// layout) and first column (columns nbase + 16 p + {0..3}).
__device__ __forceinline__ int mbase_of(int tid) {
  return (tid / 32 / 2) * 64 + (tid % 32 / 4) * 4;
}
__device__ __forceinline__ int nbase_of(int tid) {
  return (tid / 32 % 2) * 64 + (tid % 32 % 4) * 4;
}
// Row i (0..7) of the thread tile in the 4-row patch layout: two patches of 4 rows, 32 apart.
__device__ __forceinline__ int patch_row(int i) {
  return (i / 4) * kMStep + i % 4;
}

// By value: the caller's float4 is one LDS.128 (a reference into shared memory would let the
// compiler split it into scalar loads).
__device__ __forceinline__ void set4(float* dst, float4 v) {
  dst[0] = v.x;
  dst[1] = v.y;
  dst[2] = v.z;
  dst[3] = v.w;
}

// The thread's 16 B values of one k row of a shared B tile (row pointer `bs`): 4 LDS.128.
__device__ __forceinline__ void load_b(const float* bs, int nbase, float (&b)[TN]) {
#pragma unroll
  for (int p = 0; p < TN / 4; ++p) {
    set4(b + 4 * p, *reinterpret_cast<const float4*>(bs + nbase + p * kNStep));
  }
}

// The order of a k step's 128 FFMA in the source (ptxas schedules them, but starts from it).
// kRows: row by row (thread_tile_8x16). kSnake (thread_tile_8x16_snake): odd rows walk their 16
// columns backwards, so each FFMA shares an operand with the one before it (a[i] within a row,
// b[j] across a row's end): 127 of 128 instead of 120. kColumnSnake (thread_tile_8x16_snake_cols):
// column by column, odd columns walking their 8 rows backwards (b[j] within a column, a[i] across
// a column's end): 127 of 128 too.
enum class FfmaOrder { kRows, kSnake, kColumnSnake };

// One k step: the 8 x 16 outer product a b^T added to acc (128 FFMA), in kOrder.
template <FfmaOrder kOrder = FfmaOrder::kRows>
__device__ __forceinline__ void outer(float (&acc)[TM][TN], const float (&a)[TM],
                                      const float (&b)[TN]) {
  if constexpr (kOrder == FfmaOrder::kColumnSnake) {
#pragma unroll
    for (int j = 0; j < TN; ++j) {
#pragma unroll
      for (int ii = 0; ii < TM; ++ii) {
        const int i = j % 2 == 1 ? TM - 1 - ii : ii;
        acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
      }
    }
  } else {
#pragma unroll
    for (int i = 0; i < TM; ++i) {
#pragma unroll
      for (int jj = 0; jj < TN; ++jj) {
        const int j = kOrder == FfmaOrder::kSnake && (i % 2 == 1) ? TN - 1 - jj : jj;
        acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
      }
    }
  }
}

// One k step from A stored transposed (As[k][m]) and B as is (Bs[k][n]): A's row k starts at
// As[a_row], B's at Bs[b_row]. 2 LDS.128 of A (the two row patches) and 4 of B for 128 FFMA. The
// offsets are summed in int before the address is formed (with a stage pointer formed first,
// thread_tile_8x16 needs 2 registers more).
template <FfmaOrder kOrder = FfmaOrder::kRows>
__device__ __forceinline__ void k_step_transposed(float (&acc)[TM][TN], const float* As, int a_row,
                                                  const float* Bs, int b_row, int mbase,
                                                  int nbase) {
  float a[TM], b[TN];
#pragma unroll
  for (int p = 0; p < TM / 4; ++p) {
    set4(a + 4 * p, *reinterpret_cast<const float4*>(&As[a_row + mbase + p * kMStep]));
  }
#pragma unroll
  for (int p = 0; p < TN / 4; ++p) {
    set4(b + 4 * p, *reinterpret_cast<const float4*>(&Bs[b_row + nbase + p * kNStep]));
  }
  outer<kOrder>(acc, a, b);
}

// The next k rows staged in registers (two float4 of A, two of B per thread, 128 threads, a 128 x
// 128 block tile) stored into rows k0 .. of a shared stage: A transposed (As[k][m], row length
// lda: lda = 132 keeps the 4-byte stores conflict-free), B as is (Bs[k][n], row length BN). sa[i]
// is A's row tid / 2 + 64 i at columns 4 (tid % 2) ..+3 of the staged rows, sb[i] B's row
// (tid + 128 i) / 32 at columns 4 ((tid + 128 i) % 32) ..+3.
template <int lda, int BN>
__device__ __forceinline__ void store_staged(float* As, float* Bs, const float4 (&sa)[2],
                                             const float4 (&sb)[2], int tid, int k0) {
#pragma unroll
  for (int i = 0; i < 2; ++i) {
    const int r = tid / 2 + 64 * i, c = k0 + (tid % 2) * 4;
    As[(c + 0) * lda + r] = sa[i].x;
    As[(c + 1) * lda + r] = sa[i].y;
    As[(c + 2) * lda + r] = sa[i].z;
    As[(c + 3) * lda + r] = sa[i].w;
  }
#pragma unroll
  for (int i = 0; i < 2; ++i) {
    const int e = tid + 128 * i;
    *reinterpret_cast<float4*>(&Bs[(k0 + e / 32) * BN + (e % 32) * 4]) = sb[i];
  }
}

// Four k steps from A stored row-major: a[i] holds k = 4 kc .. 4 kc + 3 of the thread's row i,
// `bs` is B's row 4 kc (row length BN). 16 LDS.128 of B for 512 FFMA.
template <int BN>
__device__ __forceinline__ void k_steps_4(float (&acc)[TM][TN], const float4 (&a)[TM],
                                          const float* bs, int nbase) {
#pragma unroll
  for (int kk = 0; kk < 4; ++kk) {
    float b[TN];
    load_b(bs + kk * BN, nbase, b);
#pragma unroll
    for (int i = 0; i < TM; ++i) {
      const float ai = kk == 0 ? a[i].x : kk == 1 ? a[i].y : kk == 2 ? a[i].z : a[i].w;
#pragma unroll
      for (int j = 0; j < TN; ++j) acc[i][j] = fmaf(ai, b[j], acc[i][j]);
    }
  }
}

// Writes the thread tile to C (whole tiles only: no guard): row(i) is the global row of tile row
// i, col the global column of the first patch; row x N is computed in Index (thread_tile_8x16
// keeps its 32-bit offsets). float4 stores: per row a warp writes 4 lanes x 16 bytes in each of 4
// patches.
template <class Index = std::size_t, class RowOf>
__device__ __forceinline__ void store_tile(float* __restrict__ C, int N, int col,
                                           const float (&acc)[TM][TN], RowOf row) {
#pragma unroll
  for (int i = 0; i < TM; ++i) {
    const int r = row(i);
#pragma unroll
    for (int h = 0; h < TN / 4; ++h) {
      *reinterpret_cast<float4*>(C + (static_cast<Index>(r) * N + col + h * kNStep)) =
          make_float4(acc[i][4 * h], acc[i][4 * h + 1], acc[i][4 * h + 2], acc[i][4 * h + 3]);
    }
  }
}

// ---- thread_tile_8x16's k loop (kernels.cu explains it), also thread_tile_8x16_sk's ----

// Its block tile: 128 x 128, 8-deep k tiles, 128 threads; A transposed in shared memory with rows
// of kTtLda = 132 floats.
inline constexpr int kTtBM = 128, kTtBN = 128, kTtBK = 8, kTtThreads = 128, kTtLda = kTtBM + 4;

// The k range [k_begin, k_end) (multiples of 8, k_begin < k_end) of block tile (tile_m, tile_n)
// (C's rows 128 tile_m .., columns 128 tile_n ..) added to acc: two shared stages (As, Bs), the
// next k tile staged in 4 float4 registers per thread while the current one is computed, one
// __syncthreads per k tile. Ends with a barrier: the stages are free again. 32-bit offsets (M K,
// K N < 2^31: kMaxDim). thread_tile_8x16 runs [0, K) of its block's tile, thread_tile_8x16_sk
// any k range of any tile; kOrder: outer()'s (thread_tile_8x16_snake, _snake_cols).
template <FfmaOrder kOrder = FfmaOrder::kRows>
__device__ __forceinline__ void thread_tile_k_loop(const float* __restrict__ A,
                                                   const float* __restrict__ B, int N, int K,
                                                   int tile_m, int tile_n, int k_begin, int k_end,
                                                   float (&As)[2][kTtBK * kTtLda],
                                                   float (&Bs)[2][kTtBK * kTtBN], int tid,
                                                   int mbase, int nbase, float (&acc)[TM][TN]) {
  constexpr int kBK = kTtBK, lda = kTtLda, kBN = kTtBN;
  // The block's origin formed here from the tile's indices (not passed in): the PTX of
  // thread_tile_8x16 stays what it was before this loop moved here (operand order included).
  const int m0 = tile_m * kTtBM, n0 = tile_n * kTtBN;
  // Two float4 of A (rows tid / 2 and tid / 2 + 64, columns 4 (tid % 2)..+3: 16 rows x 32 bytes
  // per warp) and two of B (rows tid / 32 and tid / 32 + 4, 512 contiguous bytes per warp).
  const float* a_src = A + (m0 + tid / 2) * K + (tid % 2) * 4;
  const float* b_src = B + (tid / 32) * N + n0 + (tid % 32) * 4;
  float4 sa[2], sb[2];
  auto load = [&](int k0) {
#pragma unroll
    for (int i = 0; i < 2; ++i) sa[i] = *reinterpret_cast<const float4*>(a_src + 64 * i * K + k0);
#pragma unroll
    for (int i = 0; i < 2; ++i) sb[i] = *reinterpret_cast<const float4*>(b_src + (k0 + 4 * i) * N);
  };
  const int kt_begin = k_begin / kBK, kt_end = k_end / kBK;
  load(kt_begin * kBK);
  store_staged<lda, kBN>(As[0], Bs[0], sa, sb, tid, 0);
  __syncthreads();
  for (int t = kt_begin; t < kt_end; ++t) {
    const int cur = (t - kt_begin) & 1;
    const bool more = t + 1 < kt_end;
    if (more) load((t + 1) * kBK);
#pragma unroll
    for (int k = 0; k < kBK; ++k) {
      // As[cur] row k, Bs[cur] row k
      k_step_transposed<kOrder>(acc, As[0], cur * (kBK * lda) + k * lda, Bs[0],
                                cur * (kBK * kBN) + k * kBN, mbase, nbase);
    }
    if (more) store_staged<lda, kBN>(As[cur ^ 1], Bs[cur ^ 1], sa, sb, tid, 0);
    __syncthreads();
  }
}

// One whole block tile of thread_tile_8x16 (kernels.cu) and of thread_tile_8x16_tail's waves
// (kernels_sk.cu): the k loop over [0, K), then C. `tile_of()` gives the tile's (m, n) indices
// (int2: x = tile_m, y = tile_n); it is called where both kernels formed them before this was
// shared, so their PTX stayed as measured. kOrder: outer()'s (thread_tile_8x16_snake, _snake_cols).
template <FfmaOrder kOrder = FfmaOrder::kRows, class TileOf>
__device__ __forceinline__ void thread_tile_block(const float* __restrict__ A,
                                                  const float* __restrict__ B,
                                                  float* __restrict__ C, int N, int K,
                                                  TileOf tile_of) {
  __shared__ __align__(16) float As[2][kTtBK * kTtLda];
  __shared__ __align__(16) float Bs[2][kTtBK * kTtBN];
  const int tid = static_cast<int>(threadIdx.x);
  const int mbase = mbase_of(tid), nbase = nbase_of(tid);
  const int2 t = tile_of();
  const int m0 = t.x * kTtBM, n0 = t.y * kTtBN;
  float acc[TM][TN] = {};
  thread_tile_k_loop<kOrder>(A, B, N, K, t.x, t.y, 0, K, As, Bs, tid, mbase, nbase, acc);
  store_tile<int>(C, N, n0 + nbase, acc, [&](int i) { return m0 + mbase + patch_row(i); });
}

// ---- cp_async's ring (kernels_async.cu explains it), also thread_tile_256x128's ----

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

// The ring's k tiles are 32 deep: an A row is 8 chunks of 16 bytes.
inline constexpr int kRingBK = 32;

// Float offset of 16-byte chunk c (0..7) of row m of a stage's A tile (32 floats per row),
// swizzled: chunk c ^ ((m / 4) mod 8).
__device__ __forceinline__ int a_at(int m, int c) {
  return m * kRingBK + ((c ^ ((m >> 2) & 7)) << 2);
}

// Issues the copies of k tile `kt` into stage buffer (As, Bs): BM x 32 floats of A and 32 x BN of
// B, 16 bytes per cp.async, (BM + BN) x 8 / Threads per thread.
template <int BM, int BN, int Threads>
__device__ __forceinline__ void issue_stage(const float* __restrict__ A,
                                            const float* __restrict__ B, int N, int K, int m0,
                                            int n0, int kt, float* As, float* Bs, int tid) {
  constexpr int kATile = BM * kRingBK, kBTile = kRingBK * BN;
  const int k0 = kt * kRingBK;
#pragma unroll
  for (int i = 0; i < kATile / 4 / Threads; ++i) {
    const int e = tid + i * Threads;  // chunk e: row e / 8, chunk e % 8
    const int m = e >> 3, c = e & 7;
    cp_async16(As + a_at(m, c), A + static_cast<std::size_t>(m0 + m) * K + k0 + 4 * c);
  }
#pragma unroll
  for (int i = 0; i < kBTile / 4 / Threads; ++i) {
    const int e = tid + i * Threads;  // row e / 32, chunk e % 32
    const int k = e >> 5, c = e & 31;
    cp_async16(Bs + k * BN + 4 * c, B + static_cast<std::size_t>(k0 + k) * N + n0 + 4 * c);
  }
}

// The whole k loop of block tile (m0, n0) through a Stages-deep ring in `smem` (Stages x (BM x 32
// + 32 x BN) floats), accumulated into acc; the thread's rows are mbase + patch_row(i). K is a
// multiple of 32. Returns with no copy pending.
template <int BM, int BN, int Stages, int Threads>
__device__ __forceinline__ void cp_async_ring(const float* __restrict__ A,
                                              const float* __restrict__ B, int N, int K, int m0,
                                              int n0, float* smem, int tid, int mbase, int nbase,
                                              float (&acc)[TM][TN]) {
  constexpr int kATile = BM * kRingBK, kBTile = kRingBK * BN;  // floats per stage
  float* As = smem;                                            // Stages x kATile
  float* Bs = smem + Stages * kATile;                          // Stages x kBTile
  const int tiles = K / kRingBK;
  // Prologue: stages 0 .. Stages - 2 in flight (an empty group where K has fewer tiles).
#pragma unroll
  for (int s = 0; s < Stages - 1; ++s) {
    if (s < tiles) {
      issue_stage<BM, BN, Threads>(A, B, N, K, m0, n0, s, As + s * kATile, Bs + s * kBTile, tid);
    }
    cp_async_commit();
  }
  for (int t = 0; t < tiles; ++t) {
    cp_async_wait<Stages - 2>();  // this thread's copies of tile t have landed
    __syncthreads();              // everyone's have; and everyone finished tile t - 1
    const int next = t + Stages - 1;
    if (next < tiles) {
      const int buf = next % Stages;  // the buffer tile t - 1 used
      issue_stage<BM, BN, Threads>(A, B, N, K, m0, n0, next, As + buf * kATile, Bs + buf * kBTile,
                                   tid);
    }
    cp_async_commit();
    const float* as = As + (t % Stages) * kATile;
    const float* bs = Bs + (t % Stages) * kBTile;
#pragma unroll 2
    for (int kc = 0; kc < kRingBK / 4; ++kc) {  // 4 k steps per LDS.128 of A
      float4 a[TM];
#pragma unroll
      for (int i = 0; i < TM; ++i) {
        a[i] = *reinterpret_cast<const float4*>(as + a_at(mbase + patch_row(i), kc));
      }
      k_steps_4<BN>(acc, a, bs + 4 * kc * BN, nbase);
    }
  }
  cp_async_wait<0>();
}

// One block tile of C (block (blockIdx.x, blockIdx.y), BM x BN) computed through the ring:
// Threads / 64 x 2 warp tiles of 64 x 64, the thread's rows mbase + patch_row(i). Whole tiles
// only. The body of the cp_async and thread_tile_256x128 kernels.
template <int BM, int BN, int Stages, int Threads>
__device__ __forceinline__ void cp_async_block_tile(const float* __restrict__ A,
                                                    const float* __restrict__ B,
                                                    float* __restrict__ C, int N, int K,
                                                    float* smem) {
  static_assert(Threads == BM * BN / (TM * TN), "one 8 x 16 thread tile per thread");
  const int tid = static_cast<int>(threadIdx.x);
  const int mbase = mbase_of(tid), nbase = nbase_of(tid);
  const int m0 = static_cast<int>(blockIdx.y) * BM, n0 = static_cast<int>(blockIdx.x) * BN;
  float acc[TM][TN] = {};
  cp_async_ring<BM, BN, Stages, Threads>(A, B, N, K, m0, n0, smem, tid, mbase, nbase, acc);
  store_tile(C, N, n0 + nbase, acc, [&](int i) { return m0 + mbase + patch_row(i); });
}

// `Kernel` as a `const void*` for cudaLaunchKernel, its dynamic shared-memory limit raised to
// `Bytes` on the first call.
template <auto* Kernel, int Bytes>
const void* with_smem_limit() {
  static const bool raised = [] {
    MEMLAB_CUDA_CHECK(
        cudaFuncSetAttribute(Kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, Bytes));
    return true;
  }();
  (void)raised;
  return reinterpret_cast<const void*>(Kernel);
}

}  // namespace memlab::lessons::matmul::tt
