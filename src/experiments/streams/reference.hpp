// CPU reference of the streams pipeline (host-only).
#pragma once

#include <cmath>
#include <cstddef>

#include "kernels.cuh"

namespace memlab::lessons::streams {

// Bit-exact with add_work_kernel: the same IEEE operations in the same order. Stops iterating
// once y is 0.5 exactly (the fixed point of y <- fma(y, 0.5, 0.25)).
inline float add_work_reference(float a, float b, int work) {
  const float x = a + b;
  float y = x;
  for (int k = 0; k < work && y != 0.5f; ++k) y = std::fma(y, kFmaMul, kFmaAdd);
  return x * (y + y);
}

}  // namespace memlab::lessons::streams
