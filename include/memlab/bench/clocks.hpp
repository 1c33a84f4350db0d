// Clocks and throttle reasons sampled while a measurement runs (host-only). The samples come from
// NVML (src/cuda/nvml.cpp); the bookkeeping and the re-measure rule live here so that the host
// tests can check them without a GPU.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace memlab::bench {

// One NVML reading: current SM and memory clocks and the clocks-event (throttle) reason bits.
struct ClockSample {
  int sm_mhz = 0;
  int mem_mhz = 0;
  std::uint64_t reasons = 0;  // nvmlClocksEventReason* bits
};

// The reasons that slow a kernel down: software power cap (0x4), hardware slowdown (0x8),
// software thermal (0x20), hardware thermal (0x40), hardware power brake (0x80). Idle (0x1),
// application clocks (0x2), sync boost (0x10) and display clocks (0x100) are not throttling.
inline constexpr std::uint64_t kThrottleReasonMask = 0x4 | 0x8 | 0x20 | 0x40 | 0x80;

// A measurement is discarded and taken again when more than this fraction of its clock probes
// saw a throttle reason (at most kMaxRemeasure times; then it is kept and flagged in the notes).
inline constexpr double kThrottledFractionLimit = 0.10;
inline constexpr int kMaxRemeasure = 2;

inline bool is_throttled(std::uint64_t reasons) {
  return (reasons & kThrottleReasonMask) != 0;
}

// "sw power cap, hw thermal" (only the throttling bits); "none" when there are none.
std::string throttle_reason_names(std::uint64_t reasons);

// The clock range over the probes of one measurement.
struct ClockRange {
  int probes = 0;     // 0: NVML not available, nothing known
  int throttled = 0;  // probes that saw a throttle reason
  int sm_min_mhz = 0, sm_max_mhz = 0;
  int mem_min_mhz = 0, mem_max_mhz = 0;
  std::uint64_t reasons = 0;  // union of the throttling bits seen
  int remeasured = 0;         // measurements discarded because they were throttled

  void add(const ClockSample& s);
  void merge(const ClockRange& other);  // the union of two ranges (remeasured: the larger)
  double throttled_fraction() const { return probes > 0 ? double(throttled) / probes : 0.0; }
  bool too_throttled() const { return throttled_fraction() > kThrottledFractionLimit; }
};

// The note a record carries when its last measurement was still throttled; empty otherwise.
std::string throttle_note(const ClockRange& range);

// Returns the current sample, or nullopt when NVML cannot say. Empty: no probing at all.
using ClockProbe = std::function<std::optional<ClockSample>()>;

}  // namespace memlab::bench
