// multi_gpu_pipeline: the streams lesson's pipeline (C = A + B with `work` FMAs per element,
// copied in, computed and copied out segment by segment, breadth-first over 4 streams) with the
// array split across GPUs: GPU g takes the g-th slice and runs the same pipeline on its own
// streams, copy engines and PCIe link, all GPUs at once.
//
// Variants (enumerators of `Variant`):
//   one_gpu    the whole array through GPU 0's pipeline: the streams lesson's breadth_first
//   all_gpus   one slice per GPU this process sees, each slice its own pipeline
//
// Napkin math (2 x H200, each on its own PCIe gen5 x16, n = 2^26 floats, work = 4096): one GPU
// moves 768 MiB over its link (~14 ms at ~55 GB/s in and out) and computes ~8 ms, overlapped
// ~15 ms; two GPUs each take half: ~7.5 ms, 2x, as long as the host's memory and root complex
// feed both links (they share host DRAM: ~2 x 55 GB/s in is far below it).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

#include "common/variants.hpp"

namespace memlab::lessons::multi_gpu_pipeline {

inline constexpr float kFmaMul = 0.5f, kFmaAdd = 0.25f;  // y <- fma(y, 0.5, 0.25): y -> 0.5
inline constexpr int kStreamsPerGpu = 4;

enum class Variant {
  // GPU 0 alone: segments breadth-first over 4 streams (all H2D, all kernels, all D2H).
  OneGpu,
  // Every GPU of the process: GPU g pipelines slice g (n x g / G .. n x (g + 1) / G) the same way.
  AllGpus,
};

inline constexpr VariantInfo<Variant> kVariants[] = {
    {Variant::OneGpu, "one_gpu", "the whole array through GPU 0's pipeline (4 streams)"},
    {Variant::AllGpus, "all_gpus", "one slice per GPU, each its own 4-stream pipeline"},
};

// c[i] = x * (y + y), x = a[i] + b[i], y = x after `work` steps y <- fma(y, 0.5, 0.25); one thread
// per element, coalesced 4-byte loads and stores (the streams lesson's kernel, own copy).
void launch_add_work(const float* a, const float* b, float* c, std::size_t n, int work,
                     cudaStream_t stream);

// The host reference of one element (bit-exact with the GPU: y converges to 0.5 exactly).
float add_work_reference(float a, float b, int work);

}  // namespace memlab::lessons::multi_gpu_pipeline
