#pragma once

#include <cstddef>
#include <cstdint>

#include "memlab/bench/verify.hpp"

namespace memlab::lessons::transpose {

// in[i] (row-major index) as fill_uniform(seed, -1, 1) drew it.
float input_value(std::uint64_t seed, std::size_t i);

// transposed: got is cols x rows and got[c][r] must equal in[r][c]; otherwise got is a plain copy
// (rows x cols). Exact, in parallel; lists the first mismatches.
bench::Check check_output(const float* got, std::size_t rows, std::size_t cols, std::uint64_t seed,
                          bool transposed);

}  // namespace memlab::lessons::transpose
