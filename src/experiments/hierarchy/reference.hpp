#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace memlab::lessons::hierarchy {

// A random cyclic order of `lines` lines (Fisher-Yates driven by splitmix64 of the seed).
std::vector<std::uint32_t> random_cycle(std::uint32_t lines, std::uint64_t seed);

// What a chase over chain `perm` (indices times stride_words) ends on and the sum it visits,
// after warm untimed and steps timed loads from perm[pos] * stride_words.
struct ChaseResult {
  std::uint64_t final_index = 0;
  std::uint64_t sum = 0;
};
ChaseResult chase_reference(const std::vector<std::uint32_t>& perm, std::uint32_t stride_words,
                            std::uint64_t pos, std::uint32_t warm, std::uint32_t steps);

// The register chain j = j * kMul + kAdd from `start`: final value and sum of the values.
ChaseResult register_reference(std::uint32_t start, std::uint32_t steps);

// Sum (mod 2^32) of the first `words` 4-byte words of a buffer filled by fill_random_bytes(seed).
std::uint32_t random_words_sum(std::uint64_t seed, std::size_t words);

}  // namespace memlab::lessons::hierarchy
