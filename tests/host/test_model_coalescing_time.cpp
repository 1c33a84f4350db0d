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

TEST(CoalescingTime, ScatteredUnitsOnlyWhenLanesAre256BytesApart) {
  EXPECT_DOUBLE_EQ(h200(4, 32, 0, KernelShape::kResidentRead).scattered_fraction, 0.0);  // 128 B
  EXPECT_DOUBLE_EQ(h200(4, 64, 0, KernelShape::kResidentRead).scattered_fraction, 1.0);  // 256 B
  EXPECT_DOUBLE_EQ(h200(16, 16, 0, KernelShape::kResidentRead).scattered_fraction, 1.0);
  const PassTime near = h200(4, 32, 0, KernelShape::kResidentRead);
  const PassTime far = h200(4, 64, 0, KernelShape::kResidentRead);
  EXPECT_DOUBLE_EQ(near.dram_bytes, far.dram_bytes);  // same 64-byte units per lane
  EXPECT_NEAR(far.dram_ms / near.dram_ms, kScatteredDramFactor, 1e-9);
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

// Every coalescing and misalignment record of docs/results/h200-2026-11-29-full.json.
TEST(CoalescingTime, StoredH200FullRunWithin15Percent) {
  std::ifstream f(std::string(MEMLAB_SOURCE_DIR) + "/docs/results/h200-2026-11-29-full.json");
  ASSERT_TRUE(f) << "stored run missing";
  const json run = json::parse(f);
  const json& dev = run.at("context").at("device");
  PassDevice limits;
  limits.sm_count = dev.at("sm_count").get<int>();
  limits.sm_clock_mhz = dev.at("sm_clock_max_mhz").get<double>();
  // The stored context predates max_threads_per_sm; sm_90 allows 2048 (CUDA C++ Programming
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
  // 70 coalescing points (5 sizes x 7 strides x 2 variants), 48 misalignment (3 x 8 x 2).
  ASSERT_EQ(points.size(), 118u);
  std::sort(points.begin(), points.end(), [](const Point& a, const Point& b) {
    return std::abs(std::log(a.ratio)) > std::abs(std::log(b.ratio));
  });
  std::printf("worst points (measured / predicted):\n");
  for (std::size_t i = 0; i < 10; ++i) {
    const Point& p = points[i];
    std::printf("  %-50s %.4f ms / %.4f ms = %.3f  (%s)\n", p.name.c_str(), p.measured, p.predicted,
                p.ratio, std::string(to_string(p.bound)).c_str());
  }
  for (const Point& p : points) {
    EXPECT_GE(p.ratio, 0.85) << p.name;
    EXPECT_LE(p.ratio, 1.15) << p.name;
  }
}

}  // namespace
}  // namespace memlab::model
