// The memlab command as a user meets it: exit codes and one-line errors naming the parameter.
// Bad input must be rejected before any device work, so these run without a GPU.
#include <chrono>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "cli_runner.hpp"
#include "memlab/cuda/device.hpp"

namespace {

using memlab::testing_cli::expect_usage_error;
using memlab::testing_cli::memlab;
using memlab::testing_cli::Result;

TEST(Cli, UnknownExperimentVariantAndAxis) {
  expect_usage_error("run nosuch", "experiment: 'nosuch' is unknown; accepted:");
  expect_usage_error("run bandwidth -v nosuch", "-v/--variants: 'nosuch'");
  expect_usage_error("run bandwidth -a nosuch=1", "-a/--axis: 'nosuch' is not an axis");
}

TEST(Cli, MalformedNegativeAndZeroValues) {
  expect_usage_error("run bandwidth -a n=-5", "axis n");
  expect_usage_error("run bandwidth -a n=0", "axis n: 0 is out of range");
  expect_usage_error("run bandwidth -a n=abc", "axis n");
  expect_usage_error("run bandwidth -a n", "-a/--axis: 'n' is malformed");
  expect_usage_error("run bandwidth -a op=mul", "axis op: 'mul' is not accepted; accepted: one of");
  expect_usage_error("run bandwidth --noise 5", "--noise");
  expect_usage_error("run bandwidth --min-samples 3", "--min-samples");
  expect_usage_error("run bandwidth --budget 0", "--budget");
  expect_usage_error("run bandwidth --seed x", "--seed");
}

TEST(Cli, NoSubcommandAndUnknownOptionAreUsageErrors) {
  EXPECT_EQ(memlab("").code, 2);
  EXPECT_EQ(memlab("run --no-such-option").code, 2);
  EXPECT_EQ(memlab("frobnicate").code, 2);
  EXPECT_EQ(memlab("--help").code, 0);
}

TEST(Cli, ListNeedsNoDevice) {
  const Result r = memlab("list");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("bandwidth"), std::string::npos);
  EXPECT_NE(r.out.find("elem_f1*"), std::string::npos) << "baseline not marked: " << r.out;
}

