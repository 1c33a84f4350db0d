// streams: the seeds' pipeline (seed 000 section 6, seed 001 "Streams und asynchrone Kopien").
// C = A + B over n floats, split into `segments` segments; each segment is copied in (H2D: A and
// B), computed, and copied out (D2H: C), in stream (segment % streams). The kernel carries
// `work` dependent FMAs per element so that its time can be set to match the copies.
//
// Variants: the enumerators of `Variant` (experiment `streams`) and `DefaultStreamVariant`
// (experiment `default_stream`: three small kernels in stream 1, the middle stream and stream 2).
//
// Napkin math (H200, PCIe gen5 x16, n = 2^26 floats): H2D moves 2 x 256 MiB = 512 MiB, D2H
// 256 MiB. At ~54 GB/s per direction (pinned) that is ~9.9 ms in and ~5.0 ms out. The kernel
// moves 768 MiB through DRAM (~0.2 ms at 4 TB/s: nothing) and does n x work FMAs: at the FP32
// peak (~67 TFLOP/s = 33.5 T FMA/s) work = 4096 takes ~8.2 ms, close to the H2D time. Serial:
// ~9.9 + 8.2 + 5.0 = 23 ms; overlapped, the busiest engine (H2D, ~9.9 ms) plus fill and drain:
// ideal speed-up ~2.2x with 32 segments (the timeline model computes it from measured stages).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

#include "common/variants.hpp"

namespace memlab::lessons::streams {

inline constexpr float kFmaMul = 0.5f, kFmaAdd = 0.25f;  // y <- fma(y, 0.5, 0.25): y -> 0.5

enum class Variant {
  // One stream: H2D of all of A and B, one kernel, D2H of all of C; every operation waits for the
  // previous one (the timeline synchronous cudaMemcpy gives).
  Serial,
  // N streams; per segment: H2D, kernel, D2H (the seeds' first loop).
  DepthFirst,
  // N streams; all H2D, then all kernels, then all D2H (the seeds' better loop).
  BreadthFirst,
  // Seed 000's loop: rounds of N segments, breadth-first inside each round, so that no stream
  // queues a second H2D before its first kernel.
  Rounds,
  // breadth_first from pageable (malloc) host buffers: the driver stages every copy through its
  // own pinned buffer, so the copies do not overlap (runs at streams=4 only).
  Pageable,
};

inline constexpr VariantInfo<Variant> kVariants[] = {
    {Variant::Serial, "serial",
     "one stream: all H2D, one kernel, all D2H, each after the previous"},
    {Variant::DepthFirst, "depth_first", "N streams; per segment H2D, kernel, D2H"},
    {Variant::BreadthFirst, "breadth_first", "N streams; all H2D, then all kernels, then all D2H"},
    {Variant::Rounds, "rounds",
     "seed 000's loop: rounds of N segments, breadth-first inside each round (no stream queues "
     "a second H2D before its first kernel)"},
    {Variant::Pageable, "pageable",
     "breadth_first from pageable host memory (runs at streams=4 only: N does not matter)"},
};

enum class DefaultStreamVariant {
  // Middle = the legacy default stream (0): it waits for stream 1 and stream 2 waits for it: the
  // three kernels run one after the other.
  Legacy,
  // Middle = cudaStreamPerThread: no implicit synchronisation, they overlap.
  PerThread,
};

inline constexpr VariantInfo<DefaultStreamVariant> kDefaultStreamVariants[] = {
    {DefaultStreamVariant::Legacy, "legacy",
     "middle kernel in the legacy default stream (0): implicit syncs"},
    {DefaultStreamVariant::PerThread, "per_thread",
     "middle kernel in cudaStreamPerThread: no implicit syncs"},
};

// c[i] = x * (y + y) with x = a[i] + b[i] and y = x after `work` steps y <- fma(y, 0.5, 0.25).
// Each step halves y - 0.5 (exactly, until it rounds to 0.5 after ~30 steps), so the host
// reference iterates until y == 0.5 and stops: cheap for any work, bit-exact with the GPU.
// Memory: reads a and b once, writes c once, all coalesced 4-byte accesses; one thread per
// element.
void launch_add_work(const float* a, const float* b, float* c, std::size_t n, int work,
                     cudaStream_t stream);

}  // namespace memlab::lessons::streams
