// RAII CUDA stream (non-blocking by default, so the legacy default stream never serialises it).
#pragma once

#include <cuda_runtime_api.h>

#include <utility>

#include "memlab/cuda/check.hpp"

namespace memlab {

class Stream {
 public:
  explicit Stream(unsigned flags = cudaStreamNonBlocking) {
    MEMLAB_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, flags));
  }
  ~Stream() {
    if (stream_ != nullptr) cudaStreamDestroy(stream_);
  }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  Stream(Stream&& other) noexcept : stream_(std::exchange(other.stream_, nullptr)) {}
  Stream& operator=(Stream&&) = delete;

  cudaStream_t get() const noexcept { return stream_; }
  operator cudaStream_t() const noexcept { return stream_; }
  void synchronize() const { MEMLAB_CUDA_CHECK(cudaStreamSynchronize(stream_)); }

 private:
  cudaStream_t stream_ = nullptr;
};

}  // namespace memlab
