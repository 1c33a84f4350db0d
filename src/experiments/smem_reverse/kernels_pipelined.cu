// smem_reverse, Hopper (issue 23): `bulk_pipelined`, the bulk variant with a persistent grid and
// a ring of shared-memory stages, so that a block's loads, reversal and stores overlap.
//
// What it does to memory: the array is cut into kSeg-float segments (16 KiB; the last one shorter,
// still a multiple of 4 floats since n = 4 k). A persistent grid walks the segments grid-stride;
// segment j of a block uses stage j mod kStages. Thread 0 keeps kStages - 1 segment loads in
// flight (cp.async.bulk global -> shared, completing on the stage's mbarrier). When segment j has
// landed, the 256 threads reverse it in place in shared memory: thread p takes the quad pair
// (p, Q - 1 - p) (Q quads in the segment), loads both (LDS.128), and stores each one's lanes
// reversed in the other's place (STS.128); the middle quad of an odd Q is its own pair. Then
// fence.proxy.async.shared::cta, a block barrier, and thread 0 writes the stage to the mirrored
// range out[n - first - len, n - first) with one cp.async.bulk shared -> global, and reloads the
// stage of segment j - 1 with segment j + kStages - 1 once that older store has read it
// (cp.async.bulk.wait_group.read 1). One barrier per segment: the refill is issued after it, when
// every thread is done with the stage. DRAM sees 8 bytes per float, as every variant.
//
// Banks: a quarter warp (8 lanes) touches 8 consecutive quads (128 contiguous bytes, ascending)
// and the 8 mirrored ones (128 contiguous bytes, descending): each access is one wavefront, no
// conflict.
//
// Napkin math (H200, n = 2^28): 2 GiB, ~0.50 ms at the memcpy rate. In flight: per block up to 3
// loads of 16 KiB + 1 store; 3 blocks per SM (64 KiB of stages each, 192 KiB) hold ~144 KiB of
// loads per SM, 6x the ~23 KB Little's law asks. Shared traffic per float: the engine's write and
// read plus 8 bytes by threads, conflict-free, far under 128 B/clk/SM. Registers: ~30 (two float4
// and indices). Limiter removed: bulk's per-block serial load -> reverse -> store -> wait (16 KiB
// in flight per block only while it is loading) and its 65536 block launches.
//
// Round two (issue 23; bulk_pipelined measured 92.2% of the memcpy rate): `bulk_pipelined_many`,
// 4 x 8 KiB stages per block (32 KiB), 6 blocks of 256 threads per SM (1536 threads, 198 KiB):
// the same ~144 KiB of loads in flight per SM (6 x 3 x 8 KiB), but twice the independent
// wait -> reverse -> barrier -> store chains, so that while one block waits at its barrier or on
// wait_group.read, five others keep the copy engine and the LSU busy; plus an evict-first L2
// policy on the bulk loads and stores (streaming data, read once). Per segment each block now
// pays its barrier for 8 KiB instead of 16 KiB, the cost of the change. Registers: as before
// (one more 64-bit policy). Predicted: 96-99% of the memcpy rate.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "common/hopper.cuh"
#include "common/launch.hpp"
#include "smem_reverse/kernels_bulk.cuh"

