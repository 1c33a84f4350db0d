// Topology formatting and parsing on a fake two- and three-GPU machine (no GPU needed).
#include <gtest/gtest.h>

#include <stdexcept>

#include "memlab/cuda/topology.hpp"

namespace memlab {
namespace {

Topology fake_h200_pair() {
  Topology t;
  t.nvml = true;
  for (int i = 0; i < 2; ++i) {
    GpuTopology g;
    g.ordinal = i;
    g.name = "NVIDIA H200";
    g.uuid = i == 0 ? "GPU-00000000-0000-0000-0000-000000000000"
                    : "GPU-11111111-1111-1111-1111-111111111111";
    g.pci_bus_id = i == 0 ? "0000:19:00.0" : "0000:3b:00.0";
    g.pcie_gen = 5;
    g.pcie_width = 16;
    g.pcie_max_gen = 5;
    g.pcie_max_width = 16;
    g.numa_node = i;
    g.cpu_affinity = i == 0 ? "0-47" : "48-95";
    g.nvlinks_active = 18;
    g.nvlink_version = 4;
    t.gpus.push_back(g);
  }
  for (int a = 0; a < 2; ++a) {
    PairTopology p;
    p.from = a;
    p.to = 1 - a;
    p.peer_access = true;
    p.peer_atomics = true;
    p.nvlinks = 18;
    p.nvlink_version = 4;
    p.pcie_path = "SYS";
    t.pairs.push_back(p);
  }
  return t;
}

TEST(Topology, NvlinkRatesPerVersion) {
  EXPECT_DOUBLE_EQ(nvlink_gbps_per_link(1), 20.0);
  EXPECT_DOUBLE_EQ(nvlink_gbps_per_link(4), 25.0);
  EXPECT_DOUBLE_EQ(nvlink_gbps_per_link(5), 50.0);
  EXPECT_DOUBLE_EQ(nvlink_gbps_per_link(0), 0.0);
  EXPECT_DOUBLE_EQ(nvlink_gbps_per_link(9), 0.0);
  const Topology t = fake_h200_pair();
  // 18 links x 25 GB/s: the H200's 450 GB/s per direction (900 GB/s both ways).
  EXPECT_DOUBLE_EQ(t.pair(0, 1)->nvlink_gbps_per_direction(), 450.0);
  EXPECT_EQ(t.pair(0, 0), nullptr);
}

TEST(Topology, LinkLabelsAsNvidiaSmiTopo) {
  PairTopology p;
  EXPECT_EQ(p.link_label(), "?");
  p.pcie_path = pcie_path_name(30);
  EXPECT_EQ(p.link_label(), "PHB");
  p.nvlinks = 4;
  EXPECT_EQ(p.link_label(), "NV4");
  EXPECT_EQ(pcie_path_name(10), "PIX");
  EXPECT_EQ(pcie_path_name(50), "SYS");
  EXPECT_EQ(pcie_path_name(7), "");
}

TEST(Topology, CpuRanges) {
  EXPECT_EQ(format_cpu_ranges({}), "");
  EXPECT_EQ(format_cpu_ranges({0x1ULL}), "0");
  EXPECT_EQ(format_cpu_ranges({0xFFULL}), "0-7");
  EXPECT_EQ(format_cpu_ranges({0x5ULL}), "0,2");
  // CPUs 60-67 cross a word boundary; 127 is the last bit of the second word.
  EXPECT_EQ(format_cpu_ranges({0xF000000000000000ULL, 0x800000000000000FULL}), "60-67,127");
}

TEST(Topology, TableShowsTheMatrixAndTheLinkRate) {
  const std::string text = render_topology(fake_h200_pair());
  EXPECT_NE(text.find("GPUs: 2"), std::string::npos) << text;
  EXPECT_NE(text.find("NV18 pa"), std::string::npos) << text;
  EXPECT_NE(text.find("PCIe gen5 x16"), std::string::npos) << text;
  EXPECT_NE(text.find("NUMA 1; CPUs 48-95"), std::string::npos) << text;
  EXPECT_NE(text.find("GPU0 -> GPU1: 18 NVLinks version 4: 450 GB/s per direction"),
            std::string::npos)
      << text;
  Topology one;
  one.gpus.push_back(fake_h200_pair().gpus[0]);
  one.gpus[0].pcie_gen = 4;  // trained down below its maximum
  EXPECT_NE(render_topology(one).find("pairs: none (one GPU)"), std::string::npos);
  EXPECT_NE(render_topology(one).find("PCIe gen4 x16 (max gen5 x16)"), std::string::npos);
}

TEST(Topology, PcieOnlyPairWithoutPeerAccess) {
  Topology t = fake_h200_pair();
  for (PairTopology& p : t.pairs) {
    p.nvlinks = 0;
    p.peer_access = false;
    p.peer_atomics = false;
  }
  const std::string text = render_topology(t);
  EXPECT_NE(text.find("SYS --"), std::string::npos) << text;
  EXPECT_EQ(text.find("NVLinks version"), std::string::npos) << text;
}

TEST(Topology, JsonRoundTrip) {
  const Topology t = fake_h200_pair();
  const std::string json = topology_json(t);
  EXPECT_NE(json.find("\"nvlink_gbps_per_direction\": 450.0"), std::string::npos) << json;
  EXPECT_NE(json.find("\"link\": \"NV18\""), std::string::npos) << json;
  const Topology back = parse_topology_json(json);
  ASSERT_EQ(back.gpus.size(), 2u);
  ASSERT_EQ(back.pairs.size(), 2u);
  EXPECT_EQ(back.gpus[1].uuid, t.gpus[1].uuid);
  EXPECT_EQ(back.gpus[1].cpu_affinity, "48-95");
  EXPECT_EQ(back.gpus[0].pcie_width, 16);
  EXPECT_EQ(back.pairs[1].from, 1);
  EXPECT_EQ(back.pairs[1].nvlinks, 18);
  EXPECT_TRUE(back.pairs[0].peer_atomics);
  EXPECT_EQ(topology_json(back), json);
}

TEST(Topology, MalformedJsonNamesTheKey) {
  try {
    parse_topology_json(R"({"nvml": true, "note": "", "gpus": [{"ordinal": 0}], "pairs": []})");
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("'name'"), std::string::npos) << e.what();
  }
  EXPECT_THROW(parse_topology_json("{"), std::runtime_error);
  EXPECT_THROW(parse_topology_json(R"({"nvml": 1, "note": "", "gpus": [], "pairs": []})"),
               std::runtime_error);
}

}  // namespace
}  // namespace memlab
