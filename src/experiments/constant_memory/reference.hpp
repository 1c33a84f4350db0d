#pragma once

#include <cstdint>
#include <vector>

namespace memlab::lessons::constant_memory {

// The table: word x + 65 k (x < 64, k < 32) holds next[x], a random permutation of [0, 64).
std::vector<std::uint32_t> make_table(std::uint64_t seed);

// Final x and the sum of the visited x (mod 2^32) of a chain of `steps` loads from x0.
void chain_reference(const std::vector<std::uint32_t>& table, std::uint32_t x0, std::uint32_t steps,
                     std::uint32_t& final_x, std::uint32_t& sum);

}  // namespace memlab::lessons::constant_memory
