#include "memlab/bench/measure.hpp"

#include <chrono>
#include <vector>

#include "memlab/cuda/event.hpp"

namespace memlab::bench {

L2Flusher::L2Flusher(std::size_t l2_bytes) : scratch_(2 * l2_bytes) {}

void L2Flusher::flush(cudaStream_t stream) {
  value_ = (value_ + 1) & 0xFF;  // a different value each time: no write is elided
  scratch_.fill_bytes(value_, stream);
}

Stats measure(const std::function<void(cudaStream_t)>& work, cudaStream_t stream,
              const MeasureOptions& options, L2Flusher* flusher) {
  const bool flush = options.flush_l2 && flusher != nullptr;
  for (int i = 0; i < options.warmup; ++i) {
    if (flush) flusher->flush(stream);
    work(stream);
  }
  MEMLAB_CUDA_CHECK(cudaStreamSynchronize(stream));

  Event start, stop;
  std::vector<double> samples;
  const auto t0 = std::chrono::steady_clock::now();
  while (true) {
    if (flush) flusher->flush(stream);
    start.record(stream);
    work(stream);
    stop.record(stream);
    stop.synchronize();
    samples.push_back(static_cast<double>(stop.elapsed_ms_since(start)));

    const auto n = static_cast<int>(samples.size());
    if (n >= options.max_samples) break;
    if (n < options.min_samples) continue;
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (elapsed >= options.budget_s) break;
    if (summarize(samples).relative_error() <= options.noise) break;
  }
  return summarize(std::move(samples));
}

}  // namespace memlab::bench
