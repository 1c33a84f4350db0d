#include "aos_soa/reference.hpp"

#include <cmath>

#include "memlab/cuda/fill.hpp"

namespace memlab::lessons::aos_soa {

std::size_t field_index(Layout layout, std::size_t i, int f, std::size_t n) {
  const auto ff = static_cast<std::size_t>(f);
  switch (layout) {
    case Layout::Aos:
      return i * kFields + ff;
    case Layout::Soa:
      return ff * n + i;
    case Layout::Aosoa:
      return (i / kTile) * (kTile * kFields) + ff * kTile + i % kTile;
  }
  return 0;
}

float input_value(std::uint64_t seed, std::size_t i, int f) {
  return random_uniform(seed, i * kFields + static_cast<std::size_t>(f), -1.0f, 1.0f);
}

float expected_value(std::uint64_t seed, Update update, std::size_t i, int f) {
  auto in = [&](int g) { return input_value(seed, i, g); };
  if (update == Update::One) return std::fma(kA, in(0), kB);
  switch (f) {
    case 0:
    case 1:
    case 2:
      return std::fma(kDt, in(f + 3), in(f));
    case 3:
    case 4:
      return in(f)*kDamp;
    case 5:
      return std::fma(-kG, kDt, in(5) * kDamp);
    default:
      return in(f);
  }
}

}  // namespace memlab::lessons::aos_soa
