#include "memlab/bench/clocks.hpp"

#include <algorithm>
#include <array>
#include <utility>

namespace memlab::bench {

std::string throttle_reason_names(std::uint64_t reasons) {
  static constexpr std::array<std::pair<std::uint64_t, const char*>, 5> kNames{{
      {0x4, "sw power cap"},
      {0x8, "hw slowdown"},
      {0x20, "sw thermal"},
      {0x40, "hw thermal"},
      {0x80, "hw power brake"},
  }};
  std::string out;
  for (const auto& [bit, name] : kNames) {
    if ((reasons & bit) != 0) out += (out.empty() ? "" : ", ") + std::string(name);
  }
  return out.empty() ? "none" : out;
}

void ClockRange::add(const ClockSample& s) {
  if (probes == 0) {
    sm_min_mhz = sm_max_mhz = s.sm_mhz;
    mem_min_mhz = mem_max_mhz = s.mem_mhz;
  } else {
    sm_min_mhz = std::min(sm_min_mhz, s.sm_mhz);
    sm_max_mhz = std::max(sm_max_mhz, s.sm_mhz);
    mem_min_mhz = std::min(mem_min_mhz, s.mem_mhz);
    mem_max_mhz = std::max(mem_max_mhz, s.mem_mhz);
  }
  ++probes;
  if (is_throttled(s.reasons)) {
    ++throttled;
    reasons |= s.reasons & kThrottleReasonMask;
  }
}

std::string throttle_note(const ClockRange& r) {
  if (r.throttled == 0) return {};
  return std::to_string(r.throttled) + " of " + std::to_string(r.probes) +
         " clock probes throttled (" + throttle_reason_names(r.reasons) + ")" +
         (r.remeasured > 0 ? ", after " + std::to_string(r.remeasured) + " re-measurement(s)"
                           : std::string());
}

void ClockRange::merge(const ClockRange& o) {
  if (o.probes == 0) {
    remeasured = std::max(remeasured, o.remeasured);
    return;
  }
  if (probes == 0) {
    const int keep = std::max(remeasured, o.remeasured);
    *this = o;
    remeasured = keep;
    return;
  }
  sm_min_mhz = std::min(sm_min_mhz, o.sm_min_mhz);
  sm_max_mhz = std::max(sm_max_mhz, o.sm_max_mhz);
  mem_min_mhz = std::min(mem_min_mhz, o.mem_min_mhz);
  mem_max_mhz = std::max(mem_max_mhz, o.mem_max_mhz);
  probes += o.probes;
  throttled += o.throttled;
  reasons |= o.reasons;
  remeasured = std::max(remeasured, o.remeasured);
}

}  // namespace memlab::bench
