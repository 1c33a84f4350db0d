#include <algorithm>

#include "memlab/cuda/check.hpp"
#include "memlab/cuda/fill.hpp"
#include "memlab/cuda/l2_flush.hpp"

namespace memlab {
namespace {

__global__ void fill_uniform_kernel(float* data, std::size_t n, std::uint64_t seed, float lo,
                                    float hi) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride) {
    data[i] = random_uniform(seed, i, lo, hi);
  }
}

__global__ void fill_bytes_kernel(unsigned char* data, std::size_t bytes, std::uint64_t seed) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  const std::size_t words = bytes / 8;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < words;
       i += stride) {
    const std::uint64_t r = random_u64(seed, i);
    for (int b = 0; b < 8; ++b) data[8 * i + b] = static_cast<unsigned char>(r >> (8 * b));
  }
  const std::size_t tail = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (tail < bytes - 8 * words) {
    data[8 * words + tail] = random_byte(seed, 8 * words + tail);
  }
}

__global__ void read_all_kernel(const uint4* data, std::size_t words, unsigned* sink) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  unsigned acc = 0;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < words;
       i += stride) {
    const uint4 v = data[i];
    acc ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (acc == 0x9E3779B9u) *sink = acc;
}

// Spins `ns` of %globaltimer; also stops after 4 * ns SM cycles (>= 2 ns at any clock up to
// 2 GHz), so a timer that does not advance (some virtualised GPUs) cannot hang the stream.
__global__ void delay_kernel(unsigned ns) {
  std::uint64_t start = 0, now = 0;
  const long long c0 = clock64();
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  } while (now - start < ns && clock64() - c0 < 4LL * ns);
}

unsigned grid_for(std::size_t n) {
  return static_cast<unsigned>(std::min<std::size_t>((n + 255) / 256, 65536));
}

}  // namespace

void fill_uniform(float* data, std::size_t n, std::uint64_t seed, float lo, float hi,
                  cudaStream_t stream) {
  if (n == 0) return;
  fill_uniform_kernel<<<grid_for(n), 256, 0, stream>>>(data, n, seed, lo, hi);
  MEMLAB_CHECK_LAUNCH(fill_uniform_kernel);
}

void fill_random_bytes(void* data, std::size_t bytes, std::uint64_t seed, cudaStream_t stream) {
  if (bytes == 0) return;
  fill_bytes_kernel<<<grid_for(bytes / 8 + 1), 256, 0, stream>>>(static_cast<unsigned char*>(data),
                                                                 bytes, seed);
  MEMLAB_CHECK_LAUNCH(fill_bytes_kernel);
}

void read_all(const void* data, std::size_t bytes, unsigned* sink, cudaStream_t stream) {
  const std::size_t words = bytes / sizeof(uint4);
  if (words == 0) return;
  read_all_kernel<<<grid_for(words), 256, 0, stream>>>(static_cast<const uint4*>(data), words,
                                                       sink);
  MEMLAB_CHECK_LAUNCH(read_all_kernel);
}

void gpu_delay(unsigned ns, cudaStream_t stream) {
  if (ns == 0) return;
  delay_kernel<<<1, 1, 0, stream>>>(ns);
  MEMLAB_CHECK_LAUNCH(delay_kernel);
}

}  // namespace memlab
