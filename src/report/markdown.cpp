#include <fmt/format.h>

#include "memlab/report/report.hpp"
#include "rows.hpp"

namespace memlab::report {

std::string render_markdown(const bench::RunReport& report) {
  const bench::Context& c = report.context;
  std::string out = fmt::format("# memlab results: {}\n\n", c.device.name);
  out += fmt::format(
      "memlab {} ({}), {}; CUDA driver {}, runtime {}; seed {}; L2 {} between samples.\n\n",
      c.tool_version, c.git_commit, c.date, cuda_version_string(c.device.driver_version),
      cuda_version_string(c.device.runtime_version), c.seed, c.cold ? "flushed" : "not flushed");
  out += fmt::format("Theoretical DRAM bandwidth {:.1f} GB/s; FP32 peak {:.1f} GFLOP/s.",
                     c.device.peak_bandwidth_bytes_per_s() / 1e9, c.device.peak_fp32_flops() / 1e9);
  if (report.memcpy_d2d.measured) {
    out += fmt::format(" Device-to-device cudaMemcpy in this run: {:.1f} GB/s (read + write).",
                       report.memcpy_d2d.gbps);
  }
  out += "\nGB/s count useful bytes: each input read once, each output written once.\n";
  for (const auto& group : detail::group_by_experiment(report)) {
    const detail::Cells cells = detail::experiment_cells(group);
    out += fmt::format("\n## {}\n\n", group.front()->experiment);
    out += "| " + fmt::format("{}", fmt::join(cells.header, " | ")) + " |\n|";
    for (std::size_t i = 0; i < cells.header.size(); ++i) out += i < 2 ? " --- |" : " ---: |";
    out += "\n";
    for (const auto& row : cells.rows)
      out += "| " + fmt::format("{}", fmt::join(row, " | ")) + " |\n";
    const std::vector<std::string> skips = detail::skip_lines(group);
    if (!skips.empty()) out += "\n";
    for (const std::string& s : skips) out += "- " + s + "\n";
  }
  return out;
}

}  // namespace memlab::report
