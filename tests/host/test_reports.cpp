#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "memlab/report/report.hpp"

namespace memlab::report {
namespace {

bench::RunReport sample_report() {
  bench::RunReport r;
  r.context.device.name = "Test GPU";
  r.context.device.sm_count = 2;
  r.context.device.mem_clock_khz = 1000000;  // 1 GHz
  r.context.device.bus_width_bits = 256;     // -> 64 GB/s theoretical
  r.context.device.l2_bytes = 1 << 20;
  r.context.device.driver_version = 13000;
  r.context.device.runtime_version = 12080;
  r.context.tool_version = "0.1.0";
  r.context.git_commit = "abc";
  r.context.seed = 42;
  r.memcpy_d2d.measured = true;
  r.memcpy_d2d.gbps = 50.0;
  r.memcpy_d2d.bytes = 2e9;
  r.memcpy_d2d.stats = bench::summarize({40.0, 40.0});
  bench::Record ok;
  ok.experiment = "bandwidth";
  ok.variant = "copy";
  ok.params = {{"op", "copy"}, {"n", "1024"}};
  ok.verified = true;
  ok.timed = true;
  ok.stats = bench::summarize({1.0, 2.0, 3.0});
  ok.bytes = 1e6;
  ok.gbps = 0.5;
  ok.speedup = 2.0;
  ok.baseline = "naive";
  ok.prediction = bench::PredictionRecord{"streaming", 1.0, 2.0, 2.0, {}, {}};
  ok.figures = {{"overlap", 0.75}};
  ok.extra_json = R"({"intervals": [[0, 1.5]]})";
  ok.extra_text = "  |####|\n";
  bench::Record bad = ok;
  bad.variant = "broken";
  bad.verified = false;
  bad.timed = false;
  bad.speedup.reset();
  bad.prediction.reset();
  bad.figures.clear();
  bad.extra_json.clear();
  bad.extra_text.clear();
  bad.check_detail = "3 of 1024 differ";
  r.records = {ok, bad};
  return r;
}

TEST(JsonReport, HasSchemaContextCeilingAndEveryRecord) {
  const auto j = nlohmann::json::parse(render_json(sample_report()));
  EXPECT_EQ(j.at("schema_version"), bench::kSchemaVersion);
  EXPECT_EQ(j.at("context").at("device").at("name"), "Test GPU");
  EXPECT_DOUBLE_EQ(j.at("context").at("device").at("peak_bandwidth_gbps").get<double>(), 64.0);
  EXPECT_EQ(j.at("context").at("driver_version"), "13.0");
  EXPECT_EQ(j.at("context").at("runtime_version"), "12.8");
  EXPECT_EQ(j.at("context").at("seed"), 42);
  EXPECT_DOUBLE_EQ(j.at("ceilings").at("memcpy_d2d").at("gbps").get<double>(), 50.0);
  ASSERT_EQ(j.at("records").size(), 2u);
  const auto& ok = j.at("records").at(0);
  EXPECT_EQ(ok.at("params").at("n"), "1024");
  EXPECT_DOUBLE_EQ(ok.at("stats").at("median_ms").get<double>(), 2.0);
  EXPECT_DOUBLE_EQ(ok.at("stats").at("stdev_ms").get<double>(), 1.0);
  EXPECT_EQ(ok.at("stats").at("samples"), 3);
  EXPECT_DOUBLE_EQ(ok.at("speedup_over_baseline").get<double>(), 2.0);
  EXPECT_DOUBLE_EQ(ok.at("prediction").at("measured_over_predicted").get<double>(), 2.0);
  EXPECT_DOUBLE_EQ(ok.at("figures").at("overlap").get<double>(), 0.75);
  EXPECT_DOUBLE_EQ(ok.at("extra").at("intervals").at(0).at(1).get<double>(), 1.5);
  const auto& bad = j.at("records").at(1);
  EXPECT_FALSE(bad.contains("figures"));
  EXPECT_FALSE(bad.at("verified").get<bool>());
  EXPECT_FALSE(bad.contains("stats"));
  EXPECT_EQ(bad.at("check_detail"), "3 of 1024 differ");
}

TEST(CsvReport, OneHeaderAndOneLinePerRecord) {
  const std::string csv = render_csv(sample_report());
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 3);
  EXPECT_EQ(csv.rfind("experiment,variant,params,verified", 0), 0u);
  EXPECT_NE(csv.find("\"bandwidth\",\"copy\",\"op=copy n=1024\",1,1,2,1,3,2,1,3,"),
            std::string::npos)
      << csv;
  EXPECT_NE(csv.find("\"broken\",\"op=copy n=1024\",0,0"), std::string::npos) << csv;
}

TEST(MarkdownReport, TablePerExperimentWithFailedCheck) {
  const std::string md = render_markdown(sample_report());
  EXPECT_NE(md.find("## bandwidth"), std::string::npos);
  EXPECT_NE(md.find("| copy | op=copy n=1024 | 2.000 ms |"), std::string::npos) << md;
  EXPECT_NE(md.find("| FAIL |"), std::string::npos) << md;
  EXPECT_NE(md.find("50.0 GB/s"), std::string::npos);
}

TEST(TableReport, ColourOnlyWhenAskedAndFailuresExplained) {
  const auto r = sample_report();
  const std::string plain = render_table(r, false);
  EXPECT_EQ(plain.find("\x1b["), std::string::npos);
  EXPECT_NE(plain.find("check failed: 3 of 1024 differ"), std::string::npos) << plain;
  EXPECT_NE(plain.find("2.00x"), std::string::npos);
  EXPECT_NE(plain.find("copy op=copy n=1024: overlap=0.75\n  |####|\n"), std::string::npos)
      << plain;
  const std::string coloured = render_table(r, true);
  EXPECT_NE(coloured.find("\x1b[31m"), std::string::npos);
}

// The sample plus a variant the device could not run (needs_device false).
bench::RunReport with_skip() {
  bench::RunReport r = sample_report();
  bench::Record skip;
  skip.experiment = "bandwidth";
  skip.variant = "memcpy";
  skip.params = {{"op", "scale"}, {"n", "1024"}};
  skip.baseline = "naive";
  skip.skipped = true;
  skip.skip_reason = "cudaMemcpy only copies";
  r.records.push_back(skip);
  return r;
}

TEST(JsonReport, SkippedRecordsCarryStatusAndReasonAndEveryOldKey) {
  const auto j = nlohmann::json::parse(render_json(with_skip()));
  ASSERT_EQ(j.at("records").size(), 3u);
  EXPECT_EQ(j.at("records").at(0).at("status"), "timed");
  EXPECT_FALSE(j.at("records").at(0).contains("reason"));
  EXPECT_EQ(j.at("records").at(1).at("status"), "failed");
  const auto& skip = j.at("records").at(2);
  EXPECT_EQ(skip.at("status"), "skipped");
  EXPECT_EQ(skip.at("reason"), "cudaMemcpy only copies");
  EXPECT_FALSE(skip.at("verified").get<bool>());
  EXPECT_FALSE(skip.at("timed").get<bool>());
  EXPECT_FALSE(skip.contains("stats"));
  for (const char* key :
       {"experiment", "variant", "description", "params", "seed", "check_error", "bytes", "flops",
        "working_set_bytes", "fits_in_l2", "baseline", "notes"}) {
    EXPECT_TRUE(skip.contains(key)) << key;
  }
  EXPECT_FALSE(j.contains("cancelled"));
  bench::RunReport cancelled = with_skip();
  cancelled.cancelled = true;
  EXPECT_TRUE(nlohmann::json::parse(render_json(cancelled)).at("cancelled").get<bool>());
}

TEST(CsvReport, SkippedRecordsHaveTheirStatusAndReasonInTheLastColumns) {
  const std::string csv = render_csv(with_skip());
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 4);
  EXPECT_NE(csv.find(",run_spread,status,reason\n"), std::string::npos) << csv;
  EXPECT_NE(csv.find("\"memcpy\",\"op=scale n=1024\",0,0,,,,,,,0,,,,,,,,,0,,,,,,,,skipped,"
                     "\"cudaMemcpy only copies\"\n"),
            std::string::npos)
      << csv;
  EXPECT_NE(csv.find(",timed,\n"), std::string::npos) << csv;
  EXPECT_NE(csv.find(",failed,\n"), std::string::npos) << csv;
  // Every line has as many fields as the header (no comma inside the quoted fields here).
  std::istringstream lines(csv);
  std::string line;
  while (std::getline(lines, line))
    EXPECT_EQ(std::count(line.begin(), line.end(), ','), 29) << line;
}

