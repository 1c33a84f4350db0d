// The coalescing time model (memlab/model/coalescing_time.hpp) against the stored H200 full run:
// every coalescing and misalignment point within 15% (issue 13's bar), the bound each regime names.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "memlab/common/error.hpp"
#include "memlab/model/coalescing_time.hpp"

namespace memlab::model {
namespace {

using nlohmann::json;

constexpr double kMiB256 = 268435456.0;

Pattern stride_pattern(std::int64_t stride, std::int64_t offset) {
  Pattern p;
  p.kind = stride == 1 ? AccessKind::kOffset : AccessKind::kStrided;
  p.stride = stride;
  p.offset = offset;
  return p;
}

PassTime h200(int elem, std::int64_t stride, std::int64_t offset, KernelShape shape) {
  return pass_time(stride_pattern(stride, offset), elem, kMiB256, shape, PassDevice{});
}

TEST(CoalescingTime, NamesTheBoundOfEachRegime) {
  // 1-byte stride-1 read: 8 KiB in flight per SM, far below what 4.2 TB/s needs -> latency.
  const PassTime small = h200(1, 1, 0, KernelShape::kResidentRead);
  EXPECT_EQ(small.bound, PassBound::kLatency);
  EXPECT_DOUBLE_EQ(small.bytes_in_flight_per_sm, 64.0 * 4 * 32);
  EXPECT_GT(small.latency_ms, 2.0 * small.dram_ms);
  // 16-byte stride-1 read: 128 KiB in flight per SM -> DRAM.
  EXPECT_EQ(h200(16, 1, 0, KernelShape::kResidentRead).bound, PassBound::kDram);
  // The copy keeps one load in flight per warp: latency-bound up to 4-byte elements.
  EXPECT_EQ(h200(4, 1, 0, KernelShape::kCopyPerThread).bound, PassBound::kLatency);
  EXPECT_EQ(h200(16, 1, 0, KernelShape::kCopyPerThread).bound, PassBound::kDram);
  // Large strides move 8x..64x the useful bytes: DRAM.
  EXPECT_EQ(h200(4, 32, 0, KernelShape::kResidentRead).bound, PassBound::kDram);
}

// Issue 19 #6: the DRAM fetches 256-byte chunks; lanes 128 B apart read 2 of a chunk's 4 units,
// lanes 256 B or more apart 1, and farther lanes cost no more than 256 B (the runs: 512 B and 1 KiB
// read as slowly as 256 B).
TEST(CoalescingTime, DramChunksCostByTheUnitsReadFromThem) {
  const auto read = [](int elem, std::int64_t stride) {
    return h200(elem, stride, 0, KernelShape::kResidentRead);
  };
  EXPECT_DOUBLE_EQ(read(4, 16).units_per_chunk, 4.0);  // 64 B apart: every unit
  EXPECT_DOUBLE_EQ(read(4, 16).chunk_factor, 1.0);
  EXPECT_DOUBLE_EQ(read(4, 32).units_per_chunk, 2.0);   // 128 B
  EXPECT_DOUBLE_EQ(read(4, 64).units_per_chunk, 1.0);   // 256 B
  EXPECT_DOUBLE_EQ(read(16, 64).units_per_chunk, 1.0);  // 1 KiB
  EXPECT_DOUBLE_EQ(read(1, 1).units_per_chunk, 4.0);    // a stream
  const double o = kDramChunkOverheadUnits;
  EXPECT_NEAR(read(4, 32).chunk_factor, (o + 2) / 2 * 4 / (o + 4), 1e-12);
  EXPECT_NEAR(read(4, 64).chunk_factor, (o + 1) * 4 / (o + 4), 1e-12);
  EXPECT_DOUBLE_EQ(read(8, 64).chunk_factor, read(8, 32).chunk_factor);  // 512 B as 256 B
  // Same 64-byte units per lane at 64, 128 and 256 B: the bytes agree, the time does not.
  EXPECT_DOUBLE_EQ(read(4, 16).dram_bytes, read(4, 64).dram_bytes);
  EXPECT_NEAR(read(4, 64).dram_ms / read(4, 16).dram_ms, read(4, 64).chunk_factor, 1e-9);
  // An offset cuts only the first chunk: a misaligned stream is still a stream.
  EXPECT_DOUBLE_EQ(h200(4, 1, 3, KernelShape::kResidentRead).units_per_chunk, 4.0);
}

TEST(CoalescingTime, LatencyBoundFollowsLittlesLaw) {
  // Twice the SMs or twice the clock halves the latency bound; the DRAM bound does not move.
  PassDevice d;
  const Pattern p = stride_pattern(1, 0);
  const PassTime base = pass_time(p, 1, kMiB256, KernelShape::kResidentRead, d);
  d.sm_count *= 2;
  const PassTime twice = pass_time(p, 1, kMiB256, KernelShape::kResidentRead, d);
  EXPECT_NEAR(twice.latency_ms, base.latency_ms / 2, 1e-12);
  EXPECT_DOUBLE_EQ(twice.dram_ms, base.dram_ms);
  // 8Mi requests over 132 SMs x 64 warps x 4 loads, 1050 cycles each at 1980 MHz.
  EXPECT_NEAR(base.latency_ms, 8388608.0 / (132 * 64 * 4) * 1050 / 1.98e6, 1e-9);
  EXPECT_THROW(pass_time(p, 1, 0.5, KernelShape::kResidentRead, PassDevice{}), UsageError);
  EXPECT_THROW(parse_kernel_shape("gather"), UsageError);
}

struct Point {
  std::string name;
  double measured = 0, predicted = 0, ratio = 0;
  PassBound bound = PassBound::kDram;
};

// The model at every coalescing and misalignment record of a stored run, worst first.
std::vector<Point> stored_points(const std::string& file) {
  std::ifstream f(std::string(MEMLAB_SOURCE_DIR) + "/docs/results/" + file);
  EXPECT_TRUE(f) << "stored run missing: " << file;
  if (!f) return {};
  const json run = json::parse(f);
  const json& dev = run.at("context").at("device");
  PassDevice limits;
  limits.sm_count = dev.at("sm_count").get<int>();
  limits.sm_clock_mhz = dev.at("sm_clock_max_mhz").get<double>();
  // The stored contexts predate max_threads_per_sm; sm_90 allows 2048 (CUDA C++ Programming
  // Guide, compute capabilities table), the value the runner reads from the device.
  limits.max_threads_per_sm = dev.value("max_threads_per_sm", 2048);
  limits.memcpy_gbps = run.at("ceilings").at("memcpy_d2d").at("gbps").get<double>();

  std::vector<Point> points;
  for (const json& r : run.at("records")) {
    const std::string experiment = r.at("experiment");
    if (experiment != "coalescing" && experiment != "misalignment") continue;
    if (!r.value("timed", false)) continue;
    const json& p = r.at("params");
    const int elem = std::stoi(p.at("elem").get<std::string>());
    const std::int64_t stride = std::stoll(p.at("stride").get<std::string>());
    const std::int64_t offset = std::stoll(p.at("offset").get<std::string>());
    const double bytes = std::stod(p.at("bytes").get<std::string>());
    const std::string variant = r.at("variant");
    const KernelShape shape =
        variant == "strided_copy" ? KernelShape::kCopyPerThread : KernelShape::kResidentRead;
    const PassTime t = pass_time(stride_pattern(stride, offset), elem, bytes, shape, limits);
    Point pt;
    pt.name = experiment + " " + variant + " elem=" + std::to_string(elem) +
              " stride=" + std::to_string(stride) + " offset=" + std::to_string(offset);
    pt.measured = r.at("stats").at("median_ms").get<double>();
    pt.predicted = t.time_ms;
    pt.ratio = pt.measured / pt.predicted;
    pt.bound = t.bound;
    points.push_back(pt);
  }
  std::sort(points.begin(), points.end(), [](const Point& a, const Point& b) {
    return std::abs(std::log(a.ratio)) > std::abs(std::log(b.ratio));
  });
  std::printf("%s, worst points (measured / predicted):\n", file.c_str());
  for (std::size_t i = 0; i < 8 && i < points.size(); ++i) {
    const Point& p = points[i];
    std::printf("  %-50s %.4f ms / %.4f ms = %.3f  (%s)\n", p.name.c_str(), p.measured, p.predicted,
                p.ratio, std::string(to_string(p.bound)).c_str());
  }
  return points;
}

int within(const std::vector<Point>& points, double tolerance) {
  int n = 0;
  for (const Point& p : points) n += std::abs(p.ratio - 1) <= tolerance ? 1 : 0;
  return n;
}

// The run the constants were fitted to (docs/coalescing.md, "Fitted and held out"): every point
// within 15% (issue 13's bar).
TEST(CoalescingTime, FittedRunH200_11_29Within15Percent) {
  const std::vector<Point> points = stored_points("h200-2026-11-29-full.json");
  // 70 coalescing points (5 sizes x 7 strides x 2 variants), 48 misalignment (3 x 8 x 2).
  ASSERT_EQ(points.size(), 118u);
  for (const Point& p : points) {
    EXPECT_GE(p.ratio, 0.85) << p.name;
    EXPECT_LE(p.ratio, 1.15) << p.name;
  }
}

// Held out (issue 19 #6): the 12-01 run at 488fbef, which no constant was fitted to. With the
// chunk term 112 of 118 points lie within 15% (the step factor it replaced: 111, worst 1.20x at
// 16-byte elements, stride 64); the six misses are strided_read with lanes >= 256 B apart at
// 1.17-1.19x, where this run's DRAM-bound points are 5-8% slower than the 11-29 run's at the same
// point, the 64-B-spaced ones included (docs/coalescing.md). Fails if the model gets worse on it.
TEST(CoalescingTime, HeldOutRunH200_12_01) {
  const std::vector<Point> points = stored_points("h200-2026-12-01-coalescing.json");
  ASSERT_EQ(points.size(), 118u);
  EXPECT_GE(within(points, 0.15), 112);
  EXPECT_GE(within(points, 0.20), 118);
  EXPECT_LE(std::abs(std::log(points.front().ratio)), std::log(1.19)) << points.front().name;
}

}  // namespace
}  // namespace memlab::model