namespace memlab::lessons::smem_reverse {
namespace {

namespace hp = memlab::lessons::hopper;

constexpr int kStages = 4;
constexpr unsigned kThreads = 256;
// Small arrays: fewer blocks, each with at least this many segments (every ring wraps; the test
// points exercise the wrap-around and the phase flips).
constexpr std::size_t kMinSegsPerBlock = 3 * kStages;

template <unsigned Seg>
constexpr std::size_t smem_of() {
  return static_cast<std::size_t>(kStages) * Seg * 4;
}

__device__ __forceinline__ float4 reversed(float4 v) {
  return make_float4(v.w, v.z, v.y, v.x);
}

// Seg floats per segment and stage; Hint: evict-first L2 policy on the bulk loads and stores.
template <unsigned Seg, bool Hint>
__global__ void __launch_bounds__(kThreads)
    pipelined_reverse(const float* __restrict__ in, float* __restrict__ out, std::size_t n) {
#if MEMLAB_SM90
  constexpr unsigned kSeg = Seg;
  extern __shared__ __align__(128) float4 ring[];
  __shared__ __align__(8) std::uint64_t full[kStages];
  const std::size_t segs = (n + kSeg - 1) / kSeg;
  const std::size_t first = blockIdx.x, step = gridDim.x;
  const std::size_t m = first < segs ? (segs - first + step - 1) / step : 0;
  const std::uint64_t policy = Hint ? hp::l2_evict_first() : 0;
  auto start_of = [&](std::size_t j) { return (first + j * step) * kSeg; };
  auto len_of = [&](std::size_t j) { return std::min<std::size_t>(kSeg, n - start_of(j)); };
  auto load = [&](std::size_t j) {
    const int s = static_cast<int>(j % kStages);
    const auto bytes = static_cast<std::uint32_t>(len_of(j) * 4);
    hp::mbar_arrive_expect_tx(&full[s], bytes);
    if constexpr (Hint) {
      hp::bulk_load_hint(ring + s * (kSeg / 4), in + start_of(j), bytes, &full[s], policy);
    } else {
      hp::bulk_load(ring + s * (kSeg / 4), in + start_of(j), bytes, &full[s]);
    }
  };
  if (threadIdx.x == 0) {
    for (int s = 0; s < kStages; ++s) hp::mbar_init(&full[s], 1);
    hp::fence_mbarrier_init();
    for (std::size_t j = 0; j + 1 < kStages && j < m; ++j) load(j);
  }
  __syncthreads();  // the barriers are initialised before anyone waits on them
  for (std::size_t j = 0; j < m; ++j) {
    const int s = static_cast<int>(j % kStages);
    float4* q = ring + s * (kSeg / 4);
    const std::size_t len = len_of(j);
    const auto quads = static_cast<unsigned>(len / 4);
    hp::mbar_wait(&full[s], static_cast<std::uint32_t>((j / kStages) & 1));
    for (unsigned p = threadIdx.x; 2 * p < quads; p += kThreads) {
      const unsigned r = quads - 1 - p;  // r >= p
      const float4 lo = q[p], hi = q[r];
      q[p] = reversed(hi);
      q[r] = reversed(lo);  // p == r: the middle quad, written once more with the same value
    }
    hp::fence_proxy_async_shared();  // our shared stores before the engine reads the stage
    __syncthreads();
    if (threadIdx.x == 0) {
      float* dst = out + (n - start_of(j) - len);
      const auto bytes = static_cast<std::uint32_t>(len * 4);
      if constexpr (Hint) {
        hp::bulk_store_hint(dst, q, bytes, policy);
      } else {
        hp::bulk_store(dst, q, bytes);
      }
      hp::bulk_commit();
      if (j + kStages - 1 < m) {
        hp::bulk_wait_read<1>();  // segment j - 1's store has read its stage
        load(j + kStages - 1);
      }
    }
  }
  if (threadIdx.x == 0) hp::bulk_wait_read<0>();  // the ring outlives the engine's reads
#endif
}

template <unsigned Seg, bool Hint>
void launch_ring(const float* in, float* out, std::size_t n, cudaStream_t s) {
  constexpr std::size_t kSmem = smem_of<Seg>();
  static const unsigned resident = [] {
    MEMLAB_CUDA_CHECK(cudaFuncSetAttribute(pipelined_reverse<Seg, Hint>,
                                           cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           static_cast<int>(kSmem)));
    return resident_blocks(pipelined_reverse<Seg, Hint>, kThreads, kSmem);
  }();
  const std::size_t segs = (n + Seg - 1) / Seg;
  const std::size_t want = (segs + kMinSegsPerBlock - 1) / kMinSegsPerBlock;
  const auto grid = static_cast<unsigned>(std::clamp<std::size_t>(want, 1, resident));
  pipelined_reverse<Seg, Hint><<<grid, kThreads, kSmem, s>>>(in, out, n);
  MEMLAB_CHECK_LAUNCH(pipelined_reverse);
}

}  // namespace

// bulk_pipelined: 4 x 16 KiB stages per block, 3 blocks per SM.
void launch_pipelined_reverse(const float* in, float* out, std::size_t n, cudaStream_t s) {
  launch_ring<4096, false>(in, out, n, s);
}
// bulk_pipelined_many: 4 x 8 KiB stages per block, 6 blocks per SM, evict-first hints.
void launch_pipelined_many_reverse(const float* in, float* out, std::size_t n, cudaStream_t s) {
  launch_ring<2048, true>(in, out, n, s);
}

}  // namespace memlab::lessons::smem_reverse
