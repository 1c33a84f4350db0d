// bandwidth, Hopper (issue 23): `bulk_ring`, a persistent copy by the copy engine with a ring of
// shared-memory stages, so that loads and stores of one block overlap.
//
// What it does to memory: the whole 16-byte quads of the array are cut into chunks of kChunk
// bytes (16 KiB; the last one shorter). A persistent grid of blocks (one warp each; only lane 0
// issues anything) walks the chunks grid-stride: chunk j of a block goes to stage j mod kStages.
// Lane 0 keeps kStages - 1 chunk loads in flight (cp.async.bulk global -> shared, each completing
// on its stage's mbarrier with the chunk's bytes); when chunk j has landed it issues its store
// (cp.async.bulk shared -> global from the same stage, one bulk group), then reuses the stage of
// chunk j - 1 for chunk j + kStages - 1 once that older store has read it
// (cp.async.bulk.wait_group.read 1: only the store just issued may still be reading). No thread
// moves a float; DRAM sees every useful byte once in and once out, whole lines. The 0-3 floats
// past the last whole quad are copied by lanes of block 0.
//
// Napkin math (H200, n = 2^28 floats = 1 GiB each way): ~0.50 ms at the memcpy rate (4.27 TB/s
// read + write). Little's law: 4.3 TB/s x ~700 ns / 132 SMs ~ 23 KB in flight per SM needed.
// Here per block: up to 3 loads of 16 KiB + 1 store draining = up to 64 KiB; 3 blocks per SM
// (64 KiB + 32 B of shared memory each, 192 KiB of the 227 KiB) hold ~144 KiB of loads in
// flight per SM, 6x the need, without 65536 block launches (bulk_copy) and with no block idle
// between its load and its store. Registers: a handful (one active lane). The limiter removed:
// bulk_copy's per-block serial load -> wait -> store -> wait and its launch of 65536 blocks.
// The phases: stage s is used by chunks s, s + kStages, ...; use u waits for parity u & 1.
//
// Round two (issue 23; bulk_ring measured 92.3% of cudaMemcpy, ncu: dram 81.5%, 3 one-warp
// blocks per SM, the issuing lane in long_scoreboard waits). The bytes in flight were 6x the
// need, so two other suspects, one variant each:
// - bulk_ring_hint: the same ring with an evict-first L2 policy (createpolicy.fractional
//   L2::evict_first, .L2::cache_hint on cp.async.bulk both ways): 2 GiB of streaming data that
//   no one reads again should not evict lines that are still to be written back or read; the
//   hint changes no byte DRAM must see. Predicted: +1-3% (92.3% -> ~94%).
// - bulk_ring_many: 4 x 8 KiB stages per block (32 KiB), so 6 blocks per SM instead of 3: the
//   same ~144 KiB of loads in flight per SM (6 x 3 x 8 KiB) but twice the independent issuing
//   lanes, so that one lane waiting for its oldest chunk (mbar_wait) or for its store to read a
//   stage (wait_group.read) no longer leaves the SM's copy engine with only two others' requests;
//   with the hint. Predicted: ~96-100% of cudaMemcpy if the per-lane serial chain was the
//   limiter. Registers: ~30 per thread (one active lane), no spills.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "bandwidth/kernels_bulk.cuh"
#include "common/hopper.cuh"
#include "common/launch.hpp"

