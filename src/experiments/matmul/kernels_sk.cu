// matmul, thread_tile_8x16_sk (issue 23, round 7): thread_tile_8x16's k loop
// (tt::thread_tile_k_loop) and epilogue on a persistent "data-parallel + stream-K" schedule,
// against wave quantization.
//
// Napkin math (4096^3): 1024 block tiles of 128 x 128 on 132 SMs x 2 blocks = 264 slots is 3.88
// waves; the last wave runs 232 tiles on 264 slots, so a grid of one CTA per tile takes 4
// tile-times for 3.88 tile-times of work. Here G = 264 CTAs stay resident (G = the occupancy
// API's blocks per SM x the SM count, at most the tile count):
// - floor(tiles / G) - 1 = 2 full waves of whole tiles first (tiles 0 .. 527 in thread_tile_8x16's
//   raster: tile id = m-tile x tiles_n + n-tile; CTA c does c, c + G, ...), plain stores;
// - the remaining 496 tiles x 512 k tiles = 253,952 (tile, k tile) iterations split evenly, CTA c
//   taking [c T / G, (c + 1) T / G): 961-962 iterations = 1.88 tiles each, so every CTA ends
//   after 3.88 tile-times (a ~3% shorter run), minus the fix-up below.
// Fix-up without waiting: a segment that covers a tile's whole k range stores C. Any other one
// writes its 128 x 128 partial sums (fp32, 64 KiB, 32 coalesced float4 stores per thread) to the
// CTA's slot (2 per CTA: its first and its last segment, the only ones that can be partial),
// __threadfence, and thread 0 counts the arrival (atomicAdd on the tile's counter). The CTA that
// arrives last (counter == parts - 1, parts known from the split) adds the other parts' slots
// (read through L2, __ldcg) to its registers, stores C and puts the counter back to 0 for the next
// launch. Nothing waits on another CTA, so no co-residency is assumed. At 4096^3 256 of the 496
// stream-K tiles are split in 2: 512 partial writes and 256 reads of 64 KiB (48 MiB through L2, at
// most 192 KiB per CTA, ~2 us of tail against ~2.8 ms).
// ptxas: 254 registers (thread_tile_8x16: 223; the k range is not a constant here and the fix-up
// batches its loads), no spill; __launch_bounds__(128, 2) keeps 2 blocks per SM (2 x 128 x 254 <=
// 65,536). Whole tiles only (fast_path); other sizes run double_buffer's guarded kernel
// (kernels.cu), as thread_tile_8x16 does.
//
// thread_tile_8x16_tail (issue 23, round 8): the same stream-K kernel for the partial last wave
// only. The floor(tiles / G) whole waves (792 tiles at 4096^3) run first in
// thread_tile_waves_kernel (thread_tile_8x16's loop and epilogue, one CTA per tile, 223
// registers), then the rest (232 tiles, fewer than G) is split evenly over min(G, T) CTAs here.
// Measured on an H100 (docs/matmul.md, "Round 8"): the balanced tail saves ~1.8%, and the waves'
// kernel, the same source loop in another compile, is 2.1-2.7% slower per tile than
// thread_tile_kernel: not faster than thread_tile_8x16.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>

#include "matmul/kernels.cuh"
#include "matmul/kernels_async.cuh"
#include "matmul/thread_tile.cuh"
#include "memlab/cuda/check.hpp"

