// Prediction -> predicted time: a direct time wins; otherwise the roofline of bytes and flops.
#include <gtest/gtest.h>

#include "memlab/bench/experiment.hpp"

namespace memlab::bench {
namespace {

TEST(PredictionTime, DirectTimeIsUsedAsIs) {
  Prediction p;
  p.time_ms = 12.5;
  p.dram_bytes = 1e12;  // would be 1000 s at 1 GB/s: ignored when time_ms is given
  EXPECT_DOUBLE_EQ(predicted_time_ms(p, 1.0, 1e12), 12.5);
}

TEST(PredictionTime, RooflineOfBytesAndFlops) {
  Prediction p;
  p.dram_bytes = 4e9;  // 4 GB at 4000 GB/s: 1 ms
  EXPECT_DOUBLE_EQ(predicted_time_ms(p, 4000.0, 60e12), 1.0);
  p.flops = 120e9;  // 120 GFLOP at 60 TFLOP/s: 2 ms, the larger one
  EXPECT_DOUBLE_EQ(predicted_time_ms(p, 4000.0, 60e12), 2.0);
  p.dram_bytes = 0;
  EXPECT_DOUBLE_EQ(predicted_time_ms(p, 0.0, 60e12), 2.0);
}

TEST(PredictionTime, NothingGivenIsZero) {
  Prediction p;
  p.slowdown = 3.0;  // resolved by the runner against the baseline, not here
  EXPECT_DOUBLE_EQ(predicted_time_ms(p, 4000.0, 60e12), 0.0);
  p.dram_bytes = 1e9;  // bytes but no measured ceiling: no time
  EXPECT_DOUBLE_EQ(predicted_time_ms(p, 0.0, 60e12), 0.0);
}

}  // namespace
}  // namespace memlab::bench
