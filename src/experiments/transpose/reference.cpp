#include "transpose/reference.hpp"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "memlab/bench/parallel.hpp"
#include "memlab/cuda/fill.hpp"

namespace memlab::lessons::transpose {

float input_value(std::uint64_t seed, std::size_t i) {
  return random_uniform(seed, i, -1.0f, 1.0f);
}

bench::Check check_output(const float* got, std::size_t rows, std::size_t cols, std::uint64_t seed,
                          bool transposed) {
  const std::size_t n = rows * cols;
  std::atomic<std::size_t> bad{0};
  std::mutex m;
  std::vector<std::pair<std::size_t, std::pair<double, double>>> first;
  bench::parallel_for(n, [&](std::size_t begin, std::size_t end) {
    std::size_t local = 0;
    for (std::size_t o = begin; o < end; ++o) {
      // transposed: o = c * rows + r holds in[r * cols + c]
      const std::size_t i = transposed ? (o % rows) * cols + o / rows : o;
      const float want = input_value(seed, i);
      if (!(got[o] == want)) {
        if (local < 5) {
          const std::lock_guard<std::mutex> lock(m);
          first.push_back({o, {static_cast<double>(got[o]), static_cast<double>(want)}});
        }
        ++local;
      }
    }
    bad += local;
  });
  bench::Check c;
  c.error = static_cast<double>(bad.load());
  c.ok = bad.load() == 0;
  if (!c.ok) {
    c.detail = std::to_string(bad.load()) + " of " + std::to_string(n) + " differ;";
    std::sort(first.begin(), first.end());
    for (std::size_t k = 0; k < first.size() && k < 5; ++k) {
      c.detail +=
          bench::describe_mismatch(first[k].first, first[k].second.first, first[k].second.second);
    }
  }
  return c;
}

}  // namespace memlab::lessons::transpose