namespace memlab::lessons::matmul {
namespace {

constexpr int kBM = tt::kTtBM, kBN = tt::kTtBN, kBK = tt::kTtBK, kThreads = tt::kTtThreads;
constexpr int kSlotFloats = kBM * kBN;  // one partial tile: 64 KiB
constexpr int kSlotsPerCta = 2;         // the CTA's first and last stream-K segments
static_assert(kSlotFloats == kThreads * tt::TM * tt::TN, "one thread tile per thread");

// One launch's schedule (gridDim.x = G persistent CTAs).
struct SkPlan {
  int tiles_n;   // block tiles across N (raster: tile id = m-tile x tiles_n + n-tile)
  int k_tiles;   // 8-deep k tiles per block tile: K / 8
  int dp_tiles;  // tiles 0 .. dp_tiles - 1: whole tiles, CTA c does c, c + G, ...
  int sk_first;  // stream-K tile s is tile sk_first + s (_sk: dp_tiles; _tail: its waves' tiles)
  int sk_iters;  // T = (tiles - sk_first) k_tiles (tile, k tile) iterations split over the G CTAs
};

// The first stream-K iteration of CTA c: floor(c T / G).
__host__ __device__ int sk_begin(int c, int T, int G) {
  return static_cast<int>(static_cast<long long>(c) * T / G);
}
// The CTA whose range holds iteration i: the largest c with floor(c T / G) <= i, i.e.
// c T < (i + 1) G.
__device__ int sk_owner(int i, int T, int G) {
  return static_cast<int>(((static_cast<long long>(i) + 1) * G - 1) / T);
}

// Where float4 j (0..31) of a thread's 128 accumulators (row j / 4, patch j % 4) lies in a slot:
// a warp's 32 lanes write 512 contiguous bytes per j.
__device__ __forceinline__ int slot_float4(int j, int tid) {
  return j * kThreads + tid;
}

__global__ void __launch_bounds__(kThreads, 2)
    thread_tile_sk_kernel(int N, int K, const float* __restrict__ A, const float* __restrict__ B,
                          float* __restrict__ C, float* partials, int* counters, SkPlan p) {
  __shared__ __align__(16) float As[2][kBK * tt::kTtLda];
  __shared__ __align__(16) float Bs[2][kBK * kBN];
  __shared__ int finisher;  // this CTA arrived last at its tile: it adds the parts and stores C
  const int tid = static_cast<int>(threadIdx.x);
  const int mbase = tt::mbase_of(tid), nbase = tt::nbase_of(tid);
  const int G = static_cast<int>(gridDim.x), cta = static_cast<int>(blockIdx.x);
  auto store = [&](int tile, const float(&acc)[tt::TM][tt::TN]) {
    const int m0 = tile / p.tiles_n * kBM, n0 = tile % p.tiles_n * kBN;
    tt::store_tile<int>(C, N, n0 + nbase, acc,
                        [&](int i) { return m0 + mbase + tt::patch_row(i); });
  };
  // Data-parallel waves (whole tiles c, c + G, ... below dp_tiles), then the stream-K range
  // [first, end) of the remaining tiles' iterations, one segment per tile it touches; one k loop
  // for both (one copy of the unrolled loop in the code).
  const int T = p.sk_iters, first = sk_begin(cta, T, G), end = sk_begin(cta + 1, T, G);
  int dp = cta, it = first;
  for (;;) {
    int tile, kb = 0, ke = p.k_tiles, s = 0;  // the segment: k tiles [kb, ke) of `tile`
    if (dp < p.dp_tiles) {
      tile = dp;
      dp += G;
    } else if (it < end) {
      s = it / p.k_tiles;  // stream-K tile s is tile sk_first + s
      kb = it - s * p.k_tiles;
      ke = min(p.k_tiles, kb + (end - it));
      tile = p.sk_first + s;
      it += ke - kb;
    } else {
      break;
    }
    float acc[tt::TM][tt::TN] = {};
    tt::thread_tile_k_loop(A, B, N, K, tile / p.tiles_n, tile % p.tiles_n, kb * kBK, ke * kBK, As,
                           Bs, tid, mbase, nbase, acc);
    if (kb == 0 && ke == p.k_tiles) {  // the whole k range: no other part
      store(tile, acc);
      continue;
    }
    float* mine =
        partials + static_cast<std::size_t>(kSlotsPerCta * cta + (kb == 0 ? 1 : 0)) * kSlotFloats;
#pragma unroll
    for (int j = 0; j < tt::TM * tt::TN / 4; ++j) {
      const int i = j / 4, h = j % 4;
      __stcg(reinterpret_cast<float4*>(mine) + slot_float4(j, tid),
             make_float4(acc[i][4 * h], acc[i][4 * h + 1], acc[i][4 * h + 2], acc[i][4 * h + 3]));
    }
    __threadfence();  // this thread's partial is visible device-wide before the arrival counts
    __syncthreads();
    const int c_lo = sk_owner(s * p.k_tiles, T, G), c_hi = sk_owner((s + 1) * p.k_tiles - 1, T, G);
    if (tid == 0) {
      const bool last = atomicAdd(&counters[s], 1) == c_hi - c_lo;
      if (last) counters[s] = 0;  // every part has arrived: ready for the next launch
      finisher = last ? 1 : 0;
    }
    __syncthreads();
    if (finisher == 0) continue;
    __threadfence();  // the other parts' writes, counted before ours, are read after it
    for (int c = c_lo; c <= c_hi; ++c) {
      if (c == cta) continue;
      // c's segment of tile s starts the tile (kb == 0) unless c began inside it: its first one.
      const bool began_inside = sk_begin(c, T, G) > s * p.k_tiles;
      const float* theirs =
          partials +
          static_cast<std::size_t>(kSlotsPerCta * c + (began_inside ? 0 : 1)) * kSlotFloats;
#pragma unroll
      for (int j = 0; j < tt::TM * tt::TN / 4; ++j) {
        const int i = j / 4, h = j % 4;
        const float4 v = __ldcg(reinterpret_cast<const float4*>(theirs) + slot_float4(j, tid));
        acc[i][4 * h] += v.x;
        acc[i][4 * h + 1] += v.y;
        acc[i][4 * h + 2] += v.z;
        acc[i][4 * h + 3] += v.w;
      }
    }
    store(tile, acc);
  }
}

// thread_tile_8x16_tail's whole waves: thread_tile_8x16's kernel body (the same k loop, K the
// whole k range, the same epilogue) on a 1D grid of exactly the waves' tiles, tile = blockIdx.x in
// thread_tile_8x16's raster (tile id = m-tile x tiles_n + n-tile: consecutive CTAs walk along N,
// as the 2D grid's x does). Its k loop is thread_tile_8x16's, not the stream-K kernel's (254
// registers, 1.7% slower per tile at 4224 x 4096 x 4096 on the H100).
__global__ void __launch_bounds__(kThreads, 2)
    thread_tile_waves_kernel(int N, int K, int tiles_n, const float* __restrict__ A,
                             const float* __restrict__ B, float* __restrict__ C) {
  tt::thread_tile_block(A, B, C, N, K, [tiles_n] {
    const int tile = static_cast<int>(blockIdx.x);
    return make_int2(tile / tiles_n, tile % tiles_n);
  });
}

// Blocks of the kernel per SM (occupancy API) x the SM count, for the current device.
int persistent_slots() {
  int device = 0, sms = 0, per_sm = 0;
  MEMLAB_CUDA_CHECK(cudaGetDevice(&device));
  MEMLAB_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  MEMLAB_CUDA_CHECK(
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, thread_tile_sk_kernel, kThreads, 0));
  return std::max(1, per_sm) * sms;
}

struct Schedule {
  int grid = 0;  // the stream-K kernel's CTAs (0: no stream-K launch)
  SkPlan plan{};
  int sk_tiles = 0;    // tiles in the stream-K part (one counter each)
  int wave_tiles = 0;  // _tail: tiles 0 .. wave_tiles - 1 run first, one CTA each (whole waves)
};

// The schedule at (M, N, K) (whole tiles) on `slots` resident CTAs.
Schedule schedule_of(int M, int N, int K, int slots) {
  const int tiles_n = N / kBN, tiles = (M / kBM) * tiles_n, k_tiles = K / kBK;
  const int G = std::max(1, std::min(slots, tiles));
  const int dp_waves = std::max(0, tiles / G - 1);
  const int sk_tiles = tiles - dp_waves * G;  // in [G, 2 G): every CTA has >= k_tiles iterations
  return {G, {tiles_n, k_tiles, dp_waves * G, dp_waves * G, sk_tiles * k_tiles}, sk_tiles, 0};
}

// thread_tile_8x16_tail's schedule: floor(tiles / G) whole waves (G = `slots` CTAs each) in one
// launch of thread_tile_waves_kernel, then only the rest, fewer than G tiles, split evenly over
// min(G, T) CTAs of the stream-K kernel (T = rest x k_tiles, so every CTA has >= 1 iteration and
// each of them arrives at the tiles it touches).
Schedule tail_schedule_of(int M, int N, int K, int slots) {
  const int tiles_n = N / kBN, tiles = (M / kBM) * tiles_n, k_tiles = K / kBK;
  const int G = std::max(1, std::min(slots, tiles));
  const int wave_tiles = tiles / G * G, sk_tiles = tiles - wave_tiles;
  const int T = sk_tiles * k_tiles;
  return {std::min(G, T), {tiles_n, k_tiles, 0, wave_tiles, T}, sk_tiles, wave_tiles};
}

// std::invalid_argument naming `variant` unless `ws` was made for (M, N, K) on the fast path.
void check_workspace(const StreamKWorkspace& ws, int M, int N, int K, const char* variant) {
  if (ws.m() != M || ws.n() != N || ws.k() != K || ws.grid() == 0) {
    throw std::invalid_argument(std::string("matmul: ") + variant +
                                "'s workspace is for another size");
  }
}

// The stream-K kernel on schedule `s` (nothing when s.grid is 0: no stream-K part).
void launch_sk(const Schedule& s, const float* A, const float* B, float* C, int N, int K,
               const StreamKWorkspace& ws, cudaStream_t stream) {
  if (s.grid == 0) return;
  thread_tile_sk_kernel<<<s.grid, kThreads, 0, stream>>>(N, K, A, B, C, ws.partials(),
                                                         ws.counters(), s.plan);
  MEMLAB_CHECK_LAUNCH(thread_tile_sk_kernel);
}

}  // namespace

