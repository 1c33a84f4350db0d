// graphs: launch overhead, and what CUDA graphs do about it.
//
// Experiment `graphs`: a chain of `kernels` small dependent kernels over one array, each doing
// `work_us` microseconds of dependent FMAs per thread (one 256-thread block per SM, so the work
// is latency, not throughput, and the kernel length is set by the chain, not the data).
//   stream   each kernel launched on the stream (cudaLaunchKernel x kernels per sample): the
//            host pays the launch call for every kernel, the GPU a dependency gap between them.
//   graph    the same chain captured once into a CUDA graph (cudaStreamBeginCapture ... EndCapture,
//            cudaGraphInstantiate) and replayed with one cudaGraphLaunch per sample.
//   fused    all the chain's work in ONE kernel (the same arithmetic, kernels x work_us long): the
//            floor with no launch at all; (variant - fused) / kernels is the overhead per kernel.
// Memory: each kernel reads and writes n floats (n = SMs x 256 - 37, ~135 KB): L2-resident, the
// data movement is nothing; the lesson is the time between kernels.
// Model: stream = kernels x max(host launch, work + gap); graph = launch + kernels x (work + gap').
//
// Experiment `graphs_pipeline`: the streams pipeline (H2D, kernel, D2H per chunk, chunk c in
// stream c % 4) enqueued op by op (`streams`) or captured once into a graph (`graph`).
// Memory: pinned host -> device -> pinned host, each byte crosses PCIe twice; with many small
// chunks the 3 x chunks API calls, not the link, set the time.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

namespace memlab::lessons::graphs {

inline constexpr float kBurnMul = 0.5f, kBurnAdd = 0.25f, kDecay = 0.75f;
// The constant kernel k adds: exact in float, different for neighbouring k (order-sensitive).
inline float step_constant(int k) {
  return static_cast<float>(k % 7) * 0.125f;
}

// Kernel k of the chain: for each i, t = in[i] after `burn` steps t <- fma(t, 0.5, 0.25), then
// out[i] = fma(in[i], 0.75, (t - 0.5) + step_constant(k)). Kernel 0 reads the input, the others
// update out in place (element-wise, so in place is safe).
void launch_chain_step(const float* in, float* out, std::size_t n, int burn, int k,
                       cudaStream_t stream);
// Kernels first..first+count-1 of the chain in one launch (fused: no launch between them).
void launch_chain_fused(const float* in, float* out, std::size_t n, int burn, int count,
                        cudaStream_t stream);
// The pipeline's kernel: out[i] = 2 in[i] + 1 (exact).
void launch_affine(const float* in, float* out, std::size_t n, cudaStream_t stream);

}  // namespace memlab::lessons::graphs
