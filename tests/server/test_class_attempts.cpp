// Attempts on the server (issue 22 #3, #5): a learner's check is written before its result is
// visible, a learner sees only their own jobs and attempts, the teacher sees everyone's in the
// overview and the exports.
#include "class_fixture.hpp"
#include "class_overview.hpp"

namespace memlab::server::testing {
namespace {

using nlohmann::json;

TEST_F(ClassTest, AttemptsAreTheLearnersOwnAndTheTeachersView) {
  const auto starter = [] {
    return json::parse(client().Get("/api/exercises/smem_reverse_static")->body)["starter"]
        .get<std::string>();
  };
  // Ada: a check that compiles (the GPU part queued) and one that does not (answered at once).
  auto r = client().Post("/api/exercises/smem_reverse_static/check", as(ada()),
                         json{{"source", starter()}}.dump(), "application/json");
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, 202) << r->body;
  const std::string job = body(r)["job"];
  r = client().Post("/api/exercises/smem_reverse_static/check", as(ada()),
                    R"({"source":"=HYPERLINK(\"x\") not C++"})", "application/json");
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, 400) << r->body;
  const json compile_error = body(r);
  EXPECT_EQ(compile_error["status"], "compile_error");
  ASSERT_TRUE(compile_error["attempt_id"].is_number()) << compile_error.dump();

  // Grace does not see Ada's job; Ada and the teacher do, with the attempt written.
  r = client().Get("/api/jobs/" + job, as(grace()));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 404);
  r = client().Post("/api/jobs/" + job + "/cancel", as(grace()), "", "application/json");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 404);
  const json done = wait_job(job, ada());
  ASSERT_EQ(done["state"], "done") << done.dump();
  const json& result = done["result"];
  ASSERT_TRUE(result["attempt_id"].is_number()) << result.dump();
  const auto attempt_id = result["attempt_id"].get<long long>();
  EXPECT_EQ(wait_job(job, teacher())["result"]["attempt_id"], attempt_id);

  // The attempt as stored: what the job answered, with source, build and limits.
  const json mine = body(client().Get("/api/attempts/" + std::to_string(attempt_id), as(ada())));
  EXPECT_EQ(mine["status"], result["status"]);
  EXPECT_EQ(mine["learner"], "Ada");
  EXPECT_EQ(mine["source"], starter());
  EXPECT_EQ(mine["result"]["status"], result["status"]);
  EXPECT_NE(mine["build"].get<std::string>().find("memlab "), std::string::npos);
  EXPECT_EQ(mine["limits"]["core_bytes"], 0) << mine.dump();
  r = client().Get("/api/attempts/" + std::to_string(attempt_id), as(grace()));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 404);

  const json ada_list = body(client().Get("/api/attempts", as(ada())));
  ASSERT_EQ(ada_list.size(), 2u) << ada_list.dump();
  EXPECT_EQ(body(client().Get("/api/attempts", as(grace()))).size(), 0u);
  const std::string ada_id = std::to_string(created_->learners[0].learner_id);
  r = client().Get("/api/attempts?learner=" + ada_id, as(grace()));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 403);
  EXPECT_EQ(body(r)["parameter"], "learner");
  r = client().Get("/api/attempts?bogus=1", as(ada()));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 400);
  EXPECT_EQ(body(r)["parameter"], "bogus");
  EXPECT_EQ(body(client().Get("/api/attempts?learner=" + ada_id, as(teacher()))).size(), 2u);
  EXPECT_EQ(body(client().Get("/api/attempts?exercise=nope", as(teacher()))).size(), 0u);

  // The teacher's overview: Ada's two attempts, the commonest failure with an example.
  const json ov = body(client().Get("/api/class/overview", as(teacher())));
  const json* ex = nullptr;
  for (const json& e : ov["exercises"])
    if (e["exercise"] == "smem_reverse_static") ex = &e;
  ASSERT_NE(ex, nullptr) << ov.dump();
  EXPECT_EQ((*ex)["lesson"], "smem_reverse");
  ASSERT_EQ((*ex)["learners"].size(), 1u);
  EXPECT_EQ((*ex)["learners"][0]["name"], "Ada");
  EXPECT_EQ((*ex)["learners"][0]["attempts"], 2);
  EXPECT_EQ((*ex)["failures"]["compile_error"], 1);
  ASSERT_TRUE((*ex)["most_common"].is_object());
  EXPECT_EQ((*ex)["most_common"]["example"]["learner"], "Ada");
  bool ada_listed = false;
  for (const json& l : ov["learners"]) {
    if (l["name"] != "Ada") continue;
    ada_listed = true;
    EXPECT_EQ(l["attempts"], 2);
    EXPECT_FALSE(l["lessons"].empty());
  }
  EXPECT_TRUE(ada_listed);

  // Exports: every attempt once; a formula-looking field is defused in the CSV.
  const json rows = body(client().Get("/api/class/export.json", as(teacher())));
  EXPECT_EQ(rows.size(), 2u);
  r = client().Get("/api/class/export.csv", as(teacher()));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->get_header_value("Content-Type"), "text/csv; charset=utf-8");
  EXPECT_EQ(r->body.rfind("id,learner,learner_id,exercise,status", 0), 0u) << r->body;
  EXPECT_NE(r->body.find("\"'=HYPERLINK(\"\"x\"\") not C++\""), std::string::npos) << r->body;
}

