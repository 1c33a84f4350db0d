// The runner's physical rule (issue 21, hole 4): a cold-L2 time that would need more than the
// DRAM's theoretical peak for the bytes beyond the L2 is an error, never a figure.
#include <gtest/gtest.h>

#include "memlab/bench/physical.hpp"

namespace memlab::bench {
namespace {

constexpr double kL2 = 62914560;      // H200
constexpr double kPeak = 4814.304e9;  // H200, B/s

TEST(PhysicalRule, TheH200Report3909PercentOfMemcpyIsImpossible) {
  // 3 GiB of vec_add traffic at 165 TB/s (the run that passed at 488fbef).
  const double bytes = 3.0 * (1u << 30);
  const auto why = impossible_bandwidth(bytes, bytes / 165e12, true, kL2, kPeak);
  ASSERT_TRUE(why.has_value());
  EXPECT_NE(why->find("did not do the measured work"), std::string::npos) << *why;
  EXPECT_NE(why->find("4814 GB/s"), std::string::npos) << *why;
}

TEST(PhysicalRule, TheFastestRealRecordsAreFine) {
  // bandwidth elem_f4 fill of 1 GiB at 4667.5 GB/s (97% of peak, round three's suite).
  const double bytes = 1073741824.0;
  EXPECT_FALSE(impossible_bandwidth(bytes, bytes / 4667.5e9, true, kL2, kPeak));
  // Just above the L2, most writes may still sit in it: twice the peak on the useful bytes.
  const double small = 80e6;
  EXPECT_FALSE(impossible_bandwidth(small, small / (2 * kPeak), true, kL2, kPeak));
  // The same with a working set inside the L2 or a warm L2 (hierarchy's reads: 27 TB/s).
  EXPECT_FALSE(impossible_bandwidth(262144, 262144 / 27e12, false, kL2, kPeak));
  EXPECT_FALSE(impossible_bandwidth(50e6, 50e6 / 27e12, true, kL2, kPeak));
}

TEST(PhysicalRule, TheMarginIsFivePercent) {
  const double bytes = 1e10, must = bytes - kL2;
  EXPECT_FALSE(impossible_bandwidth(bytes, must / (1.04 * kPeak), true, kL2, kPeak));
  EXPECT_TRUE(impossible_bandwidth(bytes, must / (1.06 * kPeak), true, kL2, kPeak));
}

TEST(PhysicalRule, Fp32AbovePeakIsImpossible) {
  const double peak = 66908.16e9;
  EXPECT_FALSE(
      impossible_fp32_rate(2.0 * 4096 * 4096 * 4096, 2.0 * 4096 * 4096 * 4096 / 50e12, peak));
  EXPECT_TRUE(impossible_fp32_rate(1e12, 1e12 / 80e12, peak));
  EXPECT_FALSE(impossible_fp32_rate(0, 1, peak));
}

}  // namespace
}  // namespace memlab::bench
