// matmul, thread_tile_8x16_db (issue 23, round 4): thread_tile_8x16's 128 x 128 x 8 block tile,
// 128 threads of 8 x 16 outputs, two shared stages and register staging of the next k tile, with
// the inner loop rescheduled the way cuBLAS / maxas SIMT kernels do it:
// - fragment double-buffering: two register sets of the thread's fragments (a[2][8], b[2][16]);
//   k step k's 6 LDS.128 fill set (k + 1) % 2 while its 128 FFMA read set k % 2, so each LDS's
//   latency hides under 128 independent FFMA of the same warp (thread_tile_8x16 leaves the order
//   to ptxas, which at 223 registers cannot keep a whole k step's loads ahead);
// - one barrier per k tile placed before the LAST k step: the staged next tile is stored to the
//   other stage, __syncthreads, then the next tile's k step 0 fragments are loaded from it while
//   k step 7's FFMA run, so no warp waits at the barrier with empty fragments and the first LDS
//   of the next tile is already in flight;
// - no branch in the loop: the last tile's "next tile" load re-reads the last tile (in bounds)
//   and its store goes to the stage nobody reads any more, so the body is straight-line; the
//   shared addresses are one base per stage plus immediate offsets, the global ones a 32-bit
//   offset advanced by 8 (A) and 8 N (B) per tile;
// - B's staged stores are two STS.128 (thread_tile_8x16's first one is split into 4 STS.32).
// Napkin math (4096^3): per thread and k tile 1024 FFMA, 48 LDS.128, 4 LDG.128, 8 STS.32 + 2
// STS.128, 1 BAR, ~10 integer ops: ~93% of the issue slots are FFMA. Registers: 128
// accumulators + 48 fragment + 16 staging + ~12 addresses (<= 255 at __launch_bounds__(128, 2)).
// Shared memory: 2 x (8 x 132 + 8 x 128) floats = 16,640 bytes, 2 blocks (8 warps) per SM.
// Whole tiles only (M, N % 128 == 0, K % 8 == 0, fast_path); other sizes run double_buffer's
// guarded kernel (see kernels.cu), like thread_tile_8x16.
#include <cuda_runtime.h>

#include "matmul/kernels_async.cuh"
#include "matmul/thread_tile.cuh"

