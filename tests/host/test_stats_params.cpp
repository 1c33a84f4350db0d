#include <gtest/gtest.h>

#include <cmath>

#include "memlab/bench/params.hpp"
#include "memlab/bench/stats.hpp"
#include "memlab/common/error.hpp"

namespace memlab::bench {
namespace {

TEST(Stats, OddCountMedianIsTheMiddleSample) {
  const Stats s = summarize({5.0, 1.0, 3.0});
  EXPECT_DOUBLE_EQ(s.median, 3.0);
  EXPECT_DOUBLE_EQ(s.min, 1.0);
  EXPECT_DOUBLE_EQ(s.max, 5.0);
  EXPECT_DOUBLE_EQ(s.mean, 3.0);
  EXPECT_DOUBLE_EQ(s.stdev, 2.0);  // sample stdev of 1,3,5
  EXPECT_EQ(s.samples, 3u);
}

TEST(Stats, EvenCountMedianAveragesTheTwoMiddleSamples) {
  const Stats s = summarize({4.0, 1.0, 2.0, 10.0});
  EXPECT_DOUBLE_EQ(s.median, 3.0);
  EXPECT_DOUBLE_EQ(s.mean, 4.25);
  EXPECT_NEAR(s.stdev, std::sqrt((3.25 * 3.25 + 2.25 * 2.25 + 0.0625 + 5.75 * 5.75) / 3.0), 1e-12);
  EXPECT_NEAR(s.relative_error(), s.stdev / s.mean / 2.0, 1e-12);
}

TEST(Stats, OneSampleHasNoSpread) {
  const Stats s = summarize({7.0});
  EXPECT_DOUBLE_EQ(s.median, 7.0);
  EXPECT_DOUBLE_EQ(s.stdev, 0.0);
  EXPECT_DOUBLE_EQ(s.relative_error(), 0.0);
}

TEST(Stats, EmptyIsAnError) {
  EXPECT_THROW(summarize({}), std::invalid_argument);
}

TEST(Params, IntegersWithSuffixesAndPowers) {
  EXPECT_EQ(parse_integer("4096", "n"), 4096);
  EXPECT_EQ(parse_integer("64Ki", "n"), 65536);
  EXPECT_EQ(parse_integer("256Mi", "n"), 268435456);
  EXPECT_EQ(parse_integer("1G", "n"), 1073741824);
  EXPECT_EQ(parse_integer("2^28", "n"), 268435456);
}

TEST(Params, MalformedIntegersAreUsageErrorsNamingTheParameter) {
  for (const char* bad : {"", "-5", "abc", "12x", "1Ti", "2^99", "99999999999999999999"}) {
    try {
      parse_integer(bad, "axis n");
      FAIL() << "accepted '" << bad << "'";
    } catch (const UsageError& e) {
      EXPECT_NE(std::string(e.what()).find("axis n"), std::string::npos) << e.what();
    }
  }
}

TEST(Params, AxisOverrideParsing) {
  auto [name, values] = parse_axis_override("n=1,2Ki,2^3");
  EXPECT_EQ(name, "n");
  EXPECT_EQ(values, (std::vector<std::string>{"1", "2Ki", "2^3"}));
  EXPECT_THROW(parse_axis_override("n"), UsageError);
  EXPECT_THROW(parse_axis_override("=3"), UsageError);
  EXPECT_THROW(parse_axis_override("n="), UsageError);
  EXPECT_THROW(parse_axis_override("n=1,,2"), UsageError);
}

TEST(Params, AxisValidationChecksRangeAndChoices) {
  AxisSpec n;
  n.name = "n";
  n.min = 1;
  n.max = 1000;
  EXPECT_EQ(n.validate("1000"), "1000");
  EXPECT_THROW(n.validate("1Ki"), UsageError);  // 1024 > max
  EXPECT_THROW(n.validate("0"), UsageError);
  EXPECT_THROW(n.validate("1001"), UsageError);
  AxisSpec op;
  op.name = "op";
  op.kind = AxisSpec::Kind::Choice;
  op.choices = {"copy", "add"};
  EXPECT_EQ(op.validate("add"), "add");
  try {
    op.validate("mul");
    FAIL();
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("one of copy, add"), std::string::npos) << e.what();
  }
}

TEST(Params, ExpandAxesIsTheCartesianProductWithOverridesAndQuick) {
  AxisSpec op;
  op.name = "op";
  op.kind = AxisSpec::Kind::Choice;
  op.choices = {"copy", "add", "triad"};
  op.defaults = {"copy", "add"};
  op.quick = {"copy"};
  AxisSpec n;
  n.name = "n";
  n.defaults = {"8", "16"};
  auto all = expand_axes({op, n}, {}, false);
  ASSERT_EQ(all.size(), 4u);
  EXPECT_EQ(all[0].label(), "op=copy n=8");
  EXPECT_EQ(all[3].label(), "op=add n=16");
  EXPECT_EQ(all[3].n("n"), 16);
  auto quick = expand_axes({op, n}, {}, true);
  EXPECT_EQ(quick.size(), 2u);
  auto over = expand_axes({op, n}, {{"n", {"1Ki"}}, {"op", {"triad"}}}, false);
  ASSERT_EQ(over.size(), 1u);
  EXPECT_EQ(over[0].label(), "op=triad n=1024");
  EXPECT_THROW(expand_axes({op, n}, {{"n", {"-1"}}}, false), UsageError);
}

TEST(Params, FormatBytes) {
  EXPECT_EQ(format_bytes(512), "512 B");
  EXPECT_EQ(format_bytes(1536), "1.50 KiB");
  EXPECT_EQ(format_bytes(1073741824.0), "1.00 GiB");
}

}  // namespace
}  // namespace memlab::bench
