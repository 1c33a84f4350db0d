#pragma once

#include <cstddef>
#include <cstdint>

#include "aos_soa/kernels.cuh"

namespace memlab::lessons::aos_soa {

// Where field f of particle i lives in a buffer of this layout.
std::size_t field_index(Layout layout, std::size_t i, int f, std::size_t n);

// Input field f of particle i: the AoS buffer was filled by fill_uniform(seed, -1, 1).
float input_value(std::uint64_t seed, std::size_t i, int f);

// The expected output field (same rounding as the kernels: fused multiply-adds).
float expected_value(std::uint64_t seed, Update update, std::size_t i, int f);

}  // namespace memlab::lessons::aos_soa
