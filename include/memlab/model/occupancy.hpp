// Occupancy model: how many blocks of a kernel fit on one SM, and what limits them.
//
// Host-only. Follows the rules of the CUDA occupancy calculator (cuda_occupancy.h) for one kernel
// launch with the maximum shared-memory carveout:
//   warps per block    = ceil(threads / 32)
//   by warps           = max_warps_per_sm / warps per block            (threads per SM likewise)
//   by blocks          = max_blocks_per_sm
//   by registers       = registers are allocated per warp in units of reg_alloc_unit and split
//                        evenly over the SM's sub-partitions (4 since Volta):
//                        regs per warp = roundup(regs_per_thread * 32, reg_alloc_unit)
//                        warps per sub-partition = (regs_per_sm / sub_partitions) / regs per warp
//                        blocks = warps per sub-partition * sub_partitions / warps per block
//   by shared memory   = smem_per_sm / roundup(smem_per_block + reserved_smem_per_block,
//                                              smem_alloc_unit)
// blocks per SM = the smallest; the limiting resource is the one giving it (ties: the first in
// the order warps, blocks, registers, shared memory).
#pragma once

#include <cstdint>
#include <string_view>

namespace memlab::model {

// Defaults: H200 / H100 (sm_90).
struct DeviceLimits {
  std::int64_t regs_per_sm = 65536;
  std::int64_t max_regs_per_thread = 255;
  std::int64_t reg_alloc_unit = 256;             // registers, allocated per warp
  std::int64_t sub_partitions = 4;               // register file split (SMSPs)
  std::int64_t smem_per_sm = 228 * 1024;         // bytes
  std::int64_t max_smem_per_block = 227 * 1024;  // bytes (opt-in maximum)
  std::int64_t smem_alloc_unit = 128;            // bytes
  std::int64_t reserved_smem_per_block = 1024;   // bytes the runtime reserves per block
  std::int64_t max_threads_per_sm = 2048;
  std::int64_t max_threads_per_block = 1024;
  std::int64_t max_blocks_per_sm = 32;
  std::int64_t max_warps_per_sm = 64;
};

struct OccupancyParams {
  std::int64_t threads_per_block = 256;  // [1, max_threads_per_block]
  std::int64_t regs_per_thread = 32;     // [0, max_regs_per_thread]; 0 = not limiting
  std::int64_t smem_per_block = 0;       // bytes, static + dynamic, [0, max_smem_per_block]
};

enum class OccupancyLimit { kWarps, kRegisters, kSharedMemory, kBlocks };
std::string_view to_string(OccupancyLimit limit);  // warps, registers, shared memory, blocks

struct OccupancyResult {
  std::int64_t warps_per_block = 0;
  std::int64_t blocks_by_warps = 0;           // from max_warps_per_sm and max_threads_per_sm
  std::int64_t blocks_by_registers = 0;       // max_blocks_per_sm when regs_per_thread == 0
  std::int64_t blocks_by_smem = 0;            // max_blocks_per_sm when smem_per_block == 0
  std::int64_t blocks_by_blocks = 0;          // max_blocks_per_sm
  std::int64_t regs_per_warp = 0;             // after rounding to reg_alloc_unit
  std::int64_t smem_per_block_allocated = 0;  // after reserve and rounding
  std::int64_t blocks_per_sm = 0;
  std::int64_t warps_per_sm = 0;
  std::int64_t threads_per_sm = 0;
  double occupancy = 0.0;  // warps_per_sm / max_warps_per_sm, in [0, 1]
  OccupancyLimit limit = OccupancyLimit::kWarps;
};

// Throws UsageError for parameters outside the ranges above or non-positive device limits.
OccupancyResult analyze_occupancy(const OccupancyParams& params,
                                  const DeviceLimits& limits = DeviceLimits{});

}  // namespace memlab::model
