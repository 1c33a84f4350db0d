#include <cuda_runtime.h>

#include <algorithm>

#include "common/launch.hpp"
#include "events/kernels.cuh"

namespace memlab::lessons::events {
namespace {

constexpr unsigned kBlock = 256;

// Grid-stride: thread t handles t, t + grid, ...; every access coalesced, 4 bytes each.
// The FMA chain is dependent per element; with a full grid the 4-cycle latency is hidden by the
// other warps, with half a grid the kernel simply takes about twice as long.
__global__ void work_kernel(const float* __restrict__ in, float* __restrict__ out, std::size_t n,
                            int work) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride) {
    const float x = in[i];
    float y = x;
#pragma unroll 8
    for (int k = 0; k < work; ++k) y = __fmaf_rn(y, kFmaMul, kFmaAdd);
    out[i] = x * (y + y);
  }
}

// One thread per element: y = 2x + 1, a coalesced read and a coalesced write.
__global__ void consume_kernel(const float* __restrict__ x, float* __restrict__ y, std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 2.0f * x[i] + 1.0f;
}

}  // namespace

void launch_work(const float* in, float* out, std::size_t n, int work, unsigned blocks,
                 cudaStream_t stream) {
  if (n == 0) return;
  const unsigned grid = blocks > 0 ? blocks : blocks_for(n, kBlock);
  work_kernel<<<grid, kBlock, 0, stream>>>(in, out, n, work);
  MEMLAB_CHECK_LAUNCH(work_kernel);
}

unsigned half_resident_blocks() {
  static const unsigned half = std::max(1u, resident_blocks(work_kernel, kBlock) / 2);
  return half;
}

void launch_consume(const float* x, float* y, std::size_t n, cudaStream_t stream) {
  if (n == 0) return;
  consume_kernel<<<blocks_for(n, kBlock), kBlock, 0, stream>>>(x, y, n);
  MEMLAB_CHECK_LAUNCH(consume_kernel);
}

}  // namespace memlab::lessons::events
