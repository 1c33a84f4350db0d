// The measuring loop: CUDA events on a dedicated non-blocking stream, warm-up, at least
// `min_samples` samples, stopping when the relative standard error of the mean falls under
// `noise` or the time budget is spent.
//
// Cold (the default): the L2 is flushed before every sample by a read-only pass over a clean
// buffer larger than the L2, so the timed kernel finds neither its data nor dirty lines of anyone
// else in the L2 (docs/ncu.md, "A clean cold L2"). Warm: no flush. Either way a short GPU-side
// gate (`gate_ns`) precedes the start event, so the timed work is queued before it is timed.
// Batch: for kernels shorter than `batch_below_ms`, a second figure from many back-to-back
// launches between two events (no flush in between: launch gaps hidden, L2 warm), per launch.
// Clocks: an optional probe (NVML) is read after samples; a measurement whose probes saw
// throttling too often is discarded and taken again (memlab/bench/clocks.hpp).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <functional>
#include <optional>

#include "memlab/bench/clocks.hpp"
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
  bool batch = true;               // offer the batch figure for short kernels
  double batch_below_ms = 0.05;    // ... when the cold/warm median is below this
  double batch_target_ms = 2.0;    // launches per batch sample: about this long in total
  double probe_interval_s = 1e-3;  // at most one clock probe per interval (and one per sample)
  // Before each sample's start event (after the flush), the GPU waits this long on a one-thread
  // kernel while the host enqueues the start event, the work and the stop event: the pair then
  // brackets the work's execution, never the host's launch latency (0: no gate).
  unsigned gate_ns = 20000;
  // Exactly min_samples samples, no re-measurement, no batch figure: every MPI rank takes the
  // same number of samples, so collectives inside the timed work stay in lockstep.
  bool fixed_samples = false;
};

// Reads (never writes) a buffer of twice the L2, initialised once and cleaned at construction.
class L2Flusher {
 public:
  explicit L2Flusher(std::size_t l2_bytes);
  void flush(cudaStream_t stream);
  std::size_t bytes() const { return scratch_.size(); }

 private:
  DeviceBuffer<unsigned char> scratch_;
  DeviceBuffer<unsigned> sink_;
};

struct Measurement {
  Stats stats;                 // milliseconds; cold when flushed, else warm
  bool cold = false;           // the L2 was flushed before every sample of `stats`
  std::optional<Stats> batch;  // milliseconds per launch, batch mode (short kernels only)
  int batch_launches = 0;      // launches between the two events of one batch sample
  ClockRange clocks;
};

// Times `work` (which enqueues its GPU work on the given stream). `prepare`, when given, runs
// before every warm-up run and every sample, after the stream is idle and before the L2 flush
// and the start event: outside the timed region (Variant::prepare). It turns the batch figure off.
Measurement measure(const std::function<void(cudaStream_t)>& work, cudaStream_t stream,
                    const MeasureOptions& options, L2Flusher* flusher, const ClockProbe& probe = {},
                    const std::function<void(cudaStream_t)>& prepare = {});

}  // namespace memlab::bench
