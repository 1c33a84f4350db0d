#pragma once

#include <cstdint>
#include <vector>

#include "syncthreads/kernels.cuh"

namespace memlab::lessons::syncthreads {

// What a rotation variant leaves in out (kBlocks blocks of `block` threads, `iters` steps).
std::vector<std::int32_t> rotate_reference(Variant v, const std::vector<std::int32_t>& in,
                                           unsigned block, std::uint32_t iters);

// C = A B for n x n matrices of small integers (exact in float, accumulated in double).
std::vector<float> matmul_reference(const std::vector<float>& a, const std::vector<float>& b,
                                    int n);

}  // namespace memlab::lessons::syncthreads
