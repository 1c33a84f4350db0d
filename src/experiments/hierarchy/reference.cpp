#include "hierarchy/reference.hpp"

#include <atomic>
#include <utility>

#include "hierarchy/kernels.cuh"
#include "memlab/bench/parallel.hpp"
#include "memlab/cuda/fill.hpp"

namespace memlab::lessons::hierarchy {

std::vector<std::uint32_t> random_cycle(std::uint32_t lines, std::uint64_t seed) {
  std::vector<std::uint32_t> perm(lines);
  for (std::uint32_t i = 0; i < lines; ++i) perm[i] = i;
  for (std::uint32_t i = lines; i > 1; --i) {
    const auto k = static_cast<std::uint32_t>(random_u64(seed, i) % i);
    std::swap(perm[i - 1], perm[k]);
  }
  return perm;
}

ChaseResult chase_reference(const std::vector<std::uint32_t>& perm, std::uint32_t stride_words,
                            std::uint64_t pos, std::uint32_t warm, std::uint32_t steps) {
  ChaseResult r;
  const std::size_t lines = perm.size();
  const std::uint64_t first = pos + warm;
  for (std::uint64_t k = first + 1; k <= first + steps; ++k) {
    r.sum += static_cast<std::uint64_t>(perm[k % lines]) * stride_words;
  }
  r.final_index = static_cast<std::uint64_t>(perm[(first + steps) % lines]) * stride_words;
  return r;
}

ChaseResult register_reference(std::uint32_t start, std::uint32_t steps) {
  ChaseResult r;
  std::uint32_t j = start;
  for (std::uint32_t i = 0; i < steps; ++i) {
    j = j * kMul + kAdd;
    r.sum += j;
  }
  r.final_index = j;
  return r;
}

std::uint32_t random_words_sum(std::uint64_t seed, std::size_t words) {
  std::atomic<std::uint32_t> total{0};
  bench::parallel_for(words / 2 + 1, [&](std::size_t begin, std::size_t end) {
    std::uint32_t acc = 0;
    for (std::size_t i = begin; i < end; ++i) {
      const std::uint64_t v = random_u64(seed, i);
      if (2 * i < words) acc += static_cast<std::uint32_t>(v);
      if (2 * i + 1 < words) acc += static_cast<std::uint32_t>(v >> 32);
    }
    total.fetch_add(acc);
  });
  return total.load();
}

}  // namespace memlab::lessons::hierarchy
