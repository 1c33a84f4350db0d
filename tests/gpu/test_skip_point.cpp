// What only the device decides is a skip record, never a failure: a variant whose needs_device is
// false, and every variant of a point whose setup, run or check throws bench::SkipPoint.
#include <gtest/gtest.h>

#include "gpu_test.hpp"
#include "memlab/bench/experiment.hpp"
#include "memlab/bench/plan.hpp"

namespace memlab::bench {
namespace {

struct Nothing {};

void register_skipper() {
  static const bool registered = [] {
    ExperimentBuilder<Nothing> b("zz_skip_point", "skips decided at run time");
    b.int_axis("n", {"1", "2", "3"}, {"1"}, 1, 10, "n=2: setup throws; n=3: check throws")
        .default_suite(false)
        .setup([](const Params& p, std::uint64_t) {
          if (p.n("n") == 2) throw SkipPoint("no such device feature");
          return Nothing{};
        })
        .poison([](Nothing&, const Params&, cudaStream_t) {})
        .check([](Nothing&, const Params& p, const std::string&) {
          if (p.n("n") == 3) throw SkipPoint("found out late");
          return Check{true, 0, ""};
        })
        .variant("plain", "", [](Nothing&, const Params&, cudaStream_t) {})
        .variant("picky", "", [](Nothing&, const Params&, cudaStream_t) {})
        .needs_device([](const Params&) { return false; }, "needs a GPU this is not")
        .baseline("plain");
    return register_experiment(b.build());
  }();
  (void)registered;
}

TEST(SkipPoint, DeviceDecisionsAreSkipRecordsWithTheirReason) {
  if (!gpu_test::have_device()) GTEST_SKIP() << "skipped: no CUDA device";
  register_skipper();
  RunRequest req;
  req.experiments = {"zz_skip_point"};
  req.verify_only = true;
  req.seed = 1;
  const RunReport r = execute(make_plan(req), {});
  ASSERT_EQ(r.records.size(), 6u);
  EXPECT_FALSE(r.any_failed());
  EXPECT_TRUE(r.records[0].verified);  // n=1 plain
  EXPECT_TRUE(r.records[1].skipped);   // n=1 picky: needs_device
  EXPECT_EQ(r.records[1].skip_reason, "needs a GPU this is not");
  for (std::size_t i = 2; i < 4; ++i) {  // n=2: setup threw
    EXPECT_TRUE(r.records[i].skipped) << i;
    EXPECT_EQ(r.records[i].skip_reason, "no such device feature") << i;
  }
  for (std::size_t i = 4; i < 6; ++i) {  // n=3: the check threw, after plain had run
    EXPECT_TRUE(r.records[i].skipped) << i;
    EXPECT_EQ(r.records[i].skip_reason, "found out late") << i;
  }
}

}  // namespace
}  // namespace memlab::bench
