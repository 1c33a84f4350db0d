// histogram's one-launch lane-copy variants with per_lane_lean's counter offset: per_lane_lean,
// per_lane_deep, per_lane_early and per_lane_early6 (issue 23). All count into 32 lane copies
// [bin][lane] (32 KiB of shared memory, 256-thread blocks, 6 per SM; per_lane_early6 5) and end
// with ticketed_merge or spread_merge (device.cuh): no memset launch.
#include <cuda_runtime.h>

#include <cstddef>

#include "common/launch.hpp"
#include "histogram/device.cuh"

namespace memlab::lessons::histogram {
namespace {

constexpr unsigned kLeanThreads = 256;

// The byte offset of lane l's counter for byte k of word w is (byte k) * 128 | l * 4: one shift and
// one LOP3 ((w >> (8 k - 7)) & 0x7F80 | l * 4; w << 7 for k = 0), the array's shared address left
// to the ATOMS immediate. Per 16 input bytes: 16 ATOMS + ~32 ALU.
__device__ __forceinline__ void lean_count_word(unsigned* s, unsigned w, unsigned lane4) {
  char* base = reinterpret_cast<char*>(s);
  atomicAdd(reinterpret_cast<unsigned*>(base + (((w << 7) & 0x7F80u) | lane4)), 1u);
  atomicAdd(reinterpret_cast<unsigned*>(base + (((w >> 1) & 0x7F80u) | lane4)), 1u);
  atomicAdd(reinterpret_cast<unsigned*>(base + (((w >> 9) & 0x7F80u) | lane4)), 1u);
  atomicAdd(reinterpret_cast<unsigned*>(base + (((w >> 17) & 0x7F80u) | lane4)), 1u);
}
__device__ __forceinline__ void lean_count_vec(unsigned* s, const uint4& r, unsigned lane4) {
  lean_count_word(s, r.x, lane4);
  lean_count_word(s, r.y, lane4);
  lean_count_word(s, r.z, lane4);
  lean_count_word(s, r.w, lane4);
}

// What every lane-copy kernel here starts from: the thread's byte offset of its lane (lane4), the
// input as nv whole 16-byte vectors v, and the grid stride in vectors. lean_prologue also zeroes
// the block's [bin][lane] copies (kLaneWords words) and waits at the barrier.
constexpr unsigned kLaneWords = kBins * 32;
struct LeanView {
  unsigned lane4;
  std::size_t nv;
  const uint4* v;
  std::size_t stride;
};
__device__ __forceinline__ LeanView lean_view(const unsigned char* in, std::size_t n) {
  return {(threadIdx.x & 31u) * 4u, n / 16, reinterpret_cast<const uint4*>(in), grid_threads()};
}
__device__ __forceinline__ LeanView lean_prologue(unsigned* s, const unsigned char* in,
                                                  std::size_t n) {
  zero_shared(s, kLaneWords);
  return lean_view(in, n);
}

// After the vectors: the n % 16 tail bytes (one per thread of the grid's first threads), then
// thread b sums bin b's 32 lane copies, starting at lane b % 32 (32 banks per warp), and the block
// ends with the ticketed merge (Tag: the kernel's own accumulator and ticket).
template <class Tag>
__device__ __forceinline__ void lean_finish(unsigned* s, const unsigned char* in, std::size_t n,
                                            unsigned* bins) {
  static_assert(kLeanThreads == kBins, "thread b merges bin b");
  const std::size_t t = n / 16 * 16 + global_id();
  if (t < n) atomicAdd(s + static_cast<unsigned>(in[t]) * 32u + (threadIdx.x & 31u), 1u);
  __syncthreads();
  const unsigned b = threadIdx.x;
  unsigned sum = 0;
#pragma unroll 8
  for (unsigned l = 0; l < 32; ++l) sum += s[b * 32 + ((l + b) & 31u)];
  ticketed_merge<Tag, kLeanThreads>(true, b, sum, bins);
}

// per_lane_lean (issue 23, round 2): per_lane's launch shape (256 threads, 6 blocks per SM:
// 6 x (32 KiB + the 1 KiB the system reserves per block) of the 228 KiB; 2 independent 16-byte
// loads per thread, 1536 x 32 B = 48 KiB in flight per SM against Little's ~26 KiB, but only until
// the first byte is counted) and [bin][lane] copies, per_lane_fused's one-launch ending, and fewer
// ALU instructions per byte (lean_count_word): per_lane's PTX per byte is shr, and, or, shl 2, add
// (SHF + LOP3 + LEA), this one's shr, and, or, add of the array's constant address (SHF + LOP3,
// the constant folded into the ATOMS offset). The 7 in the launch bounds caps the registers at 32
// (no spill); shared memory still allows 6 blocks per SM.
struct LeanTag {};
__global__ void __launch_bounds__(kLeanThreads, 7)
    bytes_per_lane_lean(const unsigned char* in, std::size_t n, unsigned* bins) {
  __shared__ __align__(16) unsigned s[kLaneWords];
  const auto [lane4, nv, v, stride] = lean_prologue(s, in, n);
  std::size_t i = global_id();
  for (; i + stride < nv; i += 2 * stride) {  // 2 loads in flight, as per_lane
    const uint4 r0 = __ldcs(v + i);
    const uint4 r1 = __ldcs(v + i + stride);
    lean_count_vec(s, r0, lane4);
    lean_count_vec(s, r1, lane4);
  }
  if (i < nv) lean_count_vec(s, __ldcs(v + i), lane4);
  lean_finish<LeanTag>(s, in, n, bins);
}

// The register ring of per_lane_deep and early_histogram. Thread g's vectors are g + j * stride;
// slot u holds vector j = u (mod kRing); i is the first vector of the batch to load next.
// load_first_batch loads the first whole batch (if one exists: its result, `full`) and moves i past
// it. count_ring then runs the steady loop (while a whole batch exists: count slot u and at once
// reload it with the vector kRing strides ahead), loads the partial batch slot by slot as the last
// whole batch drains (slots u with i + u * stride < nv, never the last slot: here i + (kRing - 1) *
// stride >= nv, the loop ended or never started), and counts it.
template <int kRing>
__device__ __forceinline__ bool load_first_batch(uint4 (&r)[kRing], const uint4* v, std::size_t nv,
                                                 std::size_t stride, std::size_t& i) {
  const std::size_t span = static_cast<std::size_t>(kRing - 1) * stride;  // batch's last
  const bool full = i + span < nv;                                        // a first whole batch
  if (full) {
#pragma unroll
    for (int u = 0; u < kRing; ++u) r[u] = __ldcs(v + i + static_cast<std::size_t>(u) * stride);
    i += static_cast<std::size_t>(kRing) * stride;
  }
  return full;
}
template <int kRing>
__device__ __forceinline__ void count_ring(unsigned* s, const uint4* v, std::size_t nv,
                                           std::size_t stride, unsigned lane4, std::size_t i,
                                           uint4 (&r)[kRing], bool full) {
  const std::size_t span = static_cast<std::size_t>(kRing - 1) * stride;  // batch's last
  if (full) {
    for (; i + span < nv; i += static_cast<std::size_t>(kRing) * stride) {
#pragma unroll
      for (int u = 0; u < kRing; ++u) {
        lean_count_vec(s, r[u], lane4);
        r[u] = __ldcs(v + i + static_cast<std::size_t>(u) * stride);
      }
    }
  }
#pragma unroll
  for (int u = 0; u < kRing; ++u) {
    if (full) lean_count_vec(s, r[u], lane4);
    if (u + 1 < kRing && i + static_cast<std::size_t>(u) * stride < nv) {
      r[u] = __ldcs(v + i + static_cast<std::size_t>(u) * stride);
    }
  }
#pragma unroll
  for (int u = 0; u + 1 < kRing; ++u) {
    if (i + static_cast<std::size_t>(u) * stride < nv) lean_count_vec(s, r[u], lane4);
  }
}

// per_lane_deep (issue 23, round 3): per_lane_lean with a register ring of kDeepRing 16-byte
// vectors per thread. Thread g's vectors are g + j * S (S = the grid's threads, coalesced as
// before); slot u holds vector j = u (mod kDeepRing). In the steady loop slot u is counted and at
// once reloaded with the vector kDeepRing strides ahead, so while a thread counts one vector the
// other kDeepRing - 1 are in flight: the loads never wait for the counting to finish (per_lane and
// per_lane_lean issue 2 loads, count 32 bytes, and only then issue the next 2: nothing of theirs
// is in flight while they count). Same ALU work per byte as per_lane_lean (lean_count_vec), same
// shared memory (32,769 bytes per block) and launch shape (256 threads, 6 blocks per SM: the
// launch bounds cap the registers at 40). Edges: the steady loop runs while a whole batch of
// kDeepRing vectors exists; the last, partial batch (at most kDeepRing - 1 vectors) is loaded slot
// by slot as the previous batch drains, then counted; then the n % 16 tail bytes.
constexpr int kDeepRing = 4;
struct DeepTag {};
__global__ void __launch_bounds__(kLeanThreads, 6)
    bytes_per_lane_deep(const unsigned char* in, std::size_t n, unsigned* bins) {
  __shared__ __align__(16) unsigned s[kLaneWords];
  const auto [lane4, nv, v, stride] = lean_prologue(s, in, n);  // zeroes first
  std::size_t i = global_id();  // the first vector of the batch to load next
  uint4 r[kDeepRing];
  const bool full = load_first_batch(r, v, nv, stride, i);
  count_ring(s, v, nv, stride, lane4, i, r, full);
  lean_finish<DeepTag>(s, in, n, bins);
}

// ---- per_lane_early, per_lane_early6 (issue 23, round 4): the launch's fixed cost --------------
// per_lane_deep streams at ~DRAM 86% of peak, long_scoreboard 6.2: what is left of its 261 us
// against the 251 us of the read plateau (1 GiB / 4270 GB/s) is mostly what a block does before
// its first load and after its last one. Napkin math per SM (6 blocks x 256 threads, 1.98 GHz):
//  - zero_shared: 6 x 32 KiB of STS at 128 B/clk = 1536 clk = 0.8 us, then a barrier, and only
//    then the first loads (another ~1 us of latency before the first byte arrives): ~0.8-1 us of
//    the launch with no DRAM request from this SM. Here the first batch of loads is issued first;
//    the zeroing (8 STS.128 per thread, same wavefronts, 4x fewer instructions) and its barrier run
//    under their latency: ~0.8 us saved.
//  - the ending's global atomics: ticketed_merge sends 792 x 8 warp REDs (one 128-B request
//    each) to the same 8 lines of g_merge_acc: 792 requests per line queued in one L2 slice each,
//    ~0.5-1 us when the blocks end within a few us of each other, the last block's ticket behind
//    them. spread_merge (device.cuh) spreads them over kEarlyCopies = 16 accumulator copies (128
//    lines, ~50 requests per line) and fences once per block (thread 0, after the barrier)
//    instead of in all 256 threads: ~0.5-1 us.
//  - the lane sums: 32 LDS + 32 IADD + the rotated address per thread; 8 LDS.128 whose 16-B
//    chunk rotates with the lane (chunk (k + b) mod 8: the 8 lanes of each quarter-warp phase
//    hit 8 different bank quads, conflict-free, 256 wavefronts per block as before): fewer
//    instructions on the last block's critical path (~0.1 us).
//  - the n % 16 tail byte is loaded at the start with the first batch (one register), not as a
//    dependent load after the stream (a ~1 us round trip on its block's critical path when
//    n % 16 != 0; nothing at 1 GiB).
// What stays: the last block's three dependent L2 round trips (RED + fence, ticket, exchanges:
// ~2 us) and the drain of the last ring. Prediction: ~2-3 us of 261 us, ~258.5 us: **~4150-4165
// GB/s, 97.2-97.5% of the 4270 GB/s read plateau** at 1 GiB uniform, the same on every
// distribution (the counting is per_lane_deep's); ncu: DRAM ~86.5%, the same ALU and stalls.
constexpr unsigned kEarlyCopies = 16;
constexpr unsigned kNoTail = ~0u;

__device__ __forceinline__ void zero_lanes_v4(unsigned* s) {
  static_assert(kLaneWords % (4 * kLeanThreads) == 0, "whole uint4 stores per thread");
  uint4* s4 = reinterpret_cast<uint4*>(s);
#pragma unroll
  for (unsigned k = 0; k < kLaneWords / 4 / kLeanThreads; ++k) {
    s4[k * kLeanThreads + threadIdx.x] = make_uint4(0u, 0u, 0u, 0u);
  }
  __syncthreads();
}

// per_lane_deep's ring and edges (kRing slots, whole batches in the steady loop, the partial
// batch slot by slot as the last whole batch drains), with the first batch and the tail byte
// loaded before the shared copies are zeroed. Then lane sums of 8 rotated LDS.128 and
// spread_merge.
template <int kRing, class Tag>
__device__ __forceinline__ void early_histogram(unsigned* s, const unsigned char* in, std::size_t n,
                                                unsigned* bins) {
  static_assert(kLeanThreads == kBins, "thread b merges bin b");
  const auto [lane4, nv, v, stride] = lean_view(in, n);
  std::size_t i = global_id();        // the first vector of the batch to load next
  const std::size_t t = nv * 16 + i;  // the tail byte of this thread (threads 0 .. n % 16 - 1)
  const unsigned tail = t < n ? static_cast<unsigned>(in[t]) : kNoTail;
  uint4 r[kRing];
  const bool full = load_first_batch(r, v, nv, stride, i);
  zero_lanes_v4(s);  // under the first batch's latency; its barrier before the first count
  count_ring(s, v, nv, stride, lane4, i, r, full);
  if (tail != kNoTail) atomicAdd(s + tail * 32u + (threadIdx.x & 31u), 1u);
  __syncthreads();
  // Thread b sums bin b's 32 lane copies (one 128-B row) as 8 uint4, chunk (k + b) mod 8 first.
  const unsigned b = threadIdx.x;
  const uint4* row = reinterpret_cast<const uint4*>(s + b * 32u);
  unsigned sum = 0;
#pragma unroll
  for (unsigned k = 0; k < 8; ++k) {
    const uint4 q = row[(k + b) & 7u];
    sum += (q.x + q.y) + (q.z + q.w);
  }
  spread_merge<Tag, kEarlyCopies>(sum, bins);
}

// per_lane_early: per_lane_deep's ring of 4, launch shape (256 threads, 6 blocks per SM, the
// launch bounds cap the registers at 40) and counting, the start and the ending above.
struct EarlyTag {};
__global__ void __launch_bounds__(kLeanThreads, 6)
    bytes_per_lane_early(const unsigned char* in, std::size_t n, unsigned* bins) {
  __shared__ __align__(16) unsigned s[kLaneWords];
  early_histogram<4, EarlyTag>(s, in, n, bins);
}

// per_lane_early6: per_lane_early with a ring of 6 vectors (96 B per thread) at 5 blocks per SM
// (the launch bounds cap the registers at 48: 5 x 256 x 48 = 61,440 of 65,536; ptxas: 48, no
// spill; a ring of 8 spills at 48). In flight per SM: 1280 threads x 80-96 B = 100-120 KiB against
// per_lane_early's 1536 x 48-64 B = 72-96 KiB, and 5 x 32 KiB of shared memory to zero and sum
// instead of 6; 660 blocks instead of 792 take tickets and send REDs. If per_lane_early is still
// short of the plateau because 72-96 KiB per SM does not cover the loaded latency (Little: ~1.6
// us x 32 GB/s per SM = 52 KiB: it should), this one gains; if not, the same ~97% or a little
// less: 10 warps per scheduler instead of 12 to hide the ATOMS latency, and a longer drain of the
// last ring (~0.1 us).
struct Early6Tag {};
__global__ void __launch_bounds__(kLeanThreads, 5)
    bytes_per_lane_early6(const unsigned char* in, std::size_t n, unsigned* bins) {
  __shared__ __align__(16) unsigned s[kLaneWords];
  early_histogram<6, Early6Tag>(s, in, n, bins);
}

}  // namespace

void per_lane_lean(const unsigned char* in, std::size_t n, unsigned* bins, cudaStream_t s) {
  bytes_per_lane_lean<<<resident_blocks(bytes_per_lane_lean, kLeanThreads), kLeanThreads, 0, s>>>(
      in, n, bins);
  MEMLAB_CHECK_LAUNCH(per_lane_lean);
}

void per_lane_deep(const unsigned char* in, std::size_t n, unsigned* bins, cudaStream_t s) {
  bytes_per_lane_deep<<<resident_blocks(bytes_per_lane_deep, kLeanThreads), kLeanThreads, 0, s>>>(
      in, n, bins);
  MEMLAB_CHECK_LAUNCH(per_lane_deep);
}

void per_lane_early(const unsigned char* in, std::size_t n, unsigned* bins, cudaStream_t s) {
  bytes_per_lane_early<<<resident_blocks(bytes_per_lane_early, kLeanThreads), kLeanThreads, 0, s>>>(
      in, n, bins);
  MEMLAB_CHECK_LAUNCH(per_lane_early);
}

void per_lane_early6(const unsigned char* in, std::size_t n, unsigned* bins, cudaStream_t s) {
  bytes_per_lane_early6<<<resident_blocks(bytes_per_lane_early6, kLeanThreads), kLeanThreads, 0,
                          s>>>(in, n, bins);
  MEMLAB_CHECK_LAUNCH(per_lane_early6);
}

}  // namespace memlab::lessons::histogram
