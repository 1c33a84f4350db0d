// Host-side parallel loop for CPU references over gigabyte buffers (host-only).
#pragma once

#include <cstddef>
#include <functional>

namespace memlab::bench {

// Calls fn(begin, end) on disjoint chunks covering [0, n), on all hardware threads.
void parallel_for(std::size_t n, const std::function<void(std::size_t, std::size_t)>& fn);

}  // namespace memlab::bench
