// Shared by the GPU tests: whether a CUDA device is here (asked once). Without one each test
// skips with "skipped: no CUDA device", which CTest reports as Skipped, never as passed.
#pragma once

#include "memlab/cuda/device.hpp"

namespace memlab::gpu_test {

inline bool have_device() {
  static const bool yes = device_count_or_zero() > 0;
  return yes;
}

}  // namespace memlab::gpu_test
