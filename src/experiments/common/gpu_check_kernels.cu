#include <cuda_runtime.h>

#include "common/gpu_check_kernels.cuh"
#include "common/launch.hpp"
#include "memlab/cuda/buffer.hpp"

namespace memlab::lessons {
namespace {

// Grid-stride pass over both arrays (coalesced 4-byte loads); each warp reduces its partial sums
// with shuffles and lane 0 adds them to three global accumulators (double atomics, sm_60+).
__global__ void rel_l2_kernel(const float* __restrict__ got, const float* __restrict__ want,
                              std::size_t n, double* sums, unsigned long long* nonfinite) {
  double d2 = 0, w2 = 0;
  unsigned long long bad = 0;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride) {
    const double g = got[i], w = want[i];
    if (!isfinite(g)) {
      ++bad;
      continue;
    }
    d2 += (g - w) * (g - w);
    w2 += w * w;
  }
  for (int off = 16; off > 0; off /= 2) {
    d2 += __shfl_down_sync(0xffffffffu, d2, off);
    w2 += __shfl_down_sync(0xffffffffu, w2, off);
    bad += __shfl_down_sync(0xffffffffu, bad, off);
  }
  if ((threadIdx.x & 31u) == 0) {
    atomicAdd(&sums[0], d2);
    atomicAdd(&sums[1], w2);
    atomicAdd(nonfinite, bad);
  }
}

}  // namespace

RelL2Sums rel_l2_sums(const float* got, const float* want, std::size_t n, cudaStream_t stream) {
  RelL2Sums r;
  if (n == 0) return r;
  DeviceBuffer<double> sums(2);
  DeviceBuffer<unsigned long long> bad(1);
  sums.fill_bytes(0, stream);
  bad.fill_bytes(0, stream);
  const unsigned blocks = std::min(blocks_for(n, 256), 132u * 8u);
  rel_l2_kernel<<<blocks, 256, 0, stream>>>(got, want, n, sums.get(), bad.get());
  MEMLAB_CHECK_LAUNCH(rel_l2_kernel);
  MEMLAB_CUDA_CHECK(cudaStreamSynchronize(stream));
  double h[2];
  sums.copy_to_host(h, 2);
  bad.copy_to_host(&r.nonfinite, 1);
  r.diff2 = h[0];
  r.want2 = h[1];
  return r;
}

}  // namespace memlab::lessons
