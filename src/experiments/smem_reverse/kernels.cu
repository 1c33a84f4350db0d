#include <cuda_runtime.h>

#include "common/launch.hpp"
#include "smem_reverse/kernels.cuh"
#include "smem_reverse/kernels_bulk.cuh"

namespace memlab::lessons::smem_reverse {
namespace {

// Segment b: [first, first + len); its mirror in the output starts at n - first - len.
struct Segment {
  std::size_t first, len, mirror;
};

__device__ __forceinline__ Segment segment(std::size_t n, std::size_t seg) {
  Segment s;
  s.first = static_cast<std::size_t>(blockIdx.x) * seg;
  s.len = min(seg, n - s.first);
  s.mirror = n - s.first - s.len;
  return s;
}

// No shared memory: lane t reads in[i] (ascending, coalesced) and writes out[n-1-i] (descending:
// the same sectors, so also coalesced). 8 bytes of DRAM traffic per float.
__global__ void global_reverse(const float* __restrict__ in, float* __restrict__ out,
                               std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[n - 1 - i] = in[i];
}

// The seed's staticReverse per block: thread t stores in[first + t] to s[t], and after the barrier
// writes out[mirror + t] = s[len - 1 - t]. Shared accesses: consecutive words (conflict-free;
// the reversed read is a permutation within the same 32 banks).
__global__ void static_reverse(const float* __restrict__ in, float* __restrict__ out,
                               std::size_t n) {
  __shared__ float s[kStaticSeg];
  const Segment g = segment(n, kStaticSeg);
  const unsigned t = threadIdx.x;
  if (t < g.len) s[t] = in[g.first + t];
  __syncthreads();
  if (t < g.len) out[g.mirror + t] = s[g.len - 1 - t];
}

// The seed's dynamicReverse per block, segment size = dynamic shared bytes / 4 set at launch;
// each thread moves seg / blockDim floats in a block-stride loop (coalesced in both directions).
__global__ void dynamic_reverse(const float* __restrict__ in, float* __restrict__ out,
                                std::size_t n, unsigned seg) {
  extern __shared__ float s[];
  const Segment g = segment(n, seg);
  for (std::size_t t = threadIdx.x; t < g.len; t += blockDim.x) s[t] = in[g.first + t];
  __syncthreads();
  for (std::size_t t = threadIdx.x; t < g.len; t += blockDim.x) {
    out[g.mirror + t] = s[g.len - 1 - t];
  }
}

// dynamic_reverse_f4's two phases, thread t of `threads` (also dynamic_reverse_f4_x4's path for a
// partial segment or a misaligned mirror). Load: in's float4 grid matches the segment's (the
// partial tail quad element-wise).
__device__ __forceinline__ void load_segment_f4(float4* s4, const float* __restrict__ in,
                                                const Segment& g, unsigned t, unsigned threads) {
  float* s = reinterpret_cast<float*>(s4);
  const std::size_t quads = g.len / 4;
  const float4* in4 = reinterpret_cast<const float4*>(in + g.first);
  for (std::size_t q = t; q < quads; q += threads) s4[q] = in4[q];
  for (std::size_t i = quads * 4 + t; i < g.len; i += threads) s[i] = in[g.first + i];
}
// Store: output quads wholly inside [mirror, mirror + len) as one 16-byte store, the (at most two)
// edge quads element-wise.
__device__ __forceinline__ void store_reversed_f4(const float* s, float* __restrict__ out,
                                                  const Segment& g, unsigned t, unsigned threads) {
  const std::size_t end = g.mirror + g.len;
  const std::size_t q0 = g.mirror / 4, q1 = (end - 1) / 4;  // output quads touched
  float4* out4 = reinterpret_cast<float4*>(out);
  for (std::size_t q = q0 + t; q <= q1; q += threads) {
    const std::size_t j = 4 * q;  // out[j + k] = s[(end - 1) - (j + k)]
    if (j >= g.mirror && j + 4 <= end) {
      const std::size_t r = end - 1 - j;
      out4[q] = make_float4(s[r], s[r - 1], s[r - 2], s[r - 3]);
    } else {
      for (std::size_t k = 0; k < 4; ++k) {
        if (j + k >= g.mirror && j + k < end) out[j + k] = s[end - 1 - (j + k)];
      }
    }
  }
}

// 16-byte global accesses. Loads: segments start at multiples of kDynSeg floats, so in's float4
// grid matches (the partial tail quad is loaded element-wise). Stores: output quad q covers
// out[4q, 4q + 4); quads wholly inside [mirror, mirror + len) are one 16-byte store, the (at most
// two) edge quads are written element-wise. Shared memory is written as float4 (STS.128,
// conflict-free per quarter-warp) and read as 4 words per output quad.
__global__ void dynamic_reverse_f4(const float* __restrict__ in, float* __restrict__ out,
                                   std::size_t n, unsigned seg) {
  extern __shared__ float4 s4[];
  const Segment g = segment(n, seg);
  load_segment_f4(s4, in, g, threadIdx.x, blockDim.x);
  __syncthreads();
  store_reversed_f4(reinterpret_cast<const float*>(s4), out, g, threadIdx.x, blockDim.x);
}

// dynamic_f4 with every load of a thread in flight at once. In dynamic_reverse_f4 the loop
// `s4[q] = in4[q]` is not unrolled (its trip count is a runtime value): one LDG.128, then the
// STS.128 that waits for it, so a thread has one 16-byte load in flight (4 KiB per block). Here
// the segment is a compile-time kDynSeg floats and 256 threads: a full segment is exactly
// kF4PerThread = 4 quads per thread, loaded into registers by 4 independent LDG.128 before the
// first shared store (16 KiB per block in flight). If the mirrored range is 16-byte aligned (n a
// multiple of 4) each thread stores 4 quads, one LDS.128 + one STG.128 each: out quad i of the
// mirror is shared quad Q - 1 - i with its lanes reversed (a warp reads 32 consecutive quads,
// descending: 4 wavefronts, conflict-free). A partial segment or a misaligned
// mirror takes dynamic_reverse_f4's element-wise edge handling.
constexpr unsigned kF4Threads = 256;
constexpr unsigned kF4PerThread = kDynSeg / 4 / kF4Threads;
static_assert(kF4PerThread * 4 * kF4Threads == kDynSeg);

__global__ void __launch_bounds__(kF4Threads)
    dynamic_reverse_f4_x4(const float* __restrict__ in, float* __restrict__ out, std::size_t n) {
  extern __shared__ float4 s4[];  // kDynSeg floats, sized at launch as dynamic_f4's
  float* s = reinterpret_cast<float*>(s4);
  const Segment g = segment(n, kDynSeg);
  const unsigned t = threadIdx.x;
  const bool full = g.len == kDynSeg;
  if (full) {
    const float4* in4 = reinterpret_cast<const float4*>(in + g.first);
    float4 v[kF4PerThread];
#pragma unroll
    for (unsigned k = 0; k < kF4PerThread; ++k) v[k] = in4[t + k * kF4Threads];
#pragma unroll
    for (unsigned k = 0; k < kF4PerThread; ++k) s4[t + k * kF4Threads] = v[k];
  } else {
    load_segment_f4(s4, in, g, t, kF4Threads);
  }
  __syncthreads();
  if (full && g.mirror % 4 == 0) {
    constexpr unsigned kQ = kDynSeg / 4;
    float4* out4 = reinterpret_cast<float4*>(out + g.mirror);
#pragma unroll
    for (unsigned k = 0; k < kF4PerThread; ++k) {
      const unsigned i = t + k * kF4Threads;
      const float4 a = s4[kQ - 1 - i];
      out4[i] = make_float4(a.w, a.z, a.y, a.x);
    }
    return;
  }
  store_reversed_f4(s, out, g, t, kF4Threads);
}

// global with 16-byte accesses (Variant::GlobalF4): out quad q = in quad Q - 1 - q, lanes reversed.
// Whether n is a multiple of 4 is the same for the whole grid (a uniform branch).
__global__ void global_reverse_f4(const float* __restrict__ in, float* __restrict__ out,
                                  std::size_t n) {
  const std::size_t q = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::size_t quads = n / 4;
  float4* out4 = reinterpret_cast<float4*>(out);
  if (n % 4 == 0) {
    if (q < quads) {
      const float4 a = reinterpret_cast<const float4*>(in)[quads - 1 - q];
      out4[q] = make_float4(a.w, a.z, a.y, a.x);
    }
    return;
  }
  if (q < quads) {  // 4 q + 3 < n: in[j - 3] = in[n - 4 - 4 q] exists
    const std::size_t j = n - 1 - 4 * q;
    out4[q] = make_float4(in[j], in[j - 1], in[j - 2], in[j - 3]);
  } else if (q == quads) {  // the n mod 4 last floats
    for (std::size_t i = 4 * q; i < n; ++i) out[i] = in[n - 1 - i];
  }
}

unsigned segments(std::size_t n, std::size_t seg) {
  return blocks_for(n, static_cast<unsigned>(seg));
}

}  // namespace

void launch(Variant variant, const float* in, float* out, std::size_t n, cudaStream_t s) {
  switch (variant) {
    case Variant::Global:
      global_reverse<<<blocks_for(n, 256), 256, 0, s>>>(in, out, n);
      MEMLAB_CHECK_LAUNCH(global_reverse);
      return;
    case Variant::StaticSmem:
      static_reverse<<<segments(n, kStaticSeg), kStaticSeg, 0, s>>>(in, out, n);
      MEMLAB_CHECK_LAUNCH(static_reverse);
      return;
    case Variant::DynamicSmem:
      dynamic_reverse<<<segments(n, kDynSeg), 256, kDynSeg * 4, s>>>(in, out, n, kDynSeg);
      MEMLAB_CHECK_LAUNCH(dynamic_reverse);
      return;
    case Variant::Dynamic96k:
      // Above 48 KiB a kernel must opt in (once per process is enough; repeating it is cheap).
      MEMLAB_CUDA_CHECK(cudaFuncSetAttribute(dynamic_reverse,
                                             cudaFuncAttributeMaxDynamicSharedMemorySize,
                                             static_cast<int>(kBigBytes)));
      dynamic_reverse<<<segments(n, kBigSeg), 1024, kBigBytes, s>>>(in, out, n, kBigSeg);
      MEMLAB_CHECK_LAUNCH(dynamic_reverse_96k);
      return;
    case Variant::DynamicF4:
      dynamic_reverse_f4<<<segments(n, kDynSeg), 256, kDynSeg * 4, s>>>(in, out, n, kDynSeg);
      MEMLAB_CHECK_LAUNCH(dynamic_reverse_f4);
      return;
    case Variant::DynamicF4X4:
      dynamic_reverse_f4_x4<<<segments(n, kDynSeg), kF4Threads, kDynSeg * 4, s>>>(in, out, n);
      MEMLAB_CHECK_LAUNCH(dynamic_reverse_f4_x4);
      return;
    case Variant::Bulk:
      launch_bulk_reverse(in, out, n, s);
      return;
    case Variant::BulkPipelined:
      launch_pipelined_reverse(in, out, n, s);
      return;
    case Variant::BulkPipelinedMany:
      launch_pipelined_many_reverse(in, out, n, s);
      return;
    case Variant::GlobalF4:  // one thread per output quad, plus one for the n mod 4 tail
      global_reverse_f4<<<blocks_for(n / 4 + 1, 256), 256, 0, s>>>(in, out, n);
      MEMLAB_CHECK_LAUNCH(global_reverse_f4);
      return;
  }
}

}  // namespace memlab::lessons::smem_reverse
