// Roofline model: see include/memlab/model/roofline.hpp and docs/models.md.
#include "memlab/model/roofline.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <limits>

#include "memlab/common/error.hpp"

namespace memlab::model {
namespace {

void check(const char* name, double value, bool positive) {
  if (!std::isfinite(value) || value < 0.0 || (positive && value == 0.0)) {
    throw UsageError(fmt::format("{}: must be a finite number {} 0 (got {})", name,
                                 positive ? ">" : ">=", value));
  }
}

}  // namespace

const char* to_string(Bound bound) {
  return bound == Bound::kMemory ? "memory" : "compute";
}

RooflineResult analyze_roofline(const RooflineParams& p) {
  check("bytes", p.bytes, false);
  check("flops", p.flops, false);
  check("peak_bandwidth", p.peak_bandwidth, true);
  check("peak_flops", p.peak_flops, true);
  if (p.bytes == 0.0 && p.flops == 0.0) {
    throw UsageError("bytes: bytes and flops must not both be 0");
  }
  RooflineResult r;
  r.intensity = p.bytes > 0.0 ? p.flops / p.bytes : std::numeric_limits<double>::infinity();
  r.ridge = p.peak_flops / p.peak_bandwidth;
  r.bound = r.intensity < r.ridge ? Bound::kMemory : Bound::kCompute;
  r.memory_time = p.bytes / p.peak_bandwidth;
  r.compute_time = p.flops / p.peak_flops;
  r.attainable_time = std::max(r.memory_time, r.compute_time);
  r.attainable_flops = p.flops / r.attainable_time;
  r.attainable_bandwidth = p.bytes / r.attainable_time;
  return r;
}

}  // namespace memlab::model
