#include "tensor_cores/reference.hpp"

#include <cmath>

#include "memlab/bench/parallel.hpp"
#include "memlab/cuda/fill.hpp"

namespace memlab::lessons::tensor_cores {

Reference reference_at(const std::vector<float>& a, int lda, const std::vector<float>& b, int ldb,
                       int m, int n, int k, std::size_t samples, std::uint64_t seed) {
  Reference r;
  const std::size_t all = static_cast<std::size_t>(m) * static_cast<std::size_t>(n);
  const std::size_t count = samples == 0 || samples >= all ? all : samples;
  r.rows.resize(count);
  r.cols.resize(count);
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t pos = count == all ? i : random_u64(seed ^ 0x5EEDull, i) % all;
    r.rows[i] = pos / static_cast<std::size_t>(n);
    r.cols[i] = pos % static_cast<std::size_t>(n);
  }
  r.value.resize(count);
  r.abs_sum.resize(count);
  bench::parallel_for(count, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      double sum = 0, abs_sum = 0;
      for (int kk = 0; kk < k; ++kk) {
        const double p = static_cast<double>(a[r.rows[i] * lda + kk]) *
                         static_cast<double>(b[static_cast<std::size_t>(kk) * ldb + r.cols[i]]);
        sum += p;
        abs_sum += std::fabs(p);
      }
      r.value[i] = sum;
      r.abs_sum[i] = abs_sum;
    }
  });
  return r;
}

}  // namespace memlab::lessons::tensor_cores
