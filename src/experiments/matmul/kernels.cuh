// matmul: FP32 C = A B, row-major, A is M x K, B is K x N, C is M x N, any M, N, K.
//
// Napkin math (default 4096 x 4096 x 4096): flops = 2 M N K = 137.4 GFLOP; useful bytes
// (M K + K N + M N) * 4 = 201 MB, 47 us at 4.25 TB/s: the product is compute-bound by a factor of
// ~40 once the tiles reuse the inputs. At the ~67 TFLOP/s FP32 peak of an H200 (132 SMs x 128 FMA
// lanes x 2 x 1.98 GHz) the 137 GFLOP take 2.05 ms; cuBLAS pedantic SGEMM reaches ~50 TFLOP/s
// (2.7 ms). What limits each step is where the operands of one FMA come from:
//   global (L1/L2) per FMA  -> the naive kernels, ~0.25 flop per byte loaded;
//   shared per FMA          -> the tiled kernels: 2 shared loads per FMA (one a broadcast), and an
//                              SM issues 4 warp-FMAs but serves 1 shared wavefront per clock:
//                              <= 1/8 of peak whatever the tile size;
//   registers per FMA       -> register blocking: a thread's TM x TN micro tile needs TM + TN
//                              shared loads per TM x TN FMAs (8 x 8: 16 loads, 4 of them 16-byte,
//                              per 64 FMAs), so the FMA pipe can finally be the limit.
// Global traffic of a BM x BN block tile: every k step loads (BM + BN) floats for 2 BM BN flops,
// i.e. BM BN / (2 (BM + BN)) flop per byte ("tile_intensity": 16 -> 4, 32 -> 8, 64 -> 16,
// 128 -> 32); the H200's ~16 flop/byte DRAM ridge (67 TFLOP/s / 4.25 TB/s) needs 64 x 64 or more,
// and the L2 (which catches the re-reads of A and B here) needs more than the 32 x 32 tiles too.
//
// Variants: the enumerators of `Variant` below, each one step with its reason.
// The fast kernels (vectorized, warptile, double_buffer) run an unguarded float4 path when
// M % 128 == N % 128 == 0 and K % 8 == 0, and a guarded path (scalar loads with zero fill, guarded
// stores) otherwise; thread_tile_8x16 (and its _db and _sk forms) has only the unguarded kernel
// and runs double_buffer's guarded one at other sizes. Every variant works at every size.
#pragma once

#include <cuda_runtime_api.h>

#include <memory>
#include <string>

#include "common/variants.hpp"
#include "memlab/cuda/buffer.hpp"
#include "memlab/cuda/event.hpp"
#include "memlab/cuda/stream.hpp"

