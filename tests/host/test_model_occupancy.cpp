// Occupancy model: hand-worked H200 cases for each limiting resource, properties, bad inputs.
#include <gtest/gtest.h>

#include <algorithm>

#include "memlab/common/error.hpp"
#include "memlab/model/occupancy.hpp"

namespace m = memlab::model;

namespace {

m::OccupancyResult occ(std::int64_t threads, std::int64_t regs, std::int64_t smem) {
  return m::analyze_occupancy({threads, regs, smem});
}

}  // namespace

TEST(OccupancyModel, FullOccupancy) {
  const auto r = occ(256, 32, 0);  // 8 warps; 1024 regs/warp -> 16 warps per sub-partition
  EXPECT_EQ(r.warps_per_block, 8);
  EXPECT_EQ(r.regs_per_warp, 1024);
  EXPECT_EQ(r.blocks_by_warps, 8);
  EXPECT_EQ(r.blocks_by_registers, 8);
  EXPECT_EQ(r.blocks_by_smem, 32);
  EXPECT_EQ(r.blocks_per_sm, 8);
  EXPECT_EQ(r.warps_per_sm, 64);
  EXPECT_EQ(r.threads_per_sm, 2048);
  EXPECT_DOUBLE_EQ(r.occupancy, 1.0);
  EXPECT_EQ(r.limit, m::OccupancyLimit::kWarps);  // ties go to warps
}

TEST(OccupancyModel, RegisterLimited) {
  auto r = occ(256, 64, 0);  // 2048 regs/warp -> 8 warps per sub-partition -> 32 warps
  EXPECT_EQ(r.blocks_by_registers, 4);
  EXPECT_EQ(r.blocks_per_sm, 4);
  EXPECT_DOUBLE_EQ(r.occupancy, 0.5);
  EXPECT_EQ(r.limit, m::OccupancyLimit::kRegisters);
  r = occ(1024, 33, 0);  // 33*32 = 1056 -> 1280 regs/warp -> 12 warps/partition = 48 < 32*2
  EXPECT_EQ(r.regs_per_warp, 1280);
  EXPECT_EQ(r.blocks_by_registers, 1);
  EXPECT_EQ(r.warps_per_sm, 32);
  EXPECT_EQ(r.limit, m::OccupancyLimit::kRegisters);
  r = occ(1024, 255, 0);  // 8192 regs/warp: 8 warps per SM, a 32-warp block does not fit
  EXPECT_EQ(r.blocks_per_sm, 0);
  EXPECT_DOUBLE_EQ(r.occupancy, 0.0);
  EXPECT_EQ(r.limit, m::OccupancyLimit::kRegisters);
}

TEST(OccupancyModel, SharedMemoryLimited) {
  auto r = occ(128, 0, 48 * 1024);  // 49152 + 1024 reserved = 50176 B -> 4 blocks
  EXPECT_EQ(r.smem_per_block_allocated, 50176);
  EXPECT_EQ(r.blocks_by_smem, 4);
  EXPECT_EQ(r.blocks_per_sm, 4);
  EXPECT_EQ(r.warps_per_sm, 16);
  EXPECT_DOUBLE_EQ(r.occupancy, 0.25);
  EXPECT_EQ(r.limit, m::OccupancyLimit::kSharedMemory);
  r = occ(128, 0, 1);  // rounds up to 1025 -> 1152 B -> 202 blocks: not limiting
  EXPECT_EQ(r.smem_per_block_allocated, 1152);
  EXPECT_EQ(r.blocks_by_smem, 202);
  r = occ(256, 32, 227 * 1024);  // the largest block: exactly one fits in 228 KiB
  EXPECT_EQ(r.blocks_by_smem, 1);
  EXPECT_EQ(r.blocks_per_sm, 1);
}

