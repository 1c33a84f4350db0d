// report::lesson_headline and the run summary on the H200's default run of 2026-12-01
// (docs/results/h200-2026-12-01-full.json: 759 records, 612 timed, 146 skipped, 1 expected
// failure).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "memlab/report/headline.hpp"

namespace {

using nlohmann::json;

json load(const std::string& name) {
  std::ifstream f(std::string(MEMLAB_SOURCE_DIR) + "/docs/results/" + name);
  EXPECT_TRUE(f.good()) << name;
  return json::parse(f);
}

const json& full_run() {
  static const json run = load("h200-2026-12-01-full.json");
  return run;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream s(text);
  for (std::string l; std::getline(s, l);) out.push_back(l);
  return out;
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

TEST(Headline, BandwidthAtItsWidestPointAgainstCudaMemcpy) {
  const json h = memlab::report::lesson_headline(full_run(), "bandwidth");
  EXPECT_EQ(h["figure"], "gbps");
  EXPECT_EQ(h["unit"], "GB/s");
  EXPECT_EQ(h["at"], "n=268435456 op=copy");  // the one point where cudaMemcpy runs too: 7 variants
  EXPECT_EQ(h["best"]["variant"], "elem_f4");
  EXPECT_NEAR(h["best"]["value"].get<double>(), 4310.3, 0.1);
  EXPECT_EQ(h["baseline"]["variant"], "elem_f1");
  EXPECT_NEAR(h["speedup"].get<double>(), 4310.3 / 2741.3, 0.001);
  EXPECT_EQ(h["vendor"]["variant"], "cudaMemcpy");
  EXPECT_NEAR(h["pct_vendor"].get<double>(), 100.6, 0.05);
  EXPECT_EQ(h["counts"]["timed"], 32);
  EXPECT_EQ(h["counts"]["skipped"], 8);
  EXPECT_EQ(h["counts"]["failed"], 0);
  EXPECT_GT(h["model"]["of"].get<int>(), 0);
  EXPECT_LE(h["model"]["within_15pct"].get<int>(), h["model"]["of"].get<int>());
}

TEST(Headline, MatmulInGflopsAgainstCublas) {
  const json h = memlab::report::lesson_headline(full_run(), "matmul");
  EXPECT_EQ(h["figure"], "gflops");
  EXPECT_EQ(h["best"]["variant"], "thread_tile_8x16");  // cublas is the vendor line, not "best"
  EXPECT_EQ(h["vendor"]["variant"], "cublas");
  EXPECT_NEAR(h["pct_vendor"].get<double>(), 100.0 * 46991.9 / 51346.6, 0.1);
  EXPECT_EQ(h["baseline"]["variant"], "naive");
}

TEST(Headline, LatencyLessonsRankByCyclesLowerIsBetter) {
  const json h = memlab::report::lesson_headline(full_run(), "hierarchy");
  EXPECT_EQ(h["figure"], "figure:cycles_per_load");
  EXPECT_EQ(h["unit"], "cycles/load");
  EXPECT_EQ(h["better"], "lower");
  EXPECT_EQ(h["best"]["variant"], "chase_register");
  EXPECT_EQ(h["baseline"]["variant"], "chase_ca");
  EXPECT_NEAR(h["baseline"]["value"].get<double>(), 41.0, 0.1);
  EXPECT_GT(h["speedup"].get<double>(), 1.0);  // oriented: > 1 is better
  EXPECT_EQ(h["counts"]["skipped"], 22);
  const json s = memlab::report::lesson_headline(full_run(), "syncthreads");
  EXPECT_EQ(s["figure"], "figure:cycles_per_step");
  EXPECT_EQ(s["counts"]["expected_failure"], 1);
}

TEST(Headline, AVendorListAndABaselineGivenAsData) {
  const json h =
      memlab::report::lesson_headline(full_run(), "bandwidth", "gridstride_f1", {"f4_unroll4"});
  EXPECT_EQ(h["baseline"]["variant"], "gridstride_f1");
  EXPECT_EQ(h["vendor"]["variant"], "f4_unroll4");
  EXPECT_EQ(h["best"]["variant"], "elem_f4");  // cudaMemcpy is now an ordinary variant...
  const json none = memlab::report::lesson_headline(full_run(), "no_such_lesson");
  EXPECT_TRUE(none["best"].is_null());
  EXPECT_EQ(none["counts"]["timed"], 0);
}

TEST(Headline, EveryLessonOfTheRunHasOne) {
  const json s = memlab::report::run_summary(full_run());
  ASSERT_EQ(s["lessons"].size(), 26u);
  for (const json& l : s["lessons"]) {
    const json& h = l["headline"];
    EXPECT_TRUE(h["best"].is_object()) << l["experiment"];
    EXPECT_TRUE(h["figure"].is_string()) << l["experiment"];
  }
}

TEST(Summary, TheStoredDefaultRunFitsOneScreen) {
  const json s = memlab::report::run_summary(full_run());
  EXPECT_EQ(s["records"]["total"], 759);
  EXPECT_EQ(s["records"]["timed"], 612);
  EXPECT_EQ(s["records"]["skipped"], 146);
  EXPECT_EQ(s["records"]["failed"], 0);
  EXPECT_TRUE(s["failures"].empty());
  EXPECT_EQ(s["device"], "NVIDIA H200");
  EXPECT_EQ(s["commit"], "488fbefb64f2");
  EXPECT_NEAR(s["memcpy_gbps"].get<double>(), 4284.4, 0.1);
  EXPECT_TRUE(s["claims"].is_object());
  // Skips per reason: 13 reasons, the largest first, the counts add up.
  ASSERT_EQ(s["skips"].size(), 13u);
  EXPECT_EQ(s["skips"][0]["experiment"], "bank_conflicts");
  EXPECT_EQ(s["skips"][0]["count"], 90);
  int sum = 0;
  for (const json& k : s["skips"]) sum += k["count"].get<int>();
  EXPECT_EQ(sum, 146);

  json with_files = s;
  with_files["outputs"].push_back({{"what", "JSON"}, {"path", "out/run.json"}});
  with_files["outputs"].push_back({{"what", "report"}, {"path", "out/run.html"}});
  const std::string text = memlab::report::render_summary(with_files);
  const auto lines = lines_of(text);
  EXPECT_LE(lines.size(), 40u) << text;
  std::size_t skip_lines = 0;
  for (const std::string& l : lines) {
    EXPECT_EQ(lower(l).find("fail") != std::string::npos &&
                  l.find("expected failure") == std::string::npos,
              false)
        << "a line says failed: " << l;
    skip_lines += l.find("skipped") != std::string::npos ? 1 : 0;
  }
  EXPECT_EQ(skip_lines, 2u) << text;  // the counts line and the "by reason" heading
  EXPECT_NE(
      text.find("  90 bank_conflicts: a fixed read pattern: runs once, at access=read stride=1"),
      std::string::npos)
      << text;
  EXPECT_NE(text.find("more reasons"), std::string::npos) << text;
  EXPECT_NE(text.find("NVIDIA H200"), std::string::npos);
  EXPECT_NE(text.find("488fbefb64f2"), std::string::npos);
  EXPECT_NE(text.find("memcpy ceiling 4284.4 GB/s"), std::string::npos);
  EXPECT_NE(text.find("claims: "), std::string::npos);
  EXPECT_NE(text.find("written: JSON out/run.json, report out/run.html"), std::string::npos);
  for (const json& l : s["lessons"]) {
    std::string line_start(1, '\n');  // (not "\n" + name: a -Wrestrict false positive of GCC 12)
    line_start.append(l["experiment"].get<std::string>()).push_back(' ');
    EXPECT_NE(text.find(line_start), std::string::npos) << l["experiment"];
  }
  // --all: every reason, one line each.
  memlab::report::SummaryTextOptions all;
  all.max_skip_reasons = 0;
  const std::string every = memlab::report::render_summary(s, all);
  EXPECT_EQ(every.find("more reasons"), std::string::npos);
  EXPECT_NE(every.find("   1 hierarchy: atomic chains up to ws = 128 MiB"), std::string::npos)
      << every;
}

TEST(Summary, AFailedRecordIsListedAndCounted) {
  json run = full_run();
  json& r = run["records"][0];
  r["status"] = "failed";
  r["verified"] = false;
  r["check_detail"] = "element 7: 1 != 2";
  const json s = memlab::report::run_summary(run);
  EXPECT_EQ(s["records"]["failed"], 1);
  ASSERT_EQ(s["failures"].size(), 1u);
  const std::string text = memlab::report::render_summary(s);
  EXPECT_NE(text.find("1 FAILED:\n  aos_soa aos n=2^25 update=one: element 7: 1 != 2"),
            std::string::npos)
      << text;
}

// Every stored run of docs/results (schema 1, older records without "status") summarises.
TEST(Summary, EveryStoredRunSummarises) {
  for (const auto& e :
       std::filesystem::directory_iterator(std::string(MEMLAB_SOURCE_DIR) + "/docs/results")) {
    if (e.path().extension() != ".json") continue;
    const json run = load(e.path().filename().string());
    if (!run.is_object() || !run.contains("records")) continue;
    const json s = memlab::report::run_summary(run);
    const std::string text = memlab::report::render_summary(s);
    EXPECT_FALSE(text.empty()) << e.path();
    EXPECT_EQ(s["records"]["total"].get<std::size_t>(), run["records"].size()) << e.path();
  }
}

}  // namespace