namespace memlab::lessons::matmul {

enum class Variant {
  // One thread per C element, threadIdx.x walks ROWS of C: a warp's 32 loads of A hit 32 rows
  // (32 sectors per request), B is a broadcast, the C stores are 32 scattered sectors. The
  // lesson's "what not to do".
  NaiveUncoalesced,
  // The same with threadIdx.x walking COLUMNS: B loads and C stores are one 128-byte line per
  // warp, A is a broadcast. Baseline.
  Naive,
  // Seed 004: a TILE x TILE block loads one tile of A and one of B into shared memory (one element
  // each), __syncthreads, TILE FMAs from shared memory, __syncthreads, next phase. Global loads
  // fall by TILE; shared loads remain. TILE = 16 here, 32 in Tiled32.
  Tiled16,
  Tiled32,
  // 64 x 64 block tile, BK = 8, each thread 8 outputs of one column: one B value from shared
  // memory is reused for 8 FMAs held in registers.
  Block1d,
  // 128 x 128 block tile, 8 x 8 outputs per thread: 16 shared loads per 64 FMAs.
  Block2d,
  // + float4 (16-byte) global loads, A stored transposed in shared memory so that the 8 A values
  // of a thread are two 16-byte shared loads (as for B).
  Vectorized,
  // + a warp owns a 32 x 64 sub-tile and each lane 2 x 2 patches of 4 x 4, so every 16-byte
  // shared read of a warp is a broadcast or 128 contiguous bytes (no bank conflicts; vectorized has
  // 2-way conflicts on B); A's transposed store is padded (+4 floats per row) against its 2-way
  // store conflicts.
  Warptile,
  // + two shared buffers: the next k tile is loaded from global into registers while the current
  // one is computed, then stored to the other buffer; one __syncthreads per k tile instead of two,
  // and the loads' latency is hidden.
  DoubleBuffer,
  // + 128 threads of 8 x 16 outputs (128 accumulators) on the same 128 x 128 tile: 6 LDS.128 per
  // 128 FMAs instead of 4 per 64, still 2 blocks per SM.
  ThreadTile8x16,
  // thread_tile_8x16's arithmetic fed by a 3-stage cp.async.cg pipeline (kernels_async.cu):
  // 128 x 32 / 32 x 128 k tiles copied global -> shared 16 bytes at a time without registers, two
  // stages in flight during the compute of the third (commit_group / wait_group 1); A row-major
  // with a chunk swizzle. Whole tiles (M, N % 128, K % 32) only, else double_buffer's guarded
  // kernel. Verified on the H200 (issue 23): no longer opt-in.
  CpAsync,
  // The same tiles loaded by the Tensor Memory Accelerator (kernels_tma.cu): one thread issues two
  // tensor copies per k tile onto an mbarrier, A's box written with the 128-byte swizzle (thread
  // rows m = lane / 4 + 8 i read it conflict-free). sm_90; whole tiles, else double_buffer's
  // guarded kernel. Verified on the H200 (issue 23): no longer opt-in.
  Tma,
  // Issue 23: thread_tile_8x16 with k tiles of 16 instead of 8 (kernels_bk16.cu): one
  // __syncthreads and one loop trip per 2048 FFMA per thread instead of 1024, the next tile still
  // staged through 16 registers (two halves of 8 k, each loaded before 8 k steps and stored after
  // them). Whole tiles (M, N % 128, K % 16) only, else double_buffer's kernel.
  ThreadTileBk16,
  // Issue 23, round 2: cuBLAS's SIMT shape (kernels_256.cu): a 256 x 128 block tile of 256
  // threads with 8 x 16 outputs each, fed by cp_async's 3-stage cp.async.cg ring (32-deep k
  // tiles, no staging registers, one barrier per k tile), 144 KiB of shared memory, 1 block per
  // SM: 42.7 instead of 32 flop per byte of L2 traffic. Whole tiles (M % 256, N % 128, K % 32)
  // only, else double_buffer's kernel.
  ThreadTile256x128,
  // Issue 23, round 4: thread_tile_8x16 with the cuBLAS/maxas inner-loop schedule
  // (kernels_db.cu): two register sets of fragments (k step k + 1's 6 LDS.128 in flight during
  // k step k's 128 FFMA), the one barrier per k tile before the last k step (the next tile's first
  // fragments load during its FFMA), a branch-free loop body with immediate shared offsets, B's
  // staging stores as 2 STS.128. Same tiles and sizes as thread_tile_8x16 (fast_path, else
  // double_buffer's guarded kernel).
  ThreadTile8x16Db,
  // Issue 23, round 7: thread_tile_8x16's k loop and epilogue on a persistent stream-K schedule
  // (kernels_sk.cu) against wave quantization (1024 tiles on 264 slots at 4096^3: 3.88 waves run
  // as 4): G = 2 x 132 resident CTAs do floor(tiles / G) - 1 waves of whole tiles, then split the
  // remaining tiles' k iterations evenly; a tile split between CTAs is summed by the one that
  // arrives last (fp32 partials in a workspace, an arrival counter per tile, no waiting). Needs
  // its StreamKWorkspace (setup allocates it). Whole tiles only (fast_path), else double_buffer's
  // guarded kernel.
  ThreadTile8x16Sk,
  // Issue 23, round 8: the stream-K schedule only where it is needed (kernels_sk.cu): the
  // floor(tiles / G) whole waves run thread_tile_8x16's own loop and epilogue, one CTA per tile
  // in one launch (at 4096^3: 792 tiles, 3 waves of 264), and only the rest (232 tiles, fewer than
  // G) is split evenly over the G CTAs of thread_tile_8x16_sk's kernel in a second launch. Same
  // workspace as thread_tile_8x16_sk. Whole tiles only (fast_path), else double_buffer's guarded
  // kernel.
  ThreadTile8x16Tail,
  // Issue 23, round 9: thread_tile_8x16_tail's split with the whole waves run by thread_tile_8x16's
  // own kernel (the same binary, so the same SASS schedule; round 8's waves kernel, the same loop
  // compiled again, was 2.1-2.7% slower per tile): whole rows of tiles in one launch of it, the
  // waves' part of the next row (24 tiles at 4096^3) in a second launch of it on the workspace's
  // side stream, concurrent with the first (the two fill exactly floor(tiles / G) waves), then the
  // rest by the stream-K kernel, as _tail. Same workspace. Whole tiles only (fast_path), else
  // double_buffer's guarded kernel.
  ThreadTile8x16TailOwn,
  // Issue 23, round 9: thread_tile_8x16 with the 128 FFMA of a k step in snake order (odd rows of
  // the thread tile walk their columns backwards: every FFMA shares an operand with the one before
  // it), against the SASS schedule round 8 found worth 2-3% between compiles of the same loop
  // (kernels_snake.cu). Whole tiles only (fast_path), else double_buffer's guarded kernel.
  ThreadTile8x16Snake,
  // The same with the other snake: column by column, odd columns walking their rows backwards
  // (kernels_snake.cu), a second compile of the same loop.
  ThreadTile8x16SnakeCols,
  // Issue 23, round 9: thread_tile_8x16_tail_own's schedule with thread_tile_8x16_snake's kernel
  // for the whole waves (the two steps that paid, together). Same workspace. Whole tiles only
  // (fast_path), else double_buffer's guarded kernel.
  ThreadTile8x16SnakeTail,
  // cuBLAS SGEMM, CUBLAS_PEDANTIC_MATH (plain FP32, no TF32), the vendor line. Not one of memlab's
  // kernels: it runs through vendor.hpp, and `launch`/`kernel_info` reject it (std::logic_error).
  Cublas,
};

inline constexpr VariantInfo<Variant> kVariants[] = {
    {Variant::NaiveUncoalesced, "naive_uncoalesced",
     "one thread per element, lanes walk rows: A loads touch 32 sectors per warp"},
    {Variant::Naive, "naive", "one thread per element, lanes walk columns: coalesced B and C"},
    {Variant::Tiled16, "tiled16", "seed 004: 16 x 16 tiles of A and B in shared memory"},
    {Variant::Tiled32, "tiled32", "seed 004: 32 x 32 tiles of A and B in shared memory"},
    {Variant::Block1d, "block1d",
     "64 x 64 block tile, 8 outputs per thread (1D register blocking)"},
    {Variant::Block2d, "block2d", "128 x 128 block tile, 8 x 8 outputs per thread (2D registers)"},
    {Variant::Vectorized, "vectorized", "+ float4 global loads, A transposed in shared memory"},
    {Variant::Warptile, "warptile", "+ warp tiles, conflict-free 16-byte shared reads, padded A"},
    {Variant::DoubleBuffer, "double_buffer",
     "+ two shared stages, next tile's loads in flight during compute"},
    {Variant::ThreadTile8x16, "thread_tile_8x16",
     "+ 128 threads of 8 x 16 outputs: 6 LDS.128 per 128 FMAs, 2 blocks per SM"},
    {Variant::CpAsync, "cp_async",
     "+ 3-stage cp.async.cg pipeline (32 KiB k tiles, no register staging), swizzled A"},
    {Variant::Tma, "tma",
     "+ TMA tile loads (2 tensor copies per k tile, mbarrier, swizzled A), 3 stages"},
    {Variant::ThreadTileBk16, "thread_tile_bk16",
     "thread_tile_8x16 with 16-deep k tiles: half the barriers, staging in two halves"},
    {Variant::ThreadTile256x128, "thread_tile_256x128",
     "256 x 128 block tile, 256 threads of 8 x 16, 3-stage cp.async ring, 1 block per SM"},
    {Variant::ThreadTile8x16Db, "thread_tile_8x16_db",
     "thread_tile_8x16 with double-buffered fragments, barrier before the last k step"},
    {Variant::ThreadTile8x16Sk, "thread_tile_8x16_sk",
     "thread_tile_8x16 on a persistent stream-K schedule: no partly empty last wave"},
    {Variant::ThreadTile8x16Tail, "thread_tile_8x16_tail",
     "thread_tile_8x16's whole waves, then stream-K for the partly empty last wave only"},
    {Variant::ThreadTile8x16TailOwn, "thread_tile_8x16_tail_own",
     "thread_tile_8x16_tail with the whole waves run by thread_tile_8x16's own kernel"},
    {Variant::ThreadTile8x16Snake, "thread_tile_8x16_snake",
     "thread_tile_8x16 with each k step's 128 FFMA in snake order (operand reuse)"},
    {Variant::ThreadTile8x16SnakeCols, "thread_tile_8x16_snake_cols",
     "thread_tile_8x16 with each k step's 128 FFMA in column snake order (operand reuse)"},
    {Variant::ThreadTile8x16SnakeTail, "thread_tile_8x16_snake_tail",
     "thread_tile_8x16_tail_own with thread_tile_8x16_snake's kernel for the whole waves"},
    {Variant::Cublas, "cublas", "cuBLAS SGEMM, pedantic FP32 math (no TF32), C^T = B^T A^T"},
};

// Largest accepted extent of each axis (indices stay in 32-bit integers: 16384^2 < 2^31).
inline constexpr int kMaxDim = 16384;

// thread_tile_8x16_sk's and thread_tile_8x16_tail's workspace (kernels_sk.cu), allocated outside
// the timed launches: two 128 x 128 fp32 partial tiles per CTA of the persistent grid and one
// arrival counter per stream-K tile, zeroed here once (every launch leaves them at 0). For one size
// (M, N, K) and the current device; `grid` > 0 replaces the persistent grid (occupancy x SM count)
// by a smaller one (tests: stream-K splits at small sizes). Empty where the variant falls back (not
// fast_path). One launch at a time per workspace (stream order). thread_tile_8x16_tail_own also
// takes its side stream and the two events that fork it from and join it to the caller's stream.
class StreamKWorkspace {
 public:
  StreamKWorkspace() = default;
  StreamKWorkspace(int M, int N, int K, int grid = 0);
  float* partials() const noexcept { return partials_.get(); }
  int* counters() const noexcept { return counters_.get(); }
  int grid() const noexcept { return grid_; }  // 0: empty
  int m() const noexcept { return m_; }
  int n() const noexcept { return n_; }
  int k() const noexcept { return k_; }
  cudaStream_t side() const noexcept { return side_ ? side_->get() : nullptr; }
  cudaEvent_t fork() const noexcept { return fork_ ? fork_->get() : nullptr; }
  cudaEvent_t join() const noexcept { return join_ ? join_->get() : nullptr; }