// Each variant's axes and condition (issue 19 #10) and each lesson's plots, as text and JSON.
TEST(Cli, ListShowsVariantsAxesAndPlots) {
  const Result r = memlab("list");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("broadcast only at op=read stride=1 (a fixed read pattern"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("chase_shared only at ws <= 32768"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("plots: latency, latency_ns, bandwidth"), std::string::npos) << r.out;
  const Result j = memlab("list --json");
  ASSERT_EQ(j.code, 0) << j.out;
  const auto list = nlohmann::json::parse(j.out);
  bool hierarchy = false;
  for (const auto& e : list.at("experiments")) {
    EXPECT_FALSE(e.at("plots").empty()) << e.at("name");
    if (e.at("name") != "hierarchy") continue;
    hierarchy = true;
    EXPECT_EQ(e.at("plots").at(0).at("y").at("field"), "figure:cycles_per_load");
  }
  EXPECT_TRUE(hierarchy);
  // -v naming a variant its axes leave out: a usage error naming -v, before any device.
  expect_usage_error("run bank_conflicts -v broadcast -a stride=2", "-v/--variants: 'broadcast'");
}

TEST(Cli, RunAndInfoSayNoCudaDeviceAndExit3WithoutAGpu) {
  if (memlab::device_count_or_zero() > 0) {
    GTEST_SKIP() << "a CUDA device is present: this checks the behaviour without one";
  }
  const Result run = memlab("run bandwidth -a n=1000 -v elem_f1");
  EXPECT_EQ(run.code, 3) << run.out;
  EXPECT_NE(run.out.find("no CUDA device"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("plan"), std::string::npos) << "shows nothing without a GPU: " << run.out;
  // The whole default suite: every lesson's plan and model, no lesson may need the device.
  const Result all = memlab("run");
  EXPECT_EQ(all.code, 3) << all.out;
  EXPECT_EQ(all.out.find("CUDA error"), std::string::npos) << all.out;
  for (const char* lesson : {"bandwidth:", "coalescing:", "aos_soa:", "transfers:", "matmul:"}) {
    EXPECT_NE(all.out.find(lesson), std::string::npos) << lesson << " missing from the plan";
  }
  const Result info = memlab("info");
  EXPECT_EQ(info.code, 3);
  EXPECT_NE(info.out.find("no CUDA device"), std::string::npos);
}

TEST(Cli, DuplicatedExperimentsVariantsAndAxisValuesAreUsageErrors) {
  expect_usage_error("run bandwidth bandwidth", "experiment: 'bandwidth' is given twice");
  expect_usage_error("run bandwidth -v elem_f1,elem_f1", "-v/--variants: 'elem_f1' is given twice");
  expect_usage_error("run bandwidth -a n=1Gi,2^30",
                     "-a/--axis: n=2^30 is the same value as n=1Gi (1073741824)");
  expect_usage_error("run bandwidth -a op=copy,copy", "-a/--axis: op=copy is given twice");
}

TEST(Cli, BadOutputPathsFailBeforeAnyDeviceWork) {
  const auto t0 = std::chrono::steady_clock::now();
  expect_usage_error("run bandwidth -a n=1000 -v elem_f1 --json /nonexistent-memlab-dir/r.json",
                     "--json: cannot open '/nonexistent-memlab-dir/r.json' for writing");
  expect_usage_error("run bandwidth -a n=1000 --csv " + testing::TempDir(), "--csv: cannot open");
  expect_usage_error("run bandwidth -a n=1000 --json same.json --md same.json",
                     "--md: 'same.json' is also the --json file");
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_LT(seconds, 10.0) << "the path checks took long: did they wait for the device?";
}

TEST(Cli, WithoutAGpuTheOutputFilesAreLeftAsTheyWereAndSkipsAreShown) {
  if (memlab::device_count_or_zero() > 0) {
    GTEST_SKIP() << "a CUDA device is present: this checks the behaviour without one";
  }
  const std::string fresh = testing::TempDir() + "memlab_cli_fresh.json";
  const std::string kept = testing::TempDir() + "memlab_cli_kept.csv";
  std::remove(fresh.c_str());
  FILE* f = std::fopen(kept.c_str(), "w");
  ASSERT_NE(f, nullptr);
  std::fputs("old results\n", f);
  std::fclose(f);
  const Result r = memlab("run bandwidth -a n=1000 -a op=scale --json " + fresh + " --csv " + kept);
  EXPECT_EQ(r.code, 3) << r.out;
  EXPECT_EQ(std::fopen(fresh.c_str(), "r"), nullptr) << "an empty --json file was left behind";
  f = std::fopen(kept.c_str(), "r");
  ASSERT_NE(f, nullptr);
  char buf[32] = {};
  EXPECT_NE(std::fgets(buf, sizeof buf, f), nullptr);
  std::fclose(f);
  EXPECT_STREQ(buf, "old results\n") << "an existing file was changed without results";
  // cudaMemcpy copies: at op=scale it is not in the plan at all (issue 19 #10), no skip line.
  EXPECT_EQ(r.out.find("skipped"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("      cudaMemcpy "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("elem_f1                useful bytes"), std::string::npos) << r.out;
}

TEST(Cli, SmallRunVerifiesAndWritesJsonWithAGpu) {
  if (memlab::device_count_or_zero() == 0) GTEST_SKIP() << "skipped: no CUDA device";
  const std::string json = testing::TempDir() + "memlab_cli_test.json";
  const Result r =
      memlab("run bandwidth -a n=100003 -a op=copy,triad -v elem_f1,f4_unroll4 --json " + json);
  EXPECT_EQ(r.code, 0) << r.out;
  FILE* f = std::fopen(json.c_str(), "r");
  ASSERT_NE(f, nullptr);
  std::fclose(f);
}

}  // namespace
