#include "memlab/bench/physical.hpp"

#include <fmt/format.h>

namespace memlab::bench {

std::optional<std::string> impossible_bandwidth(double useful_bytes, double seconds, bool cold_l2,
                                                double l2_bytes, double peak_bytes_per_s) {
  if (!cold_l2 || !(seconds > 0) || !(peak_bytes_per_s > 0)) return std::nullopt;
  const double must = useful_bytes - l2_bytes;
  if (!(must > 0)) return std::nullopt;
  const double rate = must / seconds;
  if (rate <= kPhysicalMargin * peak_bytes_per_s) return std::nullopt;
  return fmt::format(
      "impossible time: {:.0f} GB/s for {:.1f} MB of useful bytes, of which at least {:.1f} MB "
      "(all but an L2 of {:.1f} MB) must cross the DRAM bus: {:.1f}x the device's theoretical "
      "peak of {:.0f} GB/s. The kernel did not do the measured work (did some launches skip "
      "it?)",
      useful_bytes / seconds / 1e9, useful_bytes / 1e6, must / 1e6, l2_bytes / 1e6,
      rate / peak_bytes_per_s, peak_bytes_per_s / 1e9);
}

std::optional<std::string> impossible_fp32_rate(double flops, double seconds,
                                                double peak_fp32_flops) {
  if (!(seconds > 0) || !(peak_fp32_flops > 0) || !(flops > 0)) return std::nullopt;
  const double rate = flops / seconds;
  if (rate <= kPhysicalMargin * peak_fp32_flops) return std::nullopt;
  return fmt::format(
      "impossible time: {:.1f} TFLOP/s, {:.1f}x the device's FP32 peak of {:.1f} TFLOP/s. The "
      "kernel did not do the measured work (did some launches skip it?)",
      rate / 1e12, rate / peak_fp32_flops, peak_fp32_flops / 1e12);
}

}  // namespace memlab::bench
