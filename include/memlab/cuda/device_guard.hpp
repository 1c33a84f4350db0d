// Makes a device current for a scope and restores the previous one (the multi-GPU lessons).
#pragma once

#include <cuda_runtime_api.h>

#include "memlab/cuda/check.hpp"

namespace memlab {

class DeviceGuard {
 public:
  explicit DeviceGuard(int device) {
    MEMLAB_CUDA_CHECK(cudaGetDevice(&previous_));
    MEMLAB_CUDA_CHECK(cudaSetDevice(device));
  }
  ~DeviceGuard() { cudaSetDevice(previous_); }  // destructors never throw
  DeviceGuard(const DeviceGuard&) = delete;
  DeviceGuard& operator=(const DeviceGuard&) = delete;

 private:
  int previous_ = 0;
};

}  // namespace memlab
