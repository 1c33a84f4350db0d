// Worker side: the learner's kernel loaded from NVRTC's image (CUDA runtime library API), bound
// to a lesson point's buffers by name, launched with a deadline, and timed like a variant.
#pragma once

#include <cuda_runtime_api.h>

#include <functional>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "exercise/plan.hpp"
#include "memlab/bench/experiment.hpp"
#include "memlab/cuda/device_info.hpp"

namespace memlab::exercise {

// A failure that is the learner's (status "timeout", "launch_error", "wrong_result", ...).
class LearnerError : public std::runtime_error {
 public:
  LearnerError(std::string status, const std::string& message)
      : std::runtime_error(message), status_(std::move(status)) {}
  const std::string& status() const { return status_; }

 private:
  std::string status_;
};

struct LearnerKernel {
  cudaLibrary_t library = nullptr;
  cudaKernel_t kernel = nullptr;
  cudaFuncAttributes attr{};
  nlohmann::json info;  // arch, registers, static shared bytes, max threads per block, ...
};

LearnerKernel load_learner_kernel(const Exercise& e, const std::string& source,
                                  const std::string& file_name, const DeviceInfo& device);

// Called when a launch of the learner's kernel outlives its deadline, before anything else runs:
// the worker reports the timeout and leaves with _exit. Unwinding instead would run the lesson's
// buffer destructors, whose cudaFree waits for the endless kernel (seen on the H200: the worker
// spun until the parent's limit). Empty: launch_learner throws.
void set_timeout_hook(std::function<void()> hook);

// Poisons the lesson's outputs (when `poison`), launches once and waits at most `deadline_s`;
// then calls the timeout hook, or throws LearnerError("timeout", ...) when there is none.
void launch_learner(const LearnerKernel& k, const Exercise& e, const bench::Experiment& x,
                    bench::Instance& inst, const PlannedPoint& pp, cudaStream_t stream,
                    double deadline_s, bool poison);

// Runs the lesson's variants through the runner at the measuring point, then verifies and times
// the learner's kernel there; returns figures, variants, prediction and the target's verdict.
nlohmann::json measure_learner(const Exercise& e, const bench::Experiment& x,
                               const LearnerKernel& k, const PlannedPoint& pp,
                               const DeviceInfo& device, cudaStream_t stream, std::uint64_t seed,
                               double deadline_s,
                               const std::function<void(const std::string&)>& phase);

}  // namespace memlab::exercise
