// Roofline model: is a kernel bound by memory bandwidth or by arithmetic, and how fast can it be?
//
// Host-only. time >= max(bytes / peak_bandwidth, flops / peak_flops); attainable flop/s =
// min(peak_flops, intensity * peak_bandwidth). Exact as a bound; real kernels reach a fraction of
// it (latency, occupancy, instruction mix).
#pragma once

namespace memlab::model {

// H200 SXM defaults: HBM3e 4.8 TB/s; FP32 132 SMs x 128 lanes x 2 flop x 1.98 GHz = 66.9 TFLOP/s.
inline constexpr double kH200PeakBandwidth = 4.8e12;
inline constexpr double kH200PeakFp32Flops = 132.0 * 128.0 * 2.0 * 1.98e9;

struct RooflineParams {
  double bytes = 0.0;                          // bytes moved to/from DRAM, >= 0
  double flops = 0.0;                          // floating-point operations, >= 0; bytes + flops > 0
  double peak_bandwidth = kH200PeakBandwidth;  // B/s, > 0
  double peak_flops = kH200PeakFp32Flops;      // flop/s, > 0
};

enum class Bound { kMemory, kCompute };

struct RooflineResult {
  double intensity = 0.0;             // flops / bytes (flop/B); +infinity when bytes == 0
  double ridge = 0.0;                 // peak_flops / peak_bandwidth: intensity where the roofs meet
  Bound bound = Bound::kMemory;       // kMemory when intensity < ridge, else kCompute
  double memory_time = 0.0;           // bytes / peak_bandwidth (s)
  double compute_time = 0.0;          // flops / peak_flops (s)
  double attainable_time = 0.0;       // max(memory_time, compute_time) (s)
  double attainable_flops = 0.0;      // flops / attainable_time = min(peak, intensity * bandwidth)
  double attainable_bandwidth = 0.0;  // bytes / attainable_time (B/s)
};

const char* to_string(Bound bound);  // "memory" / "compute"

// Throws UsageError for negative or non-finite inputs, both bytes and flops zero, or peaks <= 0.
RooflineResult analyze_roofline(const RooflineParams& params);

}  // namespace memlab::model
