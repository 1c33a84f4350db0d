#include <cuda_runtime.h>

#include <cstring>

#include "bandwidth/kernels.cuh"
#include "bandwidth/kernels_bulk.cuh"
#include "common/launch.hpp"

namespace memlab::lessons::bandwidth {
namespace {

template <Op op>
__device__ __forceinline__ float apply(float a, float b, float s, float fill) {
  if constexpr (op == Op::Copy) return a;
  if constexpr (op == Op::Scale) return s * a;
  if constexpr (op == Op::Add) return a + b;
  if constexpr (op == Op::Triad) return __fmaf_rn(s, b, a);  // a + s*b, one rounding
  return fill;
}

template <Op op>
__device__ __forceinline__ float4 apply4(float4 a, float4 b, float s, float fill) {
  return make_float4(apply<op>(a.x, b.x, s, fill), apply<op>(a.y, b.y, s, fill),
                     apply<op>(a.z, b.z, s, fill), apply<op>(a.w, b.w, s, fill));
}

constexpr bool reads_a(Op op) {
  return op != Op::Fill;
}
constexpr bool reads_b(Op op) {
  return op == Op::Add || op == Op::Triad;
}

template <Op op>
__device__ __forceinline__ void one(const Args& x, std::size_t i) {
  const float a = reads_a(op) ? x.a[i] : 0.0f;
  const float b = reads_b(op) ? x.b[i] : 0.0f;
  x.c[i] = apply<op>(a, b, x.s, x.fill);
}

// One thread per element.
template <Op op>
__global__ void elem_f1(Args x) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < x.n) one<op>(x, i);
}

// A resident grid strides over the array.
template <Op op>
__global__ void gridstride_f1(Args x) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < x.n;
       i += stride) {
    one<op>(x, i);
  }
}

template <Op op, bool streaming>
__device__ __forceinline__ float4 load4(const float* p, std::size_t i) {
  const float4* q = reinterpret_cast<const float4*>(p) + i;
  if constexpr (streaming) return __ldcs(q);
  return *q;
}

template <Op op, bool streaming>
__device__ __forceinline__ void store4(float* p, std::size_t i, float4 v) {
  float4* q = reinterpret_cast<float4*>(p) + i;
  if constexpr (streaming) {
    __stcs(q, v);
  } else {
    *q = v;
  }
}

template <Op op, bool streaming>
__device__ __forceinline__ void one4(const Args& x, std::size_t i) {
  const float4 z = make_float4(0, 0, 0, 0);
  const float4 a = reads_a(op) ? load4<op, streaming>(x.a, i) : z;
  const float4 b = reads_b(op) ? load4<op, streaming>(x.b, i) : z;
  store4<op, streaming>(x.c, i, apply4<op>(a, b, x.s, x.fill));
}

// The n % 4 trailing elements, done by the first threads of block 0 with 4-byte accesses.
template <Op op>
__device__ __forceinline__ void tail(const Args& x) {
  const std::size_t start = x.n & ~std::size_t{3};
  if (blockIdx.x == 0 && threadIdx.x < x.n - start) one<op>(x, start + threadIdx.x);
}

// One thread per float4 (16-byte loads and stores; cudaMalloc returns 256-byte aligned memory).
template <Op op>
__global__ void elem_f4(Args x) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < x.n / 4) one4<op, false>(x, i);
  tail<op>(x);
}

template <Op op>
__global__ void gridstride_f4(Args x) {
  const std::size_t n4 = x.n / 4;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n4;
       i += stride) {
    one4<op, false>(x, i);
  }
  tail<op>(x);
}

