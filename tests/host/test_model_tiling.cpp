// Tiling model: seed 000's convolution tiles, hand-worked cases, properties and bad inputs.
#include <gtest/gtest.h>

#include "memlab/common/error.hpp"
#include "memlab/model/tiling.hpp"

namespace m = memlab::model;

namespace {

m::TilingParams tile(int output, int mask, int dims) {
  m::TilingParams p;
  p.output_tile = output;
  p.mask = mask;
  p.dims = dims;
  return p;
}

std::string usage_message(const m::TilingParams& p) {
  try {
    m::analyze_tiling(p);
  } catch (const memlab::UsageError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

// Seed 000, 1D: O_TILE_WIDTH 1020, Mask_Width 5 -> I_TILE_WIDTH 1020 + 4 = 1024 = BLOCK_WIDTH,
// a multiple of 32; index_i = index_o - Mask_Width / 2 (halo 2); only 1020 threads compute.
TEST(TilingModel, Seed000OneDimensional) {
  const auto r = m::analyze_tiling(tile(1020, 5, 1));
  EXPECT_EQ(r.input_tile, 1024);
  EXPECT_EQ(r.halo, 2);
  EXPECT_EQ(r.block_threads, 1024);
  EXPECT_TRUE(r.block_is_warp_multiple);
  EXPECT_TRUE(r.block_fits);
  EXPECT_EQ(r.output_threads, 1020);
  EXPECT_EQ(r.idle_threads, 4);
  EXPECT_DOUBLE_EQ(r.idle_fraction, 4.0 / 1024.0);
  EXPECT_EQ(r.shared_bytes, 4096);  // __shared__ float Ns[1024]
  // Untiled, each input is read by Mask_Width = 5 outputs (seed: N[2] for P[0]..P[4]).
  EXPECT_EQ(r.inputs_per_output_untiled, 5);
  EXPECT_DOUBLE_EQ(r.inputs_per_output_tiled, 1024.0 / 1020.0);
  EXPECT_NEAR(r.reuse, 4.98046875, 1e-12);
  EXPECT_EQ(r.reuse_limit, 5);
}

// Seed 000, 2D: O_TILE_WIDTH 28, Mask_Width 5 -> Ns[32][32], a 32x32 = 1024-thread block of
// which 28x28 = 784 compute.
TEST(TilingModel, Seed000TwoDimensional) {
  const auto r = m::analyze_tiling(tile(28, 5, 2));
  EXPECT_EQ(r.input_tile, 32);
  EXPECT_EQ(r.halo, 2);
  EXPECT_EQ(r.block_threads, 1024);
  EXPECT_EQ(r.output_threads, 784);
  EXPECT_EQ(r.idle_threads, 240);
  EXPECT_DOUBLE_EQ(r.idle_fraction, 0.234375);
  EXPECT_EQ(r.shared_bytes, 4096);
  EXPECT_EQ(r.inputs_per_output_untiled, 25);
  EXPECT_DOUBLE_EQ(r.inputs_per_output_tiled, 1024.0 / 784.0);
  EXPECT_DOUBLE_EQ(r.reuse, 19.140625);
  EXPECT_EQ(r.reuse_limit, 25);
}

TEST(TilingModel, HandWorkedCases) {
  auto r = m::analyze_tiling(tile(7, 1, 1));  // mask 1: no halo, no reuse
  EXPECT_EQ(r.input_tile, 7);
  EXPECT_EQ(r.halo, 0);
  EXPECT_EQ(r.idle_threads, 0);
  EXPECT_DOUBLE_EQ(r.reuse, 1.0);
  r = m::analyze_tiling(tile(30, 5, 2));  // 34x34 = 1156 threads: too many for one block
  EXPECT_EQ(r.block_threads, 1156);
  EXPECT_FALSE(r.block_fits);
  EXPECT_FALSE(r.block_is_warp_multiple);
  EXPECT_EQ(r.shared_bytes, 4624);
  r = m::analyze_tiling(tile(16, 3, 2));  // 18x18, 8-byte elements
  EXPECT_EQ(r.input_tile, 18);
  EXPECT_EQ(r.idle_threads, 324 - 256);
  EXPECT_DOUBLE_EQ(r.reuse, 9.0 * 256.0 / 324.0);
  m::TilingParams p = tile(16, 3, 2);
  p.elem_size = 8;
  EXPECT_EQ(m::analyze_tiling(p).shared_bytes, 324 * 8);
}

TEST(TilingModel, SharedLimitIsInclusive) {
  auto p = tile(12284, 5, 1);  // 12288 floats = 49152 B = 48 KiB exactly
  EXPECT_EQ(m::analyze_tiling(p).shared_bytes, 49152);
  p.output_tile = 12285;
  EXPECT_EQ(usage_message(p),
            "output_tile: input tile 12289^1 x 4 B = 49156 B of shared memory must be <= 49152 B");
  p.shared_limit = 227 * 1024;
  EXPECT_EQ(m::analyze_tiling(p).shared_bytes, 49156);
}

TEST(TilingModel, Properties) {
  for (int dims : {1, 2}) {
    for (int output = 1; output <= 60; ++output) {
      for (int mask = 1; mask <= output; mask += 2) {
        auto p = tile(output, mask, dims);
        p.shared_limit = 1 << 20;
        const auto r = m::analyze_tiling(p);
        EXPECT_EQ(r.input_tile, output + 2 * (mask / 2));
        EXPECT_EQ(r.idle_threads, r.block_threads - r.output_threads);
        EXPECT_GE(r.reuse, 1.0);
        EXPECT_LE(r.reuse, static_cast<double>(r.reuse_limit));
        EXPECT_GE(r.idle_fraction, 0.0);
        EXPECT_LT(r.idle_fraction, 1.0);
      }
    }
  }
  // Bigger tiles amortise the halo better.
  EXPECT_LT(m::analyze_tiling(tile(12, 5, 2)).reuse, m::analyze_tiling(tile(28, 5, 2)).reuse);
}

TEST(TilingModel, BadInputsNameTheParameter) {
  EXPECT_EQ(usage_message(tile(28, 4, 2)), "mask: must be an odd width >= 1 (got 4)");
  EXPECT_EQ(usage_message(tile(28, 0, 2)), "mask: must be an odd width >= 1 (got 0)");
  EXPECT_EQ(usage_message(tile(28, -3, 1)), "mask: must be an odd width >= 1 (got -3)");
  EXPECT_EQ(usage_message(tile(3, 5, 1)), "mask: must be <= the output tile width 3 (got 5)");
  EXPECT_EQ(usage_message(tile(0, 1, 1)), "output_tile: must be in [1, 1048576] (got 0)");
  EXPECT_EQ(usage_message(tile(28, 5, 3)), "dims: must be 1 or 2 (got 3)");
  auto p = tile(28, 5, 2);
  p.elem_size = 0;
  EXPECT_EQ(usage_message(p), "elem_size: must be >= 1 byte (got 0)");
  p = tile(28, 5, 2);
  p.shared_limit = 4095;
  EXPECT_EQ(usage_message(p),
            "output_tile: input tile 32^2 x 4 B = 4096 B of shared memory must be <= 4095 B");
}
