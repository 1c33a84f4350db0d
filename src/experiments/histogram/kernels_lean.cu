// histogram's one-launch lane-copy variants with per_lane_lean's counter offset: per_lane_lean and
// per_lane_deep (issue 23). Both count into 32 lane copies [bin][lane] (32 KiB of shared memory,
// 256-thread blocks, 6 per SM) and end with ticketed_merge (device.cuh): no memset launch.
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
  const auto [lane4, nv, v, stride] = lean_prologue(s, in, n);
  const std::size_t span = static_cast<std::size_t>(kDeepRing - 1) * stride;  // batch's last
  std::size_t i = global_id();  // the first vector of the batch to load next
  uint4 r[kDeepRing];
  const bool full = i + span < nv;  // a first whole batch
  if (full) {
#pragma unroll
    for (int u = 0; u < kDeepRing; ++u) r[u] = __ldcs(v + i + static_cast<std::size_t>(u) * stride);
    i += static_cast<std::size_t>(kDeepRing) * stride;
    for (; i + span < nv; i += static_cast<std::size_t>(kDeepRing) * stride) {
#pragma unroll
      for (int u = 0; u < kDeepRing; ++u) {
        lean_count_vec(s, r[u], lane4);
        r[u] = __ldcs(v + i + static_cast<std::size_t>(u) * stride);
      }
    }
  }
  // The partial batch: slots u with i + u * stride < nv, loaded as the previous whole batch (if
  // any) drains; never the last slot (here i + span >= nv: the loop ended or never started).
#pragma unroll
  for (int u = 0; u < kDeepRing; ++u) {
    if (full) lean_count_vec(s, r[u], lane4);
    if (u + 1 < kDeepRing && i + static_cast<std::size_t>(u) * stride < nv) {
      r[u] = __ldcs(v + i + static_cast<std::size_t>(u) * stride);
    }
  }
#pragma unroll
  for (int u = 0; u + 1 < kDeepRing; ++u) {
    if (i + static_cast<std::size_t>(u) * stride < nv) lean_count_vec(s, r[u], lane4);
  }
  lean_finish<DeepTag>(s, in, n, bins);
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

}  // namespace memlab::lessons::histogram
