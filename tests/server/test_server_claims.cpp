// GET /api/claims: the claims and their plan without a run; the verdicts of a stored run with
// ?run=ID (the same as `memlab claims --from`); hostile ids and parameters answered with 4xx.
#include <fstream>
#include <set>

#include "memlab/claims/claims.hpp"
#include "server_fixture.hpp"

namespace memlab::server::testing {
namespace {

using nlohmann::json;

class ClaimsApiTest : public ServerTest {};

json stored_run(const std::string& name) {
  std::ifstream f(std::string(MEMLAB_SOURCE_DIR) + "/docs/results/" + name);
  return json::parse(f);
}

TEST_F(ClaimsApiTest, WithoutARunListsEveryClaimWithItsPageAndThePlan) {
  const json j = body(client().Get("/api/claims"));
  ASSERT_TRUE(j.contains("claims"));
  ASSERT_EQ(j["claims"].size(), claims::all().size());
  EXPECT_GE(j["claims"].size(), 15u);  // issue 13: at least 15 claims
  const std::set<std::string> pages = {"hierarchy", "coalescing", "banks", "sync",
                                       "alloc",     "streams",    ""};
  std::set<std::string> seen;
  for (const json& c : j["claims"]) {
    EXPECT_FALSE(c.contains("verdict")) << c.dump();  // no run, no verdict
    EXPECT_TRUE(pages.count(c.at("page").get<std::string>())) << c.dump();
    seen.insert(c["page"].get<std::string>());
    EXPECT_TRUE(c.at("source").get<std::string>().find(".txt:") != std::string::npos);
  }
  // Every explainer of seed 001 has at least one claim beside it.
  for (const char* p : {"hierarchy", "coalescing", "banks", "sync", "alloc", "streams"}) {
    EXPECT_TRUE(seen.count(p)) << p;
  }
  const json& first = j["claims"][0];
  EXPECT_EQ(first["id"], "shared_vs_global");
  EXPECT_EQ(first["needs"][0]["experiment"], "hierarchy");
  EXPECT_NE(j.at("plan").get<std::string>().find("memlab run hierarchy"), std::string::npos);
}

TEST_F(ClaimsApiTest, AStoredRunGivesTheVerdictsOfMemlabClaims) {
  const json j = body(client().Get("/api/claims?run=h200-2026-11-30-claims-run"));
  EXPECT_EQ(j.at("run"), "h200-2026-11-30-claims-run");
  const json want = claims::evaluate_json(stored_run("h200-2026-11-30-claims-run.json"));
  EXPECT_EQ(j["claims"], want["claims"]);
  EXPECT_EQ(j["counts"], want["counts"]);
  // The stored run on the H200: stride 2 gives a 2-way conflict, the broadcast is free.
  std::map<std::string, json> by_id;
  for (const json& c : j["claims"]) by_id[c["id"]] = c;
  EXPECT_EQ(by_id.at("stride2_2way")["verdict"], "holds");
  EXPECT_EQ(by_id.at("broadcast_free")["verdict"], "holds");
  EXPECT_EQ(by_id.at("stride2_2way")["page"], "banks");
  const json& counts = j["counts"];
  EXPECT_EQ(counts["holds"].get<int>() + counts["holds_different"].get<int>() +
                counts["does_not_hold"].get<int>() + counts["no_record"].get<int>() +
                counts["not_testable"].get<int>(),
            static_cast<int>(claims::all().size()));
}

TEST_F(ClaimsApiTest, HostileRunIdsAndParametersAre4xx) {
  struct Case {
    std::string query;
    int status;
    std::string parameter;
  };
  const Case cases[] = {
      {"?run=no-such-run", 404, "run"},
      {"?run=", 404, "run"},
      {"?run=..%2F..%2Fetc%2Fpasswd", 404, "run"},
      {"?run=%2Fetc%2Fpasswd", 404, "run"},
      {"?run=h200-2026-11-29-full.json", 404, "run"},  // the id has no .json
      {"?run=h200-2026-11-29-full%00", 404, "run"},
      {"?run=" + std::string(300, 'a'), 404, "run"},
      {"?run=h200-2026-11-30-claims", 422, "run"},     // a claims file, not a run
      {"?run=h200-2026-11-30-exercises", 422, "run"},  // a list, not a run
      {"?bogus=1", 400, "bogus"},
  };
  for (const Case& c : cases) {
    const auto r = client().Get("/api/claims" + c.query);
    ASSERT_TRUE(r) << c.query;
    EXPECT_EQ(r->status, c.status) << c.query << ": " << r->body;
    const json j = json::parse(r->body, nullptr, false);
    ASSERT_TRUE(j.is_object()) << r->body;
    EXPECT_EQ(j.value("parameter", ""), c.parameter) << c.query;
    EXPECT_FALSE(j.value("error", "").empty()) << c.query;
  }
  // Only GET: a POST is not a route.
  const auto post = client().Post("/api/claims", "{}", "application/json");
  ASSERT_TRUE(post);
  EXPECT_GE(post->status, 400);
}

}  // namespace
}  // namespace memlab::server::testing
