#include <nlohmann/json.hpp>

#include "memlab/report/report.hpp"
#include "memlab/report/run_json.hpp"

namespace memlab::report {
namespace {

nlohmann::json device_json(const DeviceInfo& d) {
  return {{"name", d.name},
          {"ordinal", d.ordinal},
          {"uuid", d.uuid},
          {"compute_capability", std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor)},
          {"sm_count", d.sm_count},
          {"sm_clock_max_mhz", d.sm_clock_khz / 1000},
          {"mem_clock_max_mhz", d.mem_clock_khz / 1000},
          {"bus_width_bits", d.bus_width_bits},
          {"global_mem_bytes", d.global_mem_bytes},
          {"l2_bytes", d.l2_bytes},
          {"smem_per_block_bytes", d.smem_per_block},
          {"smem_per_block_optin_bytes", d.smem_per_block_optin},
          {"smem_per_sm_bytes", d.smem_per_sm},
          {"const_mem_bytes", d.const_mem_bytes},
          {"regs_per_sm", d.regs_per_sm},
          {"copy_engines", d.copy_engines},
          {"fp32_lanes_per_sm", d.fp32_lanes_per_sm},
          {"peak_bandwidth_gbps", d.peak_bandwidth_bytes_per_s() / 1e9},
          {"peak_fp32_gflops", d.peak_fp32_flops() / 1e9}};
}

nlohmann::json stats_json(const bench::Stats& s, const char* mode) {
  return {{"median_ms", s.median},
          {"min_ms", s.min},
          {"max_ms", s.max},
          {"mean_ms", s.mean},
          {"stdev_ms", s.stdev},
          {"samples", s.samples},
          {"relative_stdev", s.relative_stdev()},
          {"mode", mode},
          {"samples_ms", s.values}};
}

nlohmann::json clocks_json(const bench::ClockRange& c) {
  if (c.probes == 0) return {{"probes", 0}, {"remeasured", c.remeasured}};
  return {{"probes", c.probes},
          {"sm_min_mhz", c.sm_min_mhz},
          {"sm_max_mhz", c.sm_max_mhz},
          {"mem_min_mhz", c.mem_min_mhz},
          {"mem_max_mhz", c.mem_max_mhz},
          {"throttled_probes", c.throttled},
          {"throttle_reasons", bench::throttle_reason_names(c.reasons)},
          {"remeasured", c.remeasured}};
}

// `--counters`: the metrics as collected (CUPTI / ncu names), the figures derived from them, the
// model's figures beside them and measured / predicted ratios (absent where not collected).
nlohmann::json counters_json(const bench::CounterRecord& c) {
  nlohmann::json metrics = nlohmann::json::object();
  for (const auto& [name, value] : c.metrics) metrics[name] = value;
  nlohmann::json j = {{"metrics", std::move(metrics)}, {"passes", c.passes}};
  auto put = [&j](const char* key, const std::optional<double>& v) {
    if (v) j[key] = *v;
  };
  put("dram_bytes", c.dram_bytes);
  put("sectors_per_load_request", c.sectors_per_load_request);
  put("sectors_per_store_request", c.sectors_per_store_request);
  put("wavefronts_per_shared_access", c.wavefronts_per_shared_access);
  put("bank_conflicts", c.bank_conflicts);
  nlohmann::json predicted = nlohmann::json::object();
  if (c.predicted.dram_bytes > 0) predicted["dram_bytes"] = c.predicted.dram_bytes;
  if (c.predicted.sectors_per_request > 0) {
    predicted["sectors_per_request"] = c.predicted.sectors_per_request;
  }
  if (c.predicted.wavefronts_per_request > 0) {
    predicted["wavefronts_per_request"] = c.predicted.wavefronts_per_request;
  }
  j["predicted"] = std::move(predicted);
  j["useful_bytes"] = c.useful_bytes;
  put("dram_over_predicted", c.dram_ratio);
  put("sectors_over_predicted", c.sectors_ratio);
  put("wavefronts_over_predicted", c.wavefronts_ratio);
  return j;
}

// "skipped" (the variant does not apply at the point; see "reason"), "failed" (the check),
// "verified" (checked, not timed: --verify-only), "timed", or "expected_failure" (a variant
// broken on purpose; see the record's "expected_failure").
const char* status(const bench::Record& r) {
  if (r.skipped) return "skipped";
  if (!r.expected_failure.empty()) return "expected_failure";
  if (!r.verified) return "failed";
  return r.timed ? "timed" : "verified";
}

}  // namespace

std::string render_info_json(const std::vector<DeviceInfo>& devices, int selected,
                             const std::string& topology_json) {
  nlohmann::json all = nlohmann::json::array();
  for (const DeviceInfo& d : devices) all.push_back(device_json(d));
  const DeviceInfo& d = devices.at(static_cast<std::size_t>(selected));
  nlohmann::json j = {{"device", device_json(d)},
                      {"driver_version", cuda_version_string(d.driver_version)},
                      {"runtime_version", cuda_version_string(d.runtime_version)},
                      {"devices", all},
                      {"topology", nlohmann::json::parse(topology_json)}};
  return j.dump(2) + "\n";
}

