// Inputs of the histogram lessons, as counter-based functions of (seed, index) that the device
// generator and the host references share (so references never copy gigabytes back).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "memlab/cuda/fill.hpp"

namespace memlab::lessons::histogram {

// uniform: every byte value equally likely; text: English prose (corpus.cpp) tiled in 1 KiB chunks
// taken at random offsets; single: one repeated value ('e'); smooth: an image-like row, a
// triangle wave of period 128 Ki bytes with +-8 of noise (neighbours differ a little).
enum class Dist { Uniform, Text, Single, Smooth };

inline constexpr unsigned char kSingleByte = 'e';
inline constexpr std::size_t kTextChunk = 1024;
inline constexpr unsigned kLetterBins = 7;  // a-d, e-h, ..., y-z

// The English prose of corpus.cpp (about 20 KB, plain ASCII).
std::string_view corpus_text();

MEMLAB_HD inline std::size_t text_offset(std::uint64_t seed, std::size_t chunk,
                                         std::size_t corpus_len) {
  return static_cast<std::size_t>(random_u64(seed ^ 0x7e47u, chunk) %
                                  (corpus_len - kTextChunk + 1));
}

MEMLAB_HD inline unsigned char smooth_byte(std::uint64_t seed, std::uint64_t i) {
  const auto phase = static_cast<int>((i >> 8) & 511u);
  const int tri = phase < 256 ? phase : 511 - phase;
  const int v = tri + static_cast<int>(random_u64(seed, i) & 15u) - 8;
  return static_cast<unsigned char>(v < 0 ? 0 : (v > 255 ? 255 : v));
}

// The seeds' letter bins: 'a'..'z' -> (c - 'a') / 4, anything else -> -1 (ignored).
MEMLAB_HD inline int letter_bin(unsigned c) {
  const unsigned p = c - 97u;
  return p < 26u ? static_cast<int>(p >> 2) : -1;
}

// Float histogram: values k / 2^24 - 1/8 for a random 24-bit k (exact in float), so x in
// [-0.125, 0.875); the histogram covers [0, 0.75) and a quarter of the inputs fall outside.
inline constexpr float kFloatLo = 0.0f, kFloatHi = 0.75f;
MEMLAB_HD inline float float_value(std::uint64_t seed, std::uint64_t i) {
  const auto k = static_cast<std::int32_t>(random_u64(seed, i) >> 40) - (1 << 21);
  return static_cast<float>(k) * (1.0f / 16777216.0f);
}
// Bin of x for `bins` bins over [lo, hi) with scale = bins / (hi - lo) (one rounded multiply, the
// same on host and device); -1 when x is outside.
MEMLAB_HD inline int float_bin(float x, float scale, unsigned bins) {
  if (!(x >= kFloatLo && x < kFloatHi)) return -1;
  const auto b = static_cast<unsigned>((x - kFloatLo) * scale);
  return static_cast<int>(b < bins ? b : bins - 1);
}

// Atomics lesson: int32 values over the whole range, and floats k / 1024 for k in [-2^23, 2^23).
MEMLAB_HD inline std::int32_t int_value(std::uint64_t seed, std::uint64_t i) {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(random_u64(seed, i) >> 32));
}
MEMLAB_HD inline float max_float_value(std::uint64_t seed, std::uint64_t i) {
  const auto k = static_cast<std::int32_t>(random_u64(seed, i) >> 40) - (1 << 23);
  return static_cast<float>(k) * (1.0f / 1024.0f);
}

}  // namespace memlab::lessons::histogram
