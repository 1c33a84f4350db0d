// Coalescing time model: see include/memlab/model/coalescing_time.hpp and docs/coalescing.md.
#include "memlab/model/coalescing_time.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "memlab/common/error.hpp"

namespace memlab::model {

std::string_view to_string(KernelShape shape) {
  switch (shape) {
    case KernelShape::kResidentRead:
      return "read";
    case KernelShape::kCopyPerThread:
      return "copy";
  }
  return "unknown";
}

KernelShape parse_kernel_shape(std::string_view name) {
  if (name == "read") return KernelShape::kResidentRead;
  if (name == "copy") return KernelShape::kCopyPerThread;
  throw UsageError(fmt::format("kernel: must be read or copy (got '{}')", name));
}

std::string_view to_string(PassBound bound) {
  switch (bound) {
    case PassBound::kDram:
      return "dram";
    case PassBound::kLatency:
      return "latency";
    case PassBound::kLsu:
      return "lsu";
  }
  return "unknown";
}

namespace {

// 64-byte units read per 256-byte chunk fetched, over the first kChunkThreads threads of the pass
// (four blocks of 256: neighbouring warps read the other units of a chunk at the same time, and
// meet in L2). The first and the last chunk are left out when there are more than two: an offset
// or the end of the span cuts them.
constexpr int kChunkThreads = 1024;
double units_per_chunk(const Pattern& pattern, int elem_size) {
  std::vector<std::int64_t> units;
  units.reserve(kChunkThreads);
  for (std::int64_t t = 0; t < kChunkThreads; ++t) {
    units.push_back(element_index(pattern, t) * elem_size / kDramGranuleBytes);
  }
  std::sort(units.begin(), units.end());
  units.erase(std::unique(units.begin(), units.end()), units.end());
  constexpr std::int64_t per_chunk = kDramChunkBytes / kDramGranuleBytes;
  std::vector<std::pair<std::int64_t, int>> chunks;  // chunk, units read from it
  for (const std::int64_t u : units) {
    if (chunks.empty() || chunks.back().first != u / per_chunk)
      chunks.emplace_back(u / per_chunk, 0);
    ++chunks.back().second;
  }
  std::size_t lo = 0, hi = chunks.size();
  if (hi > 2) {
    ++lo;
    --hi;
  }
  double read = 0;
  for (std::size_t i = lo; i < hi; ++i) read += chunks[i].second;
  return read / static_cast<double>(hi - lo);
}

}  // namespace

PassTime pass_time(const Pattern& pattern, int elem_size, double useful_bytes, KernelShape shape,
                   const PassDevice& device) {
  if (!(useful_bytes >= elem_size)) {
    throw UsageError(fmt::format("bytes: must be at least one element (got {})", useful_bytes));
  }
  if (device.sm_count < 1) throw UsageError("sms: must be >= 1");
  if (!(device.sm_clock_mhz > 0)) throw UsageError("clock-mhz: must be > 0");
  if (device.max_threads_per_sm < kWarpSize) throw UsageError("threads-per-sm: must be >= 32");
  if (!(device.memcpy_gbps > 0)) throw UsageError("memcpy-gbps: must be > 0");
  const WarpAccess warp = analyze_warp(pattern, elem_size);  // validates the pattern
  const bool copy = shape == KernelShape::kCopyPerThread;

  PassTime t;
  const double elements = std::floor(useful_bytes / elem_size);
  t.requests = std::ceil(elements / kWarpSize);
  t.sectors_per_request = static_cast<int>(warp.sectors.size());
  t.lines_per_request = static_cast<int>(warp.lines.size());
  t.resident_warps = device.max_threads_per_sm / kWarpSize;
  t.loads_in_flight = copy ? 1 : kReadLoadsInFlight;
  t.bytes_in_flight_per_sm = static_cast<double>(t.resident_warps) * t.loads_in_flight *
                             t.sectors_per_request * kSectorBytes;

  // DRAM: the read in 64-byte units (scattered ones dearer), the copy's write streamed.
  const double read = elements * elem_size;
  const double read_dram = read / coalescing_efficiency(pattern, elem_size, kDramGranuleBytes);
  const double written = copy ? read : 0.0;
  t.units_per_chunk = units_per_chunk(pattern, elem_size);
  constexpr double kFull = kDramChunkBytes / kDramGranuleBytes;
  t.chunk_factor = (kDramChunkOverheadUnits + t.units_per_chunk) / t.units_per_chunk * kFull /
                   (kDramChunkOverheadUnits + kFull);
  t.dram_bytes = read_dram + written;
  const double weighted = read_dram * t.chunk_factor;
  t.dram_ms = 1e3 * (weighted + written) / (device.memcpy_gbps * 1e9);

  // Latency (Little's law): rounds of warps x loads_in_flight requests per SM.
  const double cycles_per_ms = device.sm_clock_mhz * 1e3;
  const double rounds =
      t.requests / (static_cast<double>(device.sm_count) * t.resident_warps * t.loads_in_flight);
  const double round_cycles = kLoadedLatencyCycles + (copy ? kBlockTurnaroundCycles : 0.0);
  t.latency_ms = rounds * round_cycles / cycles_per_ms;

  // LSU: one wavefront per line of each load request, and of each store request of the copy.
  const double store_lines = copy ? std::max(1.0, kWarpSize * elem_size / double{kLineBytes}) : 0;
  const double wavefronts = t.requests * (t.lines_per_request + store_lines);
  t.lsu_ms = wavefronts / (kWavefrontsPerCycle * device.sm_count) / cycles_per_ms;

  t.time_ms = std::sqrt(t.dram_ms * t.dram_ms + t.latency_ms * t.latency_ms + t.lsu_ms * t.lsu_ms);
  t.bound = PassBound::kDram;
  if (t.latency_ms > t.dram_ms && t.latency_ms >= t.lsu_ms) t.bound = PassBound::kLatency;
  if (t.lsu_ms > t.dram_ms && t.lsu_ms > t.latency_ms) t.bound = PassBound::kLsu;
  return t;
}

}  // namespace memlab::model
