// Text output of `memlab model coalescing` and `memlab model banks`.
#include <fmt/format.h>

#include <cmath>
#include <string>
#include <vector>

#include "memlab/model/inputs.hpp"
#include "model_command_text.hpp"

namespace memlab::cli::model_text {

namespace m = memlab::model;

std::string lane_ranges(const std::vector<int>& lanes) {
  std::string out;
  for (std::size_t i = 0; i < lanes.size();) {
    std::size_t j = i;
    while (j + 1 < lanes.size() && lanes[j + 1] == lanes[j] + 1) ++j;
    if (!out.empty()) out += ',';
    out += j == i ? fmt::format("{}", lanes[i]) : fmt::format("{}-{}", lanes[i], lanes[j]);
    i = j + 1;
  }
  return out;
}

std::string percent(double fraction) {
  return fmt::format("{:.1f} %", 100.0 * fraction);
}

void print_coalescing(const nlohmann::json& params) {
  const auto out = m::compute(m::coalescing_input(params));
  const m::Pattern& p = out.pattern;
  const m::WarpAccess& w = out.warp;
  const int elem_size = out.elem_size;
  fmt::print("Coalescing model: one warp load, pattern {}, {}-byte elements\n",
             m::to_string(p.kind), elem_size);
  fmt::print("(32-byte sectors, 128-byte lines; the array starts on a 128-byte boundary)\n\n");
  fmt::print("  {:<28}{}\n", "32-byte sectors", w.sectors.size());
  fmt::print("  {:<28}{}\n", "128-byte lines", w.lines.size());
  fmt::print("  {:<28}{} / {} B\n", "moved / needed", w.bytes_moved, w.bytes_needed);
  fmt::print("  {:<28}{}\n", "efficiency (this warp)", percent(w.efficiency));
  fmt::print("  {:<28}{}\n", "efficiency (array pass)", percent(out.array_pass_efficiency));
  fmt::print("  {:<28}{}\n\n", "ideal sectors", w.min_sectors);

  const m::PassTime& t = out.time;
  fmt::print(
      "Time of a pass: {} kernel, {} useful bytes ({} SMs, {:.0f} MHz, {} threads/SM, "
      "memcpy {:.0f} GB/s)\n",
      m::to_string(out.kernel), out.bytes, out.device.sm_count, out.device.sm_clock_mhz,
      out.device.max_threads_per_sm, out.device.memcpy_gbps);
  fmt::print("  {:<28}{:.4f} ms ({:.0f} B of DRAM, {:.2g} of 4 units per 256-B chunk: {:.3f}x)\n",
             "dram bound", t.dram_ms, t.dram_bytes, t.units_per_chunk, t.chunk_factor);
  fmt::print("  {:<28}{:.4f} ms ({} warps x {} loads x {} B = {:.0f} B in flight per SM)\n",
             "latency bound", t.latency_ms, t.resident_warps, t.loads_in_flight,
             t.sectors_per_request * m::kSectorBytes, t.bytes_in_flight_per_sm);
  fmt::print("  {:<28}{:.4f} ms ({} wavefronts per request)\n", "lsu bound", t.lsu_ms,
             t.lines_per_request);
  fmt::print("  {:<28}{:.4f} ms, bound: {}\n\n", "predicted (2-norm)", t.time_ms,
             m::to_string(t.bound));

  fmt::print("Lanes -> byte address\n");
  for (int row = 0; row < 4; ++row) {
    std::string line = " ";
    for (int lane = row * 8; lane < row * 8 + 8; ++lane) {
      line += fmt::format(" {:>2}:{:<8}", lane, w.addresses[static_cast<std::size_t>(lane)]);
    }
    fmt::print("{}\n", line);
  }

  fmt::print("\nSectors touched (# = 4 bytes needed, . = fetched but unused) and their lanes\n");
  for (std::int64_t sector : w.sectors) {
    std::string cells(8, '.');
    std::vector<int> lanes;
    for (int lane = 0; lane < m::kWarpSize; ++lane) {
      const std::int64_t a = w.addresses[static_cast<std::size_t>(lane)];
      if (a / m::kSectorBytes != sector) continue;
      lanes.push_back(lane);
      const std::int64_t first = (a % m::kSectorBytes) / 4;
      const std::int64_t last = (a % m::kSectorBytes + elem_size - 1) / 4;
      for (std::int64_t c = first; c <= last; ++c) cells[static_cast<std::size_t>(c)] = '#';
    }
    fmt::print("  line {:>6} sector {} [{}]  bytes {:>8}..{:<8} lanes {}\n",
               sector * m::kSectorBytes / m::kLineBytes, sector % 4, cells,
               sector * m::kSectorBytes, sector * m::kSectorBytes + m::kSectorBytes - 1,
               lane_ranges(lanes));
  }
}

void print_banks(const nlohmann::json& params) {
  const auto out = m::compute(m::banks_input(params));
  const m::BankAccess& b = out.access;
  fmt::print("Shared-memory bank model: {}, {}-byte elements\n", out.what, b.elem_size);
  fmt::print("(32 banks of 4 bytes; bank = word address mod 32; same word = broadcast)\n\n");
  fmt::print("  {:<28}{}-way\n", "conflict degree",
             b.degree == std::floor(b.degree) ? fmt::format("{:.0f}", b.degree)
                                              : fmt::format("{:.2f}", b.degree));
  fmt::print("  {:<28}{} (conflict-free: {})\n", "passes (wavefronts)", b.passes, b.min_passes);
  fmt::print("  {:<28}{}\n", "lanes with broadcast", b.broadcast_lanes);
  if (b.phases.size() > 1) {
    fmt::print("  {:<28}{} phases of {} lanes\n", "phases", b.phases.size(), b.phases[0].lanes);
  }
  for (const auto& phase : b.phases) {
    fmt::print("\n");
    if (b.phases.size() > 1) {
      fmt::print("Phase lanes {}-{}: {} pass(es)\n", phase.first_lane,
                 phase.first_lane + phase.lanes - 1, phase.passes);
    }
    std::string header = "bank   |";
    for (int bank = 0; bank < m::kBanks; ++bank) header += fmt::format("{:>3} ", bank);
    fmt::print("{}\n", header);
    fmt::print("{}\n", std::string(header.size(), '-'));
    for (int pass = 0; pass < phase.passes; ++pass) {
      std::string row = fmt::format("pass {:<2}|", pass + 1);
      for (int bank = 0; bank < m::kBanks; ++bank) {
        const auto& lanes = phase.lanes_of_word[static_cast<std::size_t>(bank)];
        if (pass < static_cast<int>(lanes.size())) {
          const auto& readers = lanes[static_cast<std::size_t>(pass)];
          row += fmt::format("{:>3}{}", readers.front(), readers.size() > 1 ? '*' : ' ');
        } else {
          row += "  . ";
        }
      }
      fmt::print("{}\n", row);
    }
  }
  fmt::print(
      "\nNumber = lowest lane reading that word; * = several lanes read it (broadcast, free);\n"
      "row k = the k-th distinct word of a bank: every row after the first is a conflict pass.\n");
}

}  // namespace memlab::cli::model_text
