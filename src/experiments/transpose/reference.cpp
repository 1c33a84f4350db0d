#include "transpose/reference.hpp"

#include "memlab/bench/verify_parallel.hpp"
#include "memlab/cuda/fill.hpp"

namespace memlab::lessons::transpose {

float input_value(std::uint64_t seed, std::size_t i) {
  return random_uniform(seed, i, -1.0f, 1.0f);
}

bench::Check check_output(const float* got, std::size_t rows, std::size_t cols, std::uint64_t seed,
                          bool transposed) {
  // transposed: o = c * rows + r holds in[r * cols + c]
  return bench::check_exact_generated(got, rows * cols, [&](std::size_t o) {
    return input_value(seed, transposed ? (o % rows) * cols + o / rows : o);
  });
}

}  // namespace memlab::lessons::transpose
