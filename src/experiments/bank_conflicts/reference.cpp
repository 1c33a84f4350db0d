#include "bank_conflicts/reference.hpp"

#include <algorithm>

#include "memlab/cuda/fill.hpp"

namespace memlab::lessons::bank_conflicts {

std::int64_t Layout::region() const {
  std::int64_t m = 0;
  for (int w = 0; w < kWarps; ++w) {
    for (int l = 0; l < 32; ++l) m = std::max(m, element(w, l));
  }
  return m + 1;
}

namespace {
std::uint64_t wrap(std::uint64_t v, int word) {
  return word == 4 ? (v & 0xffffffffull) : v;
}
}  // namespace

std::vector<std::uint64_t> region_values(std::uint64_t seed, std::int64_t region, int word) {
  std::vector<std::uint64_t> x(static_cast<std::size_t>(region));
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = wrap(random_u64(seed, i), word);
  return x;
}

std::vector<std::uint64_t> expected_block(const std::vector<std::uint64_t>& x, const Layout& layout,
                                          int word, bool write, int iters) {
  if (!write) {
    std::vector<std::uint64_t> sums(kThreads);
    for (int t = 0; t < kThreads; ++t) {
      const auto e = static_cast<std::size_t>(layout.element(t / 32, t % 32));
      sums[static_cast<std::size_t>(t)] = wrap(x[e] * static_cast<std::uint64_t>(iters), word);
    }
    return sums;
  }
  std::vector<std::uint64_t> region = x;
  for (int t = 0; t < kThreads; ++t) {
    const auto e = static_cast<std::size_t>(layout.element(t / 32, t % 32));
    region[e] = wrap(x[e] + static_cast<std::uint64_t>(iters - kUnroll), word);
  }
  return region;
}

}  // namespace memlab::lessons::bank_conflicts