// Each block owns 4 * blockDim.x consecutive float4; each thread loads its 4 (strided by
// blockDim.x, so every load instruction of a warp is one contiguous 512-byte span) before
// storing any of them.
template <Op op, bool streaming>
__global__ void f4_unroll4(Args x) {
  constexpr int kUnroll = 4;
  const std::size_t n4 = x.n / 4;
  const std::size_t base =
      static_cast<std::size_t>(blockIdx.x) * blockDim.x * kUnroll + threadIdx.x;
  const float4 z = make_float4(0, 0, 0, 0);
  float4 a[kUnroll], b[kUnroll];
#pragma unroll
  for (int k = 0; k < kUnroll; ++k) {
    const std::size_t i = base + static_cast<std::size_t>(k) * blockDim.x;
    a[k] = (reads_a(op) && i < n4) ? load4<op, streaming>(x.a, i) : z;
    b[k] = (reads_b(op) && i < n4) ? load4<op, streaming>(x.b, i) : z;
  }
#pragma unroll
  for (int k = 0; k < kUnroll; ++k) {
    const std::size_t i = base + static_cast<std::size_t>(k) * blockDim.x;
    if (i < n4) store4<op, streaming>(x.c, i, apply4<op>(a[k], b[k], x.s, x.fill));
  }
  tail<op>(x);
}

constexpr unsigned kBlock = 256;

template <Op op>
void launch_op(Variant v, const Args& x, cudaStream_t s) {
  switch (v) {
    case Variant::ElemF1:
      elem_f1<op><<<blocks_for(x.n, kBlock), kBlock, 0, s>>>(x);
      MEMLAB_CHECK_LAUNCH(elem_f1);
      return;
    case Variant::GridstrideF1: {
      static const unsigned grid = resident_blocks(gridstride_f1<op>, kBlock);
      gridstride_f1<op><<<grid, kBlock, 0, s>>>(x);
      MEMLAB_CHECK_LAUNCH(gridstride_f1);
      return;
    }
    case Variant::ElemF4:
      elem_f4<op><<<blocks_for(x.n / 4, kBlock), kBlock, 0, s>>>(x);
      MEMLAB_CHECK_LAUNCH(elem_f4);
      return;
    case Variant::GridstrideF4: {
      static const unsigned grid = resident_blocks(gridstride_f4<op>, kBlock);
      gridstride_f4<op><<<grid, kBlock, 0, s>>>(x);
      MEMLAB_CHECK_LAUNCH(gridstride_f4);
      return;
    }
    case Variant::F4Unroll4:
      f4_unroll4<op, false><<<blocks_for(x.n / 4, kBlock * 4), kBlock, 0, s>>>(x);
      MEMLAB_CHECK_LAUNCH(f4_unroll4);
      return;
    case Variant::F4Unroll4Cs:
      f4_unroll4<op, true><<<blocks_for(x.n / 4, kBlock * 4), kBlock, 0, s>>>(x);
      MEMLAB_CHECK_LAUNCH(f4_unroll4_cs);
      return;
    case Variant::BulkCopy:  // op=copy only (the experiment's only_if)
      launch_bulk_copy(x.a, x.c, x.n, s);
      return;
    case Variant::BulkRing:  // op=copy only
      launch_bulk_ring(x.a, x.c, x.n, s);
      return;
    case Variant::BulkRingHint:  // op=copy only
      launch_bulk_ring_hint(x.a, x.c, x.n, s);
      return;
    case Variant::BulkRingMany:  // op=copy only
      launch_bulk_ring_many(x.a, x.c, x.n, s);
      return;
    case Variant::CudaMemcpy:
      MEMLAB_CUDA_CHECK(
          cudaMemcpyAsync(x.c, x.a, x.n * sizeof(float), cudaMemcpyDeviceToDevice, s));
      return;
    case Variant::CudaMemset:
      MEMLAB_CUDA_CHECK(cudaMemsetAsync(x.c, kFillByte, x.n * sizeof(float), s));
      return;
  }
}

}  // namespace

void launch(Op op, Variant v, const Args& x, cudaStream_t s) {
  switch (op) {
    case Op::Copy:
      return launch_op<Op::Copy>(v, x, s);
    case Op::Scale:
      return launch_op<Op::Scale>(v, x, s);
    case Op::Add:
      return launch_op<Op::Add>(v, x, s);
    case Op::Triad:
      return launch_op<Op::Triad>(v, x, s);
    case Op::Fill:
      return launch_op<Op::Fill>(v, x, s);
  }
}

}  // namespace memlab::lessons::bandwidth
