// Exact comparison against a reference generated element by element, on all host cores: for
// gigabyte outputs whose expected values are cheap to recompute (counter-based inputs), so the
// reference never has to be materialised (host-only).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "memlab/bench/parallel.hpp"
#include "memlab/bench/verify.hpp"

namespace memlab::bench {

// `want(i)` is the expected value of got[i]. Reports the count and the first (lowest-index)
// mismatches like check_exact.
template <class T, class Want>
Check check_exact_generated(const T* got, std::size_t n, const Want& want, std::size_t show = 5) {
  std::atomic<std::size_t> bad{0};
  std::mutex m;
  std::vector<std::pair<std::size_t, std::pair<double, double>>> first;
  parallel_for(n, [&](std::size_t begin, std::size_t end) {
    std::size_t local = 0;
    for (std::size_t i = begin; i < end; ++i) {
      const T w = want(i);
      if (!(got[i] == w)) {
        if (local < show) {
          const std::lock_guard<std::mutex> lock(m);
          first.push_back({i, {static_cast<double>(got[i]), static_cast<double>(w)}});
        }
        ++local;
      }
    }
    bad += local;
  });
  Check c;
  c.error = static_cast<double>(bad.load());
  c.ok = bad.load() == 0;
  if (!c.ok) {
    c.detail = std::to_string(bad.load()) + " of " + std::to_string(n) + " differ;";
    std::sort(first.begin(), first.end());
    for (std::size_t k = 0; k < first.size() && k < show; ++k) {
      c.detail += describe_mismatch(first[k].first, first[k].second.first, first[k].second.second);
    }
  }
  return c;
}

}  // namespace memlab::bench
