// Runs planned experiments (plan.hpp): for every axis point, set up once; for every planned
// variant, verify (poisoned output, CPU reference) and only then time. What the device cannot run
// (a variant's needs_device false; SkipPoint thrown by setup, run or check) becomes skip records
// with the reason. Computes the metrics of each Record. Front ends call execute()
// (plan.hpp), which drives a Runner.
#pragma once

#include <cuda_runtime_api.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "memlab/bench/experiment.hpp"
#include "memlab/bench/measure.hpp"
#include "memlab/bench/plan.hpp"
#include "memlab/bench/record.hpp"
#include "memlab/cuda/cupti.hpp"
#include "memlab/cuda/stream.hpp"

namespace memlab::bench {

struct RunOptions {
  MeasureOptions measure;
  bool verify_only = false;  // check every variant, time nothing (e.g. under ncu)
  ProgressFn progress;       // may be empty
  std::size_t total = 0;     // measurements in the whole plan (ProgressEvent::total)
  const std::atomic<bool>* cancel = nullptr;  // checked between measurements; may be null
  // `--counters`: after each variant is verified (and timed), a separate pass under CUPTI's
  // range profiler (never timed), the L2 flushed before every replay when `counters_cold`.
  bool counters = false;
  bool counters_cold = true;
  std::function<void(const std::string&)> on_counters_unavailable;  // once, with the reason
};

// The seed of one axis point: the run's seed mixed with the experiment and the point.
std::uint64_t point_seed(std::uint64_t seed, const std::string& experiment, const Params& p);

// Poison, run once, synchronise, check. Throws CudaError on CUDA failures.
Check verify_variant(const Experiment& e, Instance& instance, const Params& p, const Variant& v,
                     cudaStream_t stream);

class Runner {
 public:
  Runner(const DeviceInfo& device, RunOptions options);

  // Device-to-device cudaMemcpy of `bytes` (counted read + write), the measured ceiling.
  Ceiling measure_memcpy_ceiling(std::size_t bytes);
  void set_ceiling(const Ceiling& c) { ceiling_ = c; }

  // Appends the records of one experiment's plan to `out`; stops early when cancelled.
  void run(const ExperimentPlan& plan, std::vector<Record>& out);
  bool any_failed() const { return failed_; }
  bool cancelled() const;
  // `--counters`: "" not asked, "collected", or "unavailable: <reason>" (Context::counters).
  const std::string& counters_status() const { return counters_status_; }

 private:
  DeviceInfo device_;
  RunOptions options_;
  Stream stream_;
  std::unique_ptr<L2Flusher> flusher_;
  ClockProbe probe_;
  std::unique_ptr<CounterSession> counters_;  // null: not asked, or unavailable
  std::string counters_status_;
  void counters_unavailable(const std::string& reason);
  void collect_counters(Record& r, const std::optional<Prediction>& prediction,
                        const std::function<void()>& work);
  // One point's variants, set up in `instance` (null when none can run on this device).
  void run_point(const Experiment& e, const PlannedPoint& point, const MeasureOptions& mopt,
                 Instance* instance, const std::vector<bool>& device_ok, std::vector<Record>& out,
                 std::vector<double>& slowdown,
                 const std::function<Record(const Variant&, std::string)>& skip_record);
  void resolve_baseline(const Experiment& e, std::size_t first, const std::vector<double>& slowdown,
                        std::vector<Record>& out);
  Ceiling ceiling_;
  bool failed_ = false;
  std::size_t index_ = 0;  // measurements so far
};

}  // namespace memlab::bench
