// Random inputs drawn on the device (counter-based hash: reproducible from the seed, fast at
// gigabyte sizes). Host code that needs the values copies them back or recomputes them with
// memlab::random_u64, which is the same function on host and device.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#if defined(__CUDACC__)
#define MEMLAB_HD __host__ __device__
#else
#define MEMLAB_HD
#endif

namespace memlab {

// splitmix64 of (seed, index): a counter-based generator.
MEMLAB_HD inline std::uint64_t random_u64(std::uint64_t seed, std::uint64_t index) {
  std::uint64_t z = seed + (index + 1) * 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// Uniform in [lo, hi) from the top 24 bits (exactly representable in float).
MEMLAB_HD inline float random_uniform(std::uint64_t seed, std::uint64_t index, float lo, float hi) {
  const float u = static_cast<float>(random_u64(seed, index) >> 40) * (1.0f / 16777216.0f);
  return lo + (hi - lo) * u;
}

// Byte `b` of a buffer filled by fill_random_bytes(seed): little-endian bytes of random_u64(b / 8).
MEMLAB_HD inline unsigned char random_byte(std::uint64_t seed, std::uint64_t b) {
  return static_cast<unsigned char>(random_u64(seed, b / 8) >> (8 * (b % 8)));
}

void fill_uniform(float* data, std::size_t n, std::uint64_t seed, float lo, float hi,
                  cudaStream_t stream);
// Random bytes (every byte value equally likely).
void fill_random_bytes(void* data, std::size_t bytes, std::uint64_t seed, cudaStream_t stream);

}  // namespace memlab
