// events: timing with CUDA events and cross-stream dependencies (seed 000 section 7, seed 003).
//
// Variants: the enumerators of `Variant` below.
//
// Napkin math (H200): f does `work` dependent FMAs per element. n = 2^22, work = 8192: 2^35 FMAs
// = 6.9e10 flops; at ~67 TFLOP/s about 1.0 ms, while memory (32 MiB) takes ~8 us: compute-bound.
// Each two_streams kernel on half the GPU takes ~2 ms alone-on-half; both together ~2 ms wall.
#pragma once

#include <cuda_runtime_api.h>

#include <cmath>
#include <cstddef>

#include "common/variants.hpp"

namespace memlab::lessons::events {

inline constexpr float kFmaMul = 0.5f, kFmaAdd = 0.25f;

enum class Variant {
  // One slow kernel (x = f(in)) in the timed stream; inspect shows the timing pitfalls: a host
  // timer without synchronisation, with cudaDeviceSynchronize, CUDA events, and reading
  // cudaEventElapsedTime too early (cudaErrorNotReady).
  Kernel,
  // Kernel A (x = f(in)) in stream a, an event, cudaStreamWaitEvent in stream b, kernel B
  // (y = 2 x + 1) in stream b: B must see all of A's output; the host only enqueues (it does not
  // wait for A).
  CrossStream,
  // Two kernels, each on a grid of half the resident blocks, in two streams at once (seed 003
  // section 3.4): per-stream times, wall time, overlap.
  TwoStreams,
};

inline constexpr VariantInfo<Variant> kVariants[] = {
    {Variant::Kernel, "kernel", "one kernel, timed by the harness; inspect: host timers vs events"},
    {Variant::CrossStream, "cross_stream",
     "A in stream a, event, stream b waits, B consumes A's output"},
    {Variant::TwoStreams, "two_streams",
     "two kernels on half the grid each, in two streams at once"},
};

// out[i] = x * (y + y), x = in[i], y = x after `work` steps y <- fma(y, 0.5, 0.25) (y -> 0.5).
// Grid-stride loop over a grid of `blocks` blocks (0: one thread per element). Reads in once and
// writes out once, coalesced 4-byte accesses; the FMAs dominate for work >> 10.
void launch_work(const float* in, float* out, std::size_t n, int work, unsigned blocks,
                 cudaStream_t stream);

// Half of the blocks of launch_work's kernel that the device holds at once (>= 1).
unsigned half_resident_blocks();

// y[i] = 2 x[i] + 1: reads x once, writes y once (coalesced). Cheap: B in the dependency demo.
void launch_consume(const float* x, float* y, std::size_t n, cudaStream_t stream);

// Host references, bit-exact with the kernels (same IEEE operations; 2x + 1 is exact in an FMA
// and in two roundings alike because 2x is exact).
inline float work_reference(float x, int work) {
  float y = x;
  for (int k = 0; k < work && y != 0.5f; ++k) y = std::fma(y, kFmaMul, kFmaAdd);
  return x * (y + y);
}
inline float consume_reference(float x) {
  return 2.0f * x + 1.0f;
}

}  // namespace memlab::lessons::events
