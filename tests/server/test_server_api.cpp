// The routes of contract 2 answer what the CLI and the files say.
#include <fstream>
#include <sstream>

#include "cli_runner.hpp"
#include "server_fixture.hpp"

namespace memlab::server::testing {
namespace {

std::string read(const std::string& path) {
  std::ifstream f(path);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

TEST_F(ServerTest, InfoSaysDeviceOrWhyNot) {
  const auto j = body(client().Get("/api/info"));
  ASSERT_TRUE(j.contains("device"));
  if (j["device"].is_null()) {
    EXPECT_EQ(j["reason"].get<std::string>().rfind("no CUDA device", 0), 0u) << j.dump();
  } else {
    EXPECT_GT(j["device"]["sm_count"].get<int>(), 0);
  }
}

TEST_F(ServerTest, ListHasTheLessonsWithVariantsAndAxes) {
  const auto j = body(client().Get("/api/list"));
  const auto& ex = j["experiments"];
  const auto it =
      std::find_if(ex.begin(), ex.end(), [](const auto& e) { return e["name"] == "coalescing"; });
  ASSERT_NE(it, ex.end());
  const auto& axes = (*it)["axes"];
  const auto stride =
      std::find_if(axes.begin(), axes.end(), [](const auto& a) { return a["name"] == "stride"; });
  ASSERT_NE(stride, axes.end());
  EXPECT_EQ((*stride)["min"], 1);
  EXPECT_EQ((*stride)["defaults"][1], "2");
  EXPECT_FALSE((*it)["variants"].empty());
  EXPECT_EQ((*it)["plots"][0]["x"]["field"], "stride");  // the lesson's declared plots
  // Each variant says where it applies (docs/lessons-json.md): bank_conflicts' fixed patterns.
  const auto bank = std::find_if(ex.begin(), ex.end(),
                                 [](const auto& e) { return e["name"] == "bank_conflicts"; });
  ASSERT_NE(bank, ex.end());
  bool broadcast = false;
  for (const auto& v : (*bank)["variants"]) {
    if (v["name"] != "broadcast") continue;
    broadcast = true;
    EXPECT_EQ(v["axes"]["stride"], nlohmann::json::array({"1"}));
  }
  EXPECT_TRUE(broadcast);
}

TEST_F(ServerTest, ModelAnswersWhatTheCliPrints) {
  const auto cli = memlab::testing_cli::memlab(
      "model coalescing --pattern strided --stride 2 --elem-size 4 --json");
  ASSERT_EQ(cli.code, 0) << cli.out;
  const auto expected = nlohmann::json::parse(cli.out);
  const auto got = body(client().Get("/api/model/coalescing?pattern=strided&stride=2&elem_size=4"));
  EXPECT_EQ(got, expected);
  EXPECT_EQ(got["result"]["sectors"], 8);
  EXPECT_DOUBLE_EQ(got["result"]["efficiency"].get<double>(), 0.5);
  // POST with a JSON body: the same.
  auto r = client().Post("/api/model/coalescing",
                         R"({"pattern":"strided","stride":2,"elem-size":4})", "application/json");
  ASSERT_TRUE(r);
  EXPECT_EQ(body(r), expected);
}

TEST_F(ServerTest, ModelErrorsNameTheParameter) {
  auto r = client().Get("/api/model/coalescing?pattern=strided&stride=0");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 400);
  EXPECT_EQ(body(r)["parameter"], "--stride") << r->body;
  r = client().Get("/api/model/nope");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 404);
  EXPECT_EQ(body(r)["parameter"], "model");
  r = client().Post("/api/model/banks", R"({"no_such_flag":1})", "application/json");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 400);
  EXPECT_EQ(body(r)["parameter"], "--no-such-flag") << r->body;
  r = client().Post("/api/model/banks", R"({"stride":{"a":1}})", "application/json");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 400);
  EXPECT_EQ(body(r)["parameter"], "--stride") << r->body;
}

TEST_F(ServerTest, LessonCarriesItsDocAndKernels) {
  const auto j = body(client().Get("/api/lessons/coalescing"));
  EXPECT_EQ(j["doc"], read(std::string(MEMLAB_SOURCE_DIR) + "/docs/coalescing.md"));
  ASSERT_EQ(j["sources"].size(), 2u);
  EXPECT_EQ(j["sources"][1]["file"], "kernels.cu");
  EXPECT_EQ(j["sources"][1]["text"],
            read(std::string(MEMLAB_SOURCE_DIR) + "/src/experiments/coalescing/kernels.cu"));
  auto r = client().Get("/api/lessons/nope");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 404);
}

TEST_F(ServerTest, ResultsListAndServeTheFolder) {
  const auto list = body(client().Get("/api/results"));
  const auto it = std::find_if(list.begin(), list.end(),
                               [](const auto& e) { return e["id"] == "h200-2026-11-29-full"; });
  ASSERT_NE(it, list.end()) << list.dump();
  const auto file = nlohmann::json::parse(
      read(std::string(MEMLAB_SOURCE_DIR) + "/docs/results/h200-2026-11-29-full.json"));
  EXPECT_EQ((*it)["records"], file["records"].size());
  EXPECT_EQ((*it)["device"], file["context"]["device"]["name"]);
  // A stored run of schema 1 is served with the lessons block of today's catalogue added
  // (declarations, findings from its records); the rest is the file as stored.
  auto served = body(client().Get("/api/results/h200-2026-11-29-full"));
  ASSERT_FALSE(file.contains("lessons"));
  ASSERT_TRUE(served.contains("lessons")) << served.dump().substr(0, 300);
  EXPECT_FALSE(served["lessons"]["bandwidth"]["plots"].empty());
  EXPECT_TRUE(served["lessons"]["bandwidth"]["findings"].is_array());
  served.erase("lessons");
  EXPECT_EQ(served, file);
  auto r = client().Get("/api/results/h200-2026-11-29-full.md");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 404);  // only .json files are results
}

TEST_F(ServerTest, TheBundleIsServedFromTheBinary) {
  auto r = client().Get("/");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->get_header_value("Content-Type"), "text/html; charset=utf-8");
  EXPECT_NE(r->body.find("<html"), std::string::npos);
  EXPECT_EQ(r->get_header_value("X-Content-Type-Options"), "nosniff");
  EXPECT_EQ(r->get_header_value("Referrer-Policy"), "no-referrer");
}

TEST_F(ServerTest, UnknownRunIs404AndCancelNeedsToken) {
  auto r = client().Get("/api/runs/0123456789abcdef");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 401);  // a job's state is its owner's (issue 22: every route's role)
  r = client().Get("/api/runs/0123456789abcdef", with_token());
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 404);
  r = client().Post("/api/runs/0123456789abcdef/cancel", "", "application/json");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 401);
  r = client().Post("/api/runs/0123456789abcdef/cancel", with_token(), "", "application/json");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 404);
}

}  // namespace
}  // namespace memlab::server::testing
