#include "memlab/bench/parallel.hpp"

#include <algorithm>
#include <thread>
#include <vector>

namespace memlab::bench {

void parallel_for(std::size_t n, const std::function<void(std::size_t, std::size_t)>& fn) {
  const std::size_t threads = std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, 64);
  if (n < (std::size_t{1} << 16) || threads == 1) {
    fn(0, n);
    return;
  }
  const std::size_t chunk = (n + threads - 1) / threads;
  std::vector<std::thread> pool;
  for (std::size_t t = 0; t < threads; ++t) {
    const std::size_t begin = t * chunk;
    const std::size_t end = std::min(n, begin + chunk);
    if (begin >= end) break;
    pool.emplace_back(fn, begin, end);
  }
  for (auto& th : pool) th.join();
}

}  // namespace memlab::bench
