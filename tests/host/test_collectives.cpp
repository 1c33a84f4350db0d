// The collectives lesson's host parts: nccl-tests' bandwidth conventions, the counts per call,
// the NCCL search list, and (where a libnccl.so.2 exists on this machine) the loader itself with
// NVLS forced off.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "collectives/conventions.hpp"
#include "collectives/nccl.hpp"

namespace memlab::lessons::collectives {
namespace {

TEST(Collectives, BusFactorsAreNcclTests) {
  EXPECT_DOUBLE_EQ(bus_factor(Collective::AllReduce, 2), 1.0);
  EXPECT_DOUBLE_EQ(bus_factor(Collective::AllReduce, 8), 2.0 * 7.0 / 8.0);
  EXPECT_DOUBLE_EQ(bus_factor(Collective::AllGather, 2), 0.5);
  EXPECT_DOUBLE_EQ(bus_factor(Collective::ReduceScatter, 4), 0.75);
  EXPECT_DOUBLE_EQ(bus_factor(Collective::Broadcast, 8), 1.0);
  EXPECT_DOUBLE_EQ(bus_factor(Collective::SendRecv, 8), 1.0);
  EXPECT_DOUBLE_EQ(bus_factor(Collective::AllReduce, 1), 0.0);  // nothing crosses a link
  EXPECT_DOUBLE_EQ(bus_factor(Collective::AllReduce, 0), 0.0);
}

TEST(Collectives, AlgbwAndBusbw) {
  // 1 GB in 2.5 ms: 400 GB/s algbw; all_reduce over 8 ranks: x 1.75 = 700 GB/s busbw.
  EXPECT_DOUBLE_EQ(algbw_gbps(1e9, 2.5), 400.0);
  EXPECT_DOUBLE_EQ(busbw_gbps(Collective::AllReduce, 8, 1e9, 2.5), 700.0);
  EXPECT_DOUBLE_EQ(busbw_gbps(Collective::AllGather, 2, 1e9, 2.5), 200.0);
  EXPECT_DOUBLE_EQ(algbw_gbps(1e9, 0.0), 0.0);
  // The prediction: 2 GPUs, NV18 at 450 GB/s: an all_reduce of 1 GiB needs 1 GiB per link.
  EXPECT_NEAR(link_time_ms(Collective::AllReduce, 2, 1073741824.0, 450.0), 2.386, 1e-3);
  EXPECT_DOUBLE_EQ(link_time_ms(Collective::Broadcast, 2, 1e9, 0.0), 0.0);
}

TEST(Collectives, CountsPerCall) {
  // 4100 bytes over 2 ranks: 1025 floats rounded down to 1024; chunks of 512.
  EXPECT_EQ(call_count(Collective::AllReduce, 4100, 2), 1024u);
  EXPECT_EQ(call_count(Collective::AllGather, 4100, 2), 512u);
  EXPECT_EQ(call_count(Collective::ReduceScatter, 4100, 2), 512u);
  EXPECT_EQ(call_count(Collective::SendRecv, 1000004, 3), 249999u);
  EXPECT_EQ(call_count(Collective::Broadcast, 7, 2), 0u);
}

TEST(Collectives, NcclSearchList) {
  EXPECT_EQ(nccl_candidates("/opt/x/libnccl.so.2", {"/a"}),
            (std::vector<std::string>{"/opt/x/libnccl.so.2"}));
  EXPECT_EQ(
      nccl_candidates("", {"/a/site-packages", "/b/dist-packages"}),
      (std::vector<std::string>{"libnccl.so.2", "/a/site-packages/nvidia/nccl/lib/libnccl.so.2",
                                "/b/dist-packages/nvidia/nccl/lib/libnccl.so.2"}));
  namespace fs = std::filesystem;
  const fs::path venv = fs::path(::testing::TempDir()) / "memlab_venv";
  fs::create_directories(venv / "lib/python3.99/site-packages");
  fs::create_directories(venv / "bin");
  const std::string old = std::getenv("PYTHONPATH") ? std::getenv("PYTHONPATH") : "";
  setenv("PYTHONPATH", (venv / "lib/python3.99/site-packages").c_str(), 1);
  const auto dirs = python_package_dirs();
  EXPECT_EQ(dirs.front(), (venv / "lib/python3.99/site-packages").string());
  old.empty() ? unsetenv("PYTHONPATH") : setenv("PYTHONPATH", old.c_str(), 1);
}

TEST(Collectives, LoaderSetsNvlsOffAndLoadsNccl) {
  const char* candidates[] = {"/usr/local/cuda/lib/libnccl.so.2",
                              "/usr/local/cuda/lib64/libnccl.so.2"};
  std::string found;
  for (const char* c : candidates)
    if (std::filesystem::exists(c)) found = c;
  if (found.empty()) GTEST_SKIP() << "no libnccl.so.2 in the CUDA toolkit of this machine";
  setenv("NCCL_NVLS_ENABLE", "1", 1);  // memlab overwrites it before NCCL starts
  setenv("MEMLAB_NCCL_LIBRARY", found.c_str(), 1);
  const NcclApi& api = nccl();
  ASSERT_TRUE(api.ok()) << api.failure;
  EXPECT_EQ(api.path, found);
  EXPECT_GE(api.version, 20000) << "NCCL 2.x reports e.g. 22703";
  ASSERT_NE(std::getenv("NCCL_NVLS_ENABLE"), nullptr);
  EXPECT_STREQ(std::getenv("NCCL_NVLS_ENABLE"), "0");
  unsetenv("MEMLAB_NCCL_LIBRARY");
}

}  // namespace
}  // namespace memlab::lessons::collectives
