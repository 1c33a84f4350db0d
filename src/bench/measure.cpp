#include "memlab/bench/measure.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <vector>

#include "memlab/cuda/event.hpp"
#include "memlab/cuda/l2_flush.hpp"

namespace memlab::bench {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// Twice the L2, rounded up to 1 MiB (a multiple of the 16-byte words the flush reads).
std::size_t flush_bytes(std::size_t l2_bytes) {
  const std::size_t mib = std::size_t{1} << 20;
  return (2 * std::max<std::size_t>(l2_bytes, mib) + mib - 1) / mib * mib;
}

// The stop rule shared by the cold and the batch loop.
bool enough(const std::vector<double>& samples, const MeasureOptions& o, Clock::time_point t0) {
  const auto n = static_cast<int>(samples.size());
  if (o.fixed_samples) return n >= o.min_samples;
  if (n >= o.max_samples) return true;
  if (n < o.min_samples) return false;
  if (seconds_since(t0) >= o.budget_s) return true;
  return summarize(samples).relative_error() <= o.noise;
}

// Reads the probe after a sample, at most once per interval (NVML calls cost tens of us).
struct Prober {
  const ClockProbe& probe;
  double interval_s;
  Clock::time_point last{};
  bool first = true;

  void after_sample(ClockRange& range) {
    if (!probe) return;
    const auto now = Clock::now();
    if (!first && std::chrono::duration<double>(now - last).count() < interval_s) return;
    first = false;
    last = now;
    if (auto s = probe()) range.add(*s);
  }
};

// The per-sample preparation, once the stream's earlier work has finished (untimed).
void prepare_sample(const std::function<void(cudaStream_t)>& prepare, cudaStream_t stream) {
  if (!prepare) return;
  MEMLAB_CUDA_CHECK(cudaStreamSynchronize(stream));
  prepare(stream);
}

Stats cold_loop(const std::function<void(cudaStream_t)>& work, cudaStream_t stream,
                const MeasureOptions& o, L2Flusher* flusher, ClockRange& clocks,
                const ClockProbe& probe, const std::function<void(cudaStream_t)>& prepare) {
  Event start, stop;
  std::vector<double> samples;
  Prober prober{probe, o.probe_interval_s};
  const auto t0 = Clock::now();
  do {
    prepare_sample(prepare, stream);
    if (flusher != nullptr) flusher->flush(stream);
    gpu_delay(o.gate_ns, stream);  // the flush is done; the work is queued before `start` runs
    start.record(stream);
    work(stream);
    stop.record(stream);
    stop.synchronize();
    samples.push_back(static_cast<double>(stop.elapsed_ms_since(start)));
    prober.after_sample(clocks);
  } while (!enough(samples, o, t0));
  return summarize(std::move(samples));
}

Stats batch_loop(const std::function<void(cudaStream_t)>& work, cudaStream_t stream,
                 const MeasureOptions& o, int launches, ClockRange& clocks,
                 const ClockProbe& probe) {
  Event start, stop;
  for (int i = 0; i < launches; ++i) work(stream);  // warm-up batch
  MEMLAB_CUDA_CHECK(cudaStreamSynchronize(stream));
  std::vector<double> samples;
  Prober prober{probe, o.probe_interval_s};
  const auto t0 = Clock::now();
  do {
    gpu_delay(o.gate_ns, stream);
    start.record(stream);
    for (int i = 0; i < launches; ++i) work(stream);
    stop.record(stream);
    stop.synchronize();
    samples.push_back(static_cast<double>(stop.elapsed_ms_since(start)) / launches);
    prober.after_sample(clocks);
  } while (!enough(samples, o, t0));
  return summarize(std::move(samples));
}

}  // namespace

L2Flusher::L2Flusher(std::size_t l2_bytes) : scratch_(flush_bytes(l2_bytes)), sink_(1) {
  // Initialised once (these writes leave dirty lines), then read twice: the first pass evicts
  // (writes back) them, the second leaves only clean lines of this buffer in the L2.
  scratch_.fill_bytes(0x5A);
  flush(nullptr);
  flush(nullptr);
  MEMLAB_CUDA_CHECK(cudaDeviceSynchronize());
}

void L2Flusher::flush(cudaStream_t stream) {
  read_all(scratch_.get(), scratch_.size(), sink_.get(), stream);
}

Measurement measure(const std::function<void(cudaStream_t)>& work, cudaStream_t stream,
                    const MeasureOptions& options, L2Flusher* flusher, const ClockProbe& probe,
                    const std::function<void(cudaStream_t)>& prepare) {
  L2Flusher* f = options.flush_l2 ? flusher : nullptr;
  for (int i = 0; i < options.warmup; ++i) {
    prepare_sample(prepare, stream);
    if (f != nullptr) f->flush(stream);
    work(stream);
  }
  MEMLAB_CUDA_CHECK(cudaStreamSynchronize(stream));

  Measurement m;
  m.cold = f != nullptr;
  for (int attempt = 0;; ++attempt) {
    ClockRange clocks;
    clocks.remeasured = attempt;
    m.stats = cold_loop(work, stream, options, f, clocks, probe, prepare);
    m.clocks = clocks;
    if (!clocks.too_throttled() || attempt >= kMaxRemeasure || options.fixed_samples) break;
  }
  if (options.batch && !options.fixed_samples && !prepare &&
      m.stats.median < options.batch_below_ms) {
    const double per = std::max(m.stats.median, 1e-4);
    m.batch_launches =
        static_cast<int>(std::clamp(std::ceil(options.batch_target_ms / per), 2.0, 10000.0));
    ClockRange clocks;
    m.batch = batch_loop(work, stream, options, m.batch_launches, clocks, probe);
    m.clocks.merge(clocks);  // one clock range per record: both loops
  }
  return m;
}

}  // namespace memlab::bench
