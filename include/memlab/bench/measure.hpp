// The measuring loop: CUDA events on a dedicated non-blocking stream, warm-up, at least
// `min_samples` samples, stopping when the relative standard error of the mean falls under
// `noise` or the time budget is spent; the L2 is flushed before every sample unless warm.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <functional>

#include "memlab/bench/stats.hpp"
#include "memlab/cuda/buffer.hpp"

namespace memlab::bench {

struct MeasureOptions {
  int warmup = 2;
  int min_samples = 10;
  int max_samples = 1000;
  double noise = 0.005;   // relative standard error of the mean to stop on
  double budget_s = 0.5;  // wall time per measurement, once min_samples are taken
  bool flush_l2 = true;
};

// Writes a buffer of twice the L2 size so that the next sample starts with a cold cache.
class L2Flusher {
 public:
  explicit L2Flusher(std::size_t l2_bytes);
  void flush(cudaStream_t stream);

 private:
  DeviceBuffer<unsigned char> scratch_;
  int value_ = 0;
};

// Times `work` (which enqueues its GPU work on the given stream). Returns milliseconds.
Stats measure(const std::function<void(cudaStream_t)>& work, cudaStream_t stream,
              const MeasureOptions& options, L2Flusher* flusher);

}  // namespace memlab::bench
