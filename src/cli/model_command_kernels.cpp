// Text output of `memlab model tiling`, `memlab model roofline` and `memlab model occupancy`.
#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <string_view>

#include "memlab/model/inputs.hpp"
#include "model_command_text.hpp"

namespace memlab::cli::model_text {

namespace m = memlab::model;

void print_tiling(const nlohmann::json& params) {
  const auto out = m::compute(m::tiling_input(params));
  const m::TilingParams& p = out.params;
  const m::TilingResult& r = out.result;
  const std::string sq = p.dims == 2 ? "^2" : "";
  fmt::print("Tiling model: {}D convolution, output tile {}, mask {} (interior tile)\n", p.dims,
             p.output_tile, p.mask);
  fmt::print("(design: one thread per input element; all load, only output threads compute)\n\n");
  fmt::print("  {:<34}{} = {} + {} - 1\n", "input tile width", r.input_tile, p.output_tile, p.mask);
  fmt::print("  {:<34}{}\n", "halo per side", r.halo);
  fmt::print("  {:<34}{} ({}{}){}{}\n", "threads per block", r.block_threads, r.input_tile, sq,
             r.block_is_warp_multiple ? "" : ", not a multiple of 32",
             r.block_fits ? "" : fmt::format(", above {} threads", p.max_threads_per_block));
  fmt::print("  {:<34}{}\n", "threads computing an output", r.output_threads);
  fmt::print("  {:<34}{} ({})\n", "idle threads after the load", r.idle_threads,
             percent(r.idle_fraction));
  fmt::print("  {:<34}{} B\n", "shared memory per block", r.shared_bytes);
  fmt::print("  {:<34}{}\n", "global reads per output, untiled", r.inputs_per_output_untiled);
  fmt::print("  {:<34}{:.4f}\n", "global reads per output, tiled", r.inputs_per_output_tiled);
  fmt::print("  {:<34}{:.2f}x (limit {}x for huge tiles)\n", "reduction of global reads", r.reuse,
             r.reuse_limit);
  // Picture: one row of the input tile, scaled to at most 64 characters.
  const int cols = std::min(r.input_tile, 64);
  std::string row;
  for (int c = 0; c < cols; ++c) {
    const int x = static_cast<int>(static_cast<std::int64_t>(c) * r.input_tile / cols);
    row += (x < r.halo || x >= r.input_tile - r.halo) ? 'h' : 'o';
  }
  fmt::print("\n{} of the input tile{} (h = halo, loaded only; o = output position):\n",
             p.dims == 2 ? "Rows" : "One row",
             cols < r.input_tile ? fmt::format(" (scaled {}:{})", r.input_tile, cols) : "");
  const int rows = p.dims == 2 ? std::min(r.input_tile, 16) : 1;
  for (int y = 0; y < rows; ++y) {
    const int yy = static_cast<int>(static_cast<std::int64_t>(y) * r.input_tile / rows);
    const bool halo_row = p.dims == 2 && (yy < r.halo || yy >= r.input_tile - r.halo);
    fmt::print("  {}\n", halo_row ? std::string(row.size(), 'h') : row);
  }
}

void print_roofline(const nlohmann::json& params) {
  const auto out = m::compute(m::roofline_input(params));
  const m::RooflineParams& p = out.params;
  const m::RooflineResult& r = out.result;
  fmt::print("Roofline model\n\n");
  fmt::print("  {:<26}{:.4g} B, {:.4g} flop\n", "work", p.bytes, p.flops);
  fmt::print("  {:<26}{:.4g} GB/s, {:.4g} GFLOP/s\n", "peaks", p.peak_bandwidth / 1e9,
             p.peak_flops / 1e9);
  fmt::print("  {:<26}{:.4g} flop/B\n", "arithmetic intensity", r.intensity);
  fmt::print("  {:<26}{:.4g} flop/B\n", "ridge point", r.ridge);
  fmt::print("  {:<26}{}\n", "bound", m::to_string(r.bound));
  fmt::print("  {:<26}{:.4g} ms (memory {:.4g} ms, compute {:.4g} ms)\n", "attainable time",
             r.attainable_time * 1e3, r.memory_time * 1e3, r.compute_time * 1e3);
  fmt::print("  {:<26}{:.4g} GFLOP/s ({} of peak)\n", "attainable flop/s", r.attainable_flops / 1e9,
             percent(r.attainable_flops / p.peak_flops));
  fmt::print("  {:<26}{:.4g} GB/s ({} of peak)\n", "attainable bandwidth",
             r.attainable_bandwidth / 1e9, percent(r.attainable_bandwidth / p.peak_bandwidth));
}

void print_occupancy(const nlohmann::json& params) {
  const auto out = m::compute(m::occupancy_input(params));
  const m::OccupancyParams& p = out.params;
  const m::DeviceLimits& d = out.limits;
  const m::OccupancyResult& r = out.result;
  fmt::print("Occupancy model: {} threads/block, {} registers/thread, {} B shared/block\n\n",
             p.threads_per_block, p.regs_per_thread, p.smem_per_block);
  auto line = [&](std::string_view what, std::int64_t blocks, m::OccupancyLimit limit,
                  const std::string& detail) {
    fmt::print("  {:<16}{:>6} blocks  {}{}\n", what, blocks, detail,
               limit == r.limit ? "   <- limit" : "");
  };
  line("warps", r.blocks_by_warps, m::OccupancyLimit::kWarps,
       fmt::format("{} warps/block of {} per SM", r.warps_per_block, d.max_warps_per_sm));
  line("registers", r.blocks_by_registers, m::OccupancyLimit::kRegisters,
       fmt::format("{} registers/warp of {} per SM", r.regs_per_warp, d.regs_per_sm));
  line("shared memory", r.blocks_by_smem, m::OccupancyLimit::kSharedMemory,
       fmt::format("{} B/block allocated of {} per SM", r.smem_per_block_allocated, d.smem_per_sm));
  line("blocks", r.blocks_by_blocks, m::OccupancyLimit::kBlocks,
       fmt::format("at most {} blocks per SM", d.max_blocks_per_sm));
  fmt::print("\n  {:<16}{}\n", "blocks per SM", r.blocks_per_sm);
  fmt::print("  {:<16}{} of {}\n", "warps per SM", r.warps_per_sm, d.max_warps_per_sm);
  fmt::print("  {:<16}{}\n", "occupancy", percent(r.occupancy));
  fmt::print("  {:<16}{}\n", "limited by", m::to_string(r.limit));
  // Picture: the SM's warp slots, one character per warp.
  std::string slots;
  for (std::int64_t w = 0; w < d.max_warps_per_sm; ++w) {
    slots += w < r.warps_per_sm ? static_cast<char>('A' + (w / r.warps_per_block) % 26) : '.';
  }
  fmt::print("\n  warp slots |{}|  (letter = block, . = empty)\n", slots);
  if (r.blocks_per_sm == 0) {
    fmt::print("  not even one block fits on an SM: the launch would fail\n");
  }
}

}  // namespace memlab::cli::model_text
