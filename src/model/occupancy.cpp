// Occupancy model: see include/memlab/model/occupancy.hpp and docs/models.md.
#include "memlab/model/occupancy.hpp"

#include <fmt/format.h>
#include <algorithm>

#include "memlab/common/error.hpp"

namespace memlab::model {
namespace {

std::int64_t round_up(std::int64_t value, std::int64_t unit) {
  return (value + unit - 1) / unit * unit;
}

void check_range(const char* name, std::int64_t value, std::int64_t lo, std::int64_t hi) {
  if (value < lo || value > hi) {
    throw UsageError(fmt::format("{}: must be in [{}, {}] (got {})", name, lo, hi, value));
  }
}

void check_positive(const char* name, std::int64_t value) {
  if (value < 1) throw UsageError(fmt::format("{}: must be >= 1 (got {})", name, value));
}

}  // namespace

std::string_view to_string(OccupancyLimit limit) {
  switch (limit) {
    case OccupancyLimit::kWarps:
      return "warps";
    case OccupancyLimit::kRegisters:
      return "registers";
    case OccupancyLimit::kSharedMemory:
      return "shared memory";
    case OccupancyLimit::kBlocks:
      return "blocks";
  }
  return "unknown";
}

OccupancyResult analyze_occupancy(const OccupancyParams& p, const DeviceLimits& d) {
  check_positive("regs_per_sm", d.regs_per_sm);
  check_positive("max_regs_per_thread", d.max_regs_per_thread);
  check_positive("reg_alloc_unit", d.reg_alloc_unit);
  check_positive("sub_partitions", d.sub_partitions);
  check_positive("smem_per_sm", d.smem_per_sm);
  check_positive("max_smem_per_block", d.max_smem_per_block);
  check_positive("smem_alloc_unit", d.smem_alloc_unit);
  if (d.reserved_smem_per_block < 0) {
    throw UsageError(
        fmt::format("reserved_smem_per_block: must be >= 0 (got {})", d.reserved_smem_per_block));
  }
  check_positive("max_threads_per_sm", d.max_threads_per_sm);
  check_positive("max_threads_per_block", d.max_threads_per_block);
  check_positive("max_blocks_per_sm", d.max_blocks_per_sm);
  check_positive("max_warps_per_sm", d.max_warps_per_sm);

  check_range("threads_per_block", p.threads_per_block, 1, d.max_threads_per_block);
  check_range("regs_per_thread", p.regs_per_thread, 0, d.max_regs_per_thread);
  check_range("smem_per_block", p.smem_per_block, 0, d.max_smem_per_block);

  OccupancyResult r;
  r.warps_per_block = (p.threads_per_block + 31) / 32;
  r.blocks_by_warps = std::min(d.max_warps_per_sm / r.warps_per_block,
                               d.max_threads_per_sm / (r.warps_per_block * 32));
  r.blocks_by_blocks = d.max_blocks_per_sm;

  r.regs_per_warp = round_up(p.regs_per_thread * 32, d.reg_alloc_unit);
  if (r.regs_per_warp == 0) {
    r.blocks_by_registers = d.max_blocks_per_sm;
  } else {
    const std::int64_t warps_per_partition = d.regs_per_sm / d.sub_partitions / r.regs_per_warp;
    r.blocks_by_registers = warps_per_partition * d.sub_partitions / r.warps_per_block;
  }

  if (p.smem_per_block == 0) {
    r.smem_per_block_allocated = 0;
    r.blocks_by_smem = d.max_blocks_per_sm;
  } else {
    r.smem_per_block_allocated =
        round_up(p.smem_per_block + d.reserved_smem_per_block, d.smem_alloc_unit);
    r.blocks_by_smem = d.smem_per_sm / r.smem_per_block_allocated;
  }

  r.blocks_per_sm = r.blocks_by_warps;
  r.limit = OccupancyLimit::kWarps;
  // Ties go to the first: a kernel without registers or shared memory given is limited by the
  // block count, never by a resource it does not use.
  const std::pair<std::int64_t, OccupancyLimit> others[] = {
      {r.blocks_by_blocks, OccupancyLimit::kBlocks},
      {r.blocks_by_registers, OccupancyLimit::kRegisters},
      {r.blocks_by_smem, OccupancyLimit::kSharedMemory}};
  for (const auto& [blocks, limit] : others) {
    if (blocks < r.blocks_per_sm) {
      r.blocks_per_sm = blocks;
      r.limit = limit;
    }
  }
  r.warps_per_sm = r.blocks_per_sm * r.warps_per_block;
  r.threads_per_sm = r.blocks_per_sm * p.threads_per_block;
  r.occupancy = static_cast<double>(r.warps_per_sm) / static_cast<double>(d.max_warps_per_sm);
  return r;
}

}  // namespace memlab::model
