#include <cuda_runtime.h>

#include <algorithm>
#include <stdexcept>

#include "coalescing/kernels.cuh"
#include "common/launch.hpp"
#include "memlab/model/coalescing_time.hpp"

namespace memlab::lessons::coalescing {
namespace {

// Fold an element into 32 bits by XOR of its 32-bit words (of its value for smaller sizes).
__device__ __forceinline__ std::uint32_t fold(std::uint8_t v) {
  return v;
}
__device__ __forceinline__ std::uint32_t fold(std::uint16_t v) {
  return v;
}
__device__ __forceinline__ std::uint32_t fold(std::uint32_t v) {
  return v;
}
__device__ __forceinline__ std::uint32_t fold(uint2 v) {
  return v.x ^ v.y;
}
__device__ __forceinline__ std::uint32_t fold(uint4 v) {
  return v.x ^ v.y ^ v.z ^ v.w;
}

// The time model counts the loads strided_read keeps in flight per thread (its unrolled body).
static_assert(model::kReadLoadsInFlight == 4, "strided_read issues 4 independent loads");

// A resident grid walks t with stride T = gridDim.x * blockDim.x; every load instruction of a
// warp still covers 32 consecutive t, so the access pattern per request is the lesson's. Four
// independent loads are in flight per iteration.
template <class T>
__global__ void strided_read(const T* __restrict__ in, std::uint32_t* __restrict__ out,
                             std::size_t n, std::size_t stride, std::size_t offset) {
  const std::size_t threads = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  std::size_t t = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  std::uint32_t v = 0;
  for (; t + 3 * threads < n; t += 4 * threads) {
    const T a = in[t * stride + offset];
    const T b = in[(t + threads) * stride + offset];
    const T c = in[(t + 2 * threads) * stride + offset];
    const T d = in[(t + 3 * threads) * stride + offset];
    v ^= fold(a) ^ fold(b) ^ fold(c) ^ fold(d);
  }
  for (; t < n; t += threads) v ^= fold(in[t * stride + offset]);
#pragma unroll
  for (int d = 16; d > 0; d >>= 1) v ^= __shfl_xor_sync(0xffffffffu, v, d);
  __shared__ std::uint32_t warp_xor[kBlock / 32];
  if ((threadIdx.x & 31) == 0) warp_xor[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    std::uint32_t r = 0;
    for (unsigned w = 0; w < kBlock / 32; ++w) r ^= warp_xor[w];
    out[blockIdx.x] = r;
  }
}

template <class T>
__global__ void strided_copy(const T* __restrict__ in, T* __restrict__ out, std::size_t n,
                             std::size_t stride, std::size_t offset) {
  const std::size_t t = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t < n) out[t] = in[t * stride + offset];
}

template <class T>
unsigned read_grid_t(std::size_t n) {
  static const unsigned resident = resident_blocks(strided_read<T>, kBlock);
  return std::min(blocks_for(n, kBlock), resident);
}

template <class T>
void read_t(const Args& a, cudaStream_t s) {
  strided_read<T><<<read_grid_t<T>(a.n), kBlock, 0, s>>>(
      static_cast<const T*>(a.in), static_cast<std::uint32_t*>(a.out), a.n, a.stride, a.offset);
  MEMLAB_CHECK_LAUNCH(strided_read);
}

template <class T>
void copy_t(const Args& a, cudaStream_t s) {
  strided_copy<T><<<blocks_for(a.n, kBlock), kBlock, 0, s>>>(
      static_cast<const T*>(a.in), static_cast<T*>(a.out), a.n, a.stride, a.offset);
  MEMLAB_CHECK_LAUNCH(strided_copy);
}

}  // namespace

void launch_read(const Args& a, cudaStream_t s) {
  switch (a.elem_size) {
    case 1:
      return read_t<std::uint8_t>(a, s);
    case 2:
      return read_t<std::uint16_t>(a, s);
    case 4:
      return read_t<std::uint32_t>(a, s);
    case 8:
      return read_t<uint2>(a, s);
    case 16:
      return read_t<uint4>(a, s);
    default:
      throw std::logic_error("coalescing: element size must be 1, 2, 4, 8 or 16");
  }
}

void launch(Variant v, const Args& a, cudaStream_t s) {
  switch (v) {
    case Variant::StridedRead:
      return launch_read(a, s);
    case Variant::StridedCopy:
      return launch_copy(a, s);
  }
}

unsigned read_grid(std::size_t n, int elem_size) {
  switch (elem_size) {
    case 1:
      return read_grid_t<std::uint8_t>(n);
    case 2:
      return read_grid_t<std::uint16_t>(n);
    case 4:
      return read_grid_t<std::uint32_t>(n);
    case 8:
      return read_grid_t<uint2>(n);
    default:
      return read_grid_t<uint4>(n);
  }
}

void launch_copy(const Args& a, cudaStream_t s) {
  switch (a.elem_size) {
    case 1:
      return copy_t<std::uint8_t>(a, s);
    case 2:
      return copy_t<std::uint16_t>(a, s);
    case 4:
      return copy_t<std::uint32_t>(a, s);
    case 8:
      return copy_t<uint2>(a, s);
    case 16:
      return copy_t<uint4>(a, s);
    default:
      throw std::logic_error("coalescing: element size must be 1, 2, 4, 8 or 16");
  }
}

}  // namespace memlab::lessons::coalescing
