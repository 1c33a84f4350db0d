// `memlab run --counters` on the GPU: the counters land in the records beside the model, and
// agree with it where the model is exact (coalescing: sectors per request; bank model:
// wavefronts per access). Where the driver refuses counters (CUPTI_ERROR_INSUFFICIENT_PRIVILEGES
// and the like) the run still exits 0 and the test is Skipped with memlab's reason, never passed.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "gpu_test.hpp"

namespace {

struct RunResult {
  int code = -1;
  std::string out;
  nlohmann::json json;
};

// The memlab binary: MEMLAB_BIN where the build path differs (the device machine's staged copy).
std::string memlab_binary() {
  const char* env = std::getenv("MEMLAB_BIN");
  return env != nullptr && *env != 0 ? env : MEMLAB_BINARY;
}

RunResult run(const std::string& args, const std::string& name) {
  const std::filesystem::path file = std::filesystem::temp_directory_path() / name;
  std::filesystem::remove(file);
  const std::string cmd =
      memlab_binary() + " run " + args + " --tables --json " + file.string() + " 2>&1";
  RunResult r;
  FILE* pipe = popen(cmd.c_str(), "r");
  if (pipe == nullptr) return r;
  std::array<char, 4096> buf{};
  while (fgets(buf.data(), static_cast<int>(buf.size()), pipe) != nullptr) r.out += buf.data();
  const int status = pclose(pipe);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream in(file);
  if (in) r.json = nlohmann::json::parse(in, nullptr, false);
  return r;
}

TEST(Counters, CoalescingSectorsAndBankWavefrontsMatchTheModels) {
  if (!memlab::gpu_test::have_device()) GTEST_SKIP() << "skipped: no CUDA device";
  // Issue 19 #7: 16 MiB in is a 32 MiB working set (the copy) inside the 60 MiB L2: judged in the
  // L2 view (sectors per request; DRAM bytes shown, not compared); 256 MiB in is beyond it: DRAM
  // bytes against the model. Each record states its view.
  const RunResult r =
      run("coalescing -a elem=4 -a stride=1,4,32 -a bytes=16Mi,256Mi --quick --seed 1 --counters",
          "memlab_gpu_counters_coal.json");
  ASSERT_EQ(r.code, 0) << r.out;
  ASSERT_TRUE(r.json.is_object()) << r.out;
  const std::string status = r.json["context"].value("counters", "");
  if (status != "collected") GTEST_SKIP() << "counters " << status;
  const double l2 = r.json["context"]["device"]["l2_bytes"].get<double>();
  int checked = 0, dram_view = 0, l2_view = 0;
  for (const nlohmann::json& rec : r.json["records"]) {
    if (rec["status"] != "timed") continue;
    ASSERT_TRUE(rec.contains("counters")) << rec.dump();
    const nlohmann::json& c = rec["counters"];
    const double model = c["predicted"]["sectors_per_request"].get<double>();
    EXPECT_NEAR(c["sectors_per_load_request"].get<double>(), model, 0.05 * model) << rec.dump();
    const bool fits = rec["working_set_bytes"].get<double>() <= l2;
    EXPECT_EQ(c.value("view", ""), fits ? "l2" : "dram") << rec.dump();
    EXPECT_FALSE(c.value("view_reason", "").empty()) << rec.dump();
    if (fits) {
      // The L2 serves what it holds: DRAM bytes may only fall short of the model, never exceed it.
      EXPECT_FALSE(c.contains("dram_over_predicted")) << rec.dump();
      EXPECT_LE(c["dram_bytes"].get<double>(), 1.15 * c["predicted"]["dram_bytes"].get<double>())
          << rec.dump();
      ++l2_view;
    } else {
      EXPECT_NEAR(c["dram_over_predicted"].get<double>(), 1.0, 0.15) << rec.dump();
      ++dram_view;
    }
    ++checked;
  }
  EXPECT_EQ(checked, 12);  // two variants x three strides x two sizes
  EXPECT_GE(l2_view, 1);
  EXPECT_GE(dram_view, 6);
  EXPECT_NE(r.out.find("counters: DRAM"), std::string::npos) << r.out;

  const RunResult b =
      run("bank_conflicts -v col_32x32,col_32x33 -a op=read -a word=4 --quick --seed 1 "
          "--counters",
          "memlab_gpu_counters_banks.json");
  ASSERT_EQ(b.code, 0) << b.out;
  for (const nlohmann::json& rec : b.json["records"]) {
    if (rec["status"] != "timed") continue;
    const nlohmann::json& c = rec["counters"];
    const double model = c["predicted"]["wavefronts_per_request"].get<double>();
    // The timed loop dominates; the fill and the result store add conflict-free accesses.
    EXPECT_NEAR(c["wavefronts_per_shared_access"].get<double>(), model, 0.1 * model + 0.1)
        << rec.dump();
  }
}

TEST(Counters, UnavailableLibraryKeepsTheRunGoing) {
  if (!memlab::gpu_test::have_device()) GTEST_SKIP() << "skipped: no CUDA device";
  setenv("MEMLAB_CUPTI_LIBRARY", "/nonexistent/libcupti.so", 1);
  const RunResult u = run("bandwidth -a n=2^20 -a op=copy --quick --seed 1 --counters",
                          "memlab_gpu_counters_none.json");
  unsetenv("MEMLAB_CUPTI_LIBRARY");
  EXPECT_EQ(u.code, 0) << u.out;
  EXPECT_NE(u.out.find("memlab: --counters: unavailable (MEMLAB_CUPTI_LIBRARY="), std::string::npos)
      << u.out;
  ASSERT_TRUE(u.json.is_object());
  for (const nlohmann::json& rec : u.json["records"]) EXPECT_FALSE(rec.contains("counters"));
}

}  // namespace
