// count_mismatches (memlab/cuda/compare.hpp), the GPU comparison behind every timed launch of a
// learner's kernel: against a CPU count on random data at sizes that are not multiples of the
// block or the grid stride, with known mismatches, NaN and poison bits, for each element kind.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "gpu_test.hpp"
#include "memlab/cuda/buffer.hpp"
#include "memlab/cuda/check.hpp"
#include "memlab/cuda/compare.hpp"

namespace memlab {
namespace {

using memlab::gpu_test::have_device;

unsigned long long gpu_count(const std::vector<unsigned char>& got,
                             const std::vector<unsigned char>& want, CompareAs as) {
  DeviceBuffer<unsigned char> g(got.size()), w(want.size());
  g.copy_from_host(got.data(), got.size());
  w.copy_from_host(want.data(), want.size());
  DeviceBuffer<unsigned long long> n(1);
  n.fill_bytes(0);
  count_mismatches(g.get(), w.get(), got.size(), as, n.get(), nullptr);
  MEMLAB_CUDA_CHECK(cudaDeviceSynchronize());
  unsigned long long out = 0;
  n.copy_to_host(&out, 1);
  return out;
}

float as_float(const unsigned char* p) {
  float f;
  std::memcpy(&f, p, 4);
  return f;
}

TEST(Compare, CountsLikeTheCpuAtOddSizes) {
  if (!have_device()) GTEST_SKIP() << "skipped: no CUDA device";
  std::mt19937 rng(7);
  for (std::size_t elems : {std::size_t{1}, std::size_t{255}, std::size_t{257},
                            std::size_t{1048577}, std::size_t{4096 * 256 * 3 + 5}}) {
    std::vector<float> want(elems);
    std::uniform_real_distribution<float> u(-10.0f, 10.0f);
    for (float& x : want) x = u(rng);
    std::vector<float> got = want;
    std::size_t expect = 0;
    for (std::size_t i = 0; i < elems; i += 1 + rng() % 97) {
      switch (rng() % 4) {
        case 0:
          got[i] = want[i] + 1.0f;
          ++expect;
          break;  // wrong
        case 1:
          got[i] = std::nanf("");
          ++expect;
          break;  // NaN vs a number
        case 2:
          got[i] = want[i] * (1.0f + 1e-5f);
          break;  // within the tolerance
        default:
          std::memset(&got[i], 0xFF, 4);
          std::memset(&want[i], 0xFF, 4);
          break;  // poison both
      }
    }
    std::vector<unsigned char> g(elems * 4), w(elems * 4);
    std::memcpy(g.data(), got.data(), g.size());
    std::memcpy(w.data(), want.data(), w.size());
    std::size_t cpu = 0;  // the rule of compare.hpp, on the host
    for (std::size_t i = 0; i < elems; ++i) {
      const float a = as_float(&g[4 * i]), b = as_float(&w[4 * i]);
      const bool same_bits = std::memcmp(&g[4 * i], &w[4 * i], 4) == 0;
      if (!(same_bits || std::fabs(a - b) <= 1e-3f * std::fmax(1.0f, std::fabs(b)))) ++cpu;
    }
    EXPECT_EQ(cpu, expect) << elems;
    EXPECT_EQ(gpu_count(g, w, CompareAs::Float), cpu) << elems;
    // Exact words and bytes: every changed word counts, within the tolerance too.
    std::size_t words = 0, bytes = 0;
    for (std::size_t i = 0; i < elems; ++i) words += std::memcmp(&g[4 * i], &w[4 * i], 4) != 0;
    for (std::size_t i = 0; i < g.size(); ++i) bytes += g[i] != w[i];
    EXPECT_EQ(gpu_count(g, w, CompareAs::Word), words) << elems;
    EXPECT_EQ(gpu_count(g, w, CompareAs::Byte), bytes) << elems;
  }
}

}  // namespace
}  // namespace memlab
