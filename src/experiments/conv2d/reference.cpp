#include "conv2d/reference.hpp"

#include <algorithm>

#include "memlab/cuda/fill.hpp"

namespace memlab::lessons::conv2d {

void reference_row(std::uint64_t seed, int height, int width, const std::vector<float>& mask, int k,
                   int y, float* row) {
  const int r = k / 2;
  for (int x = 0; x < width; ++x) {
    double acc = 0.0;
    for (int i = 0; i < k; ++i) {
      const int yy = y - r + i;
      if (yy < 0 || yy >= height) continue;
      for (int j = 0; j < k; ++j) {
        const int xx = x - r + j;
        if (xx < 0 || xx >= width) continue;
        const auto idx = static_cast<std::uint64_t>(yy) * static_cast<std::uint64_t>(width) +
                         static_cast<std::uint64_t>(xx);
        const float v = random_uniform(seed, idx, -1.0f, 1.0f);
        acc +=
            static_cast<double>(v) * static_cast<double>(mask[static_cast<std::size_t>(i * k + j)]);
      }
    }
    row[x] = static_cast<float>(acc);
  }
}

std::vector<int> spot_rows(int height, int width, int k, std::uint64_t seed) {
  std::vector<int> rows;
  const double cost = static_cast<double>(height) * width * k * k;
  if (cost <= double(1 << 24)) {
    for (int y = 0; y < height; ++y) rows.push_back(y);
    return rows;
  }
  for (int y = 0; y < std::min(k, height); ++y) rows.push_back(y);
  for (int y = std::max(0, height - k); y < height; ++y) rows.push_back(y);
  for (std::uint64_t t = 0; t < 24; ++t) {
    rows.push_back(
        static_cast<int>(random_u64(seed ^ 0x7077u, t) % static_cast<std::uint64_t>(height)));
  }
  std::sort(rows.begin(), rows.end());
  rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
  return rows;
}

}  // namespace memlab::lessons::conv2d
