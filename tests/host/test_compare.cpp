#include <gtest/gtest.h>

#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <random>

#include "memlab/common/error.hpp"
#include "memlab/report/compare.hpp"
#include "memlab/report/report.hpp"
#include "memlab/report/significance.hpp"

namespace memlab::report {
namespace {

// n samples around `ms` with 1% Gaussian noise, reproducible from `seed`.
std::vector<double> noisy(double ms, int n, unsigned seed) {
  std::mt19937 gen(seed);
  std::normal_distribution<double> d(1.0, 0.01);
  std::vector<double> v;
  for (int i = 0; i < n; ++i) v.push_back(ms * d(gen));
  return v;
}

// A run of `variants` variants (v0, v1, ...) at two points; variant `slow` scaled by `factor`.
std::string run_json(int variants, unsigned seed, int slow = -1, double factor = 1.0,
                     bool verified = true) {
  bench::RunReport r;
  r.context.device.name = "NVIDIA H200";
  for (int v = 0; v < variants; ++v) {
    for (const char* n : {"1024", "4096"}) {
      bench::Record rec;
      rec.experiment = "bandwidth";
      rec.variant = fmt::format("v{}", v);
      rec.params = {{"n", n}};
      rec.verified = verified;
      rec.timed = verified;
      rec.cold = true;
      auto s = noisy(0.1 * (v + 1), 40, seed + 97 * static_cast<unsigned>(v) + n[0]);
      if (v == slow) {
        for (double& x : s) x *= factor;
      }
      rec.stats = bench::summarize(s);
      r.records.push_back(rec);
    }
  }
  return render_json(r);
}

TEST(Compare, ARunAgainstItselfIsSameEverywhere) {
  const std::string run = run_json(6, 1);
  const auto r = compare_reports(run, run, 0.05);
  ASSERT_EQ(r.rows.size(), 12u);
  for (const auto& c : r.rows) {
    EXPECT_EQ(c.verdict, Verdict::Same) << c.variant;
    EXPECT_DOUBLE_EQ(c.p_value, 1.0);
    EXPECT_EQ(c.test, "mann-whitney");
  }
  EXPECT_EQ(r.regressions, 0);
  EXPECT_EQ(r.same, 12);
}

TEST(Compare, TwoIndependentRunsOfTheSameCodeAreSame) {
  const auto r = compare_reports(run_json(6, 1), run_json(6, 1000), 0.05);
  for (const auto& c : r.rows) EXPECT_EQ(c.verdict, Verdict::Same) << c.variant << " " << c.point;
}

TEST(Compare, OneVariantSlowedByTenPercentIsSlowAlone) {
  const auto r = compare_reports(run_json(6, 1), run_json(6, 1000, 3, 1.10), 0.05);
  ASSERT_EQ(r.rows.size(), 12u);
  for (const auto& c : r.rows) {
    if (c.variant == "v3") {
      EXPECT_EQ(c.verdict, Verdict::Slow) << c.point;
      EXPECT_LT(c.p_value, 1e-6);
      EXPECT_NEAR(c.change, 0.10, 0.02);
    } else {
      EXPECT_EQ(c.verdict, Verdict::Same) << c.variant << " " << c.point;
    }
  }
  EXPECT_EQ(r.regressions, 2);
}

TEST(Compare, FasterIsFastAndAThresholdAboveTheChangeIsSame) {
  const auto fast = compare_reports(run_json(2, 1), run_json(2, 5, 1, 0.8), 0.05);
  int n_fast = 0;
  for (const auto& c : fast.rows) n_fast += c.verdict == Verdict::Fast;
  EXPECT_EQ(n_fast, 2);
  const auto loose = compare_reports(run_json(2, 1), run_json(2, 5, 1, 1.10), 0.20);
  EXPECT_EQ(loose.regressions, 0);
}

TEST(Compare, NoisyFewSamplesAboveTheThresholdAreUnsure) {
  // Two samples each, far apart: the medians differ by 20% but nothing is significant.
  auto make = [](double a, double b) {
    bench::RunReport r;
    bench::Record rec;
    rec.experiment = "e";
    rec.variant = "v";
    rec.verified = rec.timed = true;
    rec.stats = bench::summarize({a, b});
    r.records = {rec};
    return render_json(r);
  };
  const auto r = compare_reports(make(1.0, 2.0), make(1.3, 2.3), 0.05);
  ASSERT_EQ(r.rows.size(), 1u);
  EXPECT_EQ(r.rows[0].verdict, Verdict::Unsure);
  EXPECT_EQ(r.regressions, 0);
}

TEST(Compare, OldReportsWithoutSamplesUseWelch) {
  nlohmann::json base = nlohmann::json::parse(run_json(1, 1));
  nlohmann::json next = nlohmann::json::parse(run_json(1, 9, 0, 1.5));
  for (auto* j : {&base, &next}) {
    for (auto& rec : (*j)["records"]) rec["stats"].erase("samples_ms");
  }
  const auto r = compare_reports(base.dump(), next.dump(), 0.05);
  ASSERT_EQ(r.rows.size(), 2u);
  for (const auto& c : r.rows) {
    EXPECT_EQ(c.test, "welch");
    EXPECT_EQ(c.verdict, Verdict::Slow);
  }
}

TEST(Compare, VerificationFailuresDuplicatesAndDevicesAreReported) {
  const auto r = compare_reports(run_json(1, 1), run_json(1, 1, -1, 1.0, false), 0.05);
  ASSERT_EQ(r.failed_new.size(), 2u);
  EXPECT_EQ(r.failed_new[0], "bandwidth v0 n=1024");
  nlohmann::json dup = nlohmann::json::parse(run_json(1, 1));
  dup["records"].push_back(dup["records"][0]);
  dup["context"]["device"]["name"] = "NVIDIA A100";
  const auto d = compare_reports(run_json(1, 1), dup.dump(), 0.05, "a.json", "b.json");
  ASSERT_EQ(d.duplicates.size(), 1u);
  EXPECT_NE(d.duplicates[0].find("b.json: bandwidth v0 n=1024 (records 0 and 2"),
            std::string::npos);
  ASSERT_EQ(d.warnings.size(), 1u);
  EXPECT_NE(d.warnings[0].find("NVIDIA A100"), std::string::npos);
}

TEST(Compare, SkippedRecordsAreNeitherFailuresNorMissing) {
  // The new run records a skip the base run (an older memlab) did not write at all, and the
  // base run records a skip the new one has not: neither counts.
  auto with_skip = [](const std::string& variant) {
    auto j = nlohmann::json::parse(run_json(1, 1));
    j["records"].push_back({{"experiment", "bandwidth"},
                            {"variant", variant},
                            {"params", {{"n", "1024"}}},
                            {"verified", false},
                            {"timed", false},
                            {"status", "skipped"},
                            {"reason", "does not apply at this point"}});
    return j.dump();
  };
  const auto r = compare_reports(run_json(1, 1), with_skip("memcpy"), 0.05);
  EXPECT_TRUE(r.failed_new.empty());
  EXPECT_TRUE(r.only_new.empty());
  EXPECT_EQ(r.rows.size(), 2u);
  const auto back = compare_reports(with_skip("memset"), run_json(1, 1), 0.05);
  EXPECT_TRUE(back.only_base.empty());
  EXPECT_EQ(back.rows.size(), 2u);
}

// The message of the UsageError compare_reports throws for `bad` as NEW.
std::string error_of(const std::string& bad) {
  try {
    compare_reports(run_json(1, 1), bad, 0.05, "base.json", "new.json");
  } catch (const UsageError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(Compare, BadTimesNameTheFileAndTheRecord) {
  for (const char* value : {"null", "\"fast\"", "-1", "0", "-0.0", "true", "[]", "{}"}) {
    nlohmann::json j = nlohmann::json::parse(run_json(1, 1));
    j["records"][1]["stats"]["median_ms"] = nlohmann::json::parse(value);
    const std::string msg = error_of(j.dump());
    EXPECT_NE(msg.find("new.json: record 1 (bandwidth v0 n=4096): stats.median_ms"),
              std::string::npos)
        << value << ": " << msg;
  }
  nlohmann::json j = nlohmann::json::parse(run_json(1, 1));
  j["records"][0]["stats"]["samples_ms"][3] = -0.5;
  EXPECT_NE(error_of(j.dump()).find("record 0 (bandwidth v0 n=1024): stats.samples_ms[3] is -0.5"),
            std::string::npos);
  j = nlohmann::json::parse(run_json(1, 1));
  j["records"][0]["stats"].erase("median_ms");
  EXPECT_NE(error_of(j.dump()).find("stats.median_ms is missing"), std::string::npos);
  j = nlohmann::json::parse(run_json(1, 1));
  j["records"][0].erase("stats");
  EXPECT_NE(error_of(j.dump()).find("record 0 (bandwidth v0 n=1024): stats is missing"),
            std::string::npos);
  j["records"][0] = 5;
  EXPECT_NE(error_of(j.dump()).find("record 0: is 5"), std::string::npos);
}

TEST(Compare, NothingInCommonIsAnError) {
  const std::string empty = R"({"schema_version": 1, "records": []})";
  EXPECT_THROW(compare_reports(empty, empty, 0.05), UsageError);
  nlohmann::json other = nlohmann::json::parse(run_json(1, 1));
  for (auto& r : other["records"]) r["experiment"] = "transpose";
  EXPECT_NE(error_of(other.dump()).find("no record in common"), std::string::npos);
}

TEST(Compare, BadFilesAndThresholds) {
  EXPECT_NE(error_of("not json").find("new.json: not a memlab JSON report"), std::string::npos);
  EXPECT_NE(error_of(R"({"schema_version": 99, "records": []})").find("schema_version 99"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"schema_version": [[[[1]]]], "records": []})").find("an array"),
            std::string::npos);
  EXPECT_DOUBLE_EQ(parse_threshold("5%"), 0.05);
  EXPECT_DOUBLE_EQ(parse_threshold("5"), 0.05);
  EXPECT_DOUBLE_EQ(parse_threshold("0.99"), 0.0099);  // one meaning: a percentage
  EXPECT_DOUBLE_EQ(parse_threshold("1"), 0.01);
  for (const char* bad :
       {"-1%", "abc", "", "%", "0", "0%", "nan", "inf", "1e3", "1001", "5%%", " 5", "0x10"}) {
    EXPECT_THROW(parse_threshold(bad), UsageError) << bad;
  }
}

TEST(Significance, MannWhitneyAndWelchAgreeWithTextbookValues) {
  // Fully separated samples of 10 and 10: exact two-sided p = 2 / C(20, 10) = 1.08e-5; the normal
  // approximation with continuity correction gives 1.83e-4.
  std::vector<double> a, b;
  for (int i = 0; i < 10; ++i) {
    a.push_back(i);
    b.push_back(100 + i);
  }
  EXPECT_NEAR(mann_whitney_p(a, b), 1.83e-4, 0.1e-4);
  EXPECT_DOUBLE_EQ(mann_whitney_p(a, a), 1.0);
  EXPECT_DOUBLE_EQ(mann_whitney_p({1, 1, 1}, {1, 1}), 1.0);
  EXPECT_NEAR(student_t_cdf(2.228, 10), 0.975, 1e-3);  // t table: 10 df, 97.5%
  EXPECT_NEAR(student_t_cdf(0, 3), 0.5, 1e-12);
  EXPECT_NEAR(welch_p(10, 0, 1, 10, 0, 1), 1.0, 1e-12);
  EXPECT_LT(welch_p(30, 1.0, 0.01, 30, 1.1, 0.01), 1e-10);
}

}  // namespace
}  // namespace memlab::report
