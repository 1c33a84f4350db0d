// Device helpers of the histogram lesson's .cu files (kernels.cu, kernels_lean.cu,
// kernels_atomics.cu).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

namespace memlab::lessons::histogram {

inline constexpr unsigned kBlock = 256;
inline constexpr unsigned kBins = 256;
inline constexpr unsigned kWarps = kBlock / 32;

__device__ __forceinline__ std::size_t global_id() {
  return static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
}
__device__ __forceinline__ std::size_t grid_threads() {
  return static_cast<std::size_t>(gridDim.x) * blockDim.x;
}

// Zero `count` shared words with the whole block, then barrier.
__device__ __forceinline__ void zero_shared(unsigned* s, unsigned count) {
  for (unsigned i = threadIdx.x; i < count; i += blockDim.x) s[i] = 0;
  __syncthreads();
}

// Merge `copies` shared copies of `bins` counters laid out [copy][bin] into global memory:
// one global atomic per non-zero bin per block.
__device__ __forceinline__ void merge_copies(const unsigned* s, unsigned copies, unsigned bins,
                                             unsigned* out) {
  __syncthreads();
  for (unsigned b = threadIdx.x; b < bins; b += blockDim.x) {
    unsigned sum = 0;
    for (unsigned c = 0; c < copies; ++c) sum += s[c * bins + b];
    if (sum != 0) atomicAdd(out + b, sum);
  }
}

// ---- the one-launch ending (per_lane_fused, per_lane_lean): no memset of the output -----------
// Blocks add their sums into a module-scope accumulator g_merge_acc<Tag>; the last block to finish
// (ticket g_merge_done<Tag>, taken after a __threadfence) moves the accumulator into `bins` with
// atomicExch, which leaves it zero, and resets the ticket: the next launch starts clean. Each
// kernel passes its own Tag (its own globals). Launches sharing a Tag must not overlap on one
// device (they would share the accumulator and the ticket); memlab runs the variants of a point
// one after another on one stream. A kernel that stops before its ending (a fault) leaves them
// dirty: the next launch's bins would be wrong (and the CPU reference check catches it).
template <class Tag>
__device__ unsigned g_merge_acc[kBins];
template <class Tag>
__device__ unsigned g_merge_done;

// Called by every thread of the block, after the block's counting and its last barrier. Threads
// with `add` set add `sum` (if non-zero) to bin `bin` of the accumulator; the last block's first
// kBins threads write the bins (kThreads, the block size, is at least kBins).
template <class Tag, unsigned kThreads>
__device__ __forceinline__ void ticketed_merge(bool add, unsigned bin, unsigned sum,
                                               unsigned* bins) {
  static_assert(kThreads >= kBins, "the last block writes one bin per thread");
  __shared__ bool last;
  if (add && sum != 0) atomicAdd(g_merge_acc<Tag> + bin, sum);
  __threadfence();  // this block's additions are visible before its ticket
  __syncthreads();
  if (threadIdx.x == 0) last = atomicAdd(&g_merge_done<Tag>, 1u) == gridDim.x - 1;
  __syncthreads();
  if (!last) return;
  __threadfence();
  if (kThreads == kBins || threadIdx.x < kBins) {
    bins[threadIdx.x] = atomicExch(g_merge_acc<Tag> + threadIdx.x, 0u);
  }
  if (threadIdx.x == 0) atomicExch(&g_merge_done<Tag>, 0u);
}

// ---- the spread one-launch ending (per_lane_early): ticketed_merge over kCopies accumulators ----
// ticketed_merge puts every block's 256 additions on the same 256 words: 8 lines of 128 B, so the
// 792 blocks x 8 warp REDs (one 128-B request each) queue in 8 L2 slices, 792 requests per line
// (~0.5-1 us if the blocks end together). Here block x adds into copy x % kCopies of
// g_spread_acc<Tag, kCopies> (kCopies x 1 KiB: kCopies x 8 lines, ~792 / kCopies requests per
// line), and the last block sums the kCopies copies of its bin with atomicExch (kCopies
// independent exchanges in flight per thread, each leaving its word zero). One thread per block
// fences and takes the ticket after the block's barrier (the cooperative-groups grid-sync
// pattern: the barrier orders the block's REDs before thread 0's gpu-scope fence), instead of a
// fence in every thread. Same caveats as ticketed_merge: launches sharing a Tag must not overlap,
// and a faulted launch leaves the accumulators dirty (the CPU reference check then fails).
template <class Tag, unsigned kCopies>
__device__ unsigned g_spread_acc[kCopies * kBins];

// Called by every thread of a block of exactly kBins threads, after its last barrier: thread b
// adds `sum` (if non-zero) to bin b of its block's copy; the last block writes bins[b].
template <class Tag, unsigned kCopies>
__device__ __forceinline__ void spread_merge(unsigned sum, unsigned* bins) {
  __shared__ bool last;
  const unsigned b = threadIdx.x;
  unsigned* acc = g_spread_acc<Tag, kCopies>;
  if (sum != 0) atomicAdd(acc + (blockIdx.x % kCopies) * kBins + b, sum);
  __syncthreads();
  if (b == 0) {
    __threadfence();  // the block's additions (ordered by the barrier) before its ticket
    const bool is_last = atomicAdd(&g_merge_done<Tag>, 1u) == gridDim.x - 1;
    if (is_last) __threadfence();  // and every other block's before the reads below
    last = is_last;
  }
  __syncthreads();
  if (!last) return;
  unsigned total = 0;
#pragma unroll
  for (unsigned c = 0; c < kCopies; ++c) total += atomicExch(acc + c * kBins + b, 0u);
  bins[b] = total;
  if (b == 0) atomicExch(&g_merge_done<Tag>, 0u);
}

// Launchers in kernels_lean.cu (byte_histogram's cases PerLaneLean, PerLaneDeep, PerLaneEarly and
// PerLaneEarly6).
void per_lane_lean(const unsigned char* in, std::size_t n, unsigned* bins, cudaStream_t s);
void per_lane_deep(const unsigned char* in, std::size_t n, unsigned* bins, cudaStream_t s);
void per_lane_early(const unsigned char* in, std::size_t n, unsigned* bins, cudaStream_t s);
void per_lane_early6(const unsigned char* in, std::size_t n, unsigned* bins, cudaStream_t s);

}  // namespace memlab::lessons::histogram
