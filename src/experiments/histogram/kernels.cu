#include <cuda_runtime.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <cub/device/device_histogram.cuh>

#include "common/launch.hpp"
#include "histogram/device.cuh"
#include "histogram/kernels.cuh"

namespace memlab::lessons::histogram {
namespace {

// ---- inputs (not timed) ----------------------------------------------------------------------

__global__ void make_bytes_kernel(Dist dist, std::uint64_t seed, unsigned char* out, std::size_t n,
                                  const unsigned char* corpus, std::size_t corpus_len) {
  for (std::size_t i = global_id(); i < n; i += grid_threads()) {
    unsigned char c = kSingleByte;
    if (dist == Dist::Uniform) {
      c = random_byte(seed, i);
    } else if (dist == Dist::Text) {
      c = corpus[text_offset(seed, i / kTextChunk, corpus_len) + i % kTextChunk];
    } else if (dist == Dist::Smooth) {
      c = smooth_byte(seed, i);
    }
    out[i] = c;
  }
}

__global__ void make_floats_kernel(std::uint64_t seed, float* out, std::size_t n) {
  for (std::size_t i = global_id(); i < n; i += grid_threads()) out[i] = float_value(seed, i);
}

__global__ void make_words_kernel(bool floats, std::uint64_t seed, void* out, std::size_t n) {
  for (std::size_t i = global_id(); i < n; i += grid_threads()) {
    if (floats) {
      static_cast<float*>(out)[i] = max_float_value(seed, i);
    } else {
      static_cast<std::int32_t*>(out)[i] = int_value(seed, i);
    }
  }
}

unsigned fill_grid(std::size_t n) {
  return static_cast<unsigned>(std::min<std::size_t>(blocks_for(n, kBlock), 132u * 64u));
}

// ---- shared helpers --------------------------------------------------------------------------

// Every byte of [0, n) exactly once, read as 16-byte vectors with U independent loads in flight per
// thread (grid-stride over vectors: a warp reads 512 contiguous bytes per load, fully coalesced),
// then the n % 16 tail bytes by the first threads of the grid. f(byte) counts; after(byte count)
// runs after each group of at most 16 U bytes (the register variant flushes its 8-bit counters).
template <int U, class F, class After>
__device__ __forceinline__ void for_each_byte_v16(const unsigned char* in, std::size_t n, F&& f,
                                                  After&& after) {
  const std::size_t nv = n / 16;
  const uint4* v = reinterpret_cast<const uint4*>(in);
  const std::size_t stride = grid_threads();
  std::size_t i = global_id();
  for (; i + static_cast<std::size_t>(U - 1) * stride < nv;
       i += static_cast<std::size_t>(U) * stride) {
    uint4 r[U];
#pragma unroll
    for (int u = 0; u < U; ++u) r[u] = __ldcs(v + i + static_cast<std::size_t>(u) * stride);
#pragma unroll
    for (int u = 0; u < U; ++u) {
      const unsigned w[4] = {r[u].x, r[u].y, r[u].z, r[u].w};
#pragma unroll
      for (int k = 0; k < 16; ++k) f((w[k / 4] >> (8 * (k % 4))) & 0xFFu);
    }
    after();
  }
  for (; i < nv; i += stride) {
    const uint4 r = __ldcs(v + i);
    const unsigned w[4] = {r.x, r.y, r.z, r.w};
#pragma unroll
    for (int k = 0; k < 16; ++k) f((w[k / 4] >> (8 * (k % 4))) & 0xFFu);
    after();
  }
  const std::size_t t = nv * 16 + global_id();
  if (t < n) {
    f(static_cast<unsigned>(in[t]));
    after();
  }
}

struct Nothing {
  __device__ void operator()() const {}
};

// Merge 32 lane copies laid out [bin][lane] (word b * 32 + l): thread b starts at lane b % 32 so
// that the 32 lanes of a warp read 32 different banks.
__device__ __forceinline__ void merge_lane_copies(const unsigned* s, unsigned bins, unsigned* out) {
  __syncthreads();
  for (unsigned b = threadIdx.x; b < bins; b += blockDim.x) {
    unsigned sum = 0;
    for (unsigned l = 0; l < 32; ++l) sum += s[b * 32 + ((l + b) & 31u)];
    if (sum != 0) atomicAdd(out + b, sum);
  }
}

// ---- text_histogram: 7 letter bins -----------------------------------------------------------

// The seed's first kernel. Each byte: a 1-byte coalesced load and, for letters, an atomicAdd on one
// of 7 global counters. With prose ~80% of the bytes are letters, all updates land on 7 addresses
// in L2 and serialize there: the kernel runs at the rate of the L2 atomic unit, not of DRAM.
__global__ void letters_naive(const unsigned char* in, std::size_t n, unsigned* bins) {
  for (std::size_t i = global_id(); i < n; i += grid_threads()) {
    const int b = letter_bin(in[i]);
    if (b >= 0) atomicAdd(bins + b, 1u);
  }
}

// The seed's privatized kernel, one thread per byte: phase 1 zeroes 7 shared counters, phase 2
// shared atomics (~10x cheaper than L2 atomics, and only the block's 256 threads contend), phase 3
// 7 global atomics per block. With one byte per thread the merge is 7 global atomics per 256 bytes:
// the global counters stay hot, which is why coarsening follows.
__global__ void letters_privatized(const unsigned char* in, std::size_t n, unsigned* bins) {
  __shared__ unsigned s[kLetterBins];
  zero_shared(s, kLetterBins);
  for (std::size_t i = global_id(); i < n; i += grid_threads()) {
    const int b = letter_bin(in[i]);
    if (b >= 0) atomicAdd(s + b, 1u);
  }
  merge_copies(s, 1, kLetterBins, bins);
}

// Coarsening, contiguous partitioning: thread t owns bytes [t*C, (t+1)*C). Neighbouring lanes read
// addresses C bytes apart, so one warp load touches 32 sectors for 32 useful bytes; L1 keeps the
// lines while the thread walks them, but the access pattern wastes load instructions and cache.
__global__ void letters_contiguous(const unsigned char* in, std::size_t n, unsigned* bins) {
  __shared__ unsigned s[kLetterBins];
  zero_shared(s, kLetterBins);
  const std::size_t per = (n + grid_threads() - 1) / grid_threads();
  const std::size_t begin = global_id() * per;
  const std::size_t end = begin + per < n ? begin + per : n;
  for (std::size_t i = begin; i < end; ++i) {
    const int b = letter_bin(in[i]);
    if (b >= 0) atomicAdd(s + b, 1u);
  }
  merge_copies(s, 1, kLetterBins, bins);
}

// Aggregation: a thread walks its 16-byte vectors (contiguous bytes) and keeps (bin, run length) in
// registers; a shared atomic only when the bin changes. Long runs (a repeated value, flat image
// areas) need few atomics; prose changes bin at almost every byte.
__global__ void letters_aggregated(const unsigned char* in, std::size_t n, unsigned* bins) {
  __shared__ unsigned s[kLetterBins];
  zero_shared(s, kLetterBins);
  int prev = -1;
  unsigned run = 0;
  for_each_byte_v16<2>(
      in, n,
      [&](unsigned c) {
        const int b = letter_bin(c);
        if (b == prev) {
          ++run;
        } else {
          if (prev >= 0) atomicAdd(s + prev, run);
          prev = b;
          run = 1;
        }
      },
      Nothing{});
  if (prev >= 0) atomicAdd(s + prev, run);
  merge_copies(s, 1, kLetterBins, bins);
}

// Warp aggregation: per byte position, __match_any_sync groups the lanes that hold the same bin;
// the lowest lane of each group adds the group's size. At most 8 shared atomics per warp step
// instead of 32, but match.any itself is a slow instruction.
__global__ void letters_warp_aggregated(const unsigned char* in, std::size_t n, unsigned* bins) {
  __shared__ unsigned s[kLetterBins];
  zero_shared(s, kLetterBins);
  const unsigned lane = threadIdx.x & 31u;
  for_each_byte_v16<2>(
      in, n,
      [&](unsigned c) {
        const int b = letter_bin(c);
        const unsigned group = __match_any_sync(__activemask(), b);
        if (b >= 0 && lane == static_cast<unsigned>(__ffs(static_cast<int>(group)) - 1)) {
          atomicAdd(s + b, static_cast<unsigned>(__popc(group)));
        }
      },
      Nothing{});
  merge_copies(s, 1, kLetterBins, bins);
}

// 32 lane copies [bin][lane]: lane l only touches bank l, so a warp's shared atomic is one
// conflict-free wavefront whatever the data (a repeated letter included).
__global__ void letters_lane_copies(const unsigned char* in, std::size_t n, unsigned* bins) {
  __shared__ unsigned s[kLetterBins * 32];
  zero_shared(s, kLetterBins * 32);
  unsigned* mine = s + (threadIdx.x & 31u);
  for_each_byte_v16<2>(
      in, n,
      [&](unsigned c) {
        const int b = letter_bin(c);
        if (b >= 0) atomicAdd(mine + b * 32, 1u);
      },
      Nothing{});
  merge_lane_copies(s, kLetterBins, bins);
}

// Registers only: 8-bit counters packed 4 to a 32-bit register (bins 0-3 in lo, 4-6 in hi); a byte
// costs a handful of integer instructions and no memory access; after each group of <= 32 bytes
// the packed counters are added to 7 plain totals. Warp shuffles reduce the totals, warp leaders
// add them to 7 shared counters, the block merges with 7 global atomics.
__global__ void letters_registers(const unsigned char* in, std::size_t n, unsigned* bins) {
  __shared__ unsigned s[kLetterBins];
  zero_shared(s, kLetterBins);
  unsigned lo = 0, hi = 0;
  unsigned total[kLetterBins] = {};
  for_each_byte_v16<2>(
      in, n,
      [&](unsigned c) {
        const unsigned p = c - 97u;
        const unsigned inc = 1u << ((p << 1) & 24u);  // byte (p / 4) % 4 of the packed register
        if (p < 16u) {
          lo += inc;
        } else if (p < 26u) {
          hi += inc;
        }
      },
      [&]() {
#pragma unroll
        for (unsigned k = 0; k < 4; ++k) total[k] += (lo >> (8 * k)) & 0xFFu;
#pragma unroll
        for (unsigned k = 0; k < 3; ++k) total[4 + k] += (hi >> (8 * k)) & 0xFFu;
        lo = hi = 0;
      });
#pragma unroll
  for (unsigned k = 0; k < kLetterBins; ++k) {
    unsigned t = total[k];
    for (int off = 16; off > 0; off /= 2) t += __shfl_xor_sync(0xFFFFFFFFu, t, off);
    if ((threadIdx.x & 31u) == 0 && t != 0) atomicAdd(s + k, t);
  }
  merge_copies(s, 1, kLetterBins, bins);
}

// ---- histogram: 256 bins of uint8 ------------------------------------------------------------

// Global atomicAdd per byte: 2^30 L2 atomics for 1 GiB. Uniform bytes spread them over 256
// addresses (and L2 slices); a single value puts all of them on one address.
__global__ void bytes_naive(const unsigned char* in, std::size_t n, unsigned* bins) {
  for (std::size_t i = global_id(); i < n; i += grid_threads()) atomicAdd(bins + in[i], 1u);
}

// The seed's three phases with 1-byte loads: one shared copy of 256 counters per block.
__global__ void bytes_privatized(const unsigned char* in, std::size_t n, unsigned* bins) {
  __shared__ unsigned s[kBins];
  zero_shared(s, kBins);
  for (std::size_t i = global_id(); i < n; i += grid_threads()) atomicAdd(s + in[i], 1u);
  merge_copies(s, 1, kBins, bins);
}

// One shared copy, 16-byte loads: the loads are no longer the limit; random bins conflict in the
// banks (~3.5 wavefronts per warp atomic) and equal bins serialize on one address.
__global__ void bytes_privatized_v16(const unsigned char* in, std::size_t n, unsigned* bins) {
  __shared__ unsigned s[kBins];
  zero_shared(s, kBins);
  for_each_byte_v16<2>(
      in, n, [&](unsigned c) { atomicAdd(s + c, 1u); }, Nothing{});
  merge_copies(s, 1, kBins, bins);
}

// One copy per warp (8 KiB per block): warps no longer compete for the same words; lanes of one
// warp still conflict in the banks.
__global__ void bytes_per_warp(const unsigned char* in, std::size_t n, unsigned* bins) {
  __shared__ unsigned s[kWarps * kBins];
  zero_shared(s, kWarps * kBins);
  unsigned* mine = s + (threadIdx.x / 32u) * kBins;
  for_each_byte_v16<2>(
      in, n, [&](unsigned c) { atomicAdd(mine + c, 1u); }, Nothing{});
  merge_copies(s, kWarps, kBins, bins);
}

// 32 lane copies [bin][lane] (32 KiB per block): lane l's counter for bin b is word b * 32 + l, in
// bank l. Every warp atomic is one conflict-free wavefront, for any data; equal bins of different
// lanes are different words. Up to 7 blocks (1792 threads) per SM.
__global__ void __launch_bounds__(kBlock)
    bytes_per_lane(const unsigned char* in, std::size_t n, unsigned* bins) {
  __shared__ unsigned s[kBins * 32];
  zero_shared(s, kBins * 32);
  unsigned* mine = s + (threadIdx.x & 31u);
  for_each_byte_v16<2>(
      in, n, [&](unsigned c) { atomicAdd(mine + c * 32, 1u); }, Nothing{});
  merge_lane_copies(s, kBins, bins);
}

// Per-thread 16-bit counters, no atomics: thread t's counters for bins 2j and 2j+1 are the two
// halves of word j * 128 + t (bank t % 32: conflict-free). A byte costs one LDS.U16 and one
// STS.U16 (two wavefronts per 32 bytes: 16 bytes/clock/SM, about the DRAM rate). The grid is sized
// so that no thread counts more than 32 Ki bytes (a counter never overflows).
constexpr unsigned kPtThreads = 128;
constexpr unsigned kPtWords = kBins / 2 * kPtThreads;  // 64 KiB
constexpr std::size_t kPtMaxBytesPerThread = 32768;
__global__ void __launch_bounds__(kPtThreads)
    bytes_per_thread(const unsigned char* in, std::size_t n, unsigned* bins) {
  extern __shared__ unsigned s[];
  zero_shared(s, kPtWords);
  unsigned short* mine = reinterpret_cast<unsigned short*>(s) + 2 * threadIdx.x;
  for_each_byte_v16<4>(
      in, n,
      [&](unsigned c) {
        unsigned short* p = mine + (c >> 1) * (2 * kPtThreads) + (c & 1u);
        *p = static_cast<unsigned short>(*p + 1u);
      },
      Nothing{});
  __syncthreads();
  const unsigned short* h = reinterpret_cast<const unsigned short*>(s);
  for (unsigned b = threadIdx.x; b < kBins; b += blockDim.x) {
    unsigned sum = 0;
    for (unsigned t = 0; t < kPtThreads; ++t) {
      const unsigned tt = (t + b / 2) % kPtThreads;  // lanes start on different banks
      sum += h[(b >> 1) * (2 * kPtThreads) + 2 * tt + (b & 1u)];
    }
    if (sum != 0) atomicAdd(bins + b, sum);
  }
}

// per_lane_fused: per_lane's [bin][lane] copies in 1024-thread blocks, 2 per SM (64 KiB of the
// 227 KiB; 32 registers per thread at full occupancy). The output is written without a memset:
// ticketed_merge (device.cuh): blocks add their sums into an accumulator, the last block writes
// the bins and leaves the accumulator and the ticket zero for the next launch.
constexpr unsigned kFusedThreads = 1024;
struct FusedTag {};

__global__ void __launch_bounds__(kFusedThreads, 2)
    bytes_per_lane_fused(const unsigned char* in, std::size_t n, unsigned* bins) {
  __shared__ unsigned s[kBins * 32];
  zero_shared(s, kBins * 32);
  unsigned* mine = s + (threadIdx.x & 31u);
  for_each_byte_v16<4>(
      in, n, [&](unsigned c) { atomicAdd(mine + c * 32, 1u); }, Nothing{});
  __syncthreads();
  // Thread t sums lanes 8 q .. 8 q + 7 of bin b = t / 4 (q = t % 4), rotated by b so that a warp's
  // reads spread over the banks; the 4 partial sums meet by shuffles within the warp.
  const unsigned b = threadIdx.x / 4u, q = threadIdx.x % 4u;
  unsigned sum = 0;
#pragma unroll
  for (unsigned l = 0; l < 8; ++l) sum += s[b * 32 + ((8 * q + l + b) & 31u)];
  sum += __shfl_xor_sync(0xFFFFFFFFu, sum, 1);
  sum += __shfl_xor_sync(0xFFFFFFFFu, sum, 2);
  ticketed_merge<FusedTag, kFusedThreads>(q == 0, b, sum, bins);
}

}  // namespace

void make_bytes(Dist dist, std::uint64_t seed, unsigned char* out, std::size_t n,
                const unsigned char* corpus, std::size_t corpus_len, cudaStream_t s) {
  if (n == 0) return;
  make_bytes_kernel<<<fill_grid(n), kBlock, 0, s>>>(dist, seed, out, n, corpus, corpus_len);
  MEMLAB_CHECK_LAUNCH(make_bytes_kernel);
}

void make_floats(std::uint64_t seed, float* out, std::size_t n, cudaStream_t s) {
  if (n == 0) return;
  make_floats_kernel<<<fill_grid(n), kBlock, 0, s>>>(seed, out, n);
  MEMLAB_CHECK_LAUNCH(make_floats_kernel);
}

void make_words(bool floats, std::uint64_t seed, void* out, std::size_t n, cudaStream_t s) {
  if (n == 0) return;
  make_words_kernel<<<fill_grid(n), kBlock, 0, s>>>(floats, seed, out, n);
  MEMLAB_CHECK_LAUNCH(make_words_kernel);
}

void letter_histogram(TextVariant v, const unsigned char* in, std::size_t n, unsigned* bins,
                      cudaStream_t s) {
  MEMLAB_CUDA_CHECK(cudaMemsetAsync(bins, 0, kLetterBins * sizeof(unsigned), s));
  switch (v) {
    case TextVariant::Naive:
      letters_naive<<<resident_blocks(letters_naive, kBlock), kBlock, 0, s>>>(in, n, bins);
      break;
    case TextVariant::Privatized:
      letters_privatized<<<blocks_for(n, kBlock), kBlock, 0, s>>>(in, n, bins);
      break;
    case TextVariant::CoarseContiguous:
      letters_contiguous<<<resident_blocks(letters_contiguous, kBlock), kBlock, 0, s>>>(in, n,
                                                                                        bins);
      break;
    case TextVariant::CoarseInterleaved:
      letters_privatized<<<resident_blocks(letters_privatized, kBlock), kBlock, 0, s>>>(in, n,
                                                                                        bins);
      break;
    case TextVariant::Aggregated:
      letters_aggregated<<<resident_blocks(letters_aggregated, kBlock), kBlock, 0, s>>>(in, n,
                                                                                        bins);
      break;
    case TextVariant::WarpAggregated:
      letters_warp_aggregated<<<resident_blocks(letters_warp_aggregated, kBlock), kBlock, 0, s>>>(
          in, n, bins);
      break;
    case TextVariant::LaneCopies:
      letters_lane_copies<<<resident_blocks(letters_lane_copies, kBlock), kBlock, 0, s>>>(in, n,
                                                                                          bins);
      break;
    case TextVariant::Registers:
      letters_registers<<<resident_blocks(letters_registers, kBlock), kBlock, 0, s>>>(in, n, bins);
      break;
  }
  MEMLAB_CHECK_LAUNCH(letter_histogram);
}

namespace {

void cub_byte_histogram(void* temp, std::size_t temp_bytes, const unsigned char* in, std::size_t n,
                        unsigned* bins, cudaStream_t s) {
  if (n == 0) {  // nothing to count: CUB is not called with an empty (null) input
    MEMLAB_CUDA_CHECK(cudaMemsetAsync(bins, 0, kBins * sizeof(unsigned), s));
    return;
  }
  MEMLAB_CUDA_CHECK(
      cub::DeviceHistogram::HistogramEven(temp, temp_bytes, in, bins, static_cast<int>(kBins + 1),
                                          0, static_cast<int>(kBins), static_cast<int>(n), s));
}

}  // namespace

void byte_histogram(ByteVariant v, const unsigned char* in, std::size_t n, unsigned* bins,
                    void* cub_temp, std::size_t cub_temp_bytes, cudaStream_t s) {
  switch (v) {  // the one-launch variants write every bin themselves: no memset
    case ByteVariant::Cub:
      cub_byte_histogram(cub_temp, cub_temp_bytes, in, n, bins, s);
      return;
    case ByteVariant::PerLaneFused:
      bytes_per_lane_fused<<<resident_blocks(bytes_per_lane_fused, kFusedThreads), kFusedThreads, 0,
                             s>>>(in, n, bins);
      MEMLAB_CHECK_LAUNCH(byte_histogram);
      return;
    case ByteVariant::PerLaneLean:  // kernels_lean.cu
      per_lane_lean(in, n, bins, s);
      return;
    case ByteVariant::PerLaneDeep:  // kernels_lean.cu
      per_lane_deep(in, n, bins, s);
      return;
    case ByteVariant::PerLaneEarly:  // kernels_lean.cu
      per_lane_early(in, n, bins, s);
      return;
    case ByteVariant::PerLaneEarly6:  // kernels_lean.cu
      per_lane_early6(in, n, bins, s);
      return;
    default:
      break;  // the rest: memset, then the switch below
  }
  MEMLAB_CUDA_CHECK(cudaMemsetAsync(bins, 0, kBins * sizeof(unsigned), s));
  switch (v) {
    case ByteVariant::Naive:
      bytes_naive<<<resident_blocks(bytes_naive, kBlock), kBlock, 0, s>>>(in, n, bins);
      break;
    case ByteVariant::Privatized:
      bytes_privatized<<<resident_blocks(bytes_privatized, kBlock), kBlock, 0, s>>>(in, n, bins);
      break;
    case ByteVariant::PrivatizedV16:
      bytes_privatized_v16<<<resident_blocks(bytes_privatized_v16, kBlock), kBlock, 0, s>>>(in, n,
                                                                                            bins);
      break;
    case ByteVariant::PerWarp:
      bytes_per_warp<<<resident_blocks(bytes_per_warp, kBlock), kBlock, 0, s>>>(in, n, bins);
      break;
    case ByteVariant::PerLane:
      bytes_per_lane<<<resident_blocks(bytes_per_lane, kBlock), kBlock, 0, s>>>(in, n, bins);
      break;
    case ByteVariant::PerThread: {
      const std::size_t smem = kPtWords * sizeof(unsigned);
      static const bool configured = [] {
        MEMLAB_CUDA_CHECK(cudaFuncSetAttribute(bytes_per_thread,
                                               cudaFuncAttributeMaxDynamicSharedMemorySize,
                                               static_cast<int>(kPtWords * 4)));
        return true;
      }();
      (void)configured;
      const std::size_t per_block = kPtThreads * kPtMaxBytesPerThread;
      const auto needed = static_cast<unsigned>((n + per_block - 1) / per_block);
      const unsigned grid = std::max(resident_blocks(bytes_per_thread, kPtThreads, smem), needed);
      bytes_per_thread<<<grid, kPtThreads, smem, s>>>(in, n, bins);
      break;
    }
    case ByteVariant::PerLaneFused:
    case ByteVariant::PerLaneLean:
    case ByteVariant::PerLaneDeep:
    case ByteVariant::PerLaneEarly:
    case ByteVariant::PerLaneEarly6:
    case ByteVariant::Cub:
      break;  // launched above
  }
  MEMLAB_CHECK_LAUNCH(byte_histogram);
}

std::size_t cub_temp_bytes(std::size_t n) {
  std::size_t bytes = 0;
  MEMLAB_CUDA_CHECK(cub::DeviceHistogram::HistogramEven(
      nullptr, bytes, static_cast<const unsigned char*>(nullptr), static_cast<unsigned*>(nullptr),
      static_cast<int>(kBins + 1), 0, static_cast<int>(kBins), static_cast<int>(n)));
  return bytes;
}

}  // namespace memlab::lessons::histogram