 private:
  int m_ = 0, n_ = 0, k_ = 0, grid_ = 0;
  DeviceBuffer<float> partials_;
  DeviceBuffer<int> counters_;
  std::unique_ptr<Stream> side_;  // unique_ptr: Stream and Event are not move-assignable
  std::unique_ptr<Event> fork_, join_;
};

// C = A B for row-major A (M x K), B (K x N), C (M x N), enqueued on `stream` (memlab's kernels;
// Variant::Cublas runs through vendor.hpp). Variant::ThreadTile8x16Sk, ThreadTile8x16Tail,
// ThreadTile8x16TailOwn and ThreadTile8x16SnakeTail need `workspace`, made for this size
// (std::invalid_argument otherwise); the other variants ignore it.
void launch(Variant variant, const float* A, const float* B, float* C, int M, int N, int K,
            cudaStream_t stream, const StreamKWorkspace* workspace = nullptr);

// True when the fast kernels take their unguarded float4 path at this size.
bool fast_path(int M, int N, int K);

// Compile-time resources of the kernel `launch` uses at this size (cudaFuncGetAttributes).
struct KernelInfo {
  int registers = 0;
  int shared_bytes = 0;  // static shared memory per block
  int local_bytes = 0;   // local memory per thread: > 0 means register spills
  int threads = 0;       // threads per block
};
KernelInfo kernel_info(Variant variant, int M, int N, int K);

}  // namespace memlab::lessons::matmul
