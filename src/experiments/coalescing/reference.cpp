#include "coalescing/reference.hpp"

#include "memlab/bench/parallel.hpp"
#include "memlab/cuda/fill.hpp"

namespace memlab::lessons::coalescing {
namespace {

std::uint32_t fold(std::uint64_t seed, std::uint64_t first_byte, int elem_size) {
  std::uint32_t folded = 0;
  for (int w = 0; w < (elem_size + 3) / 4; ++w) {
    std::uint32_t word = 0;
    for (int k = 0; k < 4 && 4 * w + k < elem_size; ++k) {
      word |= static_cast<std::uint32_t>(random_byte(seed, first_byte + 4 * w + k)) << (8 * k);
    }
    folded ^= word;
  }
  return folded;
}

}  // namespace

std::vector<std::uint8_t> reference_copy(std::uint64_t seed, std::size_t n, std::size_t stride,
                                         std::size_t offset, int elem_size) {
  const auto e = static_cast<std::size_t>(elem_size);
  std::vector<std::uint8_t> out(n * e);
  bench::parallel_for(n, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      const std::size_t src = (i * stride + offset) * e;
      for (std::size_t k = 0; k < e; ++k) out[i * e + k] = random_byte(seed, src + k);
    }
  });
  return out;
}

std::vector<std::uint32_t> reference_read(std::uint64_t seed, std::size_t n, std::size_t stride,
                                          std::size_t offset, int elem_size, unsigned block,
                                          unsigned grid) {
  std::vector<std::uint32_t> out(grid, 0);
  const auto e = static_cast<std::size_t>(elem_size);
  const std::size_t chunk = static_cast<std::size_t>(block) * grid;
  bench::parallel_for(grid, [&](std::size_t begin, std::size_t end) {
    for (std::size_t b = begin; b < end; ++b) {
      std::uint32_t x = 0;
      for (std::size_t base = b * block; base < n; base += chunk) {
        for (std::size_t t = base; t < n && t < base + block; ++t) {
          x ^= fold(seed, (t * stride + offset) * e, elem_size);
        }
      }
      out[b] = x;
    }
  });
  return out;
}

}  // namespace memlab::lessons::coalescing