TEST(ClassOverview, BestTimeFirstPassAndTheCommonestFailure) {
  const json attempts = {{{"id", 1},
                          {"learner", "Ada"},
                          {"exercise", "smem_reverse_static"},
                          {"status", "wrong_result"},
                          {"message", "point n=1000: 3 wrong"},
                          {"created_at", "2026-12-01T10:00:00Z"},
                          {"median_ms", nullptr},
                          {"achieved", nullptr},
                          {"target", nullptr}},
                         {{"id", 2},
                          {"learner", "Ada"},
                          {"exercise", "smem_reverse_static"},
                          {"status", "passed"},
                          {"message", "ok"},
                          {"created_at", "2026-12-01T10:05:00Z"},
                          {"median_ms", 0.5},
                          {"achieved", 90.0},
                          {"target", 80.0}},
                         {{"id", 3},
                          {"learner", "Ada"},
                          {"exercise", "smem_reverse_static"},
                          {"status", "passed"},
                          {"message", "ok"},
                          {"created_at", "2026-12-01T10:09:00Z"},
                          {"median_ms", 0.4},
                          {"achieved", 95.0},
                          {"target", 80.0}},
                         {{"id", 4},
                          {"learner", "Grace"},
                          {"exercise", "smem_reverse_static"},
                          {"status", "wrong_result"},
                          {"message", "point n=1: 1 wrong"},
                          {"created_at", "2026-12-01T10:10:00Z"},
                          {"median_ms", nullptr},
                          {"achieved", nullptr},
                          {"target", nullptr}},
                         {{"id", 5},
                          {"learner", "Grace"},
                          {"exercise", "smem_reverse_static"},
                          {"status", "timeout"},
                          {"message", "endless"},
                          {"created_at", "2026-12-01T10:11:00Z"},
                          {"median_ms", nullptr},
                          {"achieved", nullptr},
                          {"target", nullptr}}};
  const json learners = {{{"name", "Ada"}, {"learner_id", 1}},
                         {{"name", "Grace"}, {"learner_id", 2}}};
  EXPECT_EQ(best_attempt_ids(attempts), std::vector<long long>{3});
  const json variants = {{"3", {{{"variant", "naive"}, {"median_ms", 0.9}}}}};
  const json ov = class_overview(attempts, learners, variants);
  const json* ex = nullptr;
  for (const json& e : ov["exercises"])
    if (e["exercise"] == "smem_reverse_static") ex = &e;
  ASSERT_NE(ex, nullptr);
  const json& ada = (*ex)["learners"][0];
  EXPECT_EQ(ada["name"], "Ada");
  EXPECT_TRUE(ada["passed"].get<bool>());
  EXPECT_EQ(ada["first_passed_at"], "2026-12-01T10:05:00Z");
  EXPECT_EQ(ada["attempts"], 3);
  EXPECT_EQ(ada["best"]["median_ms"], 0.4);
  EXPECT_EQ(ada["best"]["achieved"], 95.0);
  EXPECT_EQ(ada["best"]["variants"][0]["variant"], "naive");
  const json& grace = (*ex)["learners"][1];
  EXPECT_FALSE(grace["passed"].get<bool>());
  EXPECT_TRUE(grace["best"].is_null());
  EXPECT_EQ((*ex)["failures"]["wrong_result"], 2);
  EXPECT_EQ((*ex)["most_common"]["status"], "wrong_result");
  EXPECT_EQ((*ex)["most_common"]["example"]["attempt_id"], 4);  // the latest of that kind
  EXPECT_EQ(ov["learners"][0]["passed"], json::array({"smem_reverse_static"}));
  bool counted = false;
  for (const json& l : ov["learners"][0]["lessons"]) {
    if (l["lesson"] != "smem_reverse") continue;
    counted = true;
    EXPECT_EQ(l["passed"], 1);
    EXPECT_GE(l["total"].get<int>(), 1);
  }
  EXPECT_TRUE(counted);
}

}  // namespace
}  // namespace memlab::server::testing