StreamKWorkspace::StreamKWorkspace(int M, int N, int K, int grid) : m_(M), n_(N), k_(K) {
  if (!fast_path(M, N, K)) return;  // the fallback kernel needs none
  const Schedule s = schedule_of(M, N, K, grid > 0 ? grid : persistent_slots());
  grid_ = s.grid;  // G: _tail's stream-K launch has at most G CTAs and fewer stream-K tiles
  const Schedule t = tail_schedule_of(M, N, K, s.grid);
  partials_ = DeviceBuffer<float>(static_cast<std::size_t>(kSlotsPerCta) *
                                  static_cast<std::size_t>(s.grid) * kSlotFloats);
  counters_ = DeviceBuffer<int>(static_cast<std::size_t>(std::max({s.sk_tiles, t.sk_tiles, 1})));
  counters_.fill_bytes(0);  // once, here: each launch leaves them at 0
  side_ = std::make_unique<Stream>();
  fork_ = std::make_unique<Event>(cudaEventDisableTiming);
  join_ = std::make_unique<Event>(cudaEventDisableTiming);
  MEMLAB_CUDA_CHECK(cudaDeviceSynchronize());
}

const void* thread_tile_sk_kernel_fn() {
  return reinterpret_cast<const void*>(thread_tile_sk_kernel);
}

