// Runs experiments: for every axis point, set up once; for every variant, verify (poisoned
// output, CPU reference) and only then time. Computes the metrics of each Record.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "memlab/bench/experiment.hpp"
#include "memlab/bench/measure.hpp"
#include "memlab/bench/record.hpp"
#include "memlab/cuda/stream.hpp"

namespace memlab::bench {

struct Plan {
  const Experiment* experiment = nullptr;
  std::vector<Params> points;
  std::vector<const Variant*> variants;
};

struct RunOptions {
  MeasureOptions measure;
  std::uint64_t seed = 0;
  bool verify_only = false;  // check every variant, time nothing (e.g. under ncu)
  std::function<void(const std::string&)> progress;  // may be empty
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

  std::vector<Record> run(const Plan& plan);
  bool any_failed() const { return failed_; }

 private:
  DeviceInfo device_;
  RunOptions options_;
  Stream stream_;
  std::unique_ptr<L2Flusher> flusher_;
  ClockProbe probe_;
  Ceiling ceiling_;
  bool failed_ = false;
};

}  // namespace memlab::bench
