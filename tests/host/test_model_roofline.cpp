// Roofline model: hand-worked kernels, the ridge, properties and bad inputs.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "memlab/common/error.hpp"
#include "memlab/model/roofline.hpp"

namespace m = memlab::model;

TEST(RooflineModel, SaxpyOnH200IsMemoryBound) {
  const double n = 1 << 28;
  const auto r = m::analyze_roofline({12.0 * n, 2.0 * n, 4.8e12, 66.9e12});
  EXPECT_DOUBLE_EQ(r.intensity, 1.0 / 6.0);
  EXPECT_DOUBLE_EQ(r.ridge, 66.9e12 / 4.8e12);
  EXPECT_EQ(r.bound, m::Bound::kMemory);
  EXPECT_DOUBLE_EQ(r.attainable_time, 12.0 * n / 4.8e12);
  EXPECT_DOUBLE_EQ(r.attainable_flops, 4.8e12 / 6.0);
  EXPECT_DOUBLE_EQ(r.attainable_bandwidth, 4.8e12);
  EXPECT_STREQ(m::to_string(r.bound), "memory");
}

TEST(RooflineModel, ComputeBoundAndRidge) {
  auto r = m::analyze_roofline({1e9, 1e12, 1e12, 1e13});
  EXPECT_DOUBLE_EQ(r.intensity, 1000.0);
  EXPECT_DOUBLE_EQ(r.ridge, 10.0);
  EXPECT_EQ(r.bound, m::Bound::kCompute);
  EXPECT_DOUBLE_EQ(r.memory_time, 1e-3);
  EXPECT_DOUBLE_EQ(r.compute_time, 0.1);
  EXPECT_DOUBLE_EQ(r.attainable_time, 0.1);
  EXPECT_DOUBLE_EQ(r.attainable_flops, 1e13);
  EXPECT_DOUBLE_EQ(r.attainable_bandwidth, 1e10);
  // Exactly at the ridge both roofs meet; the model calls it compute-bound.
  r = m::analyze_roofline({1e9, 1e10, 1e12, 1e13});
  EXPECT_DOUBLE_EQ(r.intensity, 10.0);
  EXPECT_EQ(r.bound, m::Bound::kCompute);
  EXPECT_DOUBLE_EQ(r.memory_time, r.compute_time);
}

TEST(RooflineModel, ZeroFlopsOrZeroBytes) {
  auto r = m::analyze_roofline({1e9, 0.0, 1e12, 1e13});  // a copy
  EXPECT_EQ(r.bound, m::Bound::kMemory);
  EXPECT_DOUBLE_EQ(r.attainable_flops, 0.0);
  EXPECT_DOUBLE_EQ(r.attainable_time, 1e-3);
  r = m::analyze_roofline({0.0, 1e10, 1e12, 1e13});  // all in registers
  EXPECT_TRUE(std::isinf(r.intensity));
  EXPECT_EQ(r.bound, m::Bound::kCompute);
  EXPECT_DOUBLE_EQ(r.attainable_time, 1e-3);
}

TEST(RooflineModel, Properties) {
  for (double bytes : {1.0, 1e3, 1e6, 1e9, 1e12}) {
    for (double flops : {0.0, 1.0, 1e4, 1e8, 1e12, 1e15}) {
      const auto r = m::analyze_roofline({bytes, flops, 3.35e12, 6.7e13});
      EXPECT_LE(r.attainable_flops, 6.7e13 * (1 + 1e-12));
      EXPECT_LE(r.attainable_bandwidth, 3.35e12 * (1 + 1e-12));
      EXPECT_GE(r.attainable_time, r.memory_time);
      EXPECT_GE(r.attainable_time, r.compute_time);
      // Exactly one roof is reached.
      EXPECT_TRUE(std::abs(r.attainable_flops - 6.7e13) < 1e-3 * 6.7e13 ||
                  std::abs(r.attainable_bandwidth - 3.35e12) < 1e-3 * 3.35e12);
      EXPECT_EQ(r.bound == m::Bound::kMemory, r.memory_time > r.compute_time);
    }
  }
}

TEST(RooflineModel, BadInputsNameTheParameter) {
  auto message = [](m::RooflineParams p) -> std::string {
    try {
      m::analyze_roofline(p);
    } catch (const memlab::UsageError& e) {
      return e.what();
    }
    return "no error";
  };
  EXPECT_EQ(message({-1.0, 1.0, 1.0, 1.0}), "bytes: must be a finite number >= 0 (got -1)");
  EXPECT_EQ(message({1.0, std::nan(""), 1.0, 1.0}),
            "flops: must be a finite number >= 0 (got nan)");
  EXPECT_EQ(message({1.0, 1.0, 0.0, 1.0}), "peak_bandwidth: must be a finite number > 0 (got 0)");
  EXPECT_EQ(message({1.0, 1.0, 1.0, std::numeric_limits<double>::infinity()}),
            "peak_flops: must be a finite number > 0 (got inf)");
  EXPECT_EQ(message({0.0, 0.0, 1.0, 1.0}), "bytes: bytes and flops must not both be 0");
}
