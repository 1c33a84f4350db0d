// The tiled kernel without its __syncthreads() must be caught by verification (the lesson), and
// its record must not make the run fail; the correct kernel passes on the same inputs.
#include <gtest/gtest.h>

#include "gpu_test.hpp"
#include "memlab/bench/experiment.hpp"
#include "memlab/bench/runner.hpp"
#include "memlab/cuda/stream.hpp"

namespace memlab::bench {
namespace {

TEST(Syncthreads, VerificationCatchesTheMissingBarrier) {
  if (!gpu_test::have_device()) GTEST_SKIP() << "skipped: no CUDA device";
  const Experiment* e = find_experiment("syncthreads");
  ASSERT_NE(e, nullptr);
  const Variant* broken = e->find_variant("tiled_no_sync");
  const Variant* good = e->find_variant("tiled_sync");
  ASSERT_NE(broken, nullptr);
  ASSERT_NE(good, nullptr);
  EXPECT_FALSE(broken->expected_failure.empty());
  Params p({{"block", "256"}, {"iters", "8"}, {"n", "1024"}});
  auto instance = e->setup(p, 99);
  Stream stream;
  EXPECT_TRUE(verify_variant(*e, *instance, p, *good, stream).ok);
  int caught = 0;
  for (int run = 0; run < 5; ++run)
    caught += verify_variant(*e, *instance, p, *broken, stream).ok ? 0 : 1;
  EXPECT_GT(caught, 0) << "the race never showed in 5 runs at n=1024";
}

}  // namespace
}  // namespace memlab::bench
