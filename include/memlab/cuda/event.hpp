// RAII CUDA event: timing and cross-stream dependencies.
#pragma once

#include <cuda_runtime_api.h>

#include <utility>

#include "memlab/cuda/check.hpp"

namespace memlab {

class Event {
 public:
  explicit Event(unsigned flags = cudaEventDefault) {
    MEMLAB_CUDA_CHECK(cudaEventCreateWithFlags(&event_, flags));
  }
  ~Event() {
    if (event_ != nullptr) cudaEventDestroy(event_);
  }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  Event(Event&& other) noexcept : event_(std::exchange(other.event_, nullptr)) {}
  Event& operator=(Event&&) = delete;

  cudaEvent_t get() const noexcept { return event_; }
  operator cudaEvent_t() const noexcept { return event_; }
  void record(cudaStream_t stream) const { MEMLAB_CUDA_CHECK(cudaEventRecord(event_, stream)); }
  void synchronize() const { MEMLAB_CUDA_CHECK(cudaEventSynchronize(event_)); }

  // Milliseconds from `start` to this event. Both must have completed: reading too early is
  // cudaErrorNotReady, which is thrown as a CudaError, never returned as a time.
  float elapsed_ms_since(const Event& start) const {
    float ms = 0.0f;
    MEMLAB_CUDA_CHECK(cudaEventElapsedTime(&ms, start.event_, event_));
    return ms;
  }

 private:
  cudaEvent_t event_ = nullptr;
};

}  // namespace memlab
