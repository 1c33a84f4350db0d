// memlab claims: the table of the seeds' claims, their verdicts on the H200's full run and on
// synthetic records (a claim that fails must say so), the level detection, and the CLI front end.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <string>

#include "cli_runner.hpp"
#include "memlab/claims/claims.hpp"

namespace memlab::claims {
namespace {

using testing_cli::memlab;
using Json = nlohmann::json;

std::map<std::string, Evaluation> verdicts(const Json& run) {
  std::map<std::string, Evaluation> out;
  for (const auto& r : evaluate(run)) out[r.claim->id] = r.evaluation;
  return out;
}

Json record(const std::string& exp, const std::string& variant, Json params, double ms) {
  return {{"experiment", exp}, {"variant", variant}, {"params", params},
          {"timed", true},     {"verified", true},   {"stats", {{"median_ms", ms}}}};
}

TEST(Claims, EveryClaimNamesASeedLineThatExistsAndATest) {
  ASSERT_GE(all().size(), 15u);
  for (const auto& c : all()) {
    const auto colon = c.source.find(':');
    ASSERT_NE(colon, std::string::npos) << c.id;
    std::ifstream f(std::string(MEMLAB_SOURCE_DIR) + "/../../shared/seeds/" +
                    c.source.substr(0, colon));
    if (!f) GTEST_SKIP() << "seeds not next to this checkout";
    const int line = std::stoi(c.source.substr(colon + 1));
    std::string text;
    for (int i = 0; i < line && std::getline(f, text); ++i) {
    }
    EXPECT_FALSE(text.empty()) << c.id << " line " << line;
    EXPECT_FALSE(c.test.empty()) << c.id;
    EXPECT_FALSE(c.rule.empty()) << c.id;
  }
}

TEST(Claims, VerdictsOnTheH200FullRun) {
  std::ifstream f(std::string(MEMLAB_SOURCE_DIR) + "/docs/results/h200-2026-11-29-full.json");
  ASSERT_TRUE(f.good());
  const auto v = verdicts(Json::parse(f));
  EXPECT_EQ(v.at("stride32_32way").verdict, Verdict::Holds);
  EXPECT_NEAR(v.at("stride32_32way").number, 30.2, 0.2);
  EXPECT_EQ(v.at("stride2_2way").verdict, Verdict::Holds);
  EXPECT_EQ(v.at("gcd_degree").verdict, Verdict::Holds);
  EXPECT_EQ(v.at("padding_33").verdict, Verdict::Holds);
  EXPECT_EQ(v.at("broadcast_free").verdict, Verdict::Holds);
  EXPECT_EQ(v.at("pinned_2x").verdict, Verdict::HoldsDifferent);  // 7.8x, not 2x
  EXPECT_NEAR(v.at("pinned_2x").number, 151.517 / 19.41, 0.01);
  EXPECT_EQ(v.at("effective_70_90").verdict, Verdict::Holds);
  EXPECT_EQ(v.at("streams_1_82x").verdict, Verdict::Holds);
  EXPECT_NEAR(v.at("streams_1_82x").number, 25.979 / 13.288, 0.01);
  EXPECT_EQ(v.at("one_copy_engine").verdict, Verdict::DoesNotHold);  // 3 copy engines
  EXPECT_EQ(v.at("legacy_default_stream").verdict, Verdict::Holds);
  EXPECT_EQ(v.at("pageable_not_async").verdict, Verdict::Holds);
  EXPECT_EQ(v.at("privatization_10x").verdict, Verdict::Holds);
  EXPECT_EQ(v.at("shared_atomics_100x").verdict, Verdict::HoldsDifferent);
  EXPECT_EQ(v.at("constant_64k").verdict, Verdict::Holds);
  EXPECT_EQ(v.at("registers_256k").verdict, Verdict::Holds);
  EXPECT_EQ(v.at("shared_48_192k").verdict, Verdict::HoldsDifferent);  // 227 KiB
  // The new lessons were not in that run: no record, never a pass.
  EXPECT_EQ(v.at("shared_vs_global").verdict, Verdict::NoRecord);
  EXPECT_EQ(v.at("constant_l1_latency").verdict, Verdict::NoRecord);
  EXPECT_EQ(v.at("barrier_catches_race").verdict, Verdict::NoRecord);
}

TEST(Claims, SyntheticRecordsThatContradictAClaimSaySo) {
  const Json bank = {{"word", "4"}, {"op", "read"}, {"stride", "32"}, {"iters", "8"}};
  Json bank1 = bank;
  bank1["stride"] = "1";
  Json run = {{"context", {{"device", {{"copy_engines", 1}}}}},
              {"records",
               {record("bank_conflicts", "strided", bank, 8.0),
                record("bank_conflicts", "stride1", bank, 1.0),
                record("bank_conflicts", "stride1", bank1, 1.0),
                record("bank_conflicts", "broadcast", bank1, 3.0),
                record("default_stream", "legacy", Json::object(), 1.0),
                record("default_stream", "per_thread", Json::object(), 1.0)}}};
  Json chase = record("hierarchy", "chase_ca", {{"ws", "1073741824"}}, 1.0);
  chase["figures"] = {{"cycles_per_load", 500.0}};
  Json shared = record("hierarchy", "chase_shared", {{"ws", "16384"}}, 1.0);
  shared["figures"] = {{"cycles_per_load", 250.0}};
  Json broken = record("syncthreads", "tiled_no_sync", {{"block", "256"}}, 0);
  broken["timed"] = false;
  broken["expected_failure"] = {{"lesson", "x"}, {"observed", false}};
  run["records"].push_back(chase);
  run["records"].push_back(shared);
  run["records"].push_back(broken);
  const auto v = verdicts(run);
  EXPECT_EQ(v.at("stride32_32way").verdict, Verdict::HoldsDifferent);
  EXPECT_DOUBLE_EQ(v.at("stride32_32way").number, 8.0);
  EXPECT_EQ(v.at("broadcast_free").verdict, Verdict::DoesNotHold);
  EXPECT_EQ(v.at("legacy_default_stream").verdict, Verdict::DoesNotHold);
  EXPECT_EQ(v.at("shared_vs_global").verdict, Verdict::HoldsDifferent);  // only 2x
  EXPECT_DOUBLE_EQ(v.at("shared_vs_global").number, 2.0);
  EXPECT_EQ(v.at("barrier_catches_race").verdict, Verdict::DoesNotHold);
  EXPECT_EQ(v.at("pinned_2x").verdict, Verdict::NoRecord);
}

TEST(Claims, LevelsAreDetectedWhereTheLatencySteps) {
  const auto levels = detect_levels({{1 << 14, 33},
                                     {1 << 17, 34},
                                     {1 << 20, 250},
                                     {1 << 23, 260},
                                     {1 << 25, 262},
                                     {1 << 27, 610},
                                     {1 << 30, 640}});
  ASSERT_EQ(levels.size(), 3u);
  EXPECT_EQ(levels[0].to_bytes, 1 << 17);
  EXPECT_EQ(levels[1].from_bytes, 1 << 20);
  EXPECT_EQ(levels[1].to_bytes, 1 << 25);
  EXPECT_EQ(levels[1].cycles, 260);
  EXPECT_EQ(levels[2].from_bytes, 1 << 27);
  EXPECT_TRUE(detect_levels({}).empty());
}

TEST(ClaimsCli, WithoutAGpuPrintsTheClaimsAndThePlanAndExits3) {
  const auto r = memlab("claims");
  if (r.code == 0) GTEST_SKIP() << "a GPU is visible";
  EXPECT_EQ(r.code, 3) << r.out;
  EXPECT_NE(r.out.find("shared_vs_global"), std::string::npos);
  EXPECT_NE(r.out.find("memlab run hierarchy"), std::string::npos);
  EXPECT_NE(r.out.find("000_8337f15f37bac5ed.txt:45"), std::string::npos);
}

TEST(ClaimsCli, FromARunEvaluatesAndWritesJson) {
  const std::string out = ::testing::TempDir() + "claims.json";
  const auto r = memlab("claims --from " + std::string(MEMLAB_SOURCE_DIR) +
                        "/docs/results/h200-2026-11-29-full.json --json " + out);
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("does not hold"), std::string::npos);
  std::ifstream f(out);
  const Json j = Json::parse(f);
  EXPECT_EQ(j["claims"].size(), all().size());
  testing_cli::expect_usage_error("claims --from /nonexistent.json", "--from");
}

TEST(LessonsCli, NewLessonsAreListedAndRejectBadAxes) {
  const auto r = memlab("list");
  for (const char* name : {"hierarchy", "constant_memory", "syncthreads", "unified_memory"}) {
    EXPECT_NE(r.out.find(name), std::string::npos) << name;
  }
  testing_cli::expect_usage_error("run hierarchy -a ws=1000", "axis ws");
  testing_cli::expect_usage_error("run hierarchy -a line=6", "axis line");
  testing_cli::expect_usage_error("run constant_memory -a distinct=3", "axis distinct");
  testing_cli::expect_usage_error("run syncthreads -a block=100", "axis block");
  testing_cli::expect_usage_error("run unified_memory -a size=4100", "axis size");
}

TEST(LessonsCli, HierarchyPlanRunsEachVariantOnlyWhereItApplies) {
  const auto r = memlab("run hierarchy -a ws=16384,1073741824");
  if (r.code == 0) GTEST_SKIP() << "a GPU is visible";
  EXPECT_EQ(r.code, 3) << r.out;
  // chase_shared, chase_register, chase_host and read_ca only at 16 KiB; read_cg only at 1 GiB.
  const auto big = r.out.find("ws=1073741824");
  ASSERT_NE(big, std::string::npos) << r.out;
  const auto small = r.out.find("ws=16384 ");  // after the bytes line, which names every variant
  ASSERT_LT(small, big) << r.out;
  const std::string small_part = r.out.substr(small, big - small), big_part = r.out.substr(big);
  // A variant is planned at a point when its line there is not "skipped: ..." (skips are listed).
  auto planned = [](const std::string& part, const std::string& v) {
    const auto at = part.find("      " + v + " ");
    if (at == std::string::npos) return false;
    const std::string line = part.substr(at, part.find('\n', at) - at);
    return line.find("skipped") == std::string::npos;
  };
  for (const char* v : {"chase_shared", "chase_register", "chase_host", "read_ca"}) {
    EXPECT_TRUE(planned(small_part, v)) << v;
    EXPECT_FALSE(planned(big_part, v)) << v;
    EXPECT_NE(big_part.find(std::string(v) + std::string(" ")), std::string::npos) << v;
  }
  EXPECT_FALSE(planned(small_part, "read_cg"));
  EXPECT_TRUE(planned(big_part, "read_cg"));
  EXPECT_NE(big_part.find("streaming"), std::string::npos);  // the HBM model at 1 GiB
}

}  // namespace
}  // namespace memlab::claims
