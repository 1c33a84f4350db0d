#include "histogram/reference.hpp"

#include <algorithm>
#include <climits>
#include <limits>
#include <mutex>

#include "memlab/bench/parallel.hpp"

namespace memlab::lessons::histogram {

std::array<std::uint64_t, 256> byte_counts(Dist dist, std::uint64_t seed, std::size_t n,
                                           std::string_view corpus) {
  std::array<std::uint64_t, 256> total{};
  std::mutex mutex;
  auto merge = [&](const std::array<std::uint64_t, 256>& local) {
    const std::lock_guard<std::mutex> lock(mutex);
    for (std::size_t b = 0; b < 256; ++b) total[b] += local[b];
  };
  switch (dist) {
    case Dist::Single:
      total[kSingleByte] = n;
      break;
    case Dist::Uniform:  // 8 bytes per random_u64, little endian (random_byte)
      bench::parallel_for((n + 7) / 8, [&](std::size_t begin, std::size_t end) {
        std::array<std::uint64_t, 256> local{};
        for (std::size_t k = begin; k < end; ++k) {
          const std::uint64_t h = random_u64(seed, k);
          for (std::size_t j = 0; j < 8 && 8 * k + j < n; ++j) ++local[(h >> (8 * j)) & 0xFFu];
        }
        merge(local);
      });
      break;
    case Dist::Smooth:
      bench::parallel_for(n, [&](std::size_t begin, std::size_t end) {
        std::array<std::uint64_t, 256> local{};
        for (std::size_t i = begin; i < end; ++i) ++local[smooth_byte(seed, i)];
        merge(local);
      });
      break;
    case Dist::Text: {
      // How many chunks cover each corpus position (a difference array), then weight the bytes.
      const std::size_t len = corpus.size();
      std::vector<std::int64_t> cover(len + 1, 0);
      for (std::size_t k = 0; k * kTextChunk < n; ++k) {
        const std::size_t off = text_offset(seed, k, len);
        ++cover[off];
        --cover[off + std::min(kTextChunk, n - k * kTextChunk)];
      }
      std::int64_t weight = 0;
      for (std::size_t j = 0; j < len; ++j) {
        weight += cover[j];
        total[static_cast<unsigned char>(corpus[j])] += static_cast<std::uint64_t>(weight);
      }
      break;
    }
  }
  return total;
}

std::array<std::uint64_t, kLetterBins> letter_counts(const std::array<std::uint64_t, 256>& bytes) {
  std::array<std::uint64_t, kLetterBins> bins{};
  for (unsigned c = 0; c < 256; ++c) {
    const int b = letter_bin(c);
    if (b >= 0) bins[static_cast<std::size_t>(b)] += bytes[c];
  }
  return bins;
}

std::vector<std::uint64_t> float_counts(std::uint64_t seed, std::size_t n, unsigned bins,
                                        float scale) {
  std::vector<std::uint64_t> total(bins, 0);
  std::mutex mutex;
  bench::parallel_for(n, [&](std::size_t begin, std::size_t end) {
    std::vector<std::uint32_t> local(bins, 0);
    for (std::size_t i = begin; i < end; ++i) {
      const int b = float_bin(float_value(seed, i), scale, bins);
      if (b >= 0) ++local[static_cast<std::size_t>(b)];
    }
    const std::lock_guard<std::mutex> lock(mutex);
    for (std::size_t b = 0; b < bins; ++b) total[b] += local[b];
  });
  return total;
}

std::pair<std::int32_t, std::int32_t> min_max_ref(std::uint64_t seed, std::size_t n) {
  std::int32_t lo = INT_MAX, hi = INT_MIN;
  std::mutex mutex;
  bench::parallel_for(n, [&](std::size_t begin, std::size_t end) {
    std::int32_t l = INT_MAX, h = INT_MIN;
    for (std::size_t i = begin; i < end; ++i) {
      const std::int32_t v = int_value(seed, i);
      l = std::min(l, v);
      h = std::max(h, v);
    }
    const std::lock_guard<std::mutex> lock(mutex);
    lo = std::min(lo, l);
    hi = std::max(hi, h);
  });
  return {lo, hi};
}

float float_max_ref(std::uint64_t seed, std::size_t n) {
  float m = -std::numeric_limits<float>::infinity();
  std::mutex mutex;
  bench::parallel_for(n, [&](std::size_t begin, std::size_t end) {
    float local = -std::numeric_limits<float>::infinity();
    for (std::size_t i = begin; i < end; ++i) local = std::max(local, max_float_value(seed, i));
    const std::lock_guard<std::mutex> lock(mutex);
    m = std::max(m, local);
  });
  return m;
}

}  // namespace memlab::lessons::histogram
