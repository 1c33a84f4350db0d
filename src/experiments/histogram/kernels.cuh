// histogram: atomics and privatization (seed 000, section 5), four experiments.
//
// text_histogram (the seeds' kernel: 'a'..'z' into 7 bins of 4 letters, other bytes ignored),
// histogram (256 bins of uint8), histogram_float (N bins over [0, 0.75), floats) and atomics (one
// result over a large array; op=minmax: atomicMin/atomicMax on int, op=fmax: float max via an
// atomicCAS loop). Each experiment's variants are the enumerators of its enum below (TextVariant,
// ByteVariant, FloatVariant, AtomicVariant). kernels.cu holds the byte histograms (but
// per_lane_lean, per_lane_deep, per_lane_early and per_lane_early6: kernels_lean.cu),
// kernels_atomics.cu histogram_float and atomics, device.cuh what they share.
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

#include "common/variants.hpp"
#include "histogram/inputs.hpp"

namespace memlab::lessons::histogram {

inline constexpr unsigned kMaxSharedBins = 56 * 1024;  // 224 KiB of u32 counters

void make_bytes(Dist dist, std::uint64_t seed, unsigned char* out, std::size_t n,
                const unsigned char* corpus, std::size_t corpus_len, cudaStream_t stream);
void make_floats(std::uint64_t seed, float* out, std::size_t n, cudaStream_t stream);
// op fmax: max_float_value; otherwise int_value (4-byte words either way).
void make_words(bool floats, std::uint64_t seed, void* out, std::size_t n, cudaStream_t stream);

// text_histogram.
enum class TextVariant {
  // One byte per thread per step, atomicAdd on the 7 global counters.
  Naive,
  // The seed's three phases: zero a __shared__ copy, shared atomics, merge with 7 global atomics
  // per block; one thread per byte (no coarsening).
  Privatized,
  // Resident grid, thread t counts bytes [t*C, (t+1)*C): uncoalesced loads.
  CoarseContiguous,
  // Resident grid, grid-stride loop: coalesced 1-byte loads.
  CoarseInterleaved,
  // 16-byte loads, runs of equal bins summed in a register, one atomic per run.
  Aggregated,
  // 16-byte loads, __match_any_sync groups lanes with equal bins, the leader adds.
  WarpAggregated,
  // 16-byte loads, 32 copies [bin][lane]: each lane its own bank, no conflicts.
  LaneCopies,
  // 16-byte loads, 8-bit counters packed 4 to a register, no atomics per byte.
  Registers,
};

inline constexpr VariantInfo<TextVariant> kTextVariants[] = {
    {TextVariant::Naive, "naive", "the seed's kernel: atomicAdd on 7 global counters per letter"},
    {TextVariant::Privatized, "privatized",
     "the seed's three phases, one thread per byte (7 global atomics per block)"},
    {TextVariant::CoarseContiguous, "coarse_contiguous",
     "resident grid, each thread a contiguous chunk (uncoalesced)"},
    {TextVariant::CoarseInterleaved, "coarse_interleaved",
     "resident grid, grid-stride 1-byte loads (coalesced)"},
    {TextVariant::Aggregated, "aggregated", "16-byte loads, runs of equal bins added once"},
    {TextVariant::WarpAggregated, "warp_aggregated",
     "16-byte loads, __match_any_sync groups equal bins per warp"},
    {TextVariant::LaneCopies, "lane_copies",
     "16-byte loads, 32 lane copies [bin][lane]: conflict-free shared atomics"},
    {TextVariant::Registers, "registers",
     "16-byte loads, packed 8-bit counters in registers, no per-byte atomics"},
};

// histogram (256 bins of uint8).
enum class ByteVariant {
  // Global atomicAdd per byte.
  Naive,
  // The seed's kernel, 1-byte loads: one shared copy.
  Privatized,
  // One shared copy, 16-byte loads.
  PrivatizedV16,
  // One shared copy per warp, 16-byte loads (less same-address contention).
  PerWarp,
  // 32 copies [bin][lane] (32 KiB): each lane atomics in its own bank.
  PerLane,
  // 16-bit counters per thread (64 KiB per 128 threads), plain LDS/STS, no atomics until the merge.
  PerThread,
  // Issue 23: per_lane's conflict-free lane copies in one launch and a cheaper merge. No
  // cudaMemset before the kernel (the 1 KiB memset is a second launch inside the timed work):
  // ticketed_merge (device.cuh): blocks add their sums to a module-scope accumulator, and the last
  // block to finish (a ticket counter, __threadfence before it) moves the accumulator into the
  // output with atomicExch, which also leaves it zero for the next launch (its caveat: launches
  // must not overlap). 1024-thread blocks, 2 per SM (264 blocks instead of 924): 3.5x fewer merge
  // atomics, and the merge of a block is 1024 threads summing 8 words each plus a 4-lane shuffle.
  // 4 independent 16-byte loads per thread before use.
  PerLaneFused,
  // Issue 23, round 2: per_lane's launch shape (256 threads, 6 blocks per SM, 2 loads in flight;
  // per_lane_fused's 1024-thread blocks were ALU-bound, the ALU pipe at 95%) with per_lane_fused's
  // one-launch ending (ticketed_merge with its own accumulator and ticket: no memset, the last
  // block writes the bins), and fewer ALU instructions per byte: the counter's byte offset (byte *
  // 128 | lane * 4) is one shift and one LOP3, the array's base left to the ATOMS immediate.
  PerLaneLean,
  // Issue 23, round 3: per_lane_lean (same launch shape, counter offset, one-launch ending) with
  // more bytes in flight per SM: a ring of 4 16-byte vectors per thread, each slot reloaded with
  // the vector 4 grid strides ahead as soon as it has been counted, so 3-4 loads stay in flight
  // while the thread counts (per_lane and per_lane_lean have none in flight while they count).
  PerLaneDeep,
  // Issue 23, round 4: per_lane_deep's stream with the launch's fixed cost cut: the first batch of
  // loads issued before the shared copies are zeroed (the zeroing and its barrier under their
  // latency), and an ending with 16 accumulator copies (spread_merge: ~50 instead of 792 REDs per
  // L2 line), one fence per block, lane sums as 8 rotated 16-byte shared loads.
  PerLaneEarly,
  // per_lane_early with a ring of 6 vectors at 5 blocks per SM (48 registers, no spill).
  PerLaneEarly6,
  // cub::DeviceHistogram::HistogramEven (temp storage from setup): the vendor line.
  Cub,
};

inline constexpr VariantInfo<ByteVariant> kByteVariants[] = {
    {ByteVariant::Naive, "naive", "atomicAdd on 256 global counters per byte"},
    {ByteVariant::Privatized, "privatized",
     "the seed's three phases: one shared copy, 1-byte loads"},
    {ByteVariant::PrivatizedV16, "privatized_v16", "one shared copy, 16-byte loads"},
    {ByteVariant::PerWarp, "per_warp", "one shared copy per warp, 16-byte loads"},
    {ByteVariant::PerLane, "per_lane",
     "32 lane copies [bin][lane]: each lane atomics in its own bank"},
    {ByteVariant::PerThread, "per_thread",
     "16-bit counters per thread, plain shared loads/stores, no atomics"},
    {ByteVariant::PerLaneFused, "per_lane_fused",
     "per_lane in one launch: no memset, 2 x 1024-thread blocks per SM, last block writes bins"},
    {ByteVariant::PerLaneLean, "per_lane_lean",
     "per_lane's shape in one launch, counter offset = shift + LOP3 per byte, no memset"},
    {ByteVariant::PerLaneDeep, "per_lane_deep",
     "per_lane_lean with a 4-vector register ring: 3-4 loads in flight while counting"},
    {ByteVariant::PerLaneEarly, "per_lane_early",
     "per_lane_deep, loads issued before the shared zeroing, 16 accumulator copies at the end"},
    {ByteVariant::PerLaneEarly6, "per_lane_early6",
     "per_lane_early with a 6-vector ring at 5 blocks per SM (48 registers)"},
    {ByteVariant::Cub, "cub", "cub::DeviceHistogram::HistogramEven (vendor baseline)"},
};

// histogram_float.
enum class FloatVariant {
  // Global atomics per in-range float.
  Naive,
  // A shared copy of the N bins when N <= kMaxSharedBins, global atomics beyond.
  Privatized,
};

inline constexpr VariantInfo<FloatVariant> kFloatVariants[] = {
    {FloatVariant::Naive, "naive", "global atomicAdd per in-range float"},
    {FloatVariant::Privatized, "privatized",
     "shared copy of the N bins when they fit (N <= 57344), else global atomics"},
};
static_assert(kMaxSharedBins == 57344, "kFloatVariants' description says 57344");

// atomics (op=minmax and op=fmax alike).
enum class AtomicVariant {
  // An atomic per element on one address.
  Global,
  // Warp reduce, one atomic per warp.
  Warp,
  // Grid-stride + block reduce, one atomic per block.
  Block,
};

inline constexpr VariantInfo<AtomicVariant> kAtomicVariants[] = {
    {AtomicVariant::Global, "global", "an atomic (or CAS loop) per element on one address"},
    {AtomicVariant::Warp, "warp", "warp reduction, one atomic per warp step"},
    {AtomicVariant::Block, "block", "grid-stride + block reduction, one atomic per block"},
};

// Zero `bins` and count (every variant resets its output inside the timed work).
void letter_histogram(TextVariant variant, const unsigned char* in, std::size_t n, unsigned* bins,
                      cudaStream_t stream);
// Cub uses `cub_temp` (cub_temp_bytes(n) bytes); the other variants ignore it.
void byte_histogram(ByteVariant variant, const unsigned char* in, std::size_t n, unsigned* bins,
                    void* cub_temp, std::size_t cub_temp_bytes, cudaStream_t stream);
std::size_t cub_temp_bytes(std::size_t n);
void float_histogram(FloatVariant variant, const float* in, std::size_t n, unsigned bins,
                     float scale, unsigned* out, cudaStream_t stream);
// out[0] = min, out[1] = max (INT_MAX / INT_MIN for n = 0).
void min_max(AtomicVariant variant, const std::int32_t* in, std::size_t n, std::int32_t* out,
             cudaStream_t stream);
// out[0] = max (-inf for n = 0).
void float_max(AtomicVariant variant, const float* in, std::size_t n, float* out,
               cudaStream_t stream);

}  // namespace memlab::lessons::histogram
