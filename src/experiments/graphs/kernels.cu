// The graphs lesson's kernels: one step of the dependent chain, the fused chain, the pipeline's
// element-wise kernel. See kernels.cuh for what each does to memory.
#include "common/launch.hpp"
#include "graphs/kernels.cuh"
#include "memlab/cuda/check.hpp"

namespace memlab::lessons::graphs {
namespace {

constexpr unsigned kBlock = 256;

__device__ __forceinline__ float chain_update(float x, int burn, int k) {
  float t = x;
  for (int s = 0; s < burn; ++s) t = __fmaf_rn(t, kBurnMul, kBurnAdd);  // dependent: latency
  const float c = static_cast<float>(k % 7) * 0.125f;
  return __fmaf_rn(x, kDecay, __fadd_rn(__fsub_rn(t, 0.5f), c));
}

__global__ void chain_step(const float* __restrict__ in, float* out, std::size_t n, int burn,
                           int k) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i < n) out[i] = chain_update(in[i], burn, k);
}

__global__ void chain_fused(const float* __restrict__ in, float* out, std::size_t n, int burn,
                            int count) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  float x = in[i];
  for (int k = 0; k < count; ++k) x = chain_update(x, burn, k);
  out[i] = x;
}

__global__ void affine(const float* __restrict__ in, float* __restrict__ out, std::size_t n) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i < n) out[i] = __fmaf_rn(in[i], 2.0f, 1.0f);
}

}  // namespace

void launch_chain_step(const float* in, float* out, std::size_t n, int burn, int k,
                       cudaStream_t stream) {
  chain_step<<<blocks_for(n, kBlock), kBlock, 0, stream>>>(in, out, n, burn, k);
  MEMLAB_CHECK_LAUNCH(chain_step);
}

void launch_chain_fused(const float* in, float* out, std::size_t n, int burn, int count,
                        cudaStream_t stream) {
  chain_fused<<<blocks_for(n, kBlock), kBlock, 0, stream>>>(in, out, n, burn, count);
  MEMLAB_CHECK_LAUNCH(chain_fused);
}

void launch_affine(const float* in, float* out, std::size_t n, cudaStream_t stream) {
  if (n == 0) return;
  affine<<<blocks_for(n, kBlock), kBlock, 0, stream>>>(in, out, n);
  MEMLAB_CHECK_LAUNCH(affine);
}

}  // namespace memlab::lessons::graphs
