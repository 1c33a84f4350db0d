#include "constant_memory/reference.hpp"

#include <utility>

#include "constant_memory/kernels.cuh"
#include "memlab/cuda/fill.hpp"

namespace memlab::lessons::constant_memory {

std::vector<std::uint32_t> make_table(std::uint64_t seed) {
  std::uint32_t next[kChain];
  for (int i = 0; i < kChain; ++i) next[i] = static_cast<std::uint32_t>(i);
  for (int i = kChain; i > 1; --i) {
    const auto k = static_cast<int>(random_u64(seed, static_cast<std::uint64_t>(i)) %
                                    static_cast<std::uint64_t>(i));
    std::swap(next[i - 1], next[k]);
  }
  std::vector<std::uint32_t> table(kTableWords, 0xDEADBEEFu);
  for (int k = 0; k < 32; ++k) {
    for (int x = 0; x < kChain; ++x) table[static_cast<std::size_t>(x + kSpacing * k)] = next[x];
  }
  return table;
}

void chain_reference(const std::vector<std::uint32_t>& table, std::uint32_t x0, std::uint32_t steps,
                     std::uint32_t& final_x, std::uint32_t& sum) {
  std::uint32_t x = x0;
  sum = 0;
  for (std::uint32_t i = 0; i < steps; ++i) {
    x = table[x];
    sum += x;
  }
  final_x = x;
}

}  // namespace memlab::lessons::constant_memory
