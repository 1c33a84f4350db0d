// The fleet merge and summary of `memlab run --devices` / mpirun on synthetic worker runs.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "memlab/common/error.hpp"
#include "memlab/report/fleet.hpp"

namespace memlab::report {
namespace {

using nlohmann::json;

// A worker's run JSON with two timed records and a skipped one.
std::string worker_json(int ordinal, const std::string& uuid, double copy_ms, double scale_ms) {
  auto rec = [](const std::string& variant, double ms) {
    return json{{"experiment", "bandwidth"},
                {"variant", variant},
                {"params", {{"n", "1024"}, {"op", "copy"}}},
                {"status", "timed"},
                {"gbps", 8.0 / ms},
                {"stats", {{"median_ms", ms}}}};
  };
  json doc = {{"schema_version", 1},
              {"context",
               {{"device", {{"name", "NVIDIA H200"}, {"ordinal", ordinal}, {"uuid", uuid}}},
                {"command_line", "memlab run bandwidth --device " + std::to_string(ordinal)}}},
              {"ceilings", {{"memcpy_d2d", {{"measured", true}, {"gbps", 3000.0 + ordinal}}}}},
              {"records",
               {rec("elem_f1", copy_ms),
                rec("elem_f4", scale_ms),
                {{"experiment", "p2p"},
                 {"variant", "copy_engine"},
                 {"params", {{"src", "0"}, {"dst", "1"}}},
                 {"status", "skipped"},
                 {"reason", "needs two GPUs"}}}}};
  return doc.dump();
}

TEST(Fleet, ParseDevices) {
  EXPECT_EQ(parse_devices("all", 2), (std::vector<int>{0, 1}));
  EXPECT_EQ(parse_devices("2,0", 4), (std::vector<int>{2, 0}));
  EXPECT_EQ(parse_devices("0", 1), (std::vector<int>{0}));
  for (const char* bad : {"", "0,0", "x", "1,", ",1", "-1", "+1", "1.5", "0x1", " 1"}) {
    try {
      parse_devices(bad, 4);
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const UsageError& e) {
      EXPECT_EQ(std::string(e.what()).rfind("--devices: ", 0), 0u) << e.what();
    }
  }
  try {
    parse_devices("7", 1);
    FAIL();
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("GPU 7 does not exist (this machine has 1 GPU)"),
              std::string::npos)
        << e.what();
  }
  // Syntax before range: '0,0' names the duplicate even on a machine without a GPU.
  try {
    parse_devices("0,0", 0);
    FAIL();
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("listed twice"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(parse_devices("all", 0).empty());
  EXPECT_EQ(parse_devices("9", -1), (std::vector<int>{9}));  // syntax only
  try {
    parse_devices("0,x", -1);
    FAIL();
  } catch (const UsageError& e) {
    EXPECT_EQ(std::string(e.what()),
              "--devices: 'x' is not a GPU ordinal; accepted: all, or GPU ordinals separated by "
              "commas");
  }
}

TEST(Fleet, MergeTagsEveryRecordAndNamesTheSlowGpu) {
  const std::string merged = merge_runs({{worker_json(0, "GPU-aaaa", 1.00, 2.00), 0, "", 0, ""},
                                         {worker_json(1, "GPU-bbbb", 1.30, 2.02), 1, "", 0, ""}},
                                        "devices", "memlab run bandwidth --devices all");
  const json j = json::parse(merged);
  ASSERT_EQ(j["records"].size(), 6u);
  EXPECT_EQ(j["records"][3]["device"]["uuid"], "GPU-bbbb");
  EXPECT_EQ(j["records"][3]["device"]["index"], 1);
  EXPECT_EQ(j["records"][5]["status"], "skipped");
  EXPECT_EQ(j["records"][5]["rank"], 1);
  EXPECT_EQ(j["context"]["command_line"], "memlab run bandwidth --devices all");
  EXPECT_EQ(j["context"]["device"]["ordinal"], 0);  // the first worker's context
  EXPECT_DOUBLE_EQ(j["ceilings"]["memcpy_d2d"]["gbps"].get<double>(), 3000.0);
  EXPECT_DOUBLE_EQ(j["fleet"]["workers"][1]["ceilings"]["memcpy_d2d"]["gbps"].get<double>(),
                   3001.0);
  const json& s = j["fleet"]["summary"];
  ASSERT_EQ(s.size(), 2u);  // the skipped record has no summary row
  EXPECT_EQ(s[0]["variant"], "elem_f1");
  EXPECT_EQ(s[0]["point"], "n=1024 op=copy");
  EXPECT_EQ(s[0]["slowest"]["device"], 1);
  EXPECT_EQ(s[0]["slowest"]["uuid"], "GPU-bbbb");
  EXPECT_EQ(s[0]["fastest"]["device"], 0);
  // Two medians 1.0 and 1.3: median 1.15, spread 0.3 / 1.15.
  EXPECT_NEAR(s[0]["spread"].get<double>(), 0.3 / 1.15, 1e-12);
  EXPECT_NEAR(s[1]["spread"].get<double>(), 0.02 / 2.01, 1e-12);

  const std::string table = render_fleet_table(merged);
  EXPECT_NE(table.find("fleet: 2 workers (devices)"), std::string::npos) << table;
  EXPECT_NE(table.find("26.1% <-"), std::string::npos) << table;
  EXPECT_NE(table.find("GPU1 NVIDIA H200"), std::string::npos) << table;
  EXPECT_NE(table.find("1.0%"), std::string::npos) << table;
  EXPECT_EQ(table.find("1.0% <-"), std::string::npos) << table;
}

TEST(Fleet, ThreeWorkersSpreadUsesTheMedianAndMpiHostsAreNamed) {
  const std::string merged = merge_runs({{worker_json(0, "GPU-a", 1.0, 1.0), 0, "nodeA", 0, ""},
                                         {worker_json(1, "GPU-b", 1.1, 1.0), 1, "nodeA", 0, ""},
                                         {worker_json(0, "GPU-c", 2.0, 1.0), 2, "nodeB", 0, ""}},
                                        "mpi", "mpirun -np 3 memlab run");
  const json j = json::parse(merged);
  const json& s = j["fleet"]["summary"][0];
  EXPECT_NEAR(s["spread"].get<double>(), (2.0 - 1.0) / 1.1, 1e-12);
  EXPECT_EQ(s["slowest"]["host"], "nodeB");
  EXPECT_EQ(s["slowest"]["rank"], 2);
  EXPECT_EQ(j["records"][6]["host"], "nodeB");
  EXPECT_NE(render_fleet_table(merged).find("GPU0 NVIDIA H200 on nodeB rank 2"), std::string::npos);
  EXPECT_DOUBLE_EQ(j["fleet"]["summary"][1]["spread"].get<double>(), 0.0);
}

TEST(Fleet, AWorkerWithoutResultIsReportedNotDropped) {
  const std::string merged = merge_runs({{worker_json(0, "GPU-a", 1.0, 1.0), 0, "", 0, ""},
                                         {"", 1, "", 3, "CUDA error: out of memory"}},
                                        "devices", "memlab run --devices 0,1");
  const json j = json::parse(merged);
  EXPECT_EQ(j["records"].size(), 3u);
  EXPECT_TRUE(j["fleet"]["summary"].empty());
  EXPECT_EQ(j["fleet"]["workers"][1]["exit_code"], 3);
  const std::string table = render_fleet_table(merged);
  EXPECT_NE(table.find("worker 1: no result (exit 3): CUDA error: out of memory"),
            std::string::npos)
      << table;
  EXPECT_THROW(merge_runs({{"{not json", 0, "", 0, ""}}, "devices", ""), std::runtime_error);
}

}  // namespace
}  // namespace memlab::report
