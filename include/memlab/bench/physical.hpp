// The physical limit a timing must respect (issue 21, hole 4): a kernel timed faster than the
// device can move the bytes it must move did not do the measured work (it skipped launches,
// kept an earlier output, or its useful bytes are wrong). A rule of the runner and of the
// exercise harness alike. Host-only.
#pragma once

#include <optional>
#include <string>

namespace memlab::bench {

// Some bytes need not reach DRAM within a sample: the L2 may hold up to `l2_bytes` of them (writes
// it keeps dirty, reads a warm L2 serves). So only what exceeds the L2 must cross the DRAM bus:
// (bytes - l2_bytes) / seconds above kPhysicalMargin x the theoretical peak is impossible. Applies
// only when the L2 was flushed before the sample (`cold_l2`); a warm, cache-resident measurement
// (the hierarchy lesson) is no DRAM claim.
inline constexpr double kPhysicalMargin = 1.05;

// The reason ("timed at 165000 GB/s: ...") when impossible, else nullopt.
std::optional<std::string> impossible_bandwidth(double useful_bytes, double seconds, bool cold_l2,
                                                double l2_bytes, double peak_bytes_per_s);

// FLOP rate above kPhysicalMargin x the FP32 peak (for kernels that can only use the FP32 pipe:
// an exercise's learner kernel). Nullopt when possible.
std::optional<std::string> impossible_fp32_rate(double flops, double seconds,
                                                double peak_fp32_flops);

}  // namespace memlab::bench