namespace memlab::lessons::matmul {
namespace {

constexpr int kBM = kDbBM, kBN = kDbBN, kBK = kDbBK, kThreads = kDbThreads;
constexpr int kPad = 4, lda = kBM + kPad;
constexpr int kAStage = kBK * lda, kBStage = kBK * kBN;  // floats per stage

__global__ void __launch_bounds__(kThreads, 2)
    thread_tile_db_kernel(int M, int N, int K, const float* __restrict__ A,
                          const float* __restrict__ B, float* __restrict__ C) {
  (void)M;
  __shared__ __align__(16) float As[2 * kAStage];
  __shared__ __align__(16) float Bs[2 * kBStage];
  const int tid = static_cast<int>(threadIdx.x);
  const int mbase = tt::mbase_of(tid), nbase = tt::nbase_of(tid);
  const int m0 = static_cast<int>(blockIdx.y) * kBM, n0 = static_cast<int>(blockIdx.x) * kBN;
  // Staging as thread_tile_8x16: two float4 of A (rows tid / 2 and tid / 2 + 64, columns
  // 4 (tid % 2)..+3) and two of B (rows tid / 32 and tid / 32 + 4, 512 contiguous bytes per warp).
  // 32-bit offsets: M K, K N < 2^31 (kMaxDim).
  const float* a_src = A + (m0 + tid / 2) * K + (tid % 2) * 4;
  const float* b_src = B + (tid / 32) * N + n0 + (tid % 32) * 4;
  const int a_far = 64 * K, b_far = 4 * N;  // the second float4's offset
  float4 sa[2], sb[2];
  auto load = [&](int a_off, int b_off) {
    sa[0] = *reinterpret_cast<const float4*>(a_src + a_off);
    sa[1] = *reinterpret_cast<const float4*>(a_src + a_off + a_far);
    sb[0] = *reinterpret_cast<const float4*>(b_src + b_off);
    sb[1] = *reinterpret_cast<const float4*>(b_src + b_off + b_far);
  };
  // Where this thread stores its staged values in a stage: A transposed (As[k][m], k = 4 (tid %
  // 2) + j, m = tid / 2 (+ 64)): conflict-free with lda = 132; B as is.
  const int a_st = (tid % 2) * 4 * lda + tid / 2;
  const int b_st4 = tid;  // in float4: row tid / 32 (kBN / 4 = 32 float4 per row), chunk tid % 32
  auto store = [&](int stage) {
    float* as = As + stage * kAStage + a_st;
#pragma unroll
    for (int i = 0; i < 2; ++i) {
      as[0 * lda + 64 * i] = sa[i].x;
      as[1 * lda + 64 * i] = sa[i].y;
      as[2 * lda + 64 * i] = sa[i].z;
      as[3 * lda + 64 * i] = sa[i].w;
    }
    // Indexed in float4 (a float4 pointer plus an offset): with a float pointer cast to float4*
    // the front end splits the first store into 4 STS.32.
    float4* bs = reinterpret_cast<float4*>(Bs + stage * kBStage);
    bs[b_st4] = sb[0];
    bs[b_st4 + kBN] = sb[1];  // 4 rows further: 4 kBN floats = kBN float4
  };
  // Fragment set `s` of k step k of a stage: 2 LDS.128 of A (the two row patches), 4 of B.
  float a[2][tt::TM], b[2][tt::TN];
  auto frag = [&](const float* as, const float* bs, int k, int s) {
#pragma unroll
    for (int p = 0; p < tt::TM / 4; ++p) {
      tt::set4(a[s] + 4 * p, *reinterpret_cast<const float4*>(as + k * lda + p * tt::kMStep));
    }
#pragma unroll
    for (int p = 0; p < tt::TN / 4; ++p) {
      tt::set4(b[s] + 4 * p, *reinterpret_cast<const float4*>(bs + k * kBN + p * tt::kNStep));
    }
  };
  float acc[tt::TM][tt::TN] = {};
  const int tiles = K / kBK;
  load(0, 0);
  store(0);
  __syncthreads();
  frag(As + mbase, Bs + nbase, 0, 0);
  // The next tile's offsets; the last tile loads itself again (in bounds, never read).
  int a_next = tiles > 1 ? kBK : 0, b_next = tiles > 1 ? kBK * N : 0;
  for (int t = 0; t < tiles; ++t) {
    const int cur = t & 1;
    const float* as = As + cur * kAStage + mbase;
    const float* bs = Bs + cur * kBStage + nbase;
    load(a_next, b_next);
    if (t + 2 < tiles) {  // uniform; advances the offsets to tile t + 2
      a_next += kBK;
      b_next += kBK * N;
    }
#pragma unroll
    for (int k = 0; k < kBK - 1; ++k) {
      frag(as, bs, k + 1, (k + 1) & 1);    // k step k + 1's fragments in flight ...
      tt::outer(acc, a[k & 1], b[k & 1]);  // ... during k step k's 128 FFMA
    }
    // Stage cur ^ 1 was last read in tile t - 1, before that tile's barrier.
    store(cur ^ 1);
    __syncthreads();
    frag(As + (cur ^ 1) * kAStage + mbase, Bs + (cur ^ 1) * kBStage + nbase, 0, 0);
    tt::outer(acc, a[1], b[1]);  // k step 7 (kBK - 1 is odd: set 1)
  }
  tt::store_tile<int>(C, N, n0 + nbase, acc, [&](int i) { return m0 + mbase + tt::patch_row(i); });
}
static_assert(kBK % 2 == 0, "the last k step uses fragment set 1");

}  // namespace

const void* thread_tile_db_kernel_fn() {
  return reinterpret_cast<const void*>(thread_tile_db_kernel);
}

}  // namespace memlab::lessons::matmul