TEST(MarkdownReport, SkipsAreListedUnderTheTableNotAsRows) {
  const std::string md = render_markdown(with_skip());
  EXPECT_NE(md.find("\n- memcpy op=scale n=1024: skipped: cudaMemcpy only copies\n"),
            std::string::npos)
      << md;
  EXPECT_EQ(md.find("| memcpy |"), std::string::npos) << md;
}

TEST(TableReport, OneCompactLinePerSkipAndNoFailure) {
  const std::string t = render_table(with_skip(), false);
  EXPECT_NE(t.find("\n  memcpy op=scale n=1024: skipped: cudaMemcpy only copies\n"),
            std::string::npos)
      << t;
  EXPECT_EQ(t.find("\nmemcpy "), std::string::npos) << "a skip as a table row: " << t;
  EXPECT_EQ(t.find("check failed"), t.rfind("check failed")) << "a skip shown as a failure: " << t;
  bench::RunReport only_skips;
  only_skips.records = {with_skip().records.back()};
  EXPECT_EQ(render_table(only_skips, false),
            "\n== bandwidth (speed-up over naive) ==\n"
            "  memcpy op=scale n=1024: skipped: cudaMemcpy only copies\n");
  EXPECT_FALSE(with_skip().records.back().verified);
  EXPECT_TRUE(with_skip().any_failed());  // the failed record, not the skip
  EXPECT_FALSE(only_skips.any_failed());
}

}  // namespace
}  // namespace memlab::report
