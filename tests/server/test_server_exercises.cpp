// The exercise routes over the exercise engine: catalogue, one exercise, the check (token,
// 64 KiB, compile errors with the learner's line, no CUDA device here).
#include <chrono>
#include <fstream>
#include <thread>

#include "memlab/exercise/engine.hpp"
#include "server_fixture.hpp"

namespace memlab::server::testing {
namespace {

TEST_F(ServerTest, ExerciseCatalogueAndOneExercise) {
  const auto list = body(client().Get("/api/exercises"));
  ASSERT_TRUE(list.is_array()) << list.dump();
  EXPECT_EQ(list.size(), memlab::exercise::catalogue().size());
  EXPECT_GE(list.size(), 16u);
  const auto e = body(client().Get("/api/exercises/smem_reverse_static"));
  EXPECT_EQ(e["name"], "smem_reverse_static");
  EXPECT_EQ(e["lesson"], "smem_reverse");
  for (const char* lang : {"de", "en", "zh"}) {
    EXPECT_FALSE(e["statement"][lang].get<std::string>().empty()) << lang;
    EXPECT_FALSE(e["title"][lang].get<std::string>().empty()) << lang;
    EXPECT_FALSE(e["target"]["text"][lang].get<std::string>().empty()) << lang;
    EXPECT_EQ(e["hints"][lang].size(), e["hints"]["en"].size()) << lang;
    for (const auto& q : e["quiz"]) EXPECT_FALSE(q["question"][lang].get<std::string>().empty());
  }
  EXPECT_NE(e["statement"]["zh"].get<std::string>().find("共享内存"), std::string::npos);
  for (const auto& x : list) {
    EXPECT_FALSE(x["title"]["zh"].get<std::string>().empty()) << x.dump();
    EXPECT_FALSE(x["target"]["zh"].get<std::string>().empty()) << x.dump();
  }
  EXPECT_NE(e["starter"].get<std::string>().find("reverse_static"), std::string::npos);
  EXPECT_FALSE(e.contains("solution"));
  auto r = client().Get("/api/exercises/nope");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 404);
  EXPECT_EQ(body(r)["parameter"], "exercise");
}

// Issue 21, hole 1, through the server: a source that names host files in #include gets a
// compile error on its line, and no byte of the files (/etc/passwd's "root:", /etc/hostname).
TEST_F(ServerTest, ACheckReturnsNoByteOfAHostFile) {
  std::string hostname;
  std::getline(std::ifstream("/etc/hostname"), hostname);
  const std::string source = "#include \"/etc/passwd\"\n#define P \"/etc/hostname\"\n#include P\n" +
                             memlab::exercise::get("smem_reverse_static").solution;
  auto r = client().Post("/api/exercises/smem_reverse_static/check", with_token(),
                         nlohmann::json{{"source", source}}.dump(), "application/json");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 400) << r->body;
  EXPECT_EQ(r->body.find("root:"), std::string::npos) << r->body;
  if (hostname.size() >= 4) {
    // The name may be quoted only as the path's own text; the file's content never.
    EXPECT_EQ(r->body.find(hostname), std::string::npos) << r->body;
  }
  const auto j = body(r);
  ASSERT_FALSE(j["compile"]["diagnostics"].empty()) << j.dump();
  EXPECT_EQ(j["compile"]["diagnostics"][0]["line"], 1) << j.dump();
  EXPECT_NE(j["error"].get<std::string>().find("not available here"), std::string::npos)
      << j.dump();
}

TEST_F(ServerTest, ExerciseCheckNamesTheLearnersLineOrSaysNoDevice) {
  auto r = client().Post("/api/exercises/smem_reverse_static/check", with_token(),
                         R"({"source":"// 1\n// 2\nthis is not C++;\n"})", "application/json");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 400) << r->body;
  auto j = body(r);
  EXPECT_EQ(j["parameter"], "source");
  EXPECT_EQ(j["status"], "compile_error");
  ASSERT_FALSE(j["compile"]["diagnostics"].empty()) << j.dump();
  EXPECT_EQ(j["compile"]["diagnostics"][0]["line"], 3) << j.dump();
  EXPECT_NE(j["error"].get<std::string>().find("(3)"), std::string::npos) << j.dump();

  r = client().Post("/api/exercises/nope/check", with_token(), R"({"source":"x"})",
                    "application/json");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 404);

  const auto info = body(client().Get("/api/info"));
  if (!info["device"].is_null()) GTEST_SKIP() << "a CUDA device is present";
  // The GPU part is a job in the one queue (issue 21 #3): 202, then the job's result.
  const auto e = body(client().Get("/api/exercises/smem_reverse_static"));
  r = client().Post("/api/exercises/smem_reverse_static/check", with_token(),
                    nlohmann::json{{"source", e["starter"]}}.dump(), "application/json");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 202) << r->body;
  j = body(r);
  ASSERT_TRUE(j["job"].is_string()) << j.dump();
  EXPECT_TRUE(j["position"].is_number()) << j.dump();
  EXPECT_TRUE(j["superseded"].is_array()) << j.dump();
  nlohmann::json job;
  for (int i = 0; i < 600; ++i) {
    job = body(client().Get("/api/jobs/" + j["job"].get<std::string>(), with_token()));
    if (job["state"] == "done" || job["state"] == "failed") break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  ASSERT_EQ(job["state"], "done") << job.dump();
  EXPECT_EQ(job["kind"], "check");
  EXPECT_EQ(job["owner"], "owner");
  const auto& result = job["result"];
  EXPECT_EQ(result["status"], "no_device") << result.dump();
  EXPECT_EQ(result["http_status"], 503) << result.dump();
  EXPECT_TRUE(result["attempt_id"].is_null());  // the single-user lab keeps no attempts
  EXPECT_NE(result["message"].get<std::string>().find("no CUDA device"), std::string::npos);
  EXPECT_TRUE(result["compile"]["ok"].get<bool>()) << result.dump();
  EXPECT_EQ(result["limits"]["core_bytes"], 0) << result.dump();
  // The job is the owner's: without the token it is not shown.
  r = client().Get("/api/jobs/" + j["job"].get<std::string>());
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 401);
}

}  // namespace
}  // namespace memlab::server::testing
