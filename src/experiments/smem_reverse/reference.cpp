#include "smem_reverse/reference.hpp"

#include "memlab/bench/verify_parallel.hpp"
#include "memlab/cuda/fill.hpp"

namespace memlab::lessons::smem_reverse {

float input_value(std::uint64_t seed, std::size_t i) {
  return random_uniform(seed, i, -1.0f, 1.0f);
}

bench::Check check_reversed(const float* got, std::size_t n, std::uint64_t seed) {
  return bench::check_exact_generated(got, n,
                                      [&](std::size_t j) { return input_value(seed, n - 1 - j); });
}

}  // namespace memlab::lessons::smem_reverse
