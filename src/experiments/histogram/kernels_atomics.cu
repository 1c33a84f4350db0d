// histogram_float and atomics: the kernels and their launchers (see kernels.cuh).
#include <cuda_runtime.h>

#include <climits>
#include <cstring>

#include "common/launch.hpp"
#include "histogram/device.cuh"
#include "histogram/kernels.cuh"

namespace memlab::lessons::histogram {
namespace {

// ---- histogram_float ---------------------------------------------------------------------------

// Global atomics per in-range float (4-byte coalesced loads).
__global__ void floats_global(const float* in, std::size_t n, unsigned bins, float scale,
                              unsigned* out) {
  for (std::size_t i = global_id(); i < n; i += grid_threads()) {
    const int b = float_bin(in[i], scale, bins);
    if (b >= 0) atomicAdd(out + b, 1u);
  }
}

// Shared copy of all `bins` counters (dynamic shared memory, bins * 4 bytes), then merge.
__global__ void floats_privatized(const float* in, std::size_t n, unsigned bins, float scale,
                                  unsigned* out) {
  extern __shared__ unsigned s[];
  zero_shared(s, bins);
  for (std::size_t i = global_id(); i < n; i += grid_threads()) {
    const int b = float_bin(__ldcs(in + i), scale, bins);
    if (b >= 0) atomicAdd(s + b, 1u);
  }
  merge_copies(s, 1, bins, out);
}

// ---- atomics: min/max and a CAS-built float max ------------------------------------------------

__global__ void init_words(std::int32_t* out, std::int32_t a, std::int32_t b, int count) {
  out[0] = a;
  if (count > 1) out[1] = b;
}

// Float max from atomicCAS (the hardware has no float atomicMax): read, and only while our value
// is larger try to swap it in; a failed CAS returns the newer value and the loop re-checks.
__device__ __forceinline__ void atomic_max_float(float* address, float v) {
  unsigned* a = reinterpret_cast<unsigned*>(address);
  unsigned old = *reinterpret_cast<volatile unsigned*>(a);
  while (__uint_as_float(old) < v) {
    const unsigned assumed = old;
    old = atomicCAS(a, assumed, __float_as_uint(v));
    if (old == assumed) break;
  }
}

// One atomic per element on one address: every update goes to the same L2 slice.
__global__ void minmax_global(const std::int32_t* in, std::size_t n, std::int32_t* out) {
  for (std::size_t i = global_id(); i < n; i += grid_threads()) {
    const std::int32_t v = in[i];
    atomicMin(out, v);
    atomicMax(out + 1, v);
  }
}
__global__ void fmax_global(const float* in, std::size_t n, float* out) {
  for (std::size_t i = global_id(); i < n; i += grid_threads()) atomic_max_float(out, in[i]);
}

// Warp reduction first (__reduce_min_sync / shuffles), one atomic per warp and step: 32x fewer.
// The loop bound is warp-uniform so that all 32 lanes take part in every reduction.
__global__ void minmax_warp(const std::int32_t* in, std::size_t n, std::int32_t* out) {
  const std::size_t lane = threadIdx.x & 31u;
  const std::size_t warp0 = global_id() - lane;
  for (std::size_t base = warp0; base < n; base += grid_threads()) {
    const std::size_t i = base + lane;
    const std::int32_t lo = i < n ? in[i] : INT_MAX;
    const std::int32_t hi = i < n ? in[i] : INT_MIN;
    const std::int32_t wlo = __reduce_min_sync(0xFFFFFFFFu, lo);
    const std::int32_t whi = __reduce_max_sync(0xFFFFFFFFu, hi);
    if (lane == 0) {
      atomicMin(out, wlo);
      atomicMax(out + 1, whi);
    }
  }
}
__device__ __forceinline__ float warp_max(float v) {
  for (int off = 16; off > 0; off /= 2) v = fmaxf(v, __shfl_xor_sync(0xFFFFFFFFu, v, off));
  return v;
}
__global__ void fmax_warp(const float* in, std::size_t n, float* out) {
  const std::size_t lane = threadIdx.x & 31u;
  const std::size_t warp0 = global_id() - lane;
  for (std::size_t base = warp0; base < n; base += grid_threads()) {
    const std::size_t i = base + lane;
    const float m = warp_max(i < n ? in[i] : -INFINITY);
    if (lane == 0) atomic_max_float(out, m);
  }
}

// Privatized: each thread reduces its grid-stride share in registers, the block reduces through
// shared memory, one atomic per block: the kernel streams at the DRAM rate.
__global__ void minmax_block(const std::int32_t* in, std::size_t n, std::int32_t* out) {
  __shared__ std::int32_t s[2][kWarps];
  std::int32_t lo = INT_MAX, hi = INT_MIN;
  for (std::size_t i = global_id(); i < n; i += grid_threads()) {
    const std::int32_t v = __ldcs(in + i);
    lo = min(lo, v);
    hi = max(hi, v);
  }
  lo = __reduce_min_sync(0xFFFFFFFFu, lo);
  hi = __reduce_max_sync(0xFFFFFFFFu, hi);
  if ((threadIdx.x & 31u) == 0) {
    s[0][threadIdx.x / 32] = lo;
    s[1][threadIdx.x / 32] = hi;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    for (unsigned w = 1; w < kWarps; ++w) {
      lo = min(lo, s[0][w]);
      hi = max(hi, s[1][w]);
    }
    atomicMin(out, lo);
    atomicMax(out + 1, hi);
  }
}
__global__ void fmax_block(const float* in, std::size_t n, float* out) {
  __shared__ float s[kWarps];
  float m = -INFINITY;
  for (std::size_t i = global_id(); i < n; i += grid_threads()) m = fmaxf(m, __ldcs(in + i));
  m = warp_max(m);
  if ((threadIdx.x & 31u) == 0) s[threadIdx.x / 32] = m;
  __syncthreads();
  if (threadIdx.x == 0) {
    for (unsigned w = 1; w < kWarps; ++w) m = fmaxf(m, s[w]);
    atomic_max_float(out, m);
  }
}

}  // namespace

void float_histogram(FloatVariant v, const float* in, std::size_t n, unsigned bins, float scale,
                     unsigned* out, cudaStream_t s) {
  MEMLAB_CUDA_CHECK(cudaMemsetAsync(out, 0, bins * sizeof(unsigned), s));
  switch (v) {
    case FloatVariant::Privatized:
      if (bins <= kMaxSharedBins) {
        const std::size_t smem = bins * sizeof(unsigned);
        static const bool configured = [] {
          MEMLAB_CUDA_CHECK(cudaFuncSetAttribute(floats_privatized,
                                                 cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                 static_cast<int>(kMaxSharedBins * 4)));
          return true;
        }();
        (void)configured;
        floats_privatized<<<resident_blocks(floats_privatized, kBlock, smem), kBlock, smem, s>>>(
            in, n, bins, scale, out);
        break;
      }
      [[fallthrough]];  // more bins than shared memory holds: the global kernel
    case FloatVariant::Naive:
      floats_global<<<resident_blocks(floats_global, kBlock), kBlock, 0, s>>>(in, n, bins, scale,
                                                                              out);
      break;
  }
  MEMLAB_CHECK_LAUNCH(float_histogram);
}

void min_max(AtomicVariant v, const std::int32_t* in, std::size_t n, std::int32_t* out,
             cudaStream_t s) {
  init_words<<<1, 1, 0, s>>>(out, INT_MAX, INT_MIN, 2);
  MEMLAB_CHECK_LAUNCH(init_words);
  switch (v) {
    case AtomicVariant::Global:
      minmax_global<<<resident_blocks(minmax_global, kBlock), kBlock, 0, s>>>(in, n, out);
      break;
    case AtomicVariant::Warp:
      minmax_warp<<<resident_blocks(minmax_warp, kBlock), kBlock, 0, s>>>(in, n, out);
      break;
    case AtomicVariant::Block:
      minmax_block<<<resident_blocks(minmax_block, kBlock), kBlock, 0, s>>>(in, n, out);
      break;
  }
  MEMLAB_CHECK_LAUNCH(min_max);
}

void float_max(AtomicVariant v, const float* in, std::size_t n, float* out, cudaStream_t s) {
  const float minus_inf = -INFINITY;
  std::int32_t bits = 0;
  static_assert(sizeof(bits) == sizeof(minus_inf));
  std::memcpy(&bits, &minus_inf, sizeof(bits));
  init_words<<<1, 1, 0, s>>>(reinterpret_cast<std::int32_t*>(out), bits, 0, 1);
  MEMLAB_CHECK_LAUNCH(init_words);
  switch (v) {
    case AtomicVariant::Global:
      fmax_global<<<resident_blocks(fmax_global, kBlock), kBlock, 0, s>>>(in, n, out);
      break;
    case AtomicVariant::Warp:
      fmax_warp<<<resident_blocks(fmax_warp, kBlock), kBlock, 0, s>>>(in, n, out);
      break;
    case AtomicVariant::Block:
      fmax_block<<<resident_blocks(fmax_block, kBlock), kBlock, 0, s>>>(in, n, out);
      break;
  }
  MEMLAB_CHECK_LAUNCH(float_max);
}

}  // namespace memlab::lessons::histogram