TEST(OccupancyModel, BlockCountLimited) {
  const auto r = occ(32, 16, 0);  // 1-warp blocks: 64 by warps, 32 by the block limit
  EXPECT_EQ(r.blocks_by_warps, 64);
  EXPECT_EQ(r.blocks_per_sm, 32);
  EXPECT_DOUBLE_EQ(r.occupancy, 0.5);
  EXPECT_EQ(r.limit, m::OccupancyLimit::kBlocks);
}

TEST(OccupancyModel, PartialWarpsAndCustomLimits) {
  auto r = occ(100, 0, 0);  // 4 warps (the last one partial)
  EXPECT_EQ(r.warps_per_block, 4);
  EXPECT_EQ(r.blocks_per_sm, 16);
  EXPECT_EQ(r.threads_per_sm, 1600);
  m::DeviceLimits a100;  // sm_80: 164 KiB shared per SM, 2048 threads, 32 blocks
  a100.smem_per_sm = 164 * 1024;
  a100.max_smem_per_block = 163 * 1024;
  r = m::analyze_occupancy({256, 32, 40 * 1024}, a100);  // 41984 B -> 4 blocks
  EXPECT_EQ(r.blocks_per_sm, 4);
  EXPECT_EQ(r.limit, m::OccupancyLimit::kSharedMemory);
  m::DeviceLimits small;
  small.max_warps_per_sm = 48;
  small.max_threads_per_sm = 1536;
  r = m::analyze_occupancy({256, 0, 0}, small);
  EXPECT_EQ(r.blocks_per_sm, 6);
  EXPECT_DOUBLE_EQ(r.occupancy, 1.0);
}

TEST(OccupancyModel, Properties) {
  for (std::int64_t threads = 32; threads <= 1024; threads += 96) {
    for (std::int64_t regs = 0; regs <= 255; regs += 17) {
      for (std::int64_t smem = 0; smem <= 227 * 1024; smem += 20000) {
        const auto r = occ(threads, regs, smem);
        EXPECT_GE(r.occupancy, 0.0);
        EXPECT_LE(r.occupancy, 1.0);
        EXPECT_LE(r.blocks_per_sm, 32);
        EXPECT_LE(r.warps_per_sm, 64);
        EXPECT_EQ(r.blocks_per_sm, std::min({r.blocks_by_warps, r.blocks_by_registers,
                                             r.blocks_by_smem, r.blocks_by_blocks}));
        EXPECT_LE(r.blocks_per_sm * r.regs_per_warp * r.warps_per_block, 65536);
        EXPECT_LE(r.blocks_per_sm * r.smem_per_block_allocated, 228 * 1024);
      }
    }
  }
}

TEST(OccupancyModel, BadInputsNameTheParameter) {
  auto message = [](m::OccupancyParams p, m::DeviceLimits d = {}) -> std::string {
    try {
      m::analyze_occupancy(p, d);
    } catch (const memlab::UsageError& e) {
      return e.what();
    }
    return "no error";
  };
  EXPECT_EQ(message({0, 32, 0}), "threads_per_block: must be in [1, 1024] (got 0)");
  EXPECT_EQ(message({1025, 32, 0}), "threads_per_block: must be in [1, 1024] (got 1025)");
  EXPECT_EQ(message({256, 256, 0}), "regs_per_thread: must be in [0, 255] (got 256)");
  EXPECT_EQ(message({256, -1, 0}), "regs_per_thread: must be in [0, 255] (got -1)");
  EXPECT_EQ(message({256, 32, 227 * 1024 + 1}),
            "smem_per_block: must be in [0, 232448] (got 232449)");
  m::DeviceLimits d;
  d.regs_per_sm = 0;
  EXPECT_EQ(message({256, 32, 0}, d), "regs_per_sm: must be >= 1 (got 0)");
  d = {};
  d.reserved_smem_per_block = -1;
  EXPECT_EQ(message({256, 32, 0}, d), "reserved_smem_per_block: must be >= 0 (got -1)");
}
