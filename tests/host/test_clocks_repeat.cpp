#include <gtest/gtest.h>

#include "memlab/bench/clocks.hpp"
#include "memlab/bench/params.hpp"
#include "memlab/bench/repeat.hpp"
#include "memlab/bench/seed.hpp"
#include "memlab/common/error.hpp"

namespace memlab::bench {
namespace {

TEST(Clocks, ThrottleReasonsAreOnlyTheSlowingBits) {
  EXPECT_FALSE(is_throttled(0x1));    // idle
  EXPECT_FALSE(is_throttled(0x2));    // application clocks
  EXPECT_FALSE(is_throttled(0x10));   // sync boost
  EXPECT_FALSE(is_throttled(0x100));  // display clocks
  for (std::uint64_t bit : {0x4u, 0x8u, 0x20u, 0x40u, 0x80u}) EXPECT_TRUE(is_throttled(bit));
  EXPECT_EQ(throttle_reason_names(0x4 | 0x40 | 0x1), "sw power cap, hw thermal");
  EXPECT_EQ(throttle_reason_names(0x1), "none");
}

TEST(Clocks, RangeCountsProbesAndTheRemeasureRuleUsesTenPercent) {
  ClockRange r;
  for (int i = 0; i < 10; ++i) r.add({1980 - i, 3201, 0});
  EXPECT_EQ(r.probes, 10);
  EXPECT_EQ(r.sm_min_mhz, 1971);
  EXPECT_EQ(r.sm_max_mhz, 1980);
  EXPECT_EQ(r.mem_min_mhz, 3201);
  EXPECT_FALSE(r.too_throttled());
  r.add({1500, 3201, 0x4});  // 1 of 11: 9.1%, kept
  EXPECT_FALSE(r.too_throttled());
  EXPECT_EQ(r.sm_min_mhz, 1500);
  r.add({1400, 3201, 0x20});  // 2 of 12: 16.7%, re-measured
  EXPECT_TRUE(r.too_throttled());
  EXPECT_EQ(r.reasons, 0x24u);
  EXPECT_EQ(throttle_note(r), "2 of 12 clock probes throttled (sw power cap, sw thermal)");
  ClockRange other;
  other.remeasured = 2;
  other.add({2000, 3000, 0});
  r.merge(other);
  EXPECT_EQ(r.probes, 13);
  EXPECT_EQ(r.sm_max_mhz, 2000);
  EXPECT_EQ(r.mem_min_mhz, 3000);
  EXPECT_EQ(r.remeasured, 2);
  EXPECT_EQ(throttle_note(ClockRange{}), "");
}

TEST(Repeat, SpreadIsMaxMinusMinOverTheMedianOfTheRuns) {
  auto rec = [](const char* variant, double median, bool timed = true) {
    Record r;
    r.experiment = "bandwidth";
    r.variant = variant;
    r.params = {{"n", "1024"}};
    r.timed = timed;
    r.stats = summarize({median});
    return r;
  };
  std::vector<Record> first{rec("copy", 1.0), rec("add", 2.0), rec("fail", 1.0, false)};
  attach_repeats(first, {{rec("copy", 1.1), rec("add", 2.0)}, {rec("copy", 0.9), rec("add", 2.2)}});
  ASSERT_TRUE(first[0].repeat);
  EXPECT_EQ(first[0].repeat->medians_ms, (std::vector<double>{1.0, 1.1, 0.9}));
  EXPECT_NEAR(first[0].repeat->spread, 0.2, 1e-12);
  EXPECT_NEAR(first[1].repeat->spread, 0.1, 1e-12);
  EXPECT_FALSE(first[2].repeat);
}

TEST(Seed, DecimalDigitsOnlyUpToTwoToThe64) {
  EXPECT_EQ(parse_seed("0", "--seed"), 0u);
  EXPECT_EQ(parse_seed("18446744073709551615", "--seed"), UINT64_MAX);
  EXPECT_EQ(parse_seed("9223372036854775808", "--seed"), std::uint64_t{1} << 63);
  for (const char* bad : {"", "1Ki", "2^10", "-1", "+1", "18446744073709551616", "1.0", " 1",
                          "0x10", "000000000000000000001"}) {
    EXPECT_THROW(parse_seed(bad, "--seed"), UsageError) << bad;
  }
}

TEST(Axes, DuplicatedValuesAreUsageErrors) {
  AxisSpec n{"n", AxisSpec::Kind::Int, {"1"}, {}, 1, INT64_MAX, {}, ""};
  EXPECT_THROW(expand_axes({n}, {{"n", {"1024", "1Ki"}}}, false), UsageError);
  EXPECT_THROW(expand_axes({n}, {{"n", {"2", "2"}}}, false), UsageError);
  EXPECT_EQ(expand_axes({n}, {{"n", {"1Ki", "2Ki"}}}, false).size(), 2u);
}

}  // namespace
}  // namespace memlab::bench
