// Host references for matmul (host-only).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace memlab::lessons::matmul {

// The inputs: A (M x K) is fill_uniform(seed, -1, 1), B (K x N) fill_uniform(seed + 1, -1, 1).
float a_value(std::uint64_t seed, std::size_t index);
float b_value(std::uint64_t seed, std::size_t index);

// C = A B in double precision, row-major (parallel over rows).
std::vector<double> reference_product(std::uint64_t seed, int M, int N, int K);

// C[i][j] in double precision for `count` pseudo-random positions (i, j) drawn from `seed`;
// `positions` receives the row-major indices.
std::vector<double> sampled_product(std::uint64_t seed, int M, int N, int K, int count,
                                    std::vector<std::size_t>& positions);

}  // namespace memlab::lessons::matmul
