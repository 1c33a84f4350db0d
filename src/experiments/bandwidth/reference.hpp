#pragma once

#include <cstddef>

#include "bandwidth/kernels.cuh"

namespace memlab::lessons::bandwidth {

// The CPU reference of one element (same rounding as the GPU: triad uses one fused rounding).
float reference(Op op, float a, float b, float s, float fill);

}  // namespace memlab::lessons::bandwidth
