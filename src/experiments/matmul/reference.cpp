#include "matmul/reference.hpp"

#include "memlab/bench/parallel.hpp"
#include "memlab/cuda/fill.hpp"

namespace memlab::lessons::matmul {

float a_value(std::uint64_t seed, std::size_t index) {
  return random_uniform(seed, index, -1.0f, 1.0f);
}
float b_value(std::uint64_t seed, std::size_t index) {
  return random_uniform(seed + 1, index, -1.0f, 1.0f);
}

std::vector<double> reference_product(std::uint64_t seed, int M, int N, int K) {
  const auto m = static_cast<std::size_t>(M), n = static_cast<std::size_t>(N),
             k = static_cast<std::size_t>(K);
  std::vector<double> b(k * n);
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = b_value(seed, i);
  std::vector<double> c(m * n, 0.0);
  bench::parallel_for(m, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      double* row = c.data() + i * n;
      for (std::size_t p = 0; p < k; ++p) {
        const double a = a_value(seed, i * k + p);
        const double* brow = b.data() + p * n;
        for (std::size_t j = 0; j < n; ++j) row[j] += a * brow[j];
      }
    }
  });
  return c;
}

std::vector<double> sampled_product(std::uint64_t seed, int M, int N, int K, int count,
                                    std::vector<std::size_t>& positions) {
  const auto n = static_cast<std::size_t>(N), k = static_cast<std::size_t>(K);
  std::vector<double> out(static_cast<std::size_t>(count));
  positions.resize(out.size());
  for (std::size_t s = 0; s < out.size(); ++s) {
    const std::size_t i = random_u64(seed ^ 0x5a5a5a5aull, 2 * s) % static_cast<std::size_t>(M);
    const std::size_t j = random_u64(seed ^ 0x5a5a5a5aull, 2 * s + 1) % n;
    positions[s] = i * n + j;
  }
  bench::parallel_for(out.size(), [&](std::size_t begin, std::size_t end) {
    for (std::size_t s = begin; s < end; ++s) {
      const std::size_t i = positions[s] / n, j = positions[s] % n;
      double acc = 0;
      for (std::size_t p = 0; p < k; ++p) {
        acc += static_cast<double>(a_value(seed, i * k + p)) *
               static_cast<double>(b_value(seed, p * n + j));
      }
      out[s] = acc;
    }
  });
  return out;
}

}  // namespace memlab::lessons::matmul