unsigned thread_tile_sk_grid(int M, int N, int K) {
  return static_cast<unsigned>(schedule_of(M, N, K, persistent_slots()).grid);
}

const void* thread_tile_waves_kernel_fn() {
  return reinterpret_cast<const void*>(thread_tile_waves_kernel);
}

void launch_thread_tile_sk(const float* A, const float* B, float* C, int M, int N, int K,
                           const StreamKWorkspace& ws, cudaStream_t stream) {
  check_workspace(ws, M, N, K, "thread_tile_8x16_sk");
  launch_sk(schedule_of(M, N, K, ws.grid()), A, B, C, N, K, ws, stream);
}

int thread_tile_tail_wave_tiles(int M, int N, int K, const StreamKWorkspace& ws,
                                const char* variant) {
  check_workspace(ws, M, N, K, variant);
  return tail_schedule_of(M, N, K, ws.grid()).wave_tiles;
}

void launch_thread_tile_tail_rest(const float* A, const float* B, float* C, int M, int N, int K,
                                  const StreamKWorkspace& ws, cudaStream_t stream) {
  launch_sk(tail_schedule_of(M, N, K, ws.grid()), A, B, C, N, K, ws, stream);
}

void launch_thread_tile_tail(const float* A, const float* B, float* C, int M, int N, int K,
                             const StreamKWorkspace& ws, cudaStream_t stream) {
  const int wave_tiles = thread_tile_tail_wave_tiles(M, N, K, ws, "thread_tile_8x16_tail");
  if (wave_tiles > 0) {
    thread_tile_waves_kernel<<<wave_tiles, kThreads, 0, stream>>>(N, K, N / kBN, A, B, C);
    MEMLAB_CHECK_LAUNCH(thread_tile_waves_kernel);
  }
  launch_thread_tile_tail_rest(A, B, C, M, N, K, ws, stream);
}

}  // namespace memlab::lessons::matmul