std::string render_json(const bench::RunReport& report) {
  return run_json(report).dump(2) + "\n";
}

nlohmann::json run_json(const bench::RunReport& report) {
  const bench::Context& c = report.context;
  nlohmann::json j;
  j["schema_version"] = bench::kSchemaVersion;
  j["context"] = {
      {"tool", {{"name", "memlab"}, {"version", c.tool_version}, {"git_commit", c.git_commit}}},
      {"date", c.date},
      {"command_line", c.command_line},
      {"device", device_json(c.device)},
      {"driver_version", cuda_version_string(c.device.driver_version)},
      {"runtime_version", cuda_version_string(c.device.runtime_version)},
      {"clocks_mhz",
       {{"sm_start", c.sm_clock_mhz_start},
        {"mem_start", c.mem_clock_mhz_start},
        {"sm_end", c.sm_clock_mhz_end},
        {"mem_end", c.mem_clock_mhz_end}}},
      {"pcie", {{"generation", c.pcie_gen}, {"width", c.pcie_width}}},
      {"seed", c.seed},
      {"l2_flushed", c.cold},
      {"quick", c.quick},
      {"bytes_convention",
       "useful bytes: each input read once, each output written once; GB/s = 1e9 B/s"}};
  if (!c.counters.empty()) j["context"]["counters"] = c.counters;
  nlohmann::json ceiling = {{"measured", report.memcpy_d2d.measured}};
  if (report.memcpy_d2d.measured) {
    ceiling["bytes_read_plus_written"] = report.memcpy_d2d.bytes;
    ceiling["gbps"] = report.memcpy_d2d.gbps;
    ceiling["stats"] = stats_json(report.memcpy_d2d.stats, c.cold ? "cold" : "warm");
  }
  j["ceilings"] = {{"memcpy_d2d", ceiling}};
  nlohmann::json records = nlohmann::json::array();
  for (const bench::Record& r : report.records) {
    nlohmann::json params = nlohmann::json::object();
    for (const auto& [k, v] : r.params) params[k] = v;
    nlohmann::json rec = {{"experiment", r.experiment},
                          {"variant", r.variant},
                          {"description", r.description},
                          {"params", params},
                          {"seed", r.seed},
                          {"verified", r.verified},
                          {"check_error", r.error},
                          {"timed", r.timed},
                          {"bytes", r.bytes},
                          {"flops", r.flops},
                          {"working_set_bytes", r.working_set_bytes},
                          {"fits_in_l2", r.fits_in_l2},
                          {"baseline", r.baseline},
                          {"notes", r.notes},
                          {"status", status(r)}};
    if (r.skipped) rec["reason"] = r.skip_reason;
    if (!r.check_detail.empty()) rec["check_detail"] = r.check_detail;
    if (!r.expected_failure.empty()) {
      rec["expected_failure"] = {{"lesson", r.expected_failure},
                                 {"observed", r.expected_failure_observed}};
    }
    if (!r.figures.empty()) {
      nlohmann::json figures = nlohmann::json::object();
      for (const auto& [k, v] : r.figures) figures[k] = v;
      rec["figures"] = std::move(figures);
    }
    if (!r.extra_json.empty()) rec["extra"] = nlohmann::json::parse(r.extra_json);
    if (r.timed) {
      rec["stats"] = stats_json(r.stats, r.cold ? "cold" : "warm");
      rec["timing"] = r.cold ? "cold" : "warm";
      if (r.batch) {
        rec["batch"] = stats_json(*r.batch, "batch");
        rec["batch"]["launches_per_sample"] = r.batch_launches;
      }
      rec["clocks"] = clocks_json(r.clocks);
      if (r.repeat) {
        rec["repeat"] = {{"runs", r.repeat->medians_ms.size()},
                         {"medians_ms", r.repeat->medians_ms},
                         {"spread", r.repeat->spread}};
      }
      rec["gbps"] = r.gbps;
      rec["pct_peak_bandwidth"] = r.pct_peak;
      rec["pct_memcpy"] = r.pct_memcpy;
      rec["gflops"] = r.gflops;
      rec["pct_fp32_peak"] = r.pct_fp32_peak;
      rec["speedup_over_baseline"] = r.speedup ? nlohmann::json(*r.speedup) : nlohmann::json();
    }
    if (r.prediction) {
      rec["prediction"] = {{"model", r.prediction->model},
                           {"predicted_ms", r.prediction->predicted_ms},
                           {"measured_ms", r.prediction->measured_ms},
                           {"measured_over_predicted", r.prediction->ratio}};
      if (!r.prediction->bound.empty()) {
        rec["prediction"]["bound"] = r.prediction->bound;
        nlohmann::json bounds = nlohmann::json::object();
        for (const auto& [name, ms] : r.prediction->bounds_ms) bounds[name] = ms;
        rec["prediction"]["bounds_ms"] = bounds;
      }
    }
    if (r.counters) rec["counters"] = counters_json(*r.counters);
    records.push_back(std::move(rec));
  }
  j["records"] = std::move(records);
  if (report.cancelled) j["cancelled"] = true;
  return j;
}

}  // namespace memlab::report
