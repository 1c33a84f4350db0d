#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "memlab/common/error.hpp"
#include "memlab/report/compare.hpp"
#include "memlab/report/report.hpp"

namespace memlab::report {
namespace {

std::string report_with(double copy_ms, double add_ms, bool add_verified) {
  bench::RunReport r;
  bench::Record copy;
  copy.experiment = "bandwidth";
  copy.variant = "copy";
  copy.params = {{"n", "1024"}};
  copy.verified = copy.timed = true;
  copy.stats = bench::summarize({copy_ms});
  bench::Record add = copy;
  add.variant = "add";
  add.stats = bench::summarize({add_ms});
  add.verified = add.timed = add_verified;
  r.records = {copy, add};
  return render_json(r);
}

TEST(Compare, FlagsSlowdownsAboveTheThresholdOnly) {
  const auto r = compare_reports(report_with(1.0, 2.0, true), report_with(1.04, 2.2, true), 0.05);
  ASSERT_EQ(r.rows.size(), 2u);
  EXPECT_EQ(r.regressions, 1);
  for (const auto& c : r.rows) {
    if (c.variant == "copy") {
      EXPECT_FALSE(c.regression);
      EXPECT_NEAR(c.change, 0.04, 1e-12);
    } else {
      EXPECT_TRUE(c.regression);
      EXPECT_NEAR(c.change, 0.10, 1e-12);
    }
  }
}

TEST(Compare, VerificationFailuresInTheNewRunAreReported) {
  const auto r = compare_reports(report_with(1.0, 2.0, true), report_with(1.0, 2.0, false), 0.05);
  EXPECT_EQ(r.regressions, 0);
  ASSERT_EQ(r.failed_new.size(), 1u);
  EXPECT_EQ(r.failed_new[0], "bandwidth add n=1024");
}

TEST(Compare, SkippedRecordsAreNeitherFailuresNorMissing) {
  // The new run records a skip the base run (an older memlab) did not write at all, and the
  // base run records a skip the new one has not: neither counts.
  auto with_skip = [](const std::string& variant) {
    auto j = nlohmann::json::parse(report_with(1.0, 2.0, true));
    j["records"].push_back({{"experiment", "bandwidth"},
                            {"variant", variant},
                            {"params", {{"n", "1024"}}},
                            {"verified", false},
                            {"timed", false},
                            {"status", "skipped"},
                            {"reason", "does not apply at this point"}});
    return j.dump();
  };
  const auto r = compare_reports(report_with(1.0, 2.0, true), with_skip("memcpy"), 0.05);
  EXPECT_TRUE(r.failed_new.empty());
  EXPECT_TRUE(r.only_new.empty());
  EXPECT_EQ(r.rows.size(), 2u);
  const auto back = compare_reports(with_skip("memset"), report_with(1.0, 2.0, true), 0.05);
  EXPECT_TRUE(back.only_base.empty());
  EXPECT_EQ(back.rows.size(), 2u);
}

TEST(Compare, BadFilesAndThresholdsAreUsageErrors) {
  EXPECT_THROW(compare_reports("not json", report_with(1, 2, true), 0.05), UsageError);
  EXPECT_THROW(
      compare_reports("{\"schema_version\": 99, \"records\": []}", report_with(1, 2, true), 0.05),
      UsageError);
  EXPECT_DOUBLE_EQ(parse_threshold("5%"), 0.05);
  EXPECT_DOUBLE_EQ(parse_threshold("0.05"), 0.05);
  EXPECT_DOUBLE_EQ(parse_threshold("10"), 0.10);
  EXPECT_THROW(parse_threshold("-1%"), UsageError);
  EXPECT_THROW(parse_threshold("abc"), UsageError);
}

}  // namespace
}  // namespace memlab::report
