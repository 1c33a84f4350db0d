// Issue 19: p2p and collectives on fewer than two GPUs are skipped with "needs two or more GPUs"
// (never cudaErrorInvalidDevice, never a test that checks nothing): the reason arithmetic, the
// plan's reason, and their setup, which throws bench::SkipPoint before any cudaSetDevice. On a
// machine with two GPUs or more the setup tests skip (the GPU tests run the lessons there).
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "common/multi_gpu.hpp"
#include "memlab/bench/experiment.hpp"
#include "memlab/bench/plan.hpp"
#include "memlab/cuda/device.hpp"

namespace memlab::lessons {
namespace {

bool starts_with_needs_two(const std::string& s) {
  return s.rfind(kNeedsTwoGpus, 0) == 0;
}

TEST(MultiGpuSkip, MissingGpusNamesTheCountAndTheOrdinal) {
  EXPECT_EQ(missing_gpus(0, {0, 1}), "needs two or more GPUs (this process sees 0)");
  EXPECT_EQ(missing_gpus(1, {0, 1}), "needs two or more GPUs (this process sees 1)");
  EXPECT_EQ(missing_gpus(1, {}), "needs two or more GPUs (this process sees 1)");
  EXPECT_EQ(missing_gpus(2, {0, 3}),
            "needs two or more GPUs: GPU 3 does not exist (this process sees GPUs 0..1)");
  EXPECT_EQ(missing_gpus(2, {1, 0}), "");
  EXPECT_EQ(missing_gpus(8, {}), "");
}

TEST(MultiGpuSkip, PlanReasonsStartWithNeedsTwoOrMoreGpus) {
  for (const char* lesson : {"p2p", "collectives"}) {
    const bench::Experiment* e = bench::find_experiment(lesson);
    ASSERT_NE(e, nullptr) << lesson;
    for (const bench::Variant& v : e->variants) {
      EXPECT_TRUE(starts_with_needs_two(v.needs_reason))
          << lesson << " " << v.name << ": " << v.needs_reason;
    }
  }
  if (device_count_or_zero() >= 2) GTEST_SKIP() << "two GPUs or more: the pairs are planned";
  bench::RunRequest r;
  r.experiments = {"p2p", "collectives"};
  r.seed = 1;
  r.quick = true;
  const bench::Plan plan = bench::make_plan(r);
  int skipped = 0;
  for (const bench::ExperimentPlan& ep : plan.experiments) {
    for (const bench::PlannedPoint& pt : ep.points) {
      for (const bench::PlannedVariant& pv : pt.variants) {
        // What only the device decides: planned, then skipped at run time with the reason
        // (collectives may also lack NCCL here; the GPUs come first in its reason).
        EXPECT_FALSE(pv.variant->runs_here(pt.params))
            << ep.experiment->name << " " << pv.variant->name;
        EXPECT_TRUE(starts_with_needs_two(pv.variant->needs_reason)) << pv.variant->needs_reason;
        ++skipped;
      }
    }
  }
  EXPECT_GT(skipped, 0);
}

// What the GPU test and the runner call: setup itself refuses, with the reason, before it makes
// any GPU current (the H200's cudaErrorInvalidDevice came from cudaSetDevice(1) in p2p's setup).
TEST(MultiGpuSkip, SetupThrowsSkipPointBeforeAnyCudaSetDevice) {
  if (device_count_or_zero() >= 2) GTEST_SKIP() << "two GPUs or more: the lessons run";
  for (const char* lesson : {"p2p", "collectives"}) {
    const bench::Experiment* e = bench::find_experiment(lesson);
    ASSERT_NE(e, nullptr);
    for (const auto& values : e->test_points) {
      const bench::Params p(values);
      try {
        (void)e->setup(p, 7);
        ADD_FAILURE() << lesson << " " << p.label() << ": setup did not refuse";
      } catch (const bench::SkipPoint& s) {
        EXPECT_TRUE(starts_with_needs_two(s.what())) << lesson << ": " << s.what();
      }
    }
  }
}

}  // namespace
}  // namespace memlab::lessons
