#include <cuda_runtime.h>

#include "aos_soa/kernels.cuh"
#include "common/launch.hpp"

namespace memlab::lessons::aos_soa {
namespace {

constexpr unsigned kBlock = 256;

struct Particle {
  float f[kFields];
};

__device__ __forceinline__ Particle step_all(const Particle& p) {
  Particle q;
  q.f[0] = __fmaf_rn(kDt, p.f[3], p.f[0]);
  q.f[1] = __fmaf_rn(kDt, p.f[4], p.f[1]);
  q.f[2] = __fmaf_rn(kDt, p.f[5], p.f[2]);
  q.f[3] = p.f[3] * kDamp;
  q.f[4] = p.f[4] * kDamp;
  q.f[5] = __fmaf_rn(-kG, kDt, p.f[5] * kDamp);
  q.f[6] = p.f[6];
  q.f[7] = p.f[7];
  return q;
}

__device__ __forceinline__ float step_one(float x) {
  return __fmaf_rn(kA, x, kB);
}

__host__ __device__ __forceinline__ std::size_t index(Layout layout, std::size_t i, int f,
                                                      std::size_t n) {
  switch (layout) {
    case Layout::Aos:
      return i * kFields + f;
    case Layout::Soa:
      return static_cast<std::size_t>(f) * n + i;
    default:
      return (i / kTile) * (kTile * kFields) + static_cast<std::size_t>(f) * kTile + i % kTile;
  }
}

// One 4-byte access per field, for any layout.
template <Layout layout, Update update>
__global__ void scalar_kernel(const float* __restrict__ in, float* __restrict__ out,
                              std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  if constexpr (update == Update::One) {
    const std::size_t k = index(layout, i, 0, n);
    out[k] = step_one(in[k]);
  } else {
    Particle p;
#pragma unroll
    for (int f = 0; f < kFields; ++f) p.f[f] = in[index(layout, i, f, n)];
    const Particle q = step_all(p);
#pragma unroll
    for (int f = 0; f < kFields; ++f) out[index(layout, i, f, n)] = q.f[f];
  }
}

// AoS with two 16-byte accesses per particle.
template <Update update>
__global__ void aos_f4_kernel(const float4* __restrict__ in, float4* __restrict__ out,
                              std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float4 lo = in[2 * i];
  const float4 hi = in[2 * i + 1];
  if constexpr (update == Update::One) {
    float4 o = lo;
    o.x = step_one(lo.x);
    reinterpret_cast<float*>(out)[i * kFields] = o.x;  // only x is an output
  } else {
    const Particle p{{lo.x, lo.y, lo.z, lo.w, hi.x, hi.y, hi.z, hi.w}};
    const Particle q = step_all(p);
    out[2 * i] = make_float4(q.f[0], q.f[1], q.f[2], q.f[3]);
    out[2 * i + 1] = make_float4(q.f[4], q.f[5], q.f[6], q.f[7]);
  }
}

template <Update update>
void launch_update(Variant v, const float* in, float* out, std::size_t n, cudaStream_t s) {
  const unsigned grid = blocks_for(n, kBlock);
  switch (v) {
    case Variant::Aos:
      scalar_kernel<Layout::Aos, update><<<grid, kBlock, 0, s>>>(in, out, n);
      MEMLAB_CHECK_LAUNCH(scalar_kernel_aos);
      return;
    case Variant::AosF4:
      aos_f4_kernel<update><<<grid, kBlock, 0, s>>>(reinterpret_cast<const float4*>(in),
                                                    reinterpret_cast<float4*>(out), n);
      MEMLAB_CHECK_LAUNCH(aos_f4_kernel);
      return;
    case Variant::Soa:
      scalar_kernel<Layout::Soa, update><<<grid, kBlock, 0, s>>>(in, out, n);
      MEMLAB_CHECK_LAUNCH(scalar_kernel_soa);
      return;
    case Variant::Aosoa32:
      scalar_kernel<Layout::Aosoa, update><<<grid, kBlock, 0, s>>>(in, out, n);
      MEMLAB_CHECK_LAUNCH(scalar_kernel_aosoa);
      return;
  }
}

__global__ void relayout_kernel(Layout layout, const float* __restrict__ aos,
                                float* __restrict__ out, std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  for (int f = 0; f < kFields; ++f) out[index(layout, i, f, n)] = aos[i * kFields + f];
}

}  // namespace

std::size_t layout_floats(Layout layout, std::size_t n) {
  return layout == Layout::Aosoa ? (n + kTile - 1) / kTile * kTile * kFields : n * kFields;
}

void relayout_from_aos(Layout layout, const float* aos, float* out, std::size_t n, cudaStream_t s) {
  relayout_kernel<<<blocks_for(n, kBlock), kBlock, 0, s>>>(layout, aos, out, n);
  MEMLAB_CHECK_LAUNCH(relayout_kernel);
}

void launch(Variant variant, Update update, const float* in, float* out, std::size_t n,
            cudaStream_t s) {
  if (update == Update::One) return launch_update<Update::One>(variant, in, out, n, s);
  return launch_update<Update::All>(variant, in, out, n, s);
}

}  // namespace memlab::lessons::aos_soa
