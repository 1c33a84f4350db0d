// Every /api route of the one role table, walked with each role (issue 22 #1): none, learner,
// another learner, teacher, a revoked and an expired token; and on a single-user server with the
// owner's token and none. A route's handler is reached exactly when its role allows it.
#include <fstream>
#include <iterator>
#include <regex>

#include "class_fixture.hpp"
#include "roles.hpp"
#include "server_fixture.hpp"

namespace memlab::server::testing {
namespace {

// A concrete path for a route's pattern: each group a value that names nothing (the walk
// must not revoke a learner or cancel a job of the later tests).
std::string sample_path(const std::string& pattern) {
  std::string p = std::regex_replace(pattern, std::regex(R"(\(\[\^/\]\+\))"), "424242");
  p = std::regex_replace(p, std::regex(R"(\(\.\*\))"), "coalescing");
  return std::regex_replace(p, std::regex(R"(\\\.)"), ".");
}

httplib::Result send(httplib::Client& c, const RouteRole& r, const httplib::Headers& h) {
  const std::string path = sample_path(r.pattern);
  if (r.method == "GET") return c.Get(path, h);
  return c.Post(path, h, "{}", "application/json");
}

enum class Who { None, Ada, Grace, Teacher, Revoked, Expired };

TEST_F(ClassTest, EveryRouteWithEveryRole) {
  const std::pair<Who, std::string> people[] = {
      {Who::None, ""},           {Who::Ada, ada()},         {Who::Grace, grace()},
      {Who::Teacher, teacher()}, {Who::Revoked, revoked()}, {Who::Expired, expired()}};
  ASSERT_GE(route_roles().size(), 30u);
  std::size_t checked = 0;
  for (const RouteRole& r : route_roles()) {
    for (const auto& [who, token] : people) {
      auto c = client();
      const auto res = send(c, r, token.empty() ? httplib::Headers{} : as(token));
      ASSERT_TRUE(res) << r.method << " " << r.pattern;
      const int st = res->status;
      const std::string what = r.method + " " + sample_path(r.pattern) + " as " +
                               std::to_string(static_cast<int>(who)) + ": " + res->body;
      const bool valid = who == Who::Ada || who == Who::Grace || who == Who::Teacher;
      if (r.need == Need::Public) {
        EXPECT_NE(st, 401) << what;
        EXPECT_FALSE(st == 403 && body(res).value("parameter", "") == "X-Memlab-Token") << what;
      } else if (!valid) {
        EXPECT_EQ(st, 401) << what;
        EXPECT_EQ(body(res)["parameter"], "X-Memlab-Token") << what;
      } else if (r.need == Need::Staff && who != Who::Teacher) {
        EXPECT_EQ(st, 403) << what;
        EXPECT_EQ(body(res)["parameter"], "X-Memlab-Token") << what;
      } else {
        EXPECT_NE(st, 401) << what;
        EXPECT_NE(st, 403) << what;
      }
      if (who == Who::Revoked) {
        EXPECT_TRUE(r.need == Need::Public || res->body.find("revoked") != std::string::npos)
            << what;
      }
      if (who == Who::Expired) {
        EXPECT_TRUE(r.need == Need::Public || res->body.find("expired") != std::string::npos)
            << what;
      }
      ++checked;
    }
  }
  EXPECT_EQ(checked, route_roles().size() * 6);
  // A path outside the table is no route, whoever asks.
  const auto r = client().Get("/api/secret", as(teacher()));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 404);
}

TEST_F(ServerTest, EveryRouteOfTheSingleUserLab) {
  for (const RouteRole& r : route_roles()) {
    auto c = client();
    const auto none = send(c, r, {});
    const auto owner = send(c, r, with_token());
    ASSERT_TRUE(none && owner) << r.pattern;
    const std::string what = r.method + " " + r.pattern + ": " + owner->body;
    if (r.class_only) {
      EXPECT_EQ(owner->status, 404) << what;  // not a class lab
      EXPECT_NE(owner->body.find("--class"), std::string::npos) << what;
      continue;
    }
    if (r.need != Need::Public) {
      EXPECT_EQ(none->status, 401) << what;
    }
    EXPECT_NE(owner->status, 401) << what;
    EXPECT_NE(owner->status, 403) << what;
  }
}

TEST_F(ClassTest, MeJoinAndRevocation) {
  auto me = body(client().Get("/api/me", as(ada())));
  EXPECT_EQ(me["role"], "learner");
  EXPECT_EQ(me["name"], "Ada");
  EXPECT_EQ(me["class"]["name"], "Kurseinheit 6");
  EXPECT_FALSE(me["class"].contains("code"));  // the code is the teacher's to hand out
  me = body(client().Get("/api/me", as(teacher())));
  EXPECT_EQ(me["role"], "teacher");
  EXPECT_EQ(me["class"]["code"], created_->code);

  const auto join = [](const nlohmann::json& b) {
    return client().Post("/api/class/join", b.dump(), "application/json");
  };
  auto r = join({{"code", "wrongcode"}, {"name", "Linus"}});
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 403);
  EXPECT_EQ(body(r)["parameter"], "code");
  r = join({{"code", created_->code}, {"name", "ada"}});  // names are case-insensitive
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 409);
  EXPECT_EQ(body(r)["parameter"], "name");
  r = join({{"code", created_->code}, {"name", "bad\nname"}});
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 400);
  EXPECT_EQ(body(r)["parameter"], "name");
  r = join({{"code", created_->code}, {"name", "Linus"}});
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, 200) << r->body;
  const auto joined = body(r);
  const std::string token = joined["token"];
  EXPECT_EQ(token.size(), 64u);
  EXPECT_EQ(body(client().Get("/api/me", as(token)))["name"], "Linus");

  // The store keeps only the SHA-256 of a token: its text is nowhere in the file.
  std::string bytes;
  for (const char* f : {"/class.db", "/class.db-wal"}) {
    std::ifstream in(dir_ + f, std::ios::binary);
    bytes += std::string(std::istreambuf_iterator<char>(in), {});
  }
  EXPECT_EQ(bytes.find(token), std::string::npos);
  EXPECT_EQ(bytes.find(teacher()), std::string::npos);
  EXPECT_NE(bytes.find(token_hash(token)), std::string::npos);

  // The teacher revokes Linus: his token stops working at once.
  const auto learners = body(client().Get("/api/class/learners", as(teacher())));
  bool listed = false;
  for (const auto& l : learners) listed = listed || l["name"] == "Linus";
  EXPECT_TRUE(listed) << learners.dump();
  r = client().Post(
      "/api/class/learners/" + std::to_string(joined["learner_id"].get<int>()) + "/revoke",
      as(teacher()), "", "application/json");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200) << r->body;
  r = client().Get("/api/me", as(token));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 401);
  EXPECT_NE(r->body.find("revoked"), std::string::npos);
  r = client().Post("/api/class/learners/999999/revoke", as(teacher()), "", "application/json");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 404);
}

}  // namespace
}  // namespace memlab::server::testing
