// Issue 19: unified_memory on the GPU, timed through the plan at reads=1 and reads=16 (64 MiB, a
// few seconds): every variant verified, no variant faster than explicit's copy of the same data
// allows (the data starts in host memory in every sample), and the transfer + kernel split adds
// up to the sample it was read from.
#include <gtest/gtest.h>

#include <string>

#include "gpu_test.hpp"
#include "memlab/bench/plan.hpp"
#include "unified_memory/honesty.hpp"

namespace memlab {
namespace {

double figure(const bench::Record& r, const char* name) {
  for (const auto& [key, value] : r.figures) {
    if (key == name) return value;
  }
  return -1.0;
}

TEST(UnifiedMemory, NoVariantBeatsTheLinkAndTheSplitAddsUp) {
  if (!gpu_test::have_device()) GTEST_SKIP() << "skipped: no CUDA device";
  bench::RunRequest req;
  req.experiments = {"unified_memory"};
  req.axes = {{"size", {"67108864"}}, {"reads", {"1", "16"}}};
  req.seed = 5;
  const bench::RunReport report = bench::execute(bench::make_plan(req), {});
  int timed = 0;
  for (const bench::Record& r : report.records) {
    ASSERT_TRUE(r.verified) << r.variant << ": " << r.check_detail;
    ASSERT_TRUE(r.timed) << r.variant;
    ++timed;
    const double transfer = figure(r, lessons::unified_memory::kTransferFigure);
    const double kernel = figure(r, lessons::unified_memory::kKernelFigure);
    ASSERT_GE(transfer, 0.0) << r.variant;
    ASSERT_GT(kernel, 0.0) << r.variant;
    // The split is the last sample's (faults vary from sample to sample; the H200 gave 13.2 ms
    // beside a median of 10.1 ms for managed_readmostly): it lies within the samples' range, the
    // events of the split inside the sample's own pair.
    EXPECT_GE(transfer + kernel, 0.95 * r.stats.min) << r.variant;
    EXPECT_LE(transfer + kernel, 1.05 * r.stats.max) << r.variant;
  }
  EXPECT_EQ(timed, 10);
  for (const std::string& bad : lessons::unified_memory::faster_than_the_link(report.records)) {
    ADD_FAILURE() << bad;
  }
}

}  // namespace
}  // namespace memlab
