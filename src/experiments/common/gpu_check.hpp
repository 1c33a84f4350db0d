// Verification helpers shared by the conv1d and conv2d lessons.
//
// The default sizes (2^28 floats, 16384^2 pixels with a 15x15 mask: 60 G multiply-adds) are too
// large for a CPU reference per point. Both lessons therefore compute the reference on the GPU with
// a plain kernel that accumulates in double (one thread per output, mask and input from global
// memory), check that reference against the CPU (double accumulation) on every output at the test
// points and on sampled rows/segments (all borders included) at large points, and then compare
// every variant's full output with it: relative L2 error and a count of non-finite elements,
// reduced on the GPU. Only a failed comparison copies the outputs back to list mismatches.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

#include "memlab/bench/verify.hpp"

namespace memlab::lessons {

// ||got - want|| / ||want|| over n floats, computed on the GPU (synchronises `stream`).
bench::Check compare_on_gpu(const float* got, const float* want, std::size_t n, double tolerance,
                            cudaStream_t stream);

}  // namespace memlab::lessons
