// histogram: atomics and privatization (seed 000, section 5), four experiments.
//
// text_histogram (the seeds' kernel: 'a'..'z' into 7 bins of 4 letters, other bytes ignored)
//   naive               one byte per thread per step, atomicAdd on the 7 global counters
//   privatized          the seed's three phases: zero a __shared__ copy, shared atomics, merge with
//                       7 global atomics per block; one thread per byte (no coarsening)
//   coarse_contiguous   resident grid, thread t counts bytes [t*C, (t+1)*C): uncoalesced loads
//   coarse_interleaved  resident grid, grid-stride loop: coalesced 1-byte loads
//   aggregated          16-byte loads, runs of equal bins summed in a register, one atomic per run
//   warp_aggregated     16-byte loads, __match_any_sync groups lanes with equal bins, leader adds
//   lane_copies         16-byte loads, 32 copies [bin][lane]: each lane its own bank, no conflicts
//   registers           16-byte loads, 8-bit counters packed 4 to a register, no atomics per byte
// histogram (256 bins of uint8)
//   naive               global atomicAdd per byte      privatized  the seed's kernel, 1-byte loads
//   privatized_v16      one shared copy, 16-byte loads
//   per_warp            one shared copy per warp, 16-byte loads (less same-address contention)
//   per_lane            32 copies [bin][lane] (32 KiB): each lane atomics in its own bank
//   per_thread          16-bit counters per thread (64 KiB per 128 threads), plain LDS/STS, no
//                       atomics until the merge
//   cub                 cub::DeviceHistogram::HistogramEven (temp storage from setup)
// histogram_float (N bins over [0, 0.75), floats): naive global atomics; privatized (shared copy
//   when N <= kMaxSharedBins, global atomics beyond).
// atomics (one result over a large array): global (an atomic per element on one address),
//   warp (warp reduce, one atomic per warp), block (grid-stride + block reduce, one per block);
//   op=minmax: atomicMin/atomicMax on int; op=fmax: float max via an atomicCAS loop.
//
// Napkin math (H200: ~4.2-4.3 TB/s DRAM, 132 SMs at ~1.98 GHz): 1 GiB of bytes read once takes
// ~0.25 ms at the copy rate. One byte is one counter update: at 4.2 TB/s that is 16 updates per
// clock per SM. A shared-memory atomic instruction of a warp costs at least one shared wavefront
// (32 updates) and one more per bank conflict: random bytes into one 256-bin copy put ~3.5 lanes
// on the busiest bank, ~9 updates/clock/SM, ~2.4 TB/s (CUB measured 2134 GB/s). Conflict-free
// layouts (per_lane, per_thread) leave 32 (atomics) or 16 (LDS+STS) updates/clock: DRAM-bound.
// Global atomics on one address serialize in its L2 slice (~1 per clock): the naive kernels on
// text or a single value run at a few GB/s.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "histogram/inputs.hpp"

namespace memlab::lessons::histogram {

inline constexpr unsigned kMaxSharedBins = 56 * 1024;  // 224 KiB of u32 counters

void make_bytes(Dist dist, std::uint64_t seed, unsigned char* out, std::size_t n,
                const unsigned char* corpus, std::size_t corpus_len, cudaStream_t stream);
void make_floats(std::uint64_t seed, float* out, std::size_t n, cudaStream_t stream);
// op fmax: max_float_value; otherwise int_value (4-byte words either way).
void make_words(bool floats, std::uint64_t seed, void* out, std::size_t n, cudaStream_t stream);

// Zero `bins` and count (every variant resets its output inside the timed work).
void letter_histogram(const char* variant, const unsigned char* in, std::size_t n, unsigned* bins,
                      cudaStream_t stream);
void byte_histogram(const char* variant, const unsigned char* in, std::size_t n, unsigned* bins,
                    cudaStream_t stream);
std::size_t cub_temp_bytes(std::size_t n);
void cub_byte_histogram(void* temp, std::size_t temp_bytes, const unsigned char* in, std::size_t n,
                        unsigned* bins, cudaStream_t stream);
void float_histogram(const char* variant, const float* in, std::size_t n, unsigned bins,
                     float scale, unsigned* out, cudaStream_t stream);
// out[0] = min, out[1] = max (INT_MAX / INT_MIN for n = 0).
void min_max(const char* variant, const std::int32_t* in, std::size_t n, std::int32_t* out,
             cudaStream_t stream);
// out[0] = max (-inf for n = 0).
void float_max(const char* variant, const float* in, std::size_t n, float* out,
               cudaStream_t stream);

}  // namespace memlab::lessons::histogram
