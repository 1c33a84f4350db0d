// conv2d's shared-memory ring (smem_ring, smem_ring_wave) at bands the lesson's test points never
// reach: smem_ring_wave sizes its band to one wave of resident blocks, which on a large GPU is
// kRingBand (64) at every test point, so its tall bands (hundreds of rows, many turns of the
// 8-row ring, a last band that ends inside a turn) are forced here through launch_ring's band
// override and compared with the CPU reference on every output, the output poisoned (NaN) before
// each of two launches.
#include <gtest/gtest.h>

#include "gpu_test.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "conv2d/kernels.cuh"
#include "conv2d/kernels_ring.cuh"
#include "conv2d/reference.hpp"
#include "memlab/cuda/buffer.hpp"
#include "memlab/cuda/check.hpp"
#include "memlab/cuda/fill.hpp"

namespace memlab::lessons::conv2d {
namespace {

struct Case {
  int height, width, k;
  std::vector<int> bands;  // 0: the variant's own band
};

// The CPU reference of seed `seed`, the whole image (row-major), computed once per case.
std::vector<float> reference_image(const Image& img, const std::vector<float>& mask,
                                   std::uint64_t seed) {
  const auto w = static_cast<std::size_t>(img.width);
  std::vector<float> want(static_cast<std::size_t>(img.height) * w);
  for (int y = 0; y < img.height; ++y) {
    reference_row(seed, img.height, img.width, mask, img.k, y,
                  want.data() + static_cast<std::size_t>(y) * w);
  }
  return want;
}

// Every output of `img` (already launched) against `want`.
void expect_matches(const Image& img, const std::vector<float>& want, const std::string& what) {
  const auto w = static_cast<std::size_t>(img.width);
  std::vector<float> got(want.size());
  MEMLAB_CUDA_CHECK(
      cudaMemcpy(got.data(), img.out, got.size() * sizeof(float), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    // |products| <= 1, at most 25 of them: FP32 against double is off by ~1e-6.
    if (!(std::fabs(got[i] - want[i]) <= 1e-4f) && ++bad <= 3) {
      ADD_FAILURE() << what << ": out[" << i / w << "][" << i % w << "] = " << got[i] << ", want "
                    << want[i];
    }
  }
  EXPECT_EQ(bad, 0) << what << ": " << bad << " wrong outputs";
}

TEST(Conv2dRing, BandsThatEndInsideARingTurnAreExact) {
  if (!memlab::gpu_test::have_device()) GTEST_SKIP() << "skipped: no CUDA device";
  // Bands of 1 (fewer rows than the mask), 7 and 9 (a turn of the 8-slot ring +- 1), 64
  // (smem_ring's), 97 and 150 (tall, the last band shorter), the whole image in one band, and 0
  // (the device's own: smem_ring_wave's one-wave band). Widths: one strip and a half (516), whole
  // strips (512, the last strip's right halo chunk at the width), a 4-column image.
  const std::vector<Case> cases = {
      {300, 516, 5, {1, 7, 9, 64, 97, 150, 300, 0}},
      {301, 512, 3, {8, 97, 301, 0}},
      {259, 516, 1, {1, 64, 150, 0}},
      {130, 4, 5, {9, 64, 130, 0}},
  };
  const std::uint64_t seed = 23;
  for (const Case& c : cases) {
    const auto kk = static_cast<std::size_t>(c.k);
    const std::size_t n = static_cast<std::size_t>(c.height) * static_cast<std::size_t>(c.width);
    std::vector<float> mask(kk * kk);
    for (std::size_t i = 0; i < mask.size(); ++i) {
      mask[i] = random_uniform(seed ^ 0x3a5c, i, -1.0f, 1.0f);
    }
    upload_mask(mask.data(), nullptr, nullptr, c.k);
    DeviceBuffer<float> in(n), out(n);
    fill_uniform(in.get(), n, seed, -1.0f, 1.0f, nullptr);
    const Image img{in.get(), out.get(), c.height, c.width, c.k};
    const std::vector<float> want = reference_image(img, mask, seed);
    for (const bool wave : {false, true}) {
      for (const int band : c.bands) {
        for (int launch = 0; launch < 2; ++launch) {
          MEMLAB_CUDA_CHECK(cudaMemset(out.get(), 0xff, n * sizeof(float)));  // NaN
          launch_ring(img, wave, nullptr, band);
          MEMLAB_CUDA_CHECK(cudaDeviceSynchronize());
          expect_matches(img, want,
                         std::to_string(c.height) + " x " + std::to_string(c.width) + ", K " +
                             std::to_string(c.k) + (wave ? ", wave" : "") + ", band " +
                             std::to_string(band == 0 ? ring_band(img, wave) : band));
        }
      }
    }
  }
}

TEST(Conv2dRing, WaveBandFillsOneWaveAndIsNeverShorterThanTheRingBand) {
  if (!memlab::gpu_test::have_device()) GTEST_SKIP() << "skipped: no CUDA device";
  int device = 0, sms = 0;
  MEMLAB_CUDA_CHECK(cudaGetDevice(&device));
  MEMLAB_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  for (const int k : {1, 3, 5}) {
    EXPECT_EQ(ring_band(Image{nullptr, nullptr, 16384, 16384, k}, false), kRingBand);
    EXPECT_EQ(ring_band(Image{nullptr, nullptr, 100, 516, k}, true), kRingBand);
    // 16384^2: 64 strips; the grid's blocks are at most one per resident slot, and at least one
    // slot per SM is used.
    const int band = ring_band(Image{nullptr, nullptr, 16384, 16384, k}, true);
    const int blocks = 64 * ((16384 + band - 1) / band);
    EXPECT_GE(band, kRingBand);
    EXPECT_GE(blocks, sms) << "K " << k << ", band " << band;
    EXPECT_LE(blocks, sms * 32) << "K " << k << ", band " << band;
  }
}

TEST(Conv2dRing, RefusesWhatItCannotRun) {
  if (!memlab::gpu_test::have_device()) GTEST_SKIP() << "skipped: no CUDA device";
  DeviceBuffer<float> in(64), out(64);
  EXPECT_THROW(launch_ring(Image{in.get(), out.get(), 8, 6, 5}, true, nullptr),
               std::invalid_argument);
  EXPECT_THROW(launch_ring(Image{in.get(), out.get(), 8, 8, 7}, true, nullptr),
               std::invalid_argument);
  EXPECT_THROW(launch_ring(Image{in.get(), out.get(), 8, 8, 5}, false, nullptr, -1),
               std::invalid_argument);
}

}  // namespace
}  // namespace memlab::lessons::conv2d
