// `memlab run --devices` bad values, `memlab info --json` without a GPU, and the MPI gather run
// for real under `mpirun -np 2 --oversubscribe` (host-only: without a GPU every rank reports
// "no CUDA device" and rank 0 still gathers both into one JSON).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli_runner.hpp"

namespace memlab {
namespace {

using testing_cli::expect_usage_error;
using testing_cli::memlab;

TEST(MultiGpuCli, BadDevicesNameTheOption) {
  expect_usage_error("run bandwidth --devices ''", "--devices: '' names no GPU");
  expect_usage_error("run bandwidth --devices 0,0", "--devices: GPU 0 is listed twice");
  expect_usage_error("run bandwidth --devices x", "--devices: 'x' is not a GPU ordinal");
  expect_usage_error("run bandwidth --devices 0 -d 0", "--devices: -d/--device names one GPU");
  expect_usage_error("run bandwidth --devices all --csv x.csv", "--devices: writes the merged");
}

TEST(MultiGpuCli, DevicesWithoutAGpuShowThePlan) {
  // No GPU here: the syntax is fine, so the answer is exit 3 (no CUDA device) and the plan.
  const testing_cli::Result r = memlab("run bandwidth --quick --devices all");
  if (r.code == 0) GTEST_SKIP() << "a GPU is present";
  EXPECT_EQ(r.code, 3) << r.out;
  EXPECT_NE(r.out.find("no CUDA device"), std::string::npos) << r.out;
}

TEST(MultiGpuCli, InfoJsonWithoutAGpu) {
  const testing_cli::Result r = memlab("info --json");
  if (r.code == 0) GTEST_SKIP() << "a GPU is present";
  EXPECT_EQ(r.code, 3) << r.out;
  const std::size_t brace = r.out.find('{');
  ASSERT_NE(brace, std::string::npos) << r.out;
  const std::size_t end = r.out.rfind('}');
  const auto j = nlohmann::json::parse(r.out.substr(brace, end - brace + 1));
  EXPECT_TRUE(j["device"].is_null());
  EXPECT_NE(j["reason"].get<std::string>().find("no CUDA device"), std::string::npos);
}

TEST(MultiGpuCli, P2pPlanSkipsEveryPairOnOneOrNoGpu) {
  const testing_cli::Result r = memlab("run p2p --quick");
  if (r.code == 0) GTEST_SKIP() << "a GPU is present";
  EXPECT_EQ(r.code, 3) << r.out;
  EXPECT_EQ(r.out.find("planned"), std::string::npos);
  EXPECT_NE(r.out.find("needs two or more GPUs: src, dst two different ones"), std::string::npos)
      << r.out;
}

TEST(MultiGpuCli, MpirunTwoRanksGatherIntoOneJson) {
#ifndef MEMLAB_MPIRUN
  GTEST_SKIP() << "memlab was built without MPI (MEMLAB_MPI=OFF or no MPI found)";
#else
  const std::string out = ::testing::TempDir() + "memlab_mpi_gather.json";
  std::remove(out.c_str());
  // OpenMPI refuses to start as root unless told; CI runs as root, developers do not.
  const std::string root = geteuid() == 0 ? " --allow-run-as-root" : "";
  const std::string cmd = std::string(MEMLAB_MPIRUN) + " -np 2 --oversubscribe" + root +
                          " --mca btl self,vader " + MEMLAB_BINARY +
                          " run bandwidth --quick --seed 7 --json " + out + " 2>&1";
  FILE* pipe = popen(cmd.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string text;
  char buf[4096];
  while (fgets(buf, sizeof buf, pipe) != nullptr) text += buf;
  const int status = pclose(pipe);
  ASSERT_TRUE(WIFEXITED(status)) << text;
  std::ifstream in(out);
  std::stringstream s;
  s << in.rdbuf();
  ASSERT_FALSE(s.str().empty()) << "no merged JSON; mpirun said:\n" << text;
  const auto j = nlohmann::json::parse(s.str());
  ASSERT_EQ(j["fleet"]["mode"], "mpi");
  const auto& workers = j["fleet"]["workers"];
  ASSERT_EQ(workers.size(), 2u) << s.str();
  EXPECT_EQ(workers[0]["rank"], 0);
  EXPECT_EQ(workers[1]["rank"], 1);
  EXPECT_FALSE(workers[1]["host"].get<std::string>().empty());
  if (WEXITSTATUS(status) == 0) GTEST_SKIP() << "a GPU is present: see the GPU script";
  // No GPU: each rank's error travels to rank 0 instead of leaving it waiting.
  EXPECT_EQ(workers[1]["exit_code"], 3) << s.str();
  EXPECT_NE(workers[1]["error"].get<std::string>().find("no CUDA device"), std::string::npos);
  EXPECT_NE(text.find("fleet: 2 workers (mpi)"), std::string::npos) << text;
#endif
}

}  // namespace
}  // namespace memlab
