#pragma once

#include <cstddef>
#include <cstdint>

#include "memlab/bench/verify.hpp"

namespace memlab::lessons::smem_reverse {

// in[i] as fill_uniform(seed, -1, 1) drew it.
float input_value(std::uint64_t seed, std::size_t i);

// Checks got[j] == in[n - 1 - j] exactly for every j (in parallel; lists the first mismatches).
bench::Check check_reversed(const float* got, std::size_t n, std::uint64_t seed);

}  // namespace memlab::lessons::smem_reverse
