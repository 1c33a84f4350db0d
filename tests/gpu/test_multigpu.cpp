// Two GPUs or more (nvidia-h200-x2: NV18): the topology memlab reads, and the p2p lesson's
// copies verified both ways through the plan API. Skipped with fewer than two GPUs.
#include <gtest/gtest.h>

#include "gpu_test.hpp"
#include "memlab/bench/plan.hpp"
#include "memlab/cuda/device.hpp"
#include "memlab/cuda/topology.hpp"

namespace memlab {
namespace {

bool two_gpus() {
  return gpu_test::have_device() && device_count_or_zero() >= 2;
}

TEST(MultiGpu, TopologyHasEveryPairWithPeerAccess) {
  if (!two_gpus()) GTEST_SKIP() << "skipped: fewer than two CUDA devices";
  const Topology t = query_topology();
  const auto n = static_cast<std::size_t>(device_count_or_zero());
  ASSERT_EQ(t.gpus.size(), n);
  ASSERT_EQ(t.pairs.size(), n * (n - 1));
  for (const GpuTopology& g : t.gpus) {
    EXPECT_EQ(g.uuid.rfind("GPU-", 0), 0u) << g.uuid;
    EXPECT_EQ(g.uuid.size(), 40u) << g.uuid;
  }
  const PairTopology* p = t.pair(0, 1);
  ASSERT_NE(p, nullptr);
  EXPECT_TRUE(p->peer_access);
  if (t.nvml && p->nvlinks > 0) {
    EXPECT_GT(p->nvlink_gbps_per_direction(), 0.0) << "NVLink version " << p->nvlink_version;
    EXPECT_EQ(t.pair(1, 0)->nvlinks, p->nvlinks);
  }
  // The JSON memlab info --json prints reads back to the same topology.
  EXPECT_EQ(topology_json(parse_topology_json(topology_json(t))), topology_json(t));
}

TEST(MultiGpu, P2pVerifiesBothWaysThroughThePlan) {
  if (!two_gpus()) GTEST_SKIP() << "skipped: fewer than two CUDA devices";
  bench::RunRequest req;
  req.experiments = {"p2p"};
  req.axes = {
      {"src", {"0", "1"}}, {"dst", {"0", "1"}}, {"size", {"4097"}}, {"direction", {"one", "both"}}};
  req.verify_only = true;
  req.seed = 3;
  const bench::Plan plan = bench::make_plan(req);
  // (0,1) and (1,0), one and both ways, three variants; (0,0) and (1,1) are not in the plan.
  EXPECT_EQ(plan.measurement_count(), 12u);
  const bench::RunReport r = bench::execute(plan, {});
  int verified = 0;
  for (const bench::Record& rec : r.records) {
    if (rec.skipped) continue;
    EXPECT_TRUE(rec.verified) << rec.variant << " " << rec.check_detail;
    verified += rec.verified ? 1 : 0;
  }
  EXPECT_EQ(verified, 12);
}

}  // namespace
}  // namespace memlab
