// Device side of gpu_check.hpp: the reduction of squared differences (double) on the GPU.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

namespace memlab::lessons {

struct RelL2Sums {
  double diff2 = 0;  // sum of (got - want)^2 over finite got
  double want2 = 0;  // sum of want^2 over finite got
  unsigned long long nonfinite = 0;
};

RelL2Sums rel_l2_sums(const float* got, const float* want, std::size_t n, cudaStream_t stream);

}  // namespace memlab::lessons
