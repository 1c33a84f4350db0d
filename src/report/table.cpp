#include <fmt/format.h>

#include <algorithm>

#include "memlab/bench/params.hpp"
#include "memlab/report/report.hpp"
#include "rows.hpp"

namespace memlab::report {
namespace detail {

std::string format_time_ms(double ms) {
  if (ms < 1.0) return fmt::format("{:.2f} us", ms * 1e3);
  if (ms < 1000.0) return fmt::format("{:.3f} ms", ms);
  return fmt::format("{:.3f} s", ms / 1e3);
}

std::vector<std::vector<const bench::Record*>> group_by_experiment(const bench::RunReport& r) {
  std::vector<std::vector<const bench::Record*>> groups;
  for (const bench::Record& rec : r.records) {
    if (groups.empty() || groups.back().front()->experiment != rec.experiment)
      groups.emplace_back();
    groups.back().push_back(&rec);
  }
  return groups;
}

Cells experiment_cells(const std::vector<const bench::Record*>& records) {
  const bool any_flops = std::any_of(records.begin(), records.end(),
                                     [](const bench::Record* r) { return r->flops > 0; });
  const bool any_pred = std::any_of(records.begin(), records.end(), [](const bench::Record* r) {
    return r->prediction && r->prediction->predicted_ms > 0;
  });
  const bool any_batch = std::any_of(records.begin(), records.end(),
                                     [](const bench::Record* r) { return r->batch.has_value(); });
  const bool any_repeat = std::any_of(records.begin(), records.end(),
                                      [](const bench::Record* r) { return r->repeat.has_value(); });
  const bool cold = std::any_of(records.begin(), records.end(),
                                [](const bench::Record* r) { return r->timed && r->cold; });
  Cells c;
  c.header = {"variant", "point", cold ? "median(cold)" : "median(warm)", "+-stdev", "n"};
  if (any_batch) c.header.emplace_back("batch/launch");
  if (any_repeat) c.header.emplace_back("run spread");
  for (const char* h : {"GB/s", "%peak", "%memcpy"}) c.header.emplace_back(h);
  if (any_flops) {
    c.header.push_back("GFLOP/s");
    c.header.push_back("%fp32");
  }
  c.header.push_back("speed-up");
  if (any_pred) {
    c.header.push_back("predicted");
    c.header.push_back("meas/pred");
  }
  c.header.push_back("check");
  for (const bench::Record* r : records) {
    if (r->skipped) continue;
    std::vector<std::string> row{r->variant, bench::format_point(r->params)};
    if (r->timed) {
      row.push_back(format_time_ms(r->stats.median));
      row.push_back(fmt::format("{:.1f}%", 100.0 * r->stats.relative_stdev()));
      row.push_back(std::to_string(r->stats.samples));
      if (any_batch) row.push_back(r->batch ? format_time_ms(r->batch->median) : "-");
      if (any_repeat) {
        row.push_back(r->repeat ? fmt::format("{:.1f}% of {}", 100.0 * r->repeat->spread,
                                              r->repeat->medians_ms.size())
                                : "-");
      }
      row.push_back(r->bytes > 0 ? fmt::format("{:.1f}", r->gbps) : "-");
      row.push_back(r->bytes > 0 ? fmt::format("{:.1f}", r->pct_peak) : "-");
      row.push_back(r->bytes > 0 && r->pct_memcpy > 0 ? fmt::format("{:.1f}", r->pct_memcpy) : "-");
      if (any_flops) {
        row.push_back(r->flops > 0 ? fmt::format("{:.1f}", r->gflops) : "-");
        row.push_back(r->flops > 0 ? fmt::format("{:.1f}", r->pct_fp32_peak) : "-");
      }
      row.push_back(r->speedup ? fmt::format("{:.2f}x", *r->speedup) : "-");
    } else {
      const int n = 6 + (any_flops ? 2 : 0) + 1 + (any_batch ? 1 : 0) + (any_repeat ? 1 : 0);
      for (int i = 0; i < n; ++i) row.emplace_back("-");
    }
    if (any_pred) {
      if (r->prediction && r->prediction->predicted_ms > 0) {
        row.push_back(format_time_ms(r->prediction->predicted_ms));
        row.push_back(fmt::format("{:.2f}", r->prediction->ratio));
      } else {
        row.emplace_back("-");
        row.emplace_back("-");
      }
    }
    if (!r->expected_failure.empty()) {
      // Broken on purpose: its caught failure is the lesson, not a failure of the run.
      row.push_back(r->expected_failure_observed ? "expected FAIL" : "race not seen");
      c.rows.push_back(std::move(row));
      c.status.push_back(2);
      continue;
    }
    row.push_back(r->verified ? "ok" : "FAIL");
    c.rows.push_back(std::move(row));
    c.status.push_back(!r->verified ? 1 : (r->fits_in_l2 && r->bytes > 0 ? 2 : 0));
  }
  return c;
}

std::vector<std::string> skip_lines(const std::vector<const bench::Record*>& records) {
  std::vector<std::string> lines;
  for (const bench::Record* r : records) {
    if (r->skipped) {
      lines.push_back(fmt::format("{} {}: skipped: {}", r->variant, bench::format_point(r->params),
                                  r->skip_reason));
    }
  }
  return lines;
}

std::vector<std::string> collapsed_skip_lines(const std::vector<const bench::Record*>& records) {
  struct Reason {
    std::string reason;
    std::vector<const bench::Record*> records;
    std::vector<std::string> variants;
  };
  std::vector<Reason> reasons;
  for (const bench::Record* r : records) {
    if (!r->skipped) continue;
    auto it = std::find_if(reasons.begin(), reasons.end(),
                           [&](const Reason& x) { return x.reason == r->skip_reason; });
    if (it == reasons.end()) {
      reasons.push_back({r->skip_reason, {}, {}});
      it = reasons.end() - 1;
    }
    it->records.push_back(r);
    if (std::find(it->variants.begin(), it->variants.end(), r->variant) == it->variants.end()) {
      it->variants.push_back(r->variant);
    }
  }
  std::vector<std::string> lines;
  for (const Reason& x : reasons) {
    if (x.records.size() == 1) {
      const bench::Record* r = x.records.front();
      lines.push_back(fmt::format("{} {}: skipped: {}", r->variant, bench::format_point(r->params),
                                  r->skip_reason));
      continue;
    }
    std::string names;
    for (const std::string& v : x.variants) names += (names.empty() ? "" : ", ") + v;
    lines.push_back(fmt::format("{} skipped ({}): {}", x.records.size(), names, x.reason));
  }
  return lines;
}

}  // namespace detail

std::string render_device(const DeviceInfo& d, const bench::Context* c) {
  std::string out;
  out += fmt::format("device        {} (#{}), compute capability {}.{}\n", d.name, d.ordinal,
                     d.cc_major, d.cc_minor);
  out += fmt::format("SMs           {} x {} FP32 lanes, max SM clock {} MHz\n", d.sm_count,
                     d.fp32_lanes_per_sm, d.sm_clock_khz / 1000);
  out += fmt::format("memory        {}, bus {} bit, max memory clock {} MHz\n",
                     bench::format_bytes(static_cast<double>(d.global_mem_bytes)), d.bus_width_bits,
                     d.mem_clock_khz / 1000);
  out += fmt::format("L2            {}\n", bench::format_bytes(static_cast<double>(d.l2_bytes)));
  out += fmt::format("shared memory {} per block ({} with opt-in), {} per SM\n",
                     bench::format_bytes(static_cast<double>(d.smem_per_block)),
                     bench::format_bytes(static_cast<double>(d.smem_per_block_optin)),
                     bench::format_bytes(static_cast<double>(d.smem_per_sm)));
  out += fmt::format("constant      {}\n",
                     bench::format_bytes(static_cast<double>(d.const_mem_bytes)));
  out += fmt::format("registers     {} per SM; {} threads and {} blocks per SM at most\n",
                     d.regs_per_sm, d.max_threads_per_sm, d.max_blocks_per_sm);
  out += fmt::format("copy engines  {}\n", d.copy_engines);
  out += fmt::format("peak DRAM     {:.1f} GB/s (2 x memory clock x bus width / 8)\n",
                     d.peak_bandwidth_bytes_per_s() / 1e9);
  out += fmt::format("peak FP32     {:.1f} GFLOP/s (SMs x lanes x 2 x SM clock)\n",
                     d.peak_fp32_flops() / 1e9);
  out += fmt::format("driver        CUDA {}, runtime {}\n", cuda_version_string(d.driver_version),
                     cuda_version_string(d.runtime_version));
  if (c != nullptr && c->sm_clock_mhz_start > 0) {
    out += fmt::format("clocks now    SM {} MHz, memory {} MHz\n", c->sm_clock_mhz_start,
                       c->mem_clock_mhz_start);
  }
  if (c != nullptr && c->pcie_gen > 0) {
    out += fmt::format("PCIe link     gen {} x{}\n", c->pcie_gen, c->pcie_width);
  }
  return out;
}

std::string render_table(const bench::RunReport& report, bool colour) {
  std::string out;
  if (report.memcpy_d2d.measured) {
    out += fmt::format("ceiling: cudaMemcpy device-to-device {:.1f} GB/s (read + write of {})\n",
                       report.memcpy_d2d.gbps, bench::format_bytes(report.memcpy_d2d.bytes / 2));
  }
  for (const auto& group : detail::group_by_experiment(report)) {
    const detail::Cells c = detail::experiment_cells(group);
    std::vector<std::size_t> width(c.header.size(), 0);
    for (std::size_t i = 0; i < c.header.size(); ++i) width[i] = c.header[i].size();
    for (const auto& row : c.rows) {
      for (std::size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], row[i].size());
    }
    out += fmt::format("\n== {} (speed-up over {}) ==\n", group.front()->experiment,
                       group.front()->baseline.empty() ? "-" : group.front()->baseline);
    auto line = [&](const std::vector<std::string>& row, int status) {
      std::string s;
      for (std::size_t i = 0; i < row.size(); ++i) {
        const bool left = i < 2;
        s += left ? fmt::format("{:<{}}", row[i], width[i])
                  : fmt::format("{:>{}}", row[i], width[i]);
        if (i + 1 < row.size()) s += "  ";
      }
      if (colour && status == 1) return "\x1b[31m" + s + "\x1b[0m\n";
      if (colour && status == 2) return "\x1b[33m" + s + "\x1b[0m\n";
      return s + "\n";
    };
    if (!c.rows.empty()) out += line(c.header, 0);
    for (std::size_t r = 0; r < c.rows.size(); ++r) out += line(c.rows[r], c.status[r]);
    for (const std::string& s : detail::collapsed_skip_lines(group)) out += "  " + s + "\n";
    for (const bench::Record* r : group) {
      if (r->skipped) continue;
      if (!r->figures.empty() || !r->extra_text.empty()) {
        out += fmt::format("  {} {}:", r->variant, bench::format_point(r->params));
        for (const auto& [k, v] : r->figures) out += fmt::format(" {}={:.4g}", k, v);
        out += "\n";
        if (!r->extra_text.empty()) out += r->extra_text;
      }
      if (!r->expected_failure.empty()) {
        out += fmt::format("  {} {}: {}\n", r->variant, bench::format_point(r->params),
                           r->notes.empty() ? r->expected_failure : r->notes.front());
      } else if (!r->verified) {
        out += fmt::format("  {} {}: check failed: {}\n", r->variant, r->seed, r->check_detail);
      }
    }
    for (const bench::Record* r : group) {
      if (r->counters) {
        out += fmt::format("  {} {}: counters: {}\n", r->variant, bench::format_point(r->params),
                           bench::format_counters(*r->counters));
      }
    }
    for (const bench::Record* r : group) {
      if (r->clocks.throttled > 0) {
        out += fmt::format("  {} {}: {}\n", r->variant, bench::format_point(r->params),
                           bench::throttle_note(r->clocks));
      }
    }
    if (std::any_of(group.begin(), group.end(),
                    [](const bench::Record* r) { return r->batch.has_value(); })) {
      out +=
          "  note: median(cold) has the L2 flushed before every launch; batch/launch is many "
          "back-to-back launches between two events (launch gaps hidden, L2 warm), for "
          "kernels under 50 us\n";
    }
    if (std::any_of(group.begin(), group.end(),
                    [](const bench::Record* r) { return r->fits_in_l2 && r->bytes > 0; })) {
      out += "  note: some working sets fit in L2; those rows may measure the cache, not DRAM\n";
    }
  }
  return out;
}

}  // namespace memlab::report
