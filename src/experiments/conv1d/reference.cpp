#include "conv1d/reference.hpp"

#include <algorithm>

#include "memlab/cuda/fill.hpp"

namespace memlab::lessons::conv1d {

double reference_at(std::uint64_t seed, std::size_t n, const std::vector<float>& mask,
                    std::size_t i) {
  const auto k = static_cast<std::int64_t>(mask.size());
  const std::int64_t r = k / 2;
  double acc = 0.0;
  for (std::int64_t j = 0; j < k; ++j) {
    const std::int64_t x = static_cast<std::int64_t>(i) - r + j;
    if (x < 0 || x >= static_cast<std::int64_t>(n)) continue;
    const float v = random_uniform(seed, static_cast<std::uint64_t>(x), -1.0f, 1.0f);
    acc += static_cast<double>(v) * static_cast<double>(mask[static_cast<std::size_t>(j)]);
  }
  return acc;
}

std::vector<Segment> spot_segments(std::size_t n, int k, std::uint64_t seed) {
  constexpr std::size_t kAll = std::size_t{1} << 22, kSeg = 4096, kSegs = 64;
  if (n * static_cast<std::size_t>(k) <= kAll) return {Segment{0, n}};
  std::vector<Segment> s;
  s.push_back(Segment{0, kSeg});
  s.push_back(Segment{n - kSeg, kSeg});
  for (std::size_t t = 0; t < kSegs; ++t) {
    const std::size_t start = random_u64(seed ^ 0x5eedu, t) % (n - kSeg);
    s.push_back(Segment{start, kSeg});
  }
  return s;
}

}  // namespace memlab::lessons::conv1d
