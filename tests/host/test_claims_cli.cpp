// memlab claims and the new lessons through the CLI: without a GPU the claims and their plan (exit
// 3), claims from a stored H200 run, the lessons' axes and plans. Needs the memlab binary, so it is
// not part of the host-only (asan) build.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "cli_runner.hpp"
#include "memlab/claims/claims.hpp"

namespace memlab::claims {
namespace {

using testing_cli::memlab;
using Json = nlohmann::json;

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
  // The plan line of variant `v` in `part`: planned ("useful bytes ...") or absent (a variant
  // is not planned where its axes leave it out; nothing is planned as skipped).
  auto line_of = [](const std::string& part, const std::string& v) {
    const auto at = part.find(" " + v + " ");
    return at == std::string::npos ? std::string() : part.substr(at, part.find('\n', at) - at);
  };
  EXPECT_EQ(r.out.find("skipped"), std::string::npos) << r.out;
  for (const char* v : {"chase_shared", "chase_register", "chase_host", "read_ca"}) {
    EXPECT_NE(line_of(small_part, v).find("useful bytes"), std::string::npos) << v;
    EXPECT_EQ(line_of(big_part, v), "") << v;
  }
  EXPECT_EQ(line_of(small_part, "read_cg"), "");
  EXPECT_NE(line_of(big_part, "read_cg").find("useful bytes"), std::string::npos);
  EXPECT_NE(big_part.find("streaming"), std::string::npos);  // the HBM model at 1 GiB
}

}  // namespace
}  // namespace memlab::claims
