// The results of a run: plain data (host-only), consumed by the report writers.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "memlab/bench/clocks.hpp"
#include "memlab/bench/counters.hpp"
#include "memlab/bench/stats.hpp"
#include "memlab/cuda/device_info.hpp"

namespace memlab::bench {

// What a model predicted for one variant at one point, and how the measurement compares.
struct PredictionRecord {
  std::string model;        // e.g. "coalescing: stride 4, 4 B -> 25% of fetched bytes used"
  double predicted_ms = 0;  // the model's time
  double measured_ms = 0;   // the median
  double ratio = 0;         // measured / predicted (1.0 = the model is exact)
  std::string bound;        // optional: the limiting resource the model names ("latency")
  std::vector<std::pair<std::string, double>> bounds_ms;  // optional: each bound's time
};

// `memlab run --repeat K`: the median of each of the K runs of one record.
struct RepeatSpread {
  std::vector<double> medians_ms;  // run 1 first
  double spread = 0;               // (max - min) / median of the medians
};

struct Record {
  std::string experiment;
  std::string variant;
  std::string description;
  std::vector<std::pair<std::string, std::string>> params;
  std::uint64_t seed = 0;

  bool verified = false;     // the check ran and passed
  double error = 0;          // relative L2 error, or mismatches for exact checks
  std::string check_detail;  // first mismatches when the check failed
  bool timed = false;
  // A variant broken on purpose (Variant::expected_failure): what it teaches, and whether the
  // check caught it this time. Such a record never makes the run fail.
  std::string expected_failure;
  bool expected_failure_observed = false;
  bool skipped = false;     // the variant does not apply at this point (its only_if)
  std::string skip_reason;  // then: why (JSON "status": "skipped", "reason")

  Stats stats;                 // milliseconds; "cold" (L2 flushed before every sample) or "warm"
  bool cold = false;           // which of the two `stats` is
  std::optional<Stats> batch;  // "batch": per launch, many launches between two events
  int batch_launches = 0;
  ClockRange clocks;  // NVML clocks and throttling while measuring (probes == 0: unknown)
  std::optional<RepeatSpread> repeat;
  double bytes = 0;       // useful bytes (each input read once, each output written once)
  double flops = 0;       // 0 when arithmetic does not matter
  double gbps = 0;        // bytes / median, 1e9 B/s
  double pct_peak = 0;    // of the theoretical DRAM bandwidth
  double pct_memcpy = 0;  // of the device-to-device cudaMemcpy measured in this run
  double gflops = 0;
  double pct_fp32_peak = 0;
  std::optional<double> speedup;  // baseline median / this median (same point)
  std::string baseline;
  double working_set_bytes = 0;
  bool fits_in_l2 = false;  // the result may measure the cache, not DRAM
  std::optional<PredictionRecord> prediction;
  std::optional<CounterRecord> counters;  // `memlab run --counters` (a pass never timed)
  std::vector<std::string> notes;
  std::vector<std::pair<std::string, double>> figures;  // from the variant's inspect hook
  std::string extra_text;                               // printed under the table
  std::string extra_json;                               // raw JSON value, stored as "extra"
};

struct Ceiling {
  bool measured = false;
  double bytes = 0;  // read + write
  Stats stats;
  double gbps = 0;
};

struct Context {
  DeviceInfo device;
  int sm_clock_mhz_start = 0, mem_clock_mhz_start = 0;
  int sm_clock_mhz_end = 0, mem_clock_mhz_end = 0;
  int pcie_gen = 0, pcie_width = 0;
  std::string tool_version;
  std::string git_commit;
  std::string date;  // ISO 8601, UTC
  std::uint64_t seed = 0;
  bool cold = true;  // L2 flushed between samples
  bool quick = false;
  std::string command_line;
  // `--counters`: "" not asked; "collected"; or "unavailable: <one-line reason>".
  std::string counters;
};

struct RunReport {
  Context context;
  Ceiling memcpy_d2d;
  std::vector<Record> records;
  bool cancelled = false;  // stopped by the caller's cancel flag; the records so far

  // A record that was checked and failed (skipped records and variants broken on purpose are
  // not failures).
  bool any_failed() const {
    for (const Record& r : records) {
      if (!r.skipped && r.expected_failure.empty() && !r.verified) return true;
    }
    return false;
  }
};

// 2: records carry "status" (timed | verified | failed | skipped | expected_failure) and the run
// a top-level "lessons" block (docs/lessons-json.md). Readers accept 1 and 2.
inline constexpr int kSchemaVersion = 2;
inline constexpr int kOldestSchemaVersion = 1;

}  // namespace memlab::bench
