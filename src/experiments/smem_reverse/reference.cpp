#include "smem_reverse/reference.hpp"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <string>
#include <vector>

#include "memlab/bench/parallel.hpp"
#include "memlab/cuda/fill.hpp"

namespace memlab::lessons::smem_reverse {

float input_value(std::uint64_t seed, std::size_t i) {
  return random_uniform(seed, i, -1.0f, 1.0f);
}

bench::Check check_reversed(const float* got, std::size_t n, std::uint64_t seed) {
  std::atomic<std::size_t> bad{0};
  std::mutex m;
  std::vector<std::pair<std::size_t, std::pair<double, double>>> first;
  bench::parallel_for(n, [&](std::size_t begin, std::size_t end) {
    std::size_t local = 0;
    for (std::size_t j = begin; j < end; ++j) {
      const float want = input_value(seed, n - 1 - j);
      if (!(got[j] == want)) {
        if (local < 5) {
          const std::lock_guard<std::mutex> lock(m);
          first.push_back({j, {static_cast<double>(got[j]), static_cast<double>(want)}});
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

}  // namespace memlab::lessons::smem_reverse