namespace memlab::lessons::bandwidth {
namespace {

namespace hp = memlab::lessons::hopper;

constexpr unsigned kThreads = 32;

// One ring geometry: Chunk bytes per chunk and stage, Stages stages. The kernel's Hint: an
// evict-first L2 policy on the bulk loads and stores (round two, issue 23).
template <std::uint32_t Chunk, int Stages>
struct Ring {
  static constexpr std::uint32_t kChunk = Chunk;
  static constexpr int kStages = Stages;
  static constexpr std::size_t kSmem = static_cast<std::size_t>(Stages) * Chunk;
  // Small arrays: fewer blocks, each with at least this many chunks (so that every block fills
  // and wraps its ring; the test points exercise the wrap-around and the phase flips).
  static constexpr std::size_t kMinChunksPerBlock = 3 * Stages;
};

template <class R, bool Hint>
__global__ void __launch_bounds__(kThreads)
    bulk_ring(const float* __restrict__ a, float* __restrict__ c, std::size_t n) {
#if MEMLAB_SM90
  constexpr std::uint32_t kChunk = R::kChunk;
  constexpr int kStages = R::kStages;
  extern __shared__ __align__(128) unsigned char ring[];
  __shared__ __align__(8) std::uint64_t full[kStages];
  const std::size_t quad_bytes = (n / 4) * 16;  // bytes the engine copies
  const std::size_t chunks = (quad_bytes + kChunk - 1) / kChunk;
  const std::size_t first = blockIdx.x, step = gridDim.x;
  // This block's chunks: first, first + step, ...; m of them.
  const std::size_t m = first < chunks ? (chunks - first + step - 1) / step : 0;
  if (threadIdx.x == 0 && m > 0) {
    const auto* src = reinterpret_cast<const unsigned char*>(a);
    auto* dst = reinterpret_cast<unsigned char*>(c);
    const std::uint64_t policy = Hint ? hp::l2_evict_first() : 0;
    for (int s = 0; s < kStages; ++s) hp::mbar_init(&full[s], 1);
    hp::fence_mbarrier_init();  // one thread issues and waits: no block barrier needed
    auto bytes_of = [&](std::size_t j) {
      const std::size_t off = (first + j * step) * kChunk;
      return static_cast<std::uint32_t>(std::min<std::size_t>(kChunk, quad_bytes - off));
    };
    auto load = [&](std::size_t j) {
      const int s = static_cast<int>(j % kStages);
      const std::uint32_t bytes = bytes_of(j);
      hp::mbar_arrive_expect_tx(&full[s], bytes);
      if constexpr (Hint) {
        hp::bulk_load_hint(ring + s * kChunk, src + (first + j * step) * kChunk, bytes, &full[s],
                           policy);
      } else {
        hp::bulk_load(ring + s * kChunk, src + (first + j * step) * kChunk, bytes, &full[s]);
      }
    };
    for (std::size_t j = 0; j + 1 < kStages && j < m; ++j) load(j);
    for (std::size_t j = 0; j < m; ++j) {
      const int s = static_cast<int>(j % kStages);
      hp::mbar_wait(&full[s], static_cast<std::uint32_t>((j / kStages) & 1));
      if constexpr (Hint) {
        hp::bulk_store_hint(dst + (first + j * step) * kChunk, ring + s * kChunk, bytes_of(j),
                            policy);
      } else {
        hp::bulk_store(dst + (first + j * step) * kChunk, ring + s * kChunk, bytes_of(j));
      }
      hp::bulk_commit();
      if (j + kStages - 1 < m) {
        hp::bulk_wait_read<1>();  // chunk j - 1's store has read stage (j - 1) mod kStages
        load(j + kStages - 1);
      }
    }
    hp::bulk_wait_read<0>();  // the ring must outlive the engine's reads of it
  }
  const std::size_t tail = n & ~std::size_t{3};
  if (blockIdx.x == 0 && threadIdx.x < n - tail) c[tail + threadIdx.x] = a[tail + threadIdx.x];
#endif
}

template <class R, bool Hint>
void launch_ring(const float* a, float* c, std::size_t n, cudaStream_t s) {
  static const unsigned resident = [] {
    MEMLAB_CUDA_CHECK(cudaFuncSetAttribute(bulk_ring<R, Hint>,
                                           cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           static_cast<int>(R::kSmem)));
    return resident_blocks(bulk_ring<R, Hint>, kThreads, R::kSmem);
  }();
  const std::size_t chunks = ((n / 4) * 16 + R::kChunk - 1) / R::kChunk;
  const std::size_t want = (chunks + R::kMinChunksPerBlock - 1) / R::kMinChunksPerBlock;
  const auto grid = static_cast<unsigned>(std::clamp<std::size_t>(want, 1, resident));
  bulk_ring<R, Hint><<<grid, kThreads, R::kSmem, s>>>(a, c, n);
  MEMLAB_CHECK_LAUNCH(bulk_ring);
}

}  // namespace

// bulk_ring: 4 x 16 KiB per block, 3 blocks per SM.
void launch_bulk_ring(const float* a, float* c, std::size_t n, cudaStream_t s) {
  launch_ring<Ring<16384, 4>, false>(a, c, n, s);
}
// bulk_ring_hint: the same ring, evict-first L2 policy on every bulk load and store.
void launch_bulk_ring_hint(const float* a, float* c, std::size_t n, cudaStream_t s) {
  launch_ring<Ring<16384, 4>, true>(a, c, n, s);
}
// bulk_ring_many: 4 x 8 KiB per block, 6 blocks per SM (twice the issuing lanes, the same
// 144 KiB of loads in flight per SM), evict-first hints.
void launch_bulk_ring_many(const float* a, float* c, std::size_t n, cudaStream_t s) {
  launch_ring<Ring<8192, 4>, true>(a, c, n, s);
}

}  // namespace memlab::lessons::bandwidth
